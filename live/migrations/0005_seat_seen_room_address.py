from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("live", "0004_room_snapshot"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="seen_at",
            field=models.DateTimeField(
                blank=True,
                help_text="the last heartbeat of a connection of this seat's user",
                null=True,
            ),
        ),
        migrations.AddField(
            model_name="room",
            name="host_address",
            field=models.CharField(
                blank=True,
                help_text="the client address that opened the room (limits)",
                max_length=64,
            ),
        ),
    ]
