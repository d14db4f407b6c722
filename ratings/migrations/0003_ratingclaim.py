"""The ratings update's claim (issue 31, docs/ratings.md "A burst of results"): one row,
until when a worker holds the update; a counted result sends no ratings task while it is
held. The row is created here (the update creates it too when it is missing)."""

from django.db import migrations, models


def create_row(apps, schema_editor):
    apps.get_model("ratings", "RatingClaim").objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_ratingchange_fillfactor"),
    ]

    operations = [
        migrations.CreateModel(
            name="RatingClaim",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("claimed_until", models.DateTimeField(blank=True, null=True)),
            ],
        ),
        migrations.RunPython(create_row, migrations.RunPython.noop),
    ]
