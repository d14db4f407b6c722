"""What the standings are computed from, read from the database: a league's counted
results as ``GameOutcome`` records, its precedence as metrics, its roll-offs. Pure reads,
shared by the standings worker (``services.standings``) and by selectors that rank a league
now (``selectors.open_tournaments``)."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db import connection
from django.db.models.expressions import RawSQL

from tournaments.algorithms.standings import (
    DEFAULT_SHOW,
    GROUP_METRICS,
    MAX_GAME_SECONDS,
    SUMMED_METRICS,
    GameOutcome,
    PlacementPoints,
    TieBreakRoll,
    WonLost,
    head_to_head_pairs,
    total_time,
)
from tournaments.models import (
    Fixture,
    League,
    Result,
    Seat,
    StandingsTally,
    StandingsTallyEntry,
    StandingsTallyPair,
)

RESULT_FIELDS = (
    "fixture_id",
    "winner_id",
    "placings",
    "colour_places",
    "both_finished",
    "counted_pawns",
    "completed_colours",
    "game_time",
    "forfeit_loser_id",
)


def _counted(league: League):
    """The league's confirmed regular-stage results (a queryset)."""
    counted = Result.objects.filter(
        fixture__league=league,
        fixture__series__isnull=True,
        fixture__stage=Fixture.Stage.REGULAR,
        state=Result.State.CONFIRMED,
    )
    if not_counted_game0(league):
        counted = counted.exclude(fixture__number=0)
    return counted


def _counted_results(league: League) -> list[dict[str, Any]]:
    """The league's confirmed regular-stage results as plain dicts, in one query (the ORM's
    reading, for databases other than PostgreSQL)."""
    return list(_counted(league).values(*RESULT_FIELDS))


def _counted_with_seats_in_json(league: League, **only: Any) -> list[list[Any]]:
    """The counted results' fields and each one's seated entries (in seat order) as rows,
    aggregated by PostgreSQL into one JSON text in one query, decoded at once: for 12,000
    games several times cheaper than decoding five JSON columns per row and reading every
    seat of the league through the ORM (bench/scale.py, "standings recompute (big)")."""
    counted = _counted(league).filter(**only)
    sql, params = counted.values(*RESULT_FIELDS).query.sql_with_params()
    columns = ", ".join(f"q.{name}" for name in RESULT_FIELDS)
    seat, position = Seat._meta.db_table, Seat._meta.get_field("position").column
    seats = (
        f"(SELECT json_agg(s.entry_id ORDER BY s.{position}) FROM {seat} AS s"
        " WHERE s.fixture_id = q.fixture_id)"
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT json_agg(json_build_array({columns}, {seats}))::text FROM ({sql}) AS q",
            params,
        )
        text = cursor.fetchone()[0]
    return json.loads(text or "[]")


def not_counted_game0(league: League) -> bool:
    """A Challengers event's game 0 decides who starts game 1 and, by default
    (``League.game0_counts`` off), is not counted in the table."""
    return league.event_kind == League.EventKind.CHALLENGERS and not league.game0_counts


def stored_game_time(value: Any) -> float | None:
    """A stored result's game time as the standings read it: seconds from 0 to
    ``MAX_GAME_SECONDS``, else unknown (``None``). Whatever an old row holds — 1.7e308 from
    a log stored before game-log.md bounded ``"t"``, infinity, NaN, a negative number —
    never stops a league's recompute; it only leaves that entry's time total unknown."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not 0 <= value <= MAX_GAME_SECONDS:  # NaN fails both comparisons
        return None
    return float(value)


def outcomes_for(league: League) -> list[GameOutcome]:
    """Every counted result of the league's regular stage, as ``GameOutcome`` records
    (one query on PostgreSQL, two elsewhere, whatever the number of games)."""
    if connection.vendor == "postgresql":
        return [
            _outcome(dict(zip(RESULT_FIELDS, row, strict=False)), tuple(row[-1] or ()))
            for row in _counted_with_seats_in_json(league)
        ]
    results = _counted_results(league)
    seats: dict[int, list[int]] = defaultdict(list)
    for fixture_id, entry_id in (
        Seat.objects.filter(
            fixture__league=league, fixture__series__isnull=True, fixture__stage="regular"
        )
        .order_by("fixture_id", "position")
        .values_list("fixture_id", "entry_id")
    ):
        seats[fixture_id].append(entry_id)
    return [_outcome(r, tuple(seats[r["fixture_id"]])) for r in results]


def _outcome(r: dict[str, Any], players: tuple[int, ...]) -> GameOutcome:
    """One counted result (its stored fields) as the standings read it."""
    return GameOutcome(
        game_id=r["fixture_id"],
        players=players,
        winner=r["winner_id"],
        player_placings=_winner_first(r["winner_id"], tuple(r["placings"])),
        colour_places=tuple(r["colour_places"]),
        both_finished_order=tuple(r["both_finished"]),
        counted_pawns=_by_entry(r["counted_pawns"]),
        completed_colours=_by_entry(r["completed_colours"]),
        game_time=stored_game_time(r["game_time"]),
        forfeit_loser=r["forfeit_loser_id"],
    )


def _winner_first(winner: int | None, placings: tuple[int, ...]) -> tuple[int, ...]:
    """The placings with the winner first (a result entered by hand may say otherwise)."""
    if winner is None or not placings or placings[0] == winner:
        return placings
    return (winner, *[p for p in placings if p != winner])


def _seeding_roll_off(cycle) -> tuple[dict[int, int], ...]:
    """A DRR's seeding rolls as a roll-off between its players (none for fewer than two)."""
    rounds = tuple(_by_entry(round_.get("rolls", {})) for round_ in cycle.rolls)
    return rounds if rounds and len(rounds[0]) > 1 else ()


def _by_entry(stored: dict[str, Any]) -> dict[int, Any]:
    """A stored ``{entry id as text: value}`` with the entry ids as numbers."""
    return {int(k): v for k, v in stored.items()}


def league_metrics(league: League) -> list:
    """The league's precedence as metrics; an open tournament's own placement-points
    scheme (League.points_scheme, e.g. 5/3/2/1) replaces the default 5/3/1/0."""
    return [
        PlacementPoints(scheme=tuple(league.points_scheme))
        if key == "placement_points" and league.points_scheme
        else key
        for key in league.precedence
    ]


def summable(metrics: list) -> bool:
    """Whether every metric of the precedence (and those shown) is one ``rank_standings``
    takes as sums or computes in a tied group."""
    keys = {*DEFAULT_SHOW, *metrics}
    return all(isinstance(k, str) for k in keys) and keys <= SUMMED_METRICS | GROUP_METRICS


def roll_offs_for(league: League) -> list[TieBreakRoll]:
    """Every recorded roll-off of the league, oldest first, for the standings' die-roll
    tie-break: each DRR's seeding rolls (every round, re-rolls included) and the dedicated
    tie-break rolls (not those of a single game)."""
    timed = []
    for cycle in league.cycles.order_by("number"):
        if rounds := _seeding_roll_off(cycle):
            timed.append((cycle.created_at, 0, cycle.pk, TieBreakRoll(rounds, cycle.created_at)))
    for roll in league.tie_break_rolls.filter(fixture__isnull=True):
        rounds = tuple(_by_entry(r) for r in roll.rounds)
        timed.append((roll.recorded_at, 1, roll.pk, TieBreakRoll(rounds, roll.recorded_at)))
    return [item[-1] for item in sorted(timed, key=lambda t: t[:3])]


# --- the sums of a league's table, added up by PostgreSQL ------------------------------

#: a whole number ≥ 0 as PostgreSQL writes a JSON number (``jsonb`` keeps no exponent)
_WHOLE = r"^[0-9]+$"

#: What counted results add to their entries' sums, and whether each is *plain*: the
#: common part (``WITH`` list) of the league's summing statement (``_SUMS_SQL``) and of
#: the per-game contributions the counting transaction keeps (``_CONTRIBUTIONS_SQL``), so
#: both judge a row alike. ``q``: the counted results; ``j``: a row per counted result
#: and seated entry, with that entry's count values (cast only when they are numbers: no
#: row, however bad, raises) and whether each is a plain whole number; ``c``: per result,
#: its seats (``pl`` as JSON, ``keys`` as text) and counts of what names them; ``r``:
#: whether each result is plain, i.e. passes every check of ``GameOutcome.validate`` as
#: the games would read it, by scalar tests: "every id named is seated, once" is "as many
#: ids as seats named" (``placings``, ``both_finished``), "seated" is containment
#: (``colour_places``) or, for ``{entry id: count}``, nothing left once the seats' keys are
#: taken out (so a key not written plainly is not plain either) — all but "every seat an
#: accepted entry" of the league, which its callers check (the entries change without a
#: result changing); ``k``: what each seat adds to its entry's sums (a forfeit adds no
#: pawns, colours or time).
_PLAIN_CTES = """
q AS MATERIALIZED ({counted}),
j AS MATERIALIZED (
    SELECT q.id, q.fixture_id, s.entry_id, q.winner_id, q.forfeit_loser_id, q.game_time,
        CASE WHEN jsonb_typeof(q.counted_pawns -> s.entry_id::text) = 'number'
             THEN (q.counted_pawns ->> s.entry_id::text)::numeric END AS p,
        CASE WHEN jsonb_typeof(q.completed_colours -> s.entry_id::text) = 'number'
             THEN (q.completed_colours ->> s.entry_id::text)::numeric END AS cc,
        (jsonb_typeof(q.counted_pawns) <> 'object' OR NOT q.counted_pawns ? s.entry_id::text
         OR (jsonb_typeof(q.counted_pawns -> s.entry_id::text) = 'number'
             AND (q.counted_pawns ->> s.entry_id::text) ~ %s)) AS p_whole,
        (jsonb_typeof(q.completed_colours) <> 'object'
         OR NOT q.completed_colours ? s.entry_id::text
         OR (jsonb_typeof(q.completed_colours -> s.entry_id::text) = 'number'
             AND (q.completed_colours ->> s.entry_id::text) ~ %s)) AS cc_whole,
        jsonb_typeof(q.counted_pawns) = 'object' AND q.counted_pawns ? s.entry_id::text
            AS pawned,
        q.placings @> jsonb_build_array(s.entry_id) AS placed,
        q.both_finished @> jsonb_build_array(s.entry_id) AS both_done
    FROM q JOIN {seat} AS s ON s.fixture_id = q.fixture_id
),
c AS MATERIALIZED (
    SELECT j.id, jsonb_agg(j.entry_id) AS pl, array_agg(j.entry_id::text) AS keys,
        count(*) AS n,
        bool_and(j.p_whole AND j.cc_whole) AS whole,
        count(*) FILTER (WHERE j.entry_id = j.winner_id) AS winners,
        count(*) FILTER (WHERE j.entry_id = j.forfeit_loser_id) AS losers,
        count(*) FILTER (WHERE j.pawned) AS pawned,
        count(*) FILTER (WHERE j.placed) AS placed,
        count(*) FILTER (WHERE j.both_done) AS both_done,
        sum(j.p) AS pawn_sum
    FROM j GROUP BY j.id
),
r AS (
    SELECT q.id, q.fixture_id, coalesce(
        c.n >= 2 AND c.whole
        AND (q.winner_id IS NULL OR c.winners = 1)
        AND (q.forfeit_loser_id IS NULL
             OR (c.losers = 1 AND q.forfeit_loser_id IS DISTINCT FROM q.winner_id))
        AND CASE WHEN jsonb_typeof(q.placings) = 'array'
            THEN jsonb_array_length(q.placings) = c.placed ELSE false END
        AND CASE WHEN jsonb_typeof(q.colour_places) = 'array'
            THEN c.pl @> q.colour_places ELSE false END
        AND CASE WHEN jsonb_typeof(q.both_finished) = 'array'
            THEN jsonb_array_length(q.both_finished) = c.both_done ELSE false END
        AND CASE WHEN jsonb_typeof(q.counted_pawns) = 'object'
            THEN q.counted_pawns - c.keys = '{{}}'::jsonb
                 AND (q.counted_pawns = '{{}}'::jsonb OR c.pawned = c.n)
            ELSE false END
        AND CASE WHEN jsonb_typeof(q.completed_colours) = 'object'
            THEN q.completed_colours - c.keys = '{{}}'::jsonb ELSE false END,
        false) AS plain
    FROM q LEFT JOIN c ON c.id = q.id
),
k AS (
    SELECT j.id, j.fixture_id, j.entry_id,
        CASE WHEN j.forfeit_loser_id IS NOT NULL AND j.winner_id IS NULL
             THEN j.entry_id <> j.forfeit_loser_id
             ELSE coalesce(j.winner_id = j.entry_id, false) END AS won,
        CASE WHEN j.forfeit_loser_id IS NOT NULL THEN j.entry_id = j.forfeit_loser_id
             ELSE coalesce(j.winner_id <> j.entry_id, false) END AS lost,
        CASE WHEN j.forfeit_loser_id IS NULL THEN c.n * j.p - c.pawn_sum END AS pawns,
        CASE WHEN j.forfeit_loser_id IS NULL THEN j.cc END AS colours,
        j.forfeit_loser_id IS NULL AS timed, j.game_time
    FROM j JOIN c ON c.id = j.id
)
"""

#: The entries' sums in one statement (``_PLAIN_CTES``, then per entry; ``plain``: every
#: result plain, once per game, every seat an accepted entry).
_SUMS_SQL = (
    "WITH"
    + _PLAIN_CTES
    + """
SELECT json_build_object(
    'games', (SELECT count(*) FROM q),
    'plain', (SELECT coalesce(bool_and(r.plain), true)
                     AND count(*) = count(DISTINCT r.fixture_id) FROM r)
             AND (SELECT coalesce(bool_and(j.entry_id = ANY(%s::bigint[])), true) FROM j),
    'entries', (SELECT json_agg(json_build_array(e, played, wins, losses, pawns, colours, times))
        FROM (
            SELECT k.entry_id AS e, count(*) AS played,
                count(*) FILTER (WHERE k.won) AS wins,
                count(*) FILTER (WHERE k.lost) AS losses,
                coalesce(sum(k.pawns), 0) AS pawns,
                coalesce(sum(k.colours), 0) AS colours,
                coalesce(json_agg(k.game_time) FILTER (WHERE k.timed), '[]') AS times
            FROM k GROUP BY k.entry_id
        ) AS t)
)::text
"""
)

#: What each counted result (``_PLAIN_CTES``) adds, per seat, and whether it is plain;
#: with ``held``, the league's kept sums locked first (``FOR NO KEY UPDATE``).
_CONTRIBUTIONS_SQL = (
    """
WITH held AS MATERIALIZED (
    SELECT t.league_id FROM {tally} AS t WHERE t.league_id = %s AND %s FOR NO KEY UPDATE
),"""
    + _PLAIN_CTES
    + """
SELECT json_build_object(
    'held', (SELECT count(*) FROM held),
    'results', (SELECT json_agg(json_build_array(r.fixture_id, r.id, r.plain)) FROM r),
    'seats', (SELECT json_agg(json_build_array(
        k.fixture_id, k.entry_id, k.won, k.lost, k.pawns, k.colours, k.timed, k.game_time))
        FROM k)
)::text, (SELECT json_agg(json_build_array({fields})) FROM q)::text
"""
)


def entry_sums(league: League, entries: list[int]) -> tuple[int, dict[str, dict]] | None:
    """The number of counted games and, for every entry, the values of the metrics that
    are sums over its own games (``rank_standings``' ``SUMMED_METRICS``), added up by
    PostgreSQL in one query over every seat of every counted result: exactly what
    ``compute_standings`` computes from the games. (The recompute reads the sums the
    counting transaction keeps, ``tallied_sums``; this is the check of those and the
    fallback.)

    ``None`` when a counted result is not plainly valid (a row the games' checks would
    refuse, or one they read in a way SQL does not repeat: an entry id that is not a
    plain int, a count that is not a whole number, …) or the database is not PostgreSQL:
    the table is then computed from the games, whose checks name the fault."""
    if connection.vendor != "postgresql":
        return None
    counted = _counted(league).order_by()  # sums: in any order
    sql, params = counted.values("id", *RESULT_FIELDS).query.sql_with_params()
    query = _SUMS_SQL.format(counted=sql, seat=Seat._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(query, (*params, _WHOLE, _WHOLE, list(entries)))
        found = json.loads(cursor.fetchone()[0])
    if not found["plain"]:
        return None
    rows = [
        (*row[:6], total_time([stored_game_time(t) for t in row[6]]))
        for row in found["entries"] or []
    ]
    return found["games"], _values(entries, rows)


def _values(entries: list[int], rows: list) -> dict[str, dict]:
    """``metric key → entry → value`` from the per-entry sums ``(entry, played, wins,
    losses, pawns, colours, time total)`` (every entry: those without a row have played
    none)."""
    by_entry = {row[0]: row for row in rows}
    values: dict[str, dict] = {key: {} for key in SUMMED_METRICS}
    for entry in entries:
        _, played, wins, losses, pawns, colours, time = by_entry.get(
            entry, (entry, 0, 0, 0, 0, 0, 0.0)
        )
        record = WonLost(wins, losses)
        values["games_played"][entry] = played
        values["wins"][entry] = wins
        values["losses"][entry] = losses
        values["won_lost"][entry] = record
        values["win_percentage"][entry] = record.percentage
        values["counted_pawns_difference"][entry] = pawns
        values["completed_colours"][entry] = colours
        values["game_time"][entry] = time
    return values


# --- the sums kept by the counting transaction ---------------------------------------------


@dataclass(frozen=True)
class SeatSums:
    """What one seat of a counted result adds to its entry's sums (exact numbers)."""

    entry: int
    won: bool
    lost: bool
    pawns: Decimal
    colours: Decimal
    time: Decimal
    time_unknown: bool

    def stored(self) -> list:
        """As ``StandingsTallyGame.seats`` keeps it (numbers as exact decimal text)."""
        return [
            self.entry,
            int(self.won),
            int(self.lost),
            str(self.pawns),
            str(self.colours),
            str(self.time),
            int(self.time_unknown),
        ]

    @classmethod
    def from_stored(cls, row: list) -> SeatSums:
        entry, won, lost, pawns, colours, time, unknown = row
        return cls(
            entry,
            bool(won),
            bool(lost),
            Decimal(pawns),
            Decimal(colours),
            Decimal(time),
            bool(unknown),
        )


@dataclass(frozen=True)
class GameSums:
    """What one game's counted results add to the league's sums: how many results count
    (one, but for a row the constraints should have refused) and the sum of their ids,
    whether they are plain and, only if so, each seat's share and what it adds to
    head-to-head per pair (``(a, b, ±1)``, ``a < b``: ``head_to_head_pairs``)."""

    results: int
    result_id_sum: int
    plain: bool
    seats: tuple[SeatSums, ...]
    pairs: tuple[tuple[int, int, int], ...] = ()


def counted_contributions(
    league: League, *, fixture_id: int | None = None, lock: bool = False
) -> tuple[bool, dict[int, GameSums]]:
    """What each counted result of the league (only that of ``fixture_id`` if given) adds
    to the entries' sums, judged plain by the same SQL as ``entry_sums``; the games not
    counted are absent. With ``lock``, the league's kept sums (``StandingsTally``) are
    locked first in the same statement: whether they exist, and the contributions."""
    counted = _counted(league).order_by()
    if fixture_id is not None:
        counted = counted.filter(fixture_id=fixture_id)
    sql, params = counted.values("id", *RESULT_FIELDS).query.sql_with_params()
    query = _CONTRIBUTIONS_SQL.format(
        counted=sql,
        seat=Seat._meta.db_table,
        tally=StandingsTally._meta.db_table,
        fields="q.fixture_id, q.winner_id, q.placings, q.forfeit_loser_id",
    )
    with connection.cursor() as cursor:
        cursor.execute(query, (league.pk, lock, *params, _WHOLE, _WHOLE))
        text, fields = cursor.fetchone()
    found = json.loads(text, parse_float=Decimal)  # exact: the sums are kept exactly
    stored = {row[0]: row for row in json.loads(fields or "[]")}  # read as the games are
    seats: dict[int, list[SeatSums]] = defaultdict(list)
    for fixture, entry, won, lost, pawns, colours, timed, time in found["seats"] or []:
        known = stored_game_time(float(time) if isinstance(time, Decimal) else time)
        seats[fixture].append(
            SeatSums(
                entry,
                won,
                lost,
                Decimal(pawns or 0),
                Decimal(colours or 0),
                Decimal(known) if timed and known is not None else Decimal(0),
                timed and known is None,
            )
        )
    results: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    for fixture, result, plain in found["results"] or []:
        results[fixture].append((result, plain))
    games = {}
    for fixture, held in results.items():
        plain = len(held) == 1 and held[0][1]
        pairs: dict[tuple[int, int], int] = {}
        if plain:  # (only a plain row is read as a game without a fault)
            _, winner, placings, forfeit_loser = stored[fixture]
            game = GameOutcome(  # what head-to-head reads of it, as ``_outcome`` reads it
                game_id=fixture,
                players=tuple(seat.entry for seat in seats[fixture]),
                winner=winner,
                player_placings=_winner_first(winner, tuple(placings)),
                forfeit_loser=forfeit_loser,
            )
            pairs = head_to_head_pairs(game)
        games[fixture] = GameSums(
            results=len(held),
            result_id_sum=sum(r for r, _ in held),
            plain=plain,
            seats=tuple(seats[fixture]) if plain else (),
            pairs=tuple((a, b, n) for (a, b), n in sorted(pairs.items())),
        )
    return (not lock or found["held"] > 0), games


#: the league's kept sums and its counted results' number and id sum, in one statement
_TALLY_SQL = """
SELECT json_build_object(
    'tally', (SELECT json_build_array(t.results, t.result_id_sum, t.not_plain)
              FROM {tally} AS t WHERE t.league_id = %s),
    'counted', (SELECT json_build_array(count(*), coalesce(sum(q.id), 0)) FROM ({counted}) AS q),
    'entries', (SELECT json_agg(json_build_array(e.entry_id, e.played, e.wins, e.losses,
                    e.pawns, e.colours, e.game_time, e.times_unknown))
                FROM {entry} AS e WHERE e.tally_id = %s),
    'pairs', (SELECT json_agg(json_build_array(p.a_id, p.b_id, p.score))
              FROM {pair} AS p WHERE p.tally_id = %s AND p.score <> 0)
)::text
"""

#: what ``tallied_sums`` found
SUMMED, NOT_PLAIN, STALE = "summed", "not plain", "stale"


@dataclass(frozen=True)
class Tallied:
    """The kept sums as a recompute reads them: ``SUMMED`` (``games`` and ``values`` as
    ``entry_sums`` gives them), ``NOT_PLAIN`` (they hold the counted results, but one is
    not plain or a seat is no accepted entry: the table comes from every game) or
    ``STALE`` (missing, or not holding exactly the league's counted results)."""

    state: str
    games: int = 0
    values: dict[str, dict] | None = None
    pairs: dict[tuple[int, int], int] | None = None


def tallied_sums(league: League, entries: list[int]) -> Tallied:
    """The per-entry sums the counting transaction keeps (``StandingsTally``), in one
    query that reads a row per entry and, to check them, the number and id sum of the
    league's counted results (an index scan of the results, no seat): what ``entry_sums``
    would add up from every seat, or ``STALE`` when they do not hold exactly the counted
    results (none kept yet, a league setting that changes which results count, a row
    written outside the services)."""
    counted = _counted(league).order_by().values("id")
    sql, params = counted.query.sql_with_params()
    query = _TALLY_SQL.format(
        counted=sql,
        tally=StandingsTally._meta.db_table,
        entry=StandingsTallyEntry._meta.db_table,
        pair=StandingsTallyPair._meta.db_table,
    )
    with connection.cursor() as cursor:
        cursor.execute(query, (league.pk, *params, league.pk, league.pk))
        found = json.loads(cursor.fetchone()[0], parse_float=Decimal)
    if found["tally"] is None:
        return Tallied(STALE)
    results, id_sum, not_plain = found["tally"]
    if [results, id_sum] != found["counted"]:
        return Tallied(STALE)
    rows, accepted = [], set(entries)
    for entry, played, wins, losses, pawns, colours, time, unknown in found["entries"] or []:
        if min(played, wins, losses, unknown, colours, time) < 0 or not (
            _whole(pawns) and _whole(colours)
        ):
            return Tallied(STALE)
        if played == 0:
            if (wins, losses, pawns, colours, time, unknown) != (0, 0, 0, 0, 0, 0):
                return Tallied(STALE)
            continue
        if entry not in accepted:
            not_plain += 1  # a seat of a counted result is no accepted entry
        total = None if unknown else float(Decimal(time))
        rows.append((entry, played, wins, losses, int(pawns), int(colours), total))
    if not_plain:
        return Tallied(NOT_PLAIN)
    pairs = {(a, b): score for a, b, score in found["pairs"] or []}
    if any(a >= b for a, b in pairs):
        return Tallied(STALE)
    return Tallied(SUMMED, results, _values(entries, rows), pairs)


def _whole(value: Any) -> bool:
    return isinstance(value, int) or (
        isinstance(value, Decimal) and value == value.to_integral_value()
    )


def outcomes_among(league: League, classes: list[list[int]]) -> list[GameOutcome]:
    """The counted results in which two or more entries of one of ``classes`` played, as
    ``GameOutcome`` records, in one query: what the tied groups' head-to-head reads."""
    members = [entry for group in classes for entry in group]
    labels = [n for n, group in enumerate(classes) for _ in group]
    shared = RawSQL(
        f"SELECT s.fixture_id FROM {Seat._meta.db_table} AS s"
        " JOIN unnest(%s::bigint[], %s::integer[]) AS k(entry_id, label)"
        " ON k.entry_id = s.entry_id GROUP BY s.fixture_id, k.label HAVING count(*) > 1",
        (members, labels),
    )
    return [
        _outcome(dict(zip(RESULT_FIELDS, row, strict=False)), tuple(row[-1] or ()))
        for row in _counted_with_seats_in_json(league, fixture_id__in=shared)
    ]
