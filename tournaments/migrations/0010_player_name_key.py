from django.db import migrations, models


def fill_keys(apps, schema_editor):
    """Every existing player's name key (the names stay as they are)."""
    from tournaments.algorithms.names import name_keys

    Player = apps.get_model("tournaments", "Player")
    for player in Player.objects.only("pk", "name").iterator():
        key, folded = name_keys(player.name)
        Player.objects.filter(pk=player.pk).update(name_key=key, name_key_folded=folded)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_result_links_and_calendar_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(db_index=True, default="", editable=False, max_length=400),
        ),
        migrations.AddField(
            model_name="player",
            name="name_key_folded",
            field=models.CharField(db_index=True, default="", editable=False, max_length=400),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
