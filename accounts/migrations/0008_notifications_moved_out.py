"""The notifications move into their own app (``notifications 0001``): the accounts app
lets go of ``Notification`` and ``NotificationPreference`` in its state only; their tables
stay, now the notifications app's (``db_table`` kept)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0007_notification_kinds"),
        ("notifications", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Notification"),
                migrations.DeleteModel(name="NotificationPreference"),
            ],
            database_operations=[],
        ),
    ]
