"""The dice pages add up face counts stored with each log (``GameLog.seat_faces``), never
the logs' texts: the counts are those of the log's events (renamed colours included), the
league's dice page reads no log text, and the migration counted the logs stored before."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine.fairness import roll_counts
from tests.analysis.conftest import LOG
from tests.builders import example, example_text
from tests.migrations import migration
from tournaments.selectors.analyses import league_dice
from tournaments.services.results import game_log_submit


def faces_of(log: dict) -> dict[str, list[int]]:
    """Seat → face counts, straight from the log's events."""
    faces: dict[str, list[int]] = {}
    for event in log["events"]:
        seat = str(log["colours"].index(event["colour"]))
        faces.setdefault(seat, [0] * 6)[event["die"] - 1] += 1
    return faces


@pytest.mark.django_db
def test_a_stored_log_keeps_the_face_counts_of_each_seat(table):
    log = example(LOG)
    assert log["colours"][0] != "red"  # the log names its colours in German
    result = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    assert result.game_log.seat_faces == faces_of(log)
    assert sum(map(sum, result.game_log.seat_faces.values())) == len(log["events"])


@pytest.mark.django_db
def test_the_league_dice_read_no_log_text_and_count_every_roll(client, table):
    game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("tournaments:dice", args=[table["league"].slug]))
    assert page.status_code == 200
    log_queries = [q["sql"] for q in queries if '"games_gamelog"' in q["sql"]]
    assert log_queries and not any('"games_gamelog"."content"' in sql for sql in log_queries)
    cache.clear()
    dice = league_dice(table["league"])
    log = example(LOG)
    assert dice["all"].fairness.counts == roll_counts(log).total
    erin = dict(roll_counts(log).players)["erin"]
    [view] = [v for p, v in dice["players"] if p.name == "erin"]
    assert view.fairness.counts == erin and view.games == 1


@pytest.mark.django_db(transaction=True)
def test_the_migration_counts_the_logs_stored_before_it():
    with migration("games", "0002_game_analysis", "0003_gamelog_seat_faces") as m:
        old = m.old.get_model("games", "GameLog")
        text = example_text(LOG)
        data = json.loads(text)
        row = old.objects.create(
            sha256="0" * 64,
            content=text,
            size=len(text),
            board=data.get("board", 4),
            rules=data["rules"],
            players=data["players"],
            first=data["first"],
            complete=True,
            events=len(data["events"]),
        )
        new = m.run().get_model("games", "GameLog")
        assert new.objects.get(pk=row.pk).seat_faces == faces_of(data)
