"""Player names per organizer (issue 34, h-trust): the name is no longer unique on the
site, only among an organizer's players without an account (a constraint; look-alikes are
the service's check); ``name_suffix`` tells apart players whose names look the same."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import Count


def fill_suffixes(apps, schema_editor):
    """Names that already look alike (made before issue 32's check) get their suffixes, as
    ``tournaments.services.players.player_suffix`` makes them."""
    Player = apps.get_model("tournaments", "Player")
    twins = set()
    for key in ("name_key", "name_key_folded"):
        shared = (
            Player.objects.exclude(**{key: ""})
            .values(key)
            .annotate(n=Count("pk"))
            .filter(n__gt=1)
            .values_list(key, flat=True)
        )
        twins |= set(
            Player.objects.filter(**{f"{key}__in": list(shared)}).values_list("pk", flat=True)
        )
    for player in Player.objects.filter(pk__in=twins).select_related("user", "created_by"):
        if player.user_id is not None:
            suffix = "@" + player.user.username
        elif player.created_by_id is not None:
            suffix = player.created_by.username
        else:
            suffix = player.slug
        Player.objects.filter(pk=player.pk).update(name_suffix=suffix)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0012_rated_leagues"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_suffix",
            field=models.CharField(blank=True, editable=False, max_length=160),
        ),
        migrations.AlterField(
            model_name="player",
            name="name",
            field=models.CharField(max_length=100),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", True)),
                fields=("created_by", "name"),
                name="player_unique_name_per_organizer",
            ),
        ),
        migrations.RunPython(fill_suffixes, migrations.RunPython.noop),
    ]
