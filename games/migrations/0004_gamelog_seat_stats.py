"""GameLog.seat_stats: each seat's moves, captures made, pawns captured and huffs, stored
with the log (the player pages add them up instead of reading every log's text). Existing
logs are replayed here by the engine; a log it no longer reads gets none."""

from django.db import migrations, models

BATCH = 200


def tally(apps, schema_editor):
    from games.stats import log_stats, seat_tallies

    GameLog = apps.get_model("games", "GameLog")
    batch = []
    for log in GameLog.objects.only("pk", "content").iterator(chunk_size=BATCH):
        try:
            log.seat_stats = seat_tallies(log_stats(log.content))
        except ValueError:  # the engine's InvalidLog: no statistics, as before
            log.seat_stats = {}
        batch.append(log)
        if len(batch) == BATCH:
            GameLog.objects.bulk_update(batch, ["seat_stats"])
            batch = []
    if batch:
        GameLog.objects.bulk_update(batch, ["seat_stats"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_gamelog_seat_faces"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamelog",
            name="seat_stats",
            field=models.JSONField(null=True),
        ),
        migrations.RunPython(tally, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="gamelog",
            name="seat_stats",
            field=models.JSONField(
                help_text="board seat (0-based) → its moves, captures made, pawns captured, huffs"
            ),
        ),
    ]
