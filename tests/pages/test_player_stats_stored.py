"""The player page adds up per-seat statistics stored with each log (``GameLog.seat_faces``
and ``seat_stats``), never the logs' texts: the stored tallies are the engine's, the page
reads no log text with an empty cache, and the migration tallied the logs stored before."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine import validate
from games.stats import TALLIES, log_stats
from tests.builders import erin_against_carol, example_text
from tests.migrations import migration
from tournaments.models import Player
from tournaments.selectors.players import player_page
from tournaments.services.results import game_log_submit

LOG = "valid-league-2tplus.json"  # erin holds black + yellow (seats 1 and 2)


@pytest.fixture
def table(db):
    return erin_against_carol(counts_at_once=True)


def expected(text: str, seats: list[int]) -> dict[str, int]:
    stats = log_stats(text)
    return {
        "rolls": sum(stats[s]["rolls"] for s in seats),
        "sixes": sum(stats[s]["sixes"] for s in seats),
        "captures": sum(stats[s]["captures"] for s in seats),
        "captured": sum(stats[s]["captured"] for s in seats),
        "huffed": sum(stats[s]["huffed"] for s in seats),
    }


@pytest.mark.django_db
def test_a_stored_log_keeps_the_engines_tallies_of_each_seat(table):
    text = example_text(LOG)
    result = game_log_submit(fixture=table["fixture"], content=text, by=table["erin"])
    stored = result.game_log.seat_stats
    stats = log_stats(text)
    assert stored == {str(s): {k: row[k] for k in TALLIES} for s, row in stats.items()}
    colours = json.loads(text)["colours"]
    captures = validate(text)["captures"]
    assert {colours[int(s)]: row["captures"] for s, row in stored.items()} == captures
    assert sum(r["captured"] for r in stored.values()) == sum(captures.values()) > 0


@pytest.mark.django_db
def test_the_player_page_reads_no_log_text_and_adds_up_the_players_colours(client, table):
    text = example_text(LOG)
    game_log_submit(fixture=table["fixture"], content=text, by=table["erin"])
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("tournaments:player", args=["erin"]))
    assert page.status_code == 200
    log_queries = [q["sql"] for q in queries if '"games_gamelog"' in q["sql"]]
    assert log_queries and not any('"games_gamelog"."content"' in sql for sql in log_queries)
    for name, seats in (("erin", [1, 2]), ("carol", [3, 0])):
        stats = player_page(Player.objects.get(slug=name), None).stats
        assert stats.logged_games == 1
        got = {k: getattr(stats, k) for k in ("rolls", "sixes", "captures", "captured", "huffed")}
        assert got == expected(text, seats)
        assert sum(stats.faces) == stats.rolls and stats.faces[5] == stats.sixes


@pytest.mark.django_db(transaction=True)
def test_the_migration_tallies_the_logs_stored_before_it():
    with migration("games", "0003_gamelog_seat_faces", "0004_gamelog_seat_stats") as m:
        old = m.old.get_model("games", "GameLog")
        text = example_text(LOG)
        data = json.loads(text)
        fields = {
            "content": text,
            "size": len(text),
            "board": 4,
            "rules": data["rules"],
            "players": data["players"],
            "first": data["first"],
            "complete": True,
            "events": len(data["events"]),
            "seat_faces": {},
        }
        row = old.objects.create(sha256="0" * 64, **fields)
        broken = old.objects.create(sha256="1" * 64, **{**fields, "content": "{}"})
        new = m.run().get_model("games", "GameLog")
        stats = log_stats(text)
        assert new.objects.get(pk=row.pk).seat_stats == {
            str(s): {k: r[k] for k in TALLIES} for s, r in stats.items()
        }
        assert new.objects.get(pk=broken.pk).seat_stats == {}
