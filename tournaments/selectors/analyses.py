"""Read queries of the move analyses and the dice fairness, by page: a game's analysis
(replay viewer, per-seat summary), a player's figures per league, and the dice of a league
or a player (``games.engine.fairness``)."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import F, OuterRef, Prefetch, Subquery

from games.analysis import analysis_for_log, analysis_key, too_long
from games.analysis_view import player_summary, viewer_data
from games.engine.analysis import ANALYSIS_FORMAT
from games.engine.analysis.review import review as game_review
from games.engine.board import DEFAULT_COLOURS
from games.engine.fairness import FACES, Fairness, fairness
from games.models import GameAnalysis, GameLog
from tournaments.models import Fixture, League, Player, Result, Seat
from tournaments.selectors.prefetch import seats_prefetch

#: the x axis of the dice plot (SVG user units)
PLOT_WIDTH, PLOT_HEIGHT = 300, 150


# --- one game ---------------------------------------------------------------------------------


@dataclass
class SeatSummary:
    seat: Seat
    summary: dict[str, Any] | None


@dataclass
class GameAnalysisView:
    row: GameAnalysis | None
    viewer: dict[str, Any] | None = None  # the replay viewer's data (done analyses only)
    seats: list[SeatSummary] = field(default_factory=list)
    review: dict[str, Any] | None = None  # the review in plain words (done analyses only)

    @property
    def status(self) -> str | None:
        return self.row.status if self.row else None

    @property
    def too_long(self) -> bool:
        """The game was too long to analyse (``ANALYSIS_MAX_EVENTS`` or a time limit)."""
        return too_long(self.row)


def _seat_key(board: int, colours, keys) -> str | None:
    """The first of ``colours`` (league names) whose seat number on the board (as text,
    as the analyses count seats) is among ``keys``: that key, else None."""
    order = DEFAULT_COLOURS[board]
    held = (str(order.index(c)) for c in colours if c in order)
    return next((key for key in held if key in keys), None)


def _seat_log_player(row: GameAnalysis, board: int, seat: Seat) -> str | None:
    key = _seat_key(board, seat.colours, row.seats or {})
    return row.seats[key] if key is not None else None


def game_analysis(fixture: Fixture, result: Result | None) -> GameAnalysisView | None:
    """The analysis of the counted (or shown) result's log, or None without a log."""
    if result is None or result.game_log_id is None:
        return None
    row = analysis_for_log(result.game_log_id)
    if row is None or row.status != GameAnalysis.Status.DONE or not row.data:
        return GameAnalysisView(row)
    names, out = _seat_summaries(row, fixture)
    log = result.game_log
    viewer = viewer_data(row.data, steps=log.events, board=log.board, seats=row.seats, names=names)
    return GameAnalysisView(row, viewer, out, review_view(log.content, row.data, names))


def _seat_summaries(row: GameAnalysis, fixture: Fixture):
    """Each seat's summary of the analysis, and the shown name of each of the log's
    players."""
    board = fixture.league.board
    names = {}
    out = []
    for seat in fixture.seats.all():
        log_player = _seat_log_player(row, board, seat)
        if log_player is not None:
            names[log_player] = seat.entry.player.name
        out.append(SeatSummary(seat, player_summary(row.data, log_player)))
    return names, out


def _signed(points: int) -> str:
    return f"+{points}" if points > 0 else ("±0" if points == 0 else f"−{-points}")


def review_view(content: str, data: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """The review of a log in plain words (``games.engine.analysis.review``) with the
    players' shown names, signed percentage points, and the marks' rule in percentage
    points (the smallest loss marked: the inaccuracy threshold plus this game's margin)."""
    out = game_review(content, data)
    verdict = dict(out["verdict"])
    if verdict.get("player"):
        verdict["name"] = names.get(verdict["player"], verdict["player"])
        verdict["dice_points"] = _signed(verdict["dice_points"])
        verdict["decision_points"] = _signed(verdict["decision_points"])
    moments = [{**m, "name": names.get(m["player"], m["player"])} for m in out["moments"]]
    return {"verdict": verdict, "moments": moments, **_mark_rule(data.get("marks") or {})}


def _mark_rule(marks: dict[str, Any]) -> dict[str, str]:
    """The marks' rule in percentage points: the smallest loss marked (the inaccuracy
    threshold plus the game's margin, in the endgame too), the threshold, and the error
    of a loss the size of a mark (older analyses: one error for every loss)."""
    first = float((marks.get("thresholds_mw") or {}).get("inaccuracy", 0))
    error = float(marks.get("loss_sd_large_mw") or marks.get("loss_sd_mw") or 0)
    return {
        "mark_points": f"{(first + _number(marks, 'margin_mw')) / 10:.0f}",
        "mark_points_endgame": f"{(first + _number(marks, 'margin_endgame_mw')) / 10:.0f}",
        "threshold_points": f"{first / 10:.0f}",
        "error_points": f"{error / 10:.1f}",
    }


def counted_log_analysis(fixture: Fixture) -> tuple[GameLog | None, GameAnalysis | None]:
    """The fixture's counted log (its text deferred) and that log's analysis under the
    current key (``games.analysis.analysis_key``), each None when there is none: what
    running a failed analysis again acts on."""
    log = (
        GameLog.objects.filter(results__fixture=fixture, results__state=Result.State.CONFIRMED)
        .defer("content")
        .first()
    )
    if log is None:
        return None, None
    return log, GameAnalysis.objects.filter(sha256=log.sha256, **analysis_key()).first()


def failed_analyses(league: League) -> list[Result]:
    """The league's counted results whose log's analysis under the current key failed,
    oldest game first, each with ``analysis_error`` (the results desk; one query, plus the
    seats)."""
    key = {f"game_log__analyses__{name}": value for name, value in analysis_key().items()}
    return list(
        Result.objects.filter(
            fixture__league=league,
            state=Result.State.CONFIRMED,
            game_log__analyses__status=GameAnalysis.Status.FAILED,
            **key,
        )
        # the failed analysis the filter joined (an annotation after filter() reuses its join)
        .annotate(analysis_error=F("game_log__analyses__error"))
        .select_related("fixture")
        .prefetch_related(Prefetch("fixture__seats", seats_prefetch().queryset))
        .defer("reason", "decision_note")
        .order_by("fixture__round", "fixture__number", "pk")
    )


# --- a player's figures per league -----------------------------------------------------------


@dataclass
class AnalysedRecord:
    """A player's analysed games in one league: decisions, losses, marks, and the luck
    split summed over the games (``maedn-analysis/5`` summaries)."""

    games: int = 0
    decisions: int = 0
    loss: float = 0.0  # summed over decisions (a fraction of a game each)
    inaccuracies: int = 0
    mistakes: int = 0
    blunders: int = 0
    result: float = 0.0  # summed over the games: 1 a win, 0 a loss
    luck: float = 0.0
    luck_adjusted: float = 0.0

    @property
    def average_loss(self) -> float | None:
        return self.loss / self.decisions if self.decisions else None

    @property
    def error_rate(self) -> float | None:
        """Milli-wins lost per decision over the league's analysed games."""
        return 1000 * self.loss / self.decisions if self.decisions else None

    def add(self, summary: dict[str, Any]) -> None:
        decisions = _number(summary, "decisions", int)
        self.games += 1
        self.decisions += decisions
        self.loss += _number(summary, "average_loss") * decisions
        self.inaccuracies += _number(summary, "inaccuracies", int)
        self.mistakes += _number(summary, "mistakes", int)
        self.blunders += _number(summary, "blunders", int)
        luck = summary.get("luck") or {}
        self.result += _number(luck, "end")
        self.luck += _number(luck, "luck")
        self.luck_adjusted += _number(luck, "luck_adjusted")


def _number(values: dict[str, Any], key: str, cast=float):
    """A statistic of a summary; a missing (or null) one counts 0."""
    return cast(values.get(key) or 0)


def with_analysis_summary(results):
    """Results annotated with their log's done analysis of the current format (the newest):
    its ``summary`` and ``seats`` as ``analysis_summary`` / ``analysis_seats`` — subqueries
    of the same query, never the analysis' (large) data."""
    best = GameAnalysis.objects.filter(
        log_id=OuterRef("game_log_id"),
        status=GameAnalysis.Status.DONE,
        format=ANALYSIS_FORMAT,
    ).order_by("-finished_at")
    return results.annotate(
        analysis_summary=Subquery(best.values("summary")[:1]),
        analysis_seats=Subquery(best.values("seats")[:1]),
    )


def _summary_data(result: Result) -> tuple:
    """The annotated summaries and seats of a result's analysis, decoded (some backends
    hand JSON subqueries back as text)."""
    summaries = getattr(result, "analysis_summary", None)
    seats = getattr(result, "analysis_seats", None)
    if isinstance(summaries, str):
        return json.loads(summaries), json.loads(seats or "{}")
    return summaries, seats


def seat_summary(result: Result, board: int, colours) -> dict[str, Any] | None:
    """The analysis summary of the player at the seat holding ``colours`` (league names),
    from a result annotated by :func:`with_analysis_summary`."""
    summaries, seats = _summary_data(result)
    if not summaries or not seats:
        return None
    key = _seat_key(board, colours, seats)
    found = summaries.get(seats[key]) if key is not None else None
    return dict(found) if isinstance(found, dict) else None


# --- dice fairness ---------------------------------------------------------------------------


@dataclass
class DiceView:
    """The dice of a set of logs: the test's figures and the bar plot's geometry."""

    fairness: Fairness
    games: int
    bars: list[dict[str, Any]]
    expected_y: float | None
    width: int = PLOT_WIDTH
    height: int = PLOT_HEIGHT


def dice_view(counts, games: int) -> DiceView:
    result = fairness(counts)
    top = max([*result.counts, result.expected, 1])
    scale = (PLOT_HEIGHT - 30) / top
    step = (PLOT_WIDTH - 20) / len(FACES)
    bars = []
    for k, count in enumerate(result.counts):
        h = round(count * scale, 1)
        bars.append(
            {
                "face": FACES[k],
                "count": count,
                "x": round(10 + k * step + step * 0.15, 1),
                "w": round(step * 0.7, 1),
                "y": round(PLOT_HEIGHT - 20 - h, 1),
                "h": h,
                "label_x": round(10 + k * step + step / 2, 1),
            }
        )
    expected_y = round(PLOT_HEIGHT - 20 - result.expected * scale, 1) if result.rolls else None
    return DiceView(result, games, bars, expected_y)


def _colour_counts(board: int, seat_faces: dict[str, list[int]]) -> dict[str, tuple[int, ...]]:
    """League colour name → face counts of that colour's rolls, from the counts per board
    seat stored with the log (``GameLog.seat_faces``: the log's text is never read)."""
    colours = DEFAULT_COLOURS[board]
    return {colours[int(seat)]: tuple(counts) for seat, counts in seat_faces.items()}


def _counted(league: League):
    return Result.objects.filter(
        fixture__league=league, state=Result.State.CONFIRMED, game_log__isnull=False
    )


def _held_counts(by_colour: dict[str, tuple[int, ...]], colours) -> list[tuple[int, ...]]:
    """The dice counts of the colours a seat held (a colour without a count: none)."""
    return [by_colour.get(c, (0,) * 6) for c in colours]


def league_dice(league: League) -> dict[str, Any]:
    """The dice of a league's counted logs: all of them, and per player (the colours each
    held), cached per league results revision. Two queries, neither reading a log's text
    nor making a model instance per seat: the faces are summed as they are read (at 100×
    the big league's 12,000 logs and 24,000 seats cost a fraction of what 72,000 seat,
    entry and player instances did: the first visit after every result, in every worker
    whose store is its own)."""
    key = f"dice:{league.pk}:{league.results_revision}"
    hit = cache.get(key)
    if hit is not None:
        return hit
    results = list(
        _counted(league)
        .order_by("pk")
        .values_list("fixture_id", "game_log__board", "game_log__seat_faces")
    )
    seats = defaultdict(list)
    for fixture_id, *seat in Seat.objects.filter(fixture__league=league).values_list(
        "fixture_id", "entry__player_id", "entry__player__slug", "entry__player__name", "colours"
    ):
        seats[fixture_id].append(seat)
    total = [0] * len(FACES)
    per_player: dict[int, list[int]] = {}
    players: dict[int, Player] = {}
    games: dict[int, int] = defaultdict(int)
    for fixture_id, board, seat_faces in results:
        by_colour = _colour_counts(board, seat_faces)
        for counts in by_colour.values():
            _add_counts(total, counts)
        for pk, slug, name, colours in seats[fixture_id]:
            if pk not in players:
                players[pk] = Player(pk=pk, slug=slug, name=name)  # what the page shows
                per_player[pk] = [0] * len(FACES)
            games[pk] += 1
            for counts in _held_counts(by_colour, colours):
                _add_counts(per_player[pk], counts)
    view = {
        "all": dice_view(tuple(total), len(results)),
        "players": sorted(
            ((players[pk], dice_view(tuple(sums), games[pk])) for pk, sums in per_player.items()),
            key=lambda item: item[0].name.lower(),
        ),
    }
    cache.set(key, view, 600)
    return view


def _add_counts(into: list[int], counts: tuple[int, ...]) -> None:
    """Add one colour's face counts to a running sum (``combine``, one row at a time)."""
    if len(counts) != len(FACES):
        raise ValueError(f"a die has {len(FACES)} faces; got {len(counts)} counts")
    for k, c in enumerate(counts):
        into[k] += c


__all__ = [
    "AnalysedRecord",
    "DiceView",
    "GameAnalysisView",
    "counted_log_analysis",
    "failed_analyses",
    "game_analysis",
    "league_dice",
    "seat_summary",
    "with_analysis_summary",
]
