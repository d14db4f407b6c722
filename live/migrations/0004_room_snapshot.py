from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("live", "0003_variant_help"),
    ]

    operations = [
        migrations.AddField(
            model_name="room",
            name="snapshot",
            field=models.JSONField(
                blank=True,
                help_text="the game after `move_number` events (engine snapshot) and the last `t`",
                null=True,
            ),
        ),
    ]
