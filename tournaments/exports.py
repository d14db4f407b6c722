"""File exports: standings as CSV and schedules as iCalendar (RFC 5545, written with the
``icalendar`` library).

Pure builders over already-authorised querysets; the HTTP endpoints are in
``tournaments/api/exports.py`` (``/api/v1/leagues/{slug}/standings.csv`` and friends), which
also builds the JSON archive from the API's serializers.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db.models import Prefetch, QuerySet
from icalendar import Calendar, Event

from tournaments.models import (
    Fixture,
    League,
    Player,
    Seat,
    StandingsRow,
    StandingsSnapshot,
)
from tournaments.selectors.standings import metric_columns

GAME_DURATION = timedelta(hours=1)  # what a calendar shows; games have no fixed length
PRODID = "-//MAEDN League//Schedule//EN"

# --- CSV -------------------------------------------------------------------------------------

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A CSV cell; text that a spreadsheet would run as a formula is quoted with '. (The
    ratings' export, ``ratings/exports.py``, writes its cells with it too.)"""
    if value is None:
        return ""
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, dict | list):
        value = json.dumps(value, ensure_ascii=False, sort_keys=True)
    text = str(value)
    return f"'{text}" if text.startswith(_FORMULA_START) else text


def _metric(value: Any) -> Any:
    """A metric as the table shows it: structured values carry their own text (won–lost
    "3–1")."""
    if isinstance(value, dict) and isinstance(value.get("text"), str):
        return value["text"]
    return value


def standings_csv(snapshot: StandingsSnapshot | None) -> str:
    """The snapshot's table: one row per entry in table order, the tie-break metrics as
    columns (the columns of the standings page: precedence order, then any others)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    rows: list[StandingsRow] = []
    metric_keys: list[str] = []
    if snapshot is not None:
        rows = list(snapshot.rows.select_related("entry__player").order_by("position"))
        metric_keys = metric_columns(snapshot)
    writer.writerow(
        ["rank", "player", "played", "wins", "losses", "points", *metric_keys, "separated_by"]
    )
    for row in rows:
        metrics = row.metrics or {}
        writer.writerow(
            [
                csv_cell(v)
                for v in (
                    row.rank,
                    row.entry.player.label,
                    row.played,
                    row.wins,
                    row.losses,
                    row.points,
                    *(_metric(metrics.get(key)) for key in metric_keys),
                    row.separated_by,
                )
            ]
        )
    return out.getvalue()


def rankings_csv(page) -> str:
    """The 3T World Rankings (``selectors.rankings.world_rankings``) as CSV; the player
    column holds the label (``Player.label``), as the rankings page shows it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(
        [
            "rank",
            "player",
            "slug",
            "points",
            "tournament_points",
            "winner_points",
            "world_championships_won",
            "majors_won",
            "tournaments_won",
            "tournaments_played",
            "separated_by",
        ]
    )
    for row in page.ranking.rows:
        player = page.players.get(row.player)
        writer.writerow(
            [
                csv_cell(v)
                for v in (
                    row.rank,
                    player.label if player else row.player,
                    player.slug if player else "",
                    row.points,
                    row.tournament_points,
                    row.winner_points,
                    row.world_championships_won,
                    row.majors_won,
                    row.tournaments_won,
                    row.tournaments_played,
                    row.separated_by or "",
                )
            ]
        )
    return out.getvalue()


# --- iCalendar -------------------------------------------------------------------------------


def _utc(moment: datetime) -> datetime:
    return moment.astimezone(UTC)


def _where(fixture: Fixture) -> str:
    """The part of the league a game belongs to: its series, else its DRR."""
    if fixture.series_id:
        return fixture.series.name
    return f"DRR {fixture.cycle.number}" if fixture.cycle_id else ""


def _fixture_event(fixture: Fixture) -> Event:
    seats = list(fixture.seats.all())
    names = " vs ".join(seat.entry.player.name for seat in seats)
    label = fixture.label or f"Game {fixture.number}"
    where = _where(fixture)
    details = [
        f"{fixture.league.name}{f', {where}' if where else ''}, round {fixture.round}",
        *(f"{seat.entry.player.name}: {'+'.join(seat.colours)}" for seat in seats),
        f"starting colour: {fixture.starting_colour}",
        f"status: {fixture.status}",
    ]
    start = _utc(fixture.scheduled_at)
    event = Event()
    event.add("uid", f"fixture-{fixture.pk}@maedn-league")
    # the event's last revision, not the moment of the download: the same state of the
    # games is the same file, so it is stored per league revision (docs/api.md)
    event.add("dtstamp", _utc(fixture.updated_at))
    event.add("last-modified", _utc(fixture.updated_at))
    event.add("dtstart", start)
    event.add("dtend", start + GAME_DURATION)
    event.add("summary", f"{label}: {names} ({fixture.league.name})")
    event.add("description", "\n".join(details))
    cancelled = fixture.status == Fixture.Status.CANCELLED
    event.add("status", "CANCELLED" if cancelled else "CONFIRMED")
    return event


def schedule_fixtures(fixtures: QuerySet[Fixture]) -> QuerySet[Fixture]:
    """The fixtures a calendar shows (those with a time), with what the events need."""
    return (
        fixtures.filter(scheduled_at__isnull=False)
        .select_related("league", "cycle", "series")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("entry__player")))
        .order_by("scheduled_at", "pk")
    )


def schedule_ics(name: str, fixtures: Iterable[Fixture]) -> str:
    """An iCalendar file with one event per scheduled game (games without a time are
    left out). The same games give the same bytes (``DTSTAMP`` is each game's last
    change)."""
    calendar = Calendar()
    calendar.add("version", "2.0")
    calendar.add("prodid", PRODID)
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", name)
    for fixture in fixtures:
        if fixture.scheduled_at is not None:
            calendar.add_component(_fixture_event(fixture))
    # the library escapes text (\\ ; , newlines) and folds lines at 75 octets (RFC 5545)
    return calendar.to_ical().decode("utf-8")


def league_schedule_ics(league: League) -> str:
    return schedule_ics(league.name, schedule_fixtures(league.fixtures.all()))


def player_schedule_ics(player: Player, fixtures: QuerySet[Fixture]) -> str:
    """``fixtures``: the games the requester may see; only the player's are kept."""
    mine = fixtures.filter(seats__entry__player=player).distinct()
    return schedule_ics(f"{player.name}: games", schedule_fixtures(mine))
