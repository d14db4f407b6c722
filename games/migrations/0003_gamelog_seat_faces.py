"""GameLog.seat_faces: each seat's face counts, stored with the log (the dice pages add them
up instead of reading every log's text). Existing logs are counted here, from their text."""

import json

from django.db import migrations, models

from games.engine.board import DEFAULT_COLOURS

BATCH = 200


def _seat_faces(data: dict, board: int) -> dict[str, list[int]]:
    colours = list(data.get("colours") or DEFAULT_COLOURS[board])
    faces: dict[str, list[int]] = {}
    for event in data.get("events") or []:
        colour, die = event.get("colour"), event.get("die")
        if colour in colours and isinstance(die, int) and 1 <= die <= 6:
            faces.setdefault(str(colours.index(colour)), [0] * 6)[die - 1] += 1
    return faces


def count_faces(apps, schema_editor):
    GameLog = apps.get_model("games", "GameLog")
    batch = []
    for log in GameLog.objects.only("pk", "board", "content").iterator(chunk_size=BATCH):
        log.seat_faces = _seat_faces(json.loads(log.content), log.board)
        batch.append(log)
        if len(batch) == BATCH:
            GameLog.objects.bulk_update(batch, ["seat_faces"])
            batch = []
    if batch:
        GameLog.objects.bulk_update(batch, ["seat_faces"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_game_analysis"),
    ]

    operations = [
        migrations.AddField(
            model_name="gamelog",
            name="seat_faces",
            field=models.JSONField(null=True),
        ),
        migrations.RunPython(count_faces, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="gamelog",
            name="seat_faces",
            field=models.JSONField(
                help_text="board seat (0-based) → how often each face 1–6 came up in its rolls"
            ),
        ),
    ]
