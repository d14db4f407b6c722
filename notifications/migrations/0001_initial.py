"""The notifications move from the accounts app into their own: the models
``Notification`` and ``NotificationPreference`` are the notifications app's from here on,
on the tables the accounts app made (``db_table`` kept). State only: no table is created,
renamed or copied (``SeparateDatabaseAndState``; ``accounts 0008`` takes them out of the
accounts app's state once this has put them here). The two models' content types (and so
their permissions) follow them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

MODELS = ("notification", "notificationpreference")


def _content_types_to(source: str, target: str):
    def move(apps, schema_editor):
        content_type = apps.get_model("contenttypes", "ContentType")
        for model in MODELS:
            if not content_type.objects.filter(app_label=target, model=model).exists():
                content_type.objects.filter(app_label=source, model=model).update(app_label=target)

    return move


KIND_CHOICES = [('result_awaiting', 'a result awaits your confirmation'), ('dispute_opened', 'a result was disputed (organizers)'), ('decision_made', 'an organizer decided a result of your game'), ('schedule_changed', 'a double round-robin was seeded or the schedule changed'), ('deadline_near', 'a game of yours is due within 48 hours'), ('game_overdue', 'a game is overdue'), ('standings_failed', "a league's standings could not be computed (organizers)"), ('entry_invited', 'an organizer entered you in a league (an invitation)'), ('join_requested', 'a player asks to join your league (organizers)'), ('join_decided', 'your request to join a league was decided'), ('claim_opened', 'an account claims a player you created (organizers)'), ('claim_decided', 'your claim to be a player was decided'), ('result_link_revoked', "a player's private result link stopped: they have an account now (organizers)"), ('invitation_declined', 'a player declined to play in your league (organizers)')]


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("accounts", "0007_notification_kinds"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Notification",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(choices=KIND_CHOICES, max_length=30)),
                        ("key", models.CharField(help_text="the event: kind, object and stamp", max_length=200)),
                        ("subject", models.CharField(max_length=200)),
                        ("body", models.TextField()),
                        ("url", models.CharField(blank=True, max_length=500)),
                        ("in_inbox", models.BooleanField(default=True)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("read_at", models.DateTimeField(blank=True, null=True)),
                        ("email_claimed_at", models.DateTimeField(blank=True, help_text="set before the e-mail is handed to the backend", null=True)),
                        ("emailed_at", models.DateTimeField(blank=True, null=True)),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="notifications", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "accounts_notification",
                        "ordering": ["-created_at", "-pk"],
                        "indexes": [models.Index(fields=["user", "read_at"], name="accounts_no_user_id_780bd6_idx")],
                        "constraints": [models.UniqueConstraint(fields=("user", "key"), name="notification_once_per_event")],
                    },
                ),
                migrations.CreateModel(
                    name="NotificationPreference",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(choices=KIND_CHOICES, max_length=30)),
                        ("email", models.BooleanField(default=True)),
                        ("inbox", models.BooleanField(default=True)),
                        ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="notification_preferences", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "accounts_notificationpreference",
                        "constraints": [models.UniqueConstraint(fields=("user", "kind"), name="preference_one_per_kind")],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(
            _content_types_to("accounts", "notifications"),
            _content_types_to("notifications", "accounts"),
        ),
    ]
