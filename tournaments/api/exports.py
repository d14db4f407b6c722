"""Downloads (built from the same serializers as the API's JSON): standings as CSV, schedules
as iCalendar, the league archive as JSON."""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
)

from tournaments import exports
from tournaments.api.base import READ_ERRORS, DownloadView, _download
from tournaments.api.cycles import CycleSerializer
from tournaments.api.entries import EntrySerializer
from tournaments.api.fixtures import FixtureSerializer
from tournaments.api.leagues import LeagueSerializer
from tournaments.api.players import PlayerRefSerializer
from tournaments.api.playoffs import SeriesSerializer
from tournaments.api.results import GameLogInfoSerializer, ResultSerializer
from tournaments.api.standings import StandingsSnapshotSerializer
from tournaments.models import (
    CycleSeed,
    Entry,
    League,
    Player,
    Result,
    Seat,
    StandingsRow,
)
from tournaments.selectors.playoffs import series_with_games
from tournaments.selectors.visibility import (
    visible_fixtures,
)


class PlayerScheduleView(DownloadView):
    queryset = Player.objects.none()

    @extend_schema(
        summary="A player's games as an iCalendar file",
        responses={(200, "text/calendar"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        player = get_object_or_404(Player, slug=slug)
        content = exports.player_schedule_ics(player, visible_fixtures(request.user))
        return _download(content, "text/calendar; charset=utf-8", f"{player.slug}.ics")


class StandingsCsvView(DownloadView):
    queryset = League.objects.none()

    @extend_schema(
        summary="Standings as CSV",
        parameters=[OpenApiParameter("stage", str, description='default "league"')],
        responses={(200, "text/csv"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        stage = request.query_params.get("stage") or "league"
        snapshot = league.snapshots.filter(stage=stage).first()
        return _download(
            exports.standings_csv(snapshot),
            "text/csv; charset=utf-8",
            f"{league.slug}-standings.csv",
        )


class LeagueScheduleView(DownloadView):
    queryset = League.objects.none()

    @extend_schema(
        summary="A league's schedule as an iCalendar file",
        responses={(200, "text/calendar"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        return _download(
            exports.league_schedule_ics(league),
            "text/calendar; charset=utf-8",
            f"{league.slug}.ics",
        )


class LeagueArchiveView(DownloadView):
    queryset = League.objects.none()

    @extend_schema(
        summary="The whole league as a JSON archive",
        responses={(200, "application/json"): OpenApiTypes.OBJECT, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        content = json.dumps(league_archive(league), ensure_ascii=False, indent=1)
        return _download(content, "application/json", f"{league.slug}-archive.json")


ARCHIVE_FORMAT = "maedn-league-archive/1"


# --- JSON archive ----------------------------------------------------------------------------


def league_archive(league: League) -> dict[str, Any]:
    """The whole league as one JSON document: settings, players and entries, DRRs with
    their seeding, playoff series, every game with its seats and every result version,
    the standings snapshots, and each game log's exact text (by SHA-256)."""
    fixtures = (
        league.fixtures.select_related("league", "cycle")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player")),
            Prefetch(
                "results",
                queryset=Result.objects.select_related(
                    "game_log", "submitted_by", "decided_by", "submitted_via", "decided_via"
                ).order_by("created_at", "pk"),
            ),
        )
        .order_by("pk")
    )
    fixture_data, logs = [], {}
    for fixture in fixtures:
        item = dict(FixtureSerializer(fixture).data)
        item["results"] = ResultSerializer(fixture.results.all(), many=True).data
        fixture_data.append(item)
        for result in fixture.results.all():
            if result.game_log_id and result.game_log.sha256 not in logs:
                logs[result.game_log.sha256] = result.game_log
    entries = league.entries.filter(state=Entry.State.ACCEPTED)  # the public record
    entries = entries.select_related("player", "league").order_by("pk")
    cycles = league.cycles.select_related("league").prefetch_related(
        Prefetch("seeds", queryset=CycleSeed.objects.select_related("entry__player"))
    )
    series = series_with_games(league.series.select_related("league"))
    snapshots = league.snapshots.prefetch_related(
        Prefetch("rows", queryset=StandingsRow.objects.select_related("entry__player"))
    )
    return {
        "format": ARCHIVE_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "league": LeagueSerializer(league).data,
        "entries": EntrySerializer(entries, many=True).data,
        "players": PlayerRefSerializer([entry.player for entry in entries], many=True).data,
        "cycles": CycleSerializer(cycles.order_by("number"), many=True).data,
        "series": SeriesSerializer(series, many=True).data,
        "fixtures": fixture_data,
        "standings": StandingsSnapshotSerializer(snapshots, many=True).data,
        "game_logs": [
            {
                **GameLogInfoSerializer(log).data,
                "content": log.content,
            }
            for log in logs.values()
        ],
    }
