"""A player's page: their leagues, games and log statistics (their rating on it is the
ratings app's: ``ratings.selectors.ratings.player_rating_view``)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import FilteredRelation, Prefetch, Q

from games.engine.board import DEFAULT_COLOURS
from games.models import GameAnalysis, GameLog
from tournaments.models import Cycle, Entry, Fixture, League, Player, Result, Seat
from tournaments.selectors.analyses import (
    AnalysedRecord,
    DiceView,
    dice_view,
    seat_summary,
    with_analysis_summary,
)
from tournaments.selectors.links import link_maker
from tournaments.selectors.rankings import final_places
from tournaments.selectors.visibility import visible_leagues

#: a player's page lists this many games per league and opponents (the
#: schedule filtered by the player and the API have the rest): bounded, whatever the history
GAMES_SHOWN = 10
OPPONENTS_SHOWN = 20
LEAGUES_PER_PAGE = 10


@dataclass
class PlayerGame:
    """A game the page shows, as the page shows it: plain values, the links built once
    (the page renders ten of them per league without a query, a model or a ``{% url %}``)."""

    fixture_id: int
    label: str
    url: str
    status: str
    colours: list[str]
    #: the other players of the game: (name, link to their page)
    opponents: list[tuple[str, str]]
    won: bool | None
    place: int | None
    counted_pawns: int | None = None
    luck_adjusted: float | None = None
    """the game's result with the luck taken out (the move analysis), when analysed"""


@dataclass
class PlayerLeague:
    league: League
    entry: Entry
    games: list[PlayerGame] = field(default_factory=list)

    #: (wins, losses, counted games) of every game in the league, counted in the database
    counts: tuple[int, int, int] = (0, 0, 0)

    @property
    def wins(self) -> int:
        return self.counts[0]

    @property
    def counted_games(self) -> int:
        return self.counts[2]

    @property
    def recent_games(self) -> list[PlayerGame]:
        """The last :data:`GAMES_SHOWN` games (the page's table; the schedule has all)."""
        return self.games[-GAMES_SHOWN:]

    @property
    def losses(self) -> int:
        return self.counts[1]

    @property
    def more_games(self) -> bool:
        """Whether the league has more games than the page shows."""
        return self.games_total > len(self.games)

    #: every game of the player in the league (counted or not)
    games_total: int = 0


@dataclass
class PlayerStats:
    logged_games: int = 0
    rolls: int = 0
    sixes: int = 0
    captures: int = 0
    captured: int = 0
    huffed: int = 0
    faces: list[int] = field(default_factory=lambda: [0] * 6)

    @property
    def rolls_per_game(self) -> float | None:
        return self.rolls / self.logged_games if self.logged_games else None

    @property
    def six_rate(self) -> float | None:
        return self.sixes / self.rolls if self.rolls else None


@dataclass
class Record:
    """Counted games against one opponent (or at one seat): ``ahead`` = this player
    finished above the other, ``won`` = this player won the game."""

    games: int = 0
    won: int = 0
    ahead: int = 0
    behind: int = 0
    other_won: int = 0


@dataclass
class Honour:
    league: League
    place: int


@dataclass
class PlayerPage:
    player: Player
    leagues: list[PlayerLeague]
    colours: list[tuple[tuple[str, ...], int]]
    stats: PlayerStats
    #: the page of ``leagues`` whose last games are listed (their ``games``)
    leagues_page: Page | None = None
    honours: list[Honour] = field(default_factory=list)
    opponents: list[tuple[Player, Record]] = field(default_factory=list)
    seats: list[tuple[int, Record]] = field(default_factory=list)
    started: Record = field(default_factory=Record)
    #: league id → the move analyses of the player's counted games there
    analysed: dict[int, AnalysedRecord] = field(default_factory=dict)

    @property
    def dice(self) -> DiceView | None:
        """The dice of the colours the player held in counted games with a log."""
        if not self.stats.logged_games:
            return None
        return dice_view(self.stats.faces, self.stats.logged_games)

    @property
    def top_opponents(self) -> list[tuple[Player, Record]]:
        return self.opponents[:OPPONENTS_SHOWN]

    @property
    def titles(self) -> int:
        return sum(1 for h in self.honours if h.place == 1)

    @property
    def medals(self) -> dict[int, int]:
        return {n: sum(1 for h in self.honours if h.place == n) for n in (1, 2, 3)}


def player_get(slug: str) -> Player:
    return Player.objects.select_related("rating").get(slug=slug)


def player_page(player: Player, user, page: int | str | None = 1) -> PlayerPage:
    """A player's leagues (those ``user`` may see), games with counted results, the colours
    they held and statistics from the logs of those games; ``page``: the page of the
    leagues (:data:`LEAGUES_PER_PAGE`) whose last games are listed.

    The records, the colours and the statistics are added up in SQL (:func:`_records`,
    one query whatever the history: issue 31); the games shown (the last
    :data:`GAMES_SHOWN` of each league on the page) are plain values with their links
    (:func:`_shown_games`): no model instance per game."""
    leagues = visible_leagues(user)
    entries = list(
        Entry.objects.filter(player=player, league__in=leagues, state=Entry.State.ACCEPTED)
        .select_related("league")
        .order_by("-league__created_at")
    )
    by_entry = {e.pk: PlayerLeague(e.league, e) for e in entries}
    records = _records(list(by_entry))
    for entry_id, (total, wins, losses, counted) in records.tallies.items():
        by_entry[entry_id].games_total = total
        by_entry[entry_id].counts = (wins, losses, counted)
    leagues_page = Paginator(list(by_entry.values()), LEAGUES_PER_PAGE).get_page(page)
    for game, entry_id in _shown_games([item.entry for item in leagues_page.object_list]):
        by_entry[entry_id].games.append(game)
    return PlayerPage(
        player=player,
        leagues=list(by_entry.values()),
        leagues_page=leagues_page,
        colours=records.colours,
        stats=records.stats,
        honours=_honours(player, [e.league for e in entries]),
        opponents=records.opponents,
        seats=records.seats,
        started=records.started,
        analysed=_analysed(list(by_entry), by_entry),
    )


def _won(entry_id: int, winner_id: int | None, placings: list | None) -> bool | None:
    """Whether the seat of ``entry_id`` won (None: neither a winner nor its place known)."""
    if winner_id:
        return winner_id == entry_id
    if placings and entry_id in placings:
        return placings[0] == entry_id
    return None


@dataclass
class _Records:
    #: entry → (its games, won, lost, counted)
    tallies: dict[int, tuple[int, int, int, int]]
    colours: list[tuple[tuple[str, ...], int]]
    stats: PlayerStats
    seats: list[tuple[int, Record]]
    started: Record
    opponents: list[tuple[Player, Record]]


#: ``_won`` in SQL (a seat's row of ``mine``): the winner, else the first place, else NULL
_WON_SQL = """CASE
    WHEN result_id IS NULL THEN NULL
    WHEN winner_id IS NOT NULL THEN winner_id = entry_id
    WHEN jsonb_typeof(placings) = 'array' AND placings @> to_jsonb(entry_id)
        THEN placings -> 0 = to_jsonb(entry_id)
END"""


def _place_sql(entry: str) -> str:
    """The 1-based place of ``entry`` (an SQL expression) in ``placings``, else NULL."""
    return f"""CASE WHEN jsonb_typeof(placings) = 'array' THEN (
        SELECT min(i) FROM jsonb_array_elements(placings) WITH ORDINALITY AS x(v, i)
        WHERE x.v = to_jsonb({entry})) END"""


def _records(entry_ids: list[int]) -> _Records:
    """Everything the page adds up over every game of the player's ``entry_ids``, in one
    query (rows of a kind each): per entry its games, wins, losses and counted games; the
    counted games per seat and holding the starting colour; the colours held; the dice and
    tallies stored with the logs (``seat_faces``/``seat_stats`` of the held colours); the
    record against each opponent."""

    t = {
        "seat": Seat._meta.db_table,
        "fixture": Fixture._meta.db_table,
        "result": Result._meta.db_table,
        "log": GameLog._meta.db_table,
        "entry": Entry._meta.db_table,
        "player": Player._meta.db_table,
    }
    # a colour's seat on the board (as ``seat_faces``' keys count them), per board size
    orders = " ".join(
        f"WHEN {int(board)} THEN %(order_{int(board)})s::text[]" for board in DEFAULT_COLOURS
    )
    zeros = ", ".join(["0"] * 11)
    sql = f"""
    WITH mine AS MATERIALIZED (
        SELECT s.entry_id, s.position, s.colours, s.fixture_id, f.starting_colour,
               r.id AS result_id, r.winner_id, r.placings,
               g.board, g.seat_faces, g.seat_stats
        FROM {t["seat"]} s
        JOIN {t["fixture"]} f ON f.id = s.fixture_id
        LEFT JOIN {t["result"]} r ON r.fixture_id = s.fixture_id AND r.state = %(confirmed)s
        LEFT JOIN {t["log"]} g ON g.id = r.game_log_id
        WHERE s.entry_id = ANY(%(entries)s)
    ), judged AS MATERIALIZED (
        SELECT *, {_WON_SQL} AS won FROM mine
    ), held AS (  -- the stored statistics of each colour held in a counted game with a log
        SELECT j.seat_faces -> k.key AS faces, j.seat_stats -> k.key AS tally
        FROM judged j
        CROSS JOIN LATERAL jsonb_array_elements_text(j.colours) AS c(colour)
        CROSS JOIN LATERAL (
            SELECT (array_position(CASE j.board {orders} END, c.colour) - 1)::text AS key
        ) k
        WHERE j.result_id IS NOT NULL AND j.board IS NOT NULL
          AND j.seat_stats IS NOT NULL AND j.seat_stats NOT IN ('null', '{{}}')
          AND jsonb_typeof(j.colours) = 'array' AND k.key IS NOT NULL
    ), counted_held AS (
        SELECT faces, tally FROM held
        WHERE faces IS NOT NULL AND faces NOT IN ('null', '[]')
          AND tally IS NOT NULL AND tally NOT IN ('null', '{{}}')
    )
    SELECT 'entry', entry_id::text, NULL, NULL, count(*), count(*) FILTER (WHERE won),
           count(*) FILTER (WHERE NOT won), count(result_id), 0, 0, 0, 0, 0, 0, 0
    FROM judged GROUP BY entry_id
    UNION ALL
    SELECT 'seat', position::text, NULL, NULL, count(*), count(*) FILTER (WHERE won),
           0, 0, 0, 0, 0, 0, 0, 0, 0
    FROM judged WHERE result_id IS NOT NULL GROUP BY position
    UNION ALL
    SELECT 'started', NULL, NULL, NULL, count(*), count(*) FILTER (WHERE won),
           0, 0, 0, 0, 0, 0, 0, 0, 0
    FROM judged WHERE result_id IS NOT NULL AND colours ? starting_colour
    UNION ALL
    SELECT 'colours', colours::text, NULL, NULL, count(*), {zeros.removeprefix("0, ")}
    FROM judged GROUP BY colours
    UNION ALL
    SELECT 'logged', NULL, NULL, NULL, count(*), {zeros.removeprefix("0, ")}
    FROM judged WHERE result_id IS NOT NULL AND board IS NOT NULL
      AND seat_stats IS NOT NULL AND seat_stats NOT IN ('null', '{{}}')
    UNION ALL
    SELECT 'stats', NULL, NULL, NULL,
           coalesce(sum((tally ->> 'captures')::bigint), 0),
           coalesce(sum((tally ->> 'captured')::bigint), 0),
           coalesce(sum((tally ->> 'huffed')::bigint), 0),
           coalesce(sum((faces ->> 0)::bigint), 0), coalesce(sum((faces ->> 1)::bigint), 0),
           coalesce(sum((faces ->> 2)::bigint), 0), coalesce(sum((faces ->> 3)::bigint), 0),
           coalesce(sum((faces ->> 4)::bigint), 0), coalesce(sum((faces ->> 5)::bigint), 0),
           0, 0
    FROM counted_held
    UNION ALL
    SELECT 'opponent', p.id::text, p.name, p.slug, count(*),
           count(*) FILTER (WHERE j.winner_id = j.entry_id),
           count(*) FILTER (WHERE j.winner_id = j.other),
           count(*) FILTER (WHERE j.mine_at < j.theirs_at),
           count(*) FILTER (WHERE j.mine_at > j.theirs_at),
           0, 0, 0, 0, 0, 0
    FROM (
        SELECT j.entry_id, j.winner_id, o.entry_id AS other,
               {_place_sql("j.entry_id")} AS mine_at, {_place_sql("o.entry_id")} AS theirs_at
        FROM judged j JOIN {t["seat"]} o
          ON o.fixture_id = j.fixture_id AND o.entry_id <> j.entry_id
        WHERE j.result_id IS NOT NULL
    ) j
    JOIN {t["entry"]} e ON e.id = j.other
    JOIN {t["player"]} p ON p.id = e.player_id
    GROUP BY p.id, p.name, p.slug
    """
    params: dict[str, Any] = {
        "confirmed": Result.State.CONFIRMED,
        "entries": entry_ids,
        **{f"order_{int(b)}": list(colours) for b, colours in DEFAULT_COLOURS.items()},
    }
    if not entry_ids:
        rows = []
    elif connection.vendor != "postgresql":  # the embedded default's SQLite: in Python
        return _records_in_python(entry_ids)
    else:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    read = _RowsRead()
    for kind, key, name, slug, *numbers in rows:
        n = [int(x) for x in numbers]  # sum() of bigint is numeric (Decimal)
        _ROW_READERS[kind](read, key, name, slug, n)
    return read.records()


@dataclass
class _RowsRead:
    """What the rows of :func:`_records`' query add up to, as they are read."""

    tallies: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    colours: list[tuple[tuple[str, ...], int]] = field(default_factory=list)
    seats: list[tuple[int, Record]] = field(default_factory=list)
    started: Record = field(default_factory=Record)
    stats: PlayerStats = field(default_factory=PlayerStats)
    opponents: list[tuple[Player, Record]] = field(default_factory=list)

    def records(self) -> _Records:
        self.colours.sort(key=lambda item: (-item[1], item[0]))
        self.opponents.sort(key=lambda item: (-item[1].games, item[0].name))
        return _Records(
            self.tallies, self.colours, self.stats, sorted(self.seats), self.started, self.opponents
        )


def _read_entry(read: _RowsRead, key, _name, _slug, n: list[int]) -> None:
    read.tallies[int(key)] = (n[0], n[1], n[2], n[3])


def _read_seat(read: _RowsRead, key, _name, _slug, n: list[int]) -> None:
    read.seats.append((int(key), Record(games=n[0], won=n[1])))


def _read_started(read: _RowsRead, _key, _name, _slug, n: list[int]) -> None:
    read.started = Record(games=n[0], won=n[1])


def _read_colours(read: _RowsRead, key, _name, _slug, n: list[int]) -> None:
    read.colours.append((tuple(json.loads(key)), n[0]))


def _read_logged(read: _RowsRead, _key, _name, _slug, n: list[int]) -> None:
    read.stats.logged_games = n[0]


def _read_stats(read: _RowsRead, _key, _name, _slug, n: list[int]) -> None:
    stats = read.stats
    stats.captures, stats.captured, stats.huffed = n[0], n[1], n[2]
    stats.faces = list(n[3:9])
    stats.rolls, stats.sixes = sum(stats.faces), stats.faces[5]


def _read_opponent(read: _RowsRead, key, name, slug, n: list[int]) -> None:
    record = Record(games=n[0], won=n[1], other_won=n[2], ahead=n[3], behind=n[4])
    read.opponents.append((Player(pk=int(key), name=name, slug=slug), record))


#: how each kind of row of :func:`_records`' query is read
_ROW_READERS = {
    "entry": _read_entry,
    "seat": _read_seat,
    "started": _read_started,
    "colours": _read_colours,
    "logged": _read_logged,
    "stats": _read_stats,
    "opponent": _read_opponent,
}


def _records_in_python(entry_ids: list[int]) -> _Records:
    """What :func:`_records` adds up in PostgreSQL, added up here from one row of plain
    values per game (the embedded default's SQLite has no JSON containment)."""
    facts = (
        Seat.objects.filter(entry_id__in=entry_ids)
        .annotate(
            counted=FilteredRelation(
                "fixture__results",
                condition=Q(fixture__results__state=Result.State.CONFIRMED),
            )
        )
        .values_list(
            "entry_id",
            "position",
            "colours",
            "fixture_id",
            "counted__id",
            "fixture__starting_colour",
            "counted__winner_id",
            "counted__placings",
            "counted__game_log__board",
            "counted__game_log__seat_faces",
            "counted__game_log__seat_stats",
        )
        .order_by()
    )
    colours: Counter[tuple[str, ...]] = Counter()
    played: dict[int, tuple[int, int | None, list]] = {}  # fixture → mine, winner, placings
    at_seat: dict[int, Record] = {}
    started, stats = Record(), PlayerStats()
    tallies: dict[int, list[int]] = {}  # entry → [games, wins, losses, counted]
    for entry_id, position, seat_colours, fixture_id, result_id, *rest in facts:
        colours[tuple(seat_colours)] += 1
        tally = tallies.setdefault(entry_id, [0, 0, 0, 0])
        tally[0] += 1
        if result_id is None:
            continue
        starting, winner, placings, board, seat_faces, seat_stats = rest
        won = _won(entry_id, winner, placings)
        played[fixture_id] = (entry_id, winner, placings)
        tally[1] += won is True
        tally[2] += won is False
        tally[3] += 1
        _count(at_seat.setdefault(position, Record()), won)
        if starting in seat_colours:
            _count(started, won)
        _add_log_stats(stats, seat_colours, board, seat_faces, seat_stats)
    records: dict[int, tuple[Player, Record]] = {}
    others = (
        Seat.objects.filter(fixture_id__in=list(played))
        .values_list(
            "fixture_id",
            "entry_id",
            "entry__player_id",
            "entry__player__name",
            "entry__player__slug",
        )
        .order_by()
    )
    result = Result(placings=[])
    for fixture_id, entry_id, player_id, name, slug in others:
        me, winner, placings = played[fixture_id]
        if entry_id == me:
            continue
        result.winner_id, result.placings = winner, placings
        _, record = records.setdefault(
            player_id, (Player(pk=player_id, name=name, slug=slug), Record())
        )
        _count_against(record, result, me, entry_id)
    return _Records(
        {entry: (t[0], t[1], t[2], t[3]) for entry, t in tallies.items()},
        sorted(colours.items(), key=lambda item: (-item[1], item[0])),
        stats,
        sorted(at_seat.items()),
        started,
        sorted(records.values(), key=lambda item: (-item[1].games, item[0].name)),
    )


def _count(record: Record, won: bool | None) -> None:
    record.games += 1
    if won:
        record.won += 1


def _add_log_stats(stats: PlayerStats, colours, board, seat_faces, seat_stats) -> None:
    """Add the per-seat statistics stored with a log (``seat_faces``, ``seat_stats``) of the
    colours the player held; no log's text is read."""
    if board is None or not seat_stats:  # no log, or one the engine no longer read
        return
    order = list(DEFAULT_COLOURS.get(board, ()))
    stats.logged_games += 1
    for key in (str(order.index(c)) for c in colours if c in order):
        faces = (seat_faces or {}).get(key)
        row = seat_stats.get(key)
        if faces and row:
            _add_seat_stats(stats, faces, row)


def _add_seat_stats(stats: PlayerStats, faces: list[int], row: dict[str, int]) -> None:
    """One held colour's dice (how often each face) and tallies, added up."""
    stats.rolls += sum(faces)
    stats.sixes += faces[5]
    stats.captures += row["captures"]
    stats.captured += row["captured"]
    stats.huffed += row["huffed"]
    for k, n in enumerate(faces):
        stats.faces[k] += n


def _shown_games(entries: list[Entry]) -> list[tuple[PlayerGame, int]]:
    """The last :data:`GAMES_SHOWN` games of each of ``entries`` (the window numbers each
    entry's games back from its last), oldest first per league, as (game, entry id): three
    queries of plain values (the games with their counted results, the other seats, the
    analyses of the results shown)."""
    if not entries:
        return []
    rows = _last_games(entries)
    others = _seated_at([r[2] for r in rows])
    analyses = _summaries([r[7] for r in rows if r[7] is not None])
    game_url, player_url = link_maker("tournaments:game"), link_maker("tournaments:player")
    games = []
    for entry_id, colours, fixture_id, label, number, status, board, result_id, *rest in rows:
        seated = others.get(fixture_id, [])
        opponents = [(name, player_url(slug)) for e, name, slug in seated if e != entry_id]
        outcome = _shown_outcome(entry_id, *rest, analyses.get(result_id), board, colours)
        game = PlayerGame(
            fixture_id,
            label or str(number),
            game_url(fixture_id),
            status,
            colours,
            opponents,
            *outcome,
        )
        games.append((game, entry_id))
    return games


def _last_games(entries: list[Entry]) -> list[tuple]:
    """The rows of the last games of each entry with their counted results: one statement
    in SQL (the ORM's compiling of the window and the filtered join cost more than the
    query): every backend orders NULL cycles as the ORM's query would."""
    marks = ", ".join(["%s"] * len(entries))
    sql = f"""
        SELECT entry_id, colours, fixture_id, label, number, status, board, result_id,
               winner_id, placings, counted_pawns
        FROM (
            SELECT s.entry_id, s.colours, s.fixture_id, f.label, f.number, f.status,
                   l.board, r.id AS result_id, r.winner_id, r.placings, r.counted_pawns,
                   f.league_id, c.number AS cycle_number, f.round,
                   ROW_NUMBER() OVER (
                       PARTITION BY s.entry_id ORDER BY c.number DESC, f.round DESC, f.number DESC
                   ) AS back
            FROM {Seat._meta.db_table} s
            JOIN {Fixture._meta.db_table} f ON f.id = s.fixture_id
            JOIN {League._meta.db_table} l ON l.id = f.league_id
            LEFT JOIN {Cycle._meta.db_table} c ON c.id = f.cycle_id
            LEFT JOIN {Result._meta.db_table} r
                ON r.fixture_id = s.fixture_id AND r.state = %s
            WHERE s.entry_id IN ({marks})
        ) shown
        WHERE back <= %s
        ORDER BY league_id, cycle_number, round, number
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [Result.State.CONFIRMED, *[e.pk for e in entries], GAMES_SHOWN])
        return [(r[0], _json(r[1]), *r[2:9], _json(r[9]), _json(r[10])) for r in cursor.fetchall()]


def _seated_at(fixture_ids: list[int]) -> dict[int, list[tuple[int, str, str]]]:
    """Game → who sits at it, (entry id, name, slug) in at-board order (one query)."""
    seated: dict[int, list[tuple[int, str, str]]] = {}
    for fixture_id, entry_id, name, slug in (
        Seat.objects.filter(fixture_id__in=fixture_ids)
        .values_list("fixture_id", "entry_id", "entry__player__name", "entry__player__slug")
        .order_by("fixture_id", "position", "pk")
    ):
        seated.setdefault(fixture_id, []).append((entry_id, name, slug))
    return seated


def _summaries(result_ids: list[int]) -> dict[int, SimpleNamespace]:
    """Result → its move analysis' summary, as ``seat_summary`` reads it (one query)."""
    return {
        pk: SimpleNamespace(analysis_summary=summary, analysis_seats=seats)
        for pk, summary, seats in with_analysis_summary(
            Result.objects.filter(pk__in=result_ids)
        ).values_list("pk", "analysis_summary", "analysis_seats")
    }


def _shown_outcome(entry_id: int, winner_id, placings, counted_pawns, analysed, board, colours):
    """A game's outcome for the entry: (won, place, counted pawns, luck-adjusted result of
    the move analysis); all None without a counted result (``analysed`` None)."""
    if analysed is None:
        return None, None, None, None
    won = _won(entry_id, winner_id, placings)
    place = placings.index(entry_id) + 1 if placings and entry_id in placings else None
    pawns = None
    if isinstance(counted_pawns, dict):  # entry id (JSON: as text) → pawns
        pawns = counted_pawns.get(str(entry_id))
    summary = seat_summary(analysed, board, colours)
    luck_adjusted = (summary.get("luck") or {}).get("luck_adjusted") if summary else None
    return won, place, pawns, luck_adjusted


def _json(value):
    """A JSON column read by raw SQL: decoded by PostgreSQL's driver, text on SQLite."""
    return json.loads(value) if isinstance(value, str) else value


def _analysed(entry_ids: list[int], by_entry: dict[int, PlayerLeague]):
    """League id → the move analyses of the player's counted games there (only analysed
    results are read: their summaries, never the analyses' data)."""
    analysed: dict[int, AnalysedRecord] = {}
    mine = {
        fixture_id: (entry_id, colours)
        for fixture_id, entry_id, colours in Seat.objects.filter(
            entry_id__in=entry_ids,
            fixture__results__state=Result.State.CONFIRMED,
            fixture__results__game_log__analyses__status=GameAnalysis.Status.DONE,
        )
        .values_list("fixture_id", "entry_id", "colours")
        .order_by()
        .distinct()
    }
    rows = (
        with_analysis_summary(
            Result.objects.filter(
                state=Result.State.CONFIRMED,
                fixture_id__in=list(mine),
                game_log__analyses__status=GameAnalysis.Status.DONE,
            ).distinct()
        )
        if mine
        else []
    )
    for result in rows:
        entry_id, colours = mine[result.fixture_id]
        league = by_entry[entry_id].league
        summary = seat_summary(result, league.board, colours)
        if summary:
            analysed.setdefault(league.pk, AnalysedRecord()).add(summary)
    return analysed


def _count_against(record: Record, result: Result, mine: int, theirs: int) -> None:
    record.games += 1
    record.won += result.winner_id == mine
    record.other_won += result.winner_id == theirs
    placings = list(result.placings or [])
    my_place, their_place = _place_in(placings, mine), _place_in(placings, theirs)
    if my_place is not None and their_place is not None:
        record.ahead += my_place < their_place
        record.behind += my_place >= their_place


def _place_in(placings: list[int], entry: int) -> int | None:
    """The 1-based place of ``entry`` in a result's placings (None: not placed)."""
    return placings.index(entry) + 1 if entry in placings else None


def _honours(player: Player, leagues: list[League]) -> list[Honour]:
    """Places 1–3 in the player's finished leagues (titles and medals)."""
    finished = [lg for lg in leagues if lg.status == League.Status.FINISHED]
    honours = [
        Honour(p.league, p.place)
        for places in final_places(finished, wins=False).values()
        for p in places
        if p.player_id == player.pk and p.place <= 3
    ]
    return sorted(honours, key=lambda h: (h.place, -h.league.created_at.timestamp()))


@dataclass
class SharedGame:
    fixture: Fixture
    result: Result
    mine: Seat
    theirs: Seat
    my_place: int | None
    their_place: int | None


@dataclass
class HeadToHead:
    player: Player
    other: Player
    record: Record
    games: list[SharedGame]


def head_to_head(player: Player, other: Player, user) -> HeadToHead:
    """Every counted game both players sat at (in leagues ``user`` may see), oldest
    first, with the record of ``player`` against ``other``."""
    leagues = visible_leagues(user)
    fixtures = (
        Fixture.objects.filter(league__in=leagues, seats__entry__player=player)
        .filter(seats__entry__player=other)
        .select_related("league")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player")),
            Prefetch(
                "results",
                queryset=Result.objects.filter(state=Result.State.CONFIRMED).select_related(
                    "winner__player"
                ),
                to_attr="confirmed_results",
            ),
        )
        .order_by("league__created_at", "league_id", "cycle__number", "round", "number")
        .distinct()
    )
    record, games = Record(), []
    for fixture in fixtures:
        if not fixture.confirmed_results:
            continue
        result = fixture.confirmed_results[0]
        seats = {s.entry.player_id: s for s in fixture.seats.all()}
        mine, theirs = seats[player.pk], seats[other.pk]
        _count_against(record, result, mine.entry_id, theirs.entry_id)
        placings = list(result.placings or [])
        games.append(
            SharedGame(
                fixture,
                result,
                mine,
                theirs,
                _place_in(placings, mine.entry_id),
                _place_in(placings, theirs.entry_id),
            )
        )
    return HeadToHead(player, other, record, games)
