"""Downloads (built from the same serializers as the API's JSON): standings as CSV, schedules
as iCalendar, the league archive as JSON."""

from __future__ import annotations

import hashlib
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, Max, Min, Prefetch, Q
from django.http import FileResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date, quote_etag
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
)

from core.throttles import ExportThrottle
from games.models import GameLog
from tournaments import exports
from tournaments.api.base import (
    READ_ERRORS,
    DownloadView,
    download,
    league_revision,
    player_revision,
)
from tournaments.api.cycles import CycleSerializer
from tournaments.api.entries import EntrySerializer
from tournaments.api.fixtures import FixtureSerializer, shared
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
from tournaments.selectors.leagues import content_stamp
from tournaments.selectors.playoffs import series_with_games
from tournaments.selectors.visibility import (
    visible_fixtures,
)
from tournaments.web.caching import rendering_version


class PlayerScheduleView(DownloadView):
    # an anonymous download stored under the player page's stamp (the player's row, the
    # revisions of every league they are entered in: its visibility too)
    stored_revision = staticmethod(player_revision)
    queryset = Player.objects.none()

    @extend_schema(
        summary="A player's games as an iCalendar file",
        responses={(200, "text/calendar"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        player = get_object_or_404(Player, slug=slug)
        content = exports.player_schedule_ics(player, visible_fixtures(request.user))
        return download(content, "text/calendar; charset=utf-8", f"{player.slug}.ics")


class StandingsCsvView(DownloadView):
    stored_revision = staticmethod(league_revision)
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
        return download(
            exports.standings_csv(snapshot),
            "text/csv; charset=utf-8",
            f"{league.slug}-standings.csv",
        )


class LeagueScheduleView(DownloadView):
    stored_revision = staticmethod(league_revision)
    queryset = League.objects.none()

    @extend_schema(
        summary="A league's schedule as an iCalendar file",
        responses={(200, "text/calendar"): OpenApiTypes.STR, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        return download(
            exports.league_schedule_ics(league),
            "text/calendar; charset=utf-8",
            f"{league.slug}.ics",
        )


class LeagueArchiveView(DownloadView):
    """The league archive, streamed (``maedn-league-archive/2``: docs/api.md): the games
    a chunk at a time, the logs by reference (SHA-256 and a URL), so a worker's memory
    stays flat whatever the league's size; validators from the league's revision (a
    matching ``If-None-Match`` or ``If-Modified-Since`` is a 304 before anything is read);
    anonymous clients throttled (scope ``exports``)."""

    queryset = League.objects.none()
    throttle_classes = [ExportThrottle]
    shared_reads = False  # streamed, with its own validators and Cache-Control (below)

    @extend_schema(
        summary="The whole league as a JSON archive (streamed; game logs by reference)",
        responses={(200, "application/json"): OpenApiTypes.OBJECT, **READ_ERRORS},
    )
    def get(self, request, slug: str):
        league = self.visible_league(slug)
        etag, last_modified = archive_validators(league)
        not_modified = get_conditional_response(request, etag=etag, last_modified=last_modified)
        response = not_modified or _archive_response(league, etag)
        if not_modified is None:
            response["Content-Disposition"] = f'attachment; filename="{league.slug}-archive.json"'
        response["ETag"] = etag
        if last_modified:
            response["Last-Modified"] = http_date(last_modified)
        if league.is_public:
            patch_cache_control(response, public=True, max_age=0, must_revalidate=True)
        else:
            patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("Cookie", "Authorization"))
        return response


ARCHIVE_FORMAT = "maedn-league-archive/2"
#: games read from the database at a time while the archive streams
ARCHIVE_CHUNK = 200


# --- JSON archive ----------------------------------------------------------------------------


def _archive_response(league: League, etag: str) -> StreamingHttpResponse:
    """The archive from its stored file when this revision of the league was exported
    before (a file sent from disk: no game is read), else streamed from the database and
    stored on the way (``archive_file``)."""
    path = archive_file(league, etag)
    if path is not None and path.exists():
        try:
            return FileResponse(path.open("rb"), content_type="application/json")
        except FileNotFoundError:  # replaced by a newer revision's export meanwhile
            pass
    chunks = league_archive_chunks(league)
    if path is not None:
        chunks = _stored_on_the_way(chunks, path)
    return StreamingHttpResponse(chunks, content_type="application/json")


def archive_file(league: League, etag: str) -> Path | None:
    """Where this revision of the league's archive is stored (``ARCHIVE_DIR``), or None
    where none is (no directory set, or a database that keeps no content revision: only
    PostgreSQL's triggers raise it). The name holds everything the archive is made of: the
    database, the league, its content revision (``LeagueRevision``: a player renamed, a log
    analysed, any change of a game), the archive's validators and the code that writes it
    (``rendering_version``), so a stored file is never served for a state it does not show."""
    folder = getattr(settings, "ARCHIVE_DIR", None)
    if not folder or connection.vendor != "postgresql":
        return None
    stamp = content_stamp(league.slug)
    if stamp is None:
        return None
    key = "|".join(
        (connection.settings_dict["NAME"], stamp.etag, etag, ARCHIVE_FORMAT, rendering_version())
    )
    return Path(folder) / f"league-{league.pk}-{hashlib.sha256(key.encode()).hexdigest()[:32]}.json"


def _stored_on_the_way(chunks: Iterator[str], path: Path) -> Iterator[str]:
    """``chunks`` passed on and written to a file of their own; when the last is sent the
    file becomes ``path`` (an atomic rename: a reader never sees half an archive) and the
    league's older archives are removed. A download broken off leaves nothing behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.part")
    complete = False
    try:
        with partial.open("w", encoding="utf-8") as out:
            for chunk in chunks:
                out.write(chunk)
                yield chunk
        complete = True
    finally:
        if complete:
            os.replace(partial, path)
            prefix = path.name.split("-", 2)
            for older in path.parent.glob(f"{prefix[0]}-{prefix[1]}-*.json"):
                if older != path:
                    older.unlink(missing_ok=True)
        else:
            partial.unlink(missing_ok=True)


def archive_validators(league: League) -> tuple[str, int | None]:
    """The archive's ETag and Last-Modified (one query): the league's results revision,
    its games' last change and its standings' last computation (a rescheduled game, a
    new snapshot or a changed setting change them; a player's entry through the league's
    ``results_revision`` or the snapshot it leads to)."""
    stamps = League.objects.filter(pk=league.pk).aggregate(
        games=Max("fixtures__updated_at"),
        games_n=Count("fixtures", distinct=True),
        entries_n=Count("entries", distinct=True),
    )
    snapshot = league.snapshots.aggregate(at=Max("computed_at"))["at"]
    times = [t for t in (stamps["games"], snapshot) if t is not None]
    last = int(max(times).timestamp()) if times else None  # HTTP dates are in seconds
    tag = "-".join(
        str(v)
        for v in (
            ARCHIVE_FORMAT.rsplit("/", 1)[1],
            league.pk,
            league.results_revision,
            league.status,
            stamps["games_n"],
            stamps["entries_n"],
            int(max(times).timestamp() * 1000) if times else 0,
        )
    )
    return quote_etag(f"archive-{tag}"), last


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _log_url(result_id: int) -> str:
    return reverse("api:result-log", args=[result_id])


def league_archive_chunks(league: League) -> Iterator[str]:
    """The whole league as one JSON document, in pieces: settings, players and entries,
    DRRs with their seeding, playoff series, the standings snapshots, then every game with
    its seats and every result version (read ``ARCHIVE_CHUNK`` games at a time), then each
    game log by reference: its verdict fields, its SHA-256 and the URL of its exact text
    (``log_url``; a result version names its log's SHA-256 and the same URL)."""
    yield _dumps(_archive_head(league))[:-1] + ',"fixtures":['
    yield from _archive_fixtures(league)
    yield '],"game_logs":['
    yield from _archive_logs(league)
    yield "]}"


def _archive_head(league: League) -> dict[str, Any]:
    """The archive's first part: settings, players and entries, DRRs with their seeding,
    playoff series, standings snapshots."""
    entries = league.entries.filter(state=Entry.State.ACCEPTED)  # the public record
    entries = list(entries.select_related("player", "league").order_by("pk"))
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
        "standings": StandingsSnapshotSerializer(snapshots, many=True).data,
    }


def _archive_fixtures(league: League) -> Iterator[str]:
    """Every game with its seats and result versions, ``ARCHIVE_CHUNK`` games read at a
    time, each a JSON object (comma-separated)."""
    fixtures = (
        league.fixtures.select_related("league", "cycle", "start_depends_on")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player")),
            Prefetch(
                "results",
                queryset=Result.objects.select_related(
                    "game_log", "submitted_by", "decided_by", "submitted_via", "decided_via"
                )
                .defer("game_log__content")
                .order_by("created_at", "pk"),
            ),
        )
        .order_by("pk")
    )
    fixture_serializer, result_serializer = shared(FixtureSerializer), shared(ResultSerializer)
    for i, fixture in enumerate(fixtures.iterator(chunk_size=ARCHIVE_CHUNK)):
        item = dict(fixture_serializer.to_representation(fixture))
        item["results"] = [_archived_result(result_serializer, r) for r in fixture.results.all()]
        yield ("," if i else "") + _dumps(item)


def _archived_result(serializer, result: Result) -> dict[str, Any]:
    """A result version, naming its log by the URL of its exact text."""
    data = dict(serializer.to_representation(result))
    data["log_url"] = _log_url(result.pk) if result.game_log_id else None
    return data


def _archive_logs(league: League) -> Iterator[str]:
    """Each game log of the league by reference: its verdict fields, SHA-256 and URL."""
    logs = (
        GameLog.objects.filter(results__fixture__league=league)
        .annotate(result_id=Min("results__id", filter=Q(results__fixture__league=league)))
        .defer("content")
        .order_by("pk")
    )
    log_serializer = shared(GameLogInfoSerializer)
    for i, log in enumerate(logs.iterator(chunk_size=ARCHIVE_CHUNK * 5)):
        data = dict(log_serializer.to_representation(log))
        data["log_url"] = _log_url(log.result_id)
        yield ("," if i else "") + _dumps(data)
