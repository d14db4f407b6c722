"""Exports: standings CSV, iCalendar schedules (league and player), the league archive."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

from games.models import GameLog
from tests.api.test_leagues import make_snapshot
from tests.builders import example_bytes, make_fixture, make_league, make_player
from tournaments.exports import schedule_ics
from tournaments.models import Entry, Fixture, League


def unfold(ics: str) -> list[str]:
    assert ics.endswith("\r\n")
    return ics.replace("\r\n ", "").split("\r\n")[:-1]


def test_standings_csv(world):
    make_snapshot(world)
    world.players["dave"].name = "=HYPERLINK(evil)"
    world.players["dave"].save()
    response = world.client("anonymous").get("/api/v1/leagues/xleague/standings.csv")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="xleague-standings.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "rank",
        "player",
        "played",
        "wins",
        "losses",
        "points",
        "won_lost",
        "counted_pawns_diff",
        "separated_by",
    ]
    assert rows[1] == ["1", "carol", "2", "2", "0", "2.0", "2–0", "9", "won_lost"]
    assert rows[3][1] == "'=HYPERLINK(evil)"  # not a formula in a spreadsheet


def test_standings_csv_without_a_snapshot_has_the_header_only(world):
    response = world.client("anonymous").get("/api/v1/leagues/xleague/standings.csv")
    assert response.content.decode().splitlines() == [
        "rank,player,played,wins,losses,points,separated_by"
    ]


def test_league_schedule_ics(world):
    when = datetime(2026, 3, 14, 18, 30, tzinfo=UTC)
    Fixture.objects.filter(pk=world.fixture.pk).update(scheduled_at=when)
    make_fixture(world.league, [(world.entries["dave"], ["black", "yellow"])], "black")  # no time
    response = world.client("anonymous").get("/api/v1/leagues/xleague/schedule.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    lines = unfold(response.content.decode())
    assert lines[0] == "BEGIN:VCALENDAR" and lines[-1] == "END:VCALENDAR"
    assert "VERSION:2.0" in lines
    assert lines.count("BEGIN:VEVENT") == 1
    assert f"UID:fixture-{world.fixture.pk}@maedn-league" in lines
    assert "DTSTART:20260314T183000Z" in lines
    assert "DTEND:20260314T193000Z" in lines
    assert "SUMMARY:G1: erin vs carol (Xleague)" in lines
    description = next(line for line in lines if line.startswith("DESCRIPTION:"))
    assert "erin: black+yellow\\ncarol: green+red\\nstarting colour: black" in description


def test_ics_lines_are_folded_and_text_escaped():
    class Seat:
        def __init__(self, name):
            self.entry = type("E", (), {"player": type("P", (), {"name": name})()})()
            self.colours = ["red"]

    class Seats(list):
        def all(self):
            return self

    league = type("L", (), {"name": "Liga; Süd, Ärger\\Spaß " * 4})()
    fixture = type(
        "F",
        (),
        {
            "pk": 1,
            "seats": Seats([Seat("Jörg"), Seat("Zoë")]),
            "label": "G1",
            "number": 1,
            "cycle_id": None,
            "series_id": None,
            "league": league,
            "round": 1,
            "starting_colour": "red",
            "status": "scheduled",
            "scheduled_at": datetime(2026, 1, 1, tzinfo=UTC),
            "updated_at": datetime(2026, 1, 1, tzinfo=UTC),
        },
    )()
    ics = schedule_ics("Cal", [fixture])
    for line in ics.split("\r\n"):
        assert len(line.encode("utf-8")) <= 75
    summary = next(line for line in unfold(ics) if line.startswith("SUMMARY:"))
    assert "Liga\\; Süd\\, Ärger\\\\Spaß" in summary
    ics.encode("utf-8").decode("utf-8")  # never split inside a character


def test_player_schedule_shows_only_visible_games(world):
    when = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    Fixture.objects.filter(pk=world.fixture.pk).update(scheduled_at=when)
    hidden = make_league(world.users["other_organizer"], "hidden", is_public=False)
    erin_there = Entry.objects.create(league=hidden, player=world.players["erin"])
    other = make_player("oscar")
    other_entry = Entry.objects.create(league=hidden, player=other)
    secret = make_fixture(
        hidden, [(erin_there, ["black", "yellow"]), (other_entry, ["green", "red"])], "black"
    )
    Fixture.objects.filter(pk=secret.pk).update(scheduled_at=when)

    def events(role):
        response = world.client(role).get("/api/v1/players/erin/schedule.ics")
        assert response.status_code == 200
        return [line for line in unfold(response.content.decode()) if line.startswith("UID:")]

    assert events("stranger") == [f"UID:fixture-{world.fixture.pk}@maedn-league"]
    assert len(events("player")) == 2  # erin sees her own private league
    assert len(events("other_organizer")) == 2
    assert world.client("anonymous").get("/api/v1/players/nobody/schedule.ics").status_code == 404


def test_league_archive(world):
    make_snapshot(world)
    world.client("player").post(
        f"/api/v1/fixtures/{world.fixture.pk}/log/",
        example_bytes(),
        content_type="application/json",
    )
    world.client("organizer").post(
        f"/api/v1/fixtures/{world.fixture.pk}/result/",
        {"winner": world.entries["erin"].pk, "reason": "correction"},
        format="json",
    )
    response = world.client("anonymous").get("/api/v1/leagues/xleague/archive.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.streaming
    archive = json.loads(b"".join(response.streaming_content))
    assert archive["format"] == "maedn-league-archive/2"
    assert archive["league"]["slug"] == "xleague"
    assert {e["player"]["slug"] for e in archive["entries"]} == {"erin", "carol", "dave"}
    [fixture] = archive["fixtures"]
    assert [r["state"] for r in fixture["results"]] == ["superseded", "confirmed"]
    assert fixture["seats"][0]["colours"] == ["black", "yellow"]
    [log] = archive["game_logs"]
    assert "content" not in log  # by reference: its hash and the URL of its exact text
    assert log["sha256"] == GameLog.objects.get().sha256 == fixture["results"][0]["game_log"]
    assert fixture["results"][0]["log_url"] == log["log_url"]
    assert fixture["results"][1]["log_url"] is None  # the organizer's correction: no log
    text = world.client("anonymous").get(log["log_url"])
    assert text.status_code == 200 and text.content == example_bytes()
    assert archive["standings"][0]["rows"][0]["player"]["slug"] == "carol"


def test_archive_of_a_private_league_is_for_its_people(world):
    League.objects.filter(pk=world.league.pk).update(is_public=False)
    assert world.client("stranger").get("/api/v1/leagues/xleague/archive.json").status_code == 404
    assert world.client("entrant").get("/api/v1/leagues/xleague/archive.json").status_code == 200
