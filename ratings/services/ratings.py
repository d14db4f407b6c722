"""Player ratings kept in step with the counted results: which games are rated, the
incremental update the Celery task runs, and the full recompute.

The walk (docs/ratings.md): a result counts → ``rating_game_counted`` (inside the result's
transaction) records the fixture's rating places under its **rating sequence** and, on
commit, queues ``tournaments.update_ratings`` by name → the task runs ``ratings_update``:
it locks the one ``RatingState`` row (the writer's lock; organizers' writes never take it)
and applies *every* pending game in sequence order, so concurrent commits land in order and
a retried or duplicated task finds nothing to do. A correction or void of a game already
rated (or a game committed late) replays the history from that game on, rewriting only
the rows whose values change; the full recompute (``ratings_recompute``, also ``manage.py
ratings_recompute``) streams every game and writes in batches. Both give the figures of a
replay from scratch bit for bit.
"""

from __future__ import annotations

import datetime as dt
import logging
import operator
import time
from collections import defaultdict
from dataclasses import dataclass
from functools import reduce
from typing import Any

import numpy as np
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Exists, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from ratings.algorithms import (
    FINISHED_COUNT_POINTS,
    RatingError,
    competition_places,
    display_of,
    finishing_places,
    initial_rating,
    plackett_luce,
    plackett_luce_two,  # the two-player case of plackett_luce (the replay's hot loop)
    plackett_luce_two_arrays,  # the same, many games at once (the walk in waves)
)
from ratings.config import PLATFORM_RATINGS
from ratings.models import PlayerRating, RatingChange, RatingClaim, RatingGame, RatingState
from ratings.services import history_io
from tournaments.formats import get_format
from tournaments.models import Entry, Fixture, Player, Result, Seat
from tournaments.permissions import email_confirmed
from tournaments.services import counting
from tournaments.services.broker import task_send

logger = logging.getLogger(__name__)

#: the Celery task (``tournaments/tasks.py``), named rather than imported
UPDATE_TASK = "tournaments.update_ratings"
STATE_ID = 1
#: ``skip_reason`` of a rated game whose result was voided (removed by the next recompute)
VOIDED = "voided"


# --- which games are rated, and how ----------------------------------------------------------


#: ``skip_reason`` of the trust rules (docs/ratings.md, "Which games are rated")
UNVERIFIED_ORGANIZER = "the league's owner has no confirmed e-mail address"
NOT_SANCTIONED = "the league is not rated (not sanctioned by a rating officer)"


def every_league_rated() -> bool:
    """``RATED_LEAGUES=all``: a private club install where every league is rated (its
    owner verified); the default, ``sanctioned``, rates only sanctioned leagues."""
    return getattr(settings, "RATED_LEAGUES", "sanctioned") == "all"


HAND_RESULT_WITHOUT_ACCOUNTS = "a result without a validated log, with a player without an account"


@dataclass(frozen=True, slots=True)
class CountedResult:
    """What the rating places of a counted result depend on: read from a ``Result`` with its
    league (:meth:`of`) or straight from the database in bulk by the resync (no model
    instances: building 1.2 million of them was most of a full recompute at 100×)."""

    pk: int
    fixture_id: int
    source: str
    forfeit_loser_id: int | None
    verified: bool
    winner_id: int | None
    both_finished: list | None
    colour_places: list | None
    counted_pawns: dict | None
    count_points: dict | None
    league_format: str
    league_rated: bool
    owner_id: int
    #: the league owner's account when the caller read it already (else looked up once)
    owner: Any = None

    @classmethod
    def of(cls, result: Result) -> CountedResult:
        league = result.fixture.league
        return cls(
            *(getattr(result, name) for name in COUNTED_FIELDS[:10]),
            league.format,
            league.rated,
            league.owner_id,
            league.owner,
        )


#: the columns of :class:`CountedResult` (the league's after the result's own)
COUNTED_FIELDS = (
    "pk",
    "fixture_id",
    "source",
    "forfeit_loser_id",
    "verified",
    "winner_id",
    "both_finished",
    "colour_places",
    "counted_pawns",
    "count_points",
    "fixture__league__format",
    "fixture__league__rated",
    "fixture__league__owner_id",
)


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A seat of a counted result as the rating places need it."""

    position: int
    entry_id: int
    player_id: int
    has_account: bool

    @classmethod
    def of(cls, seat: Seat) -> SeatedPlayer:
        player = seat.entry.player
        return cls(seat.position, seat.entry_id, player.pk, player.user_id is not None)


#: the columns of :class:`SeatedPlayer` (after the seat's fixture)
SEAT_FIELDS = ("fixture_id", "position", "entry_id", "entry__player_id", "entry__player__user_id")


def rating_refusal(
    result: CountedResult, seats: list[SeatedPlayer], verified_owners: dict[int, bool] | None = None
) -> str:
    """Why a counted result is not rated for trust reasons, or "" (docs/ratings.md):

    0. the league is **rated**: sanctioned by a rating officer (``League.rated``), unless
       ``RATED_LEAGUES=all``, where every league is and rule 1 applies instead;
    1. (``RATED_LEAGUES=all``) the league's **owner is verified**: staff, or an account
       with a confirmed e-mail address (a throwaway account cannot make a league whose
       games move ratings);
    2. a result **without an engine-validated log** (an organizer's hand entry, an
       over-the-board report) is rated only when every player at the board holds an
       account: each of them accepted the entry, is told of the result and may dispute
       it. A hand result with a player without an account is nobody's word but the
       organizer's.

    (Who may be seated at all is the entry rules': an account holder only after
    accepting, a player without an account only by its creator or when shared.)
    """
    if every_league_rated():
        if not _owner_verified(result, verified_owners):
            return UNVERIFIED_ORGANIZER
    elif not result.league_rated:
        # a rating officer's sanction is the trust decision; it replaces the address check
        return NOT_SANCTIONED
    if not result.verified and any(not s.has_account for s in seats):
        return HAND_RESULT_WITHOUT_ACCOUNTS
    return ""


def _owner_verified(result: CountedResult, verified_owners: dict[int, bool] | None) -> bool:
    """Staff, or an account with a confirmed e-mail address (looked up once per owner
    when the caller keeps ``verified_owners``)."""
    known = {} if verified_owners is None else verified_owners
    if result.owner_id not in known:
        owner = result.owner or get_user_model().objects.get(pk=result.owner_id)
        known[result.owner_id] = owner.is_staff or email_confirmed(owner)
    return known[result.owner_id]


def rated_places(
    result: CountedResult,
    seats: list[SeatedPlayer],
    verified_owners: dict[int, bool] | None = None,
) -> tuple[list[list[int]] | None, str]:
    """The rating places of a counted result, or ``None`` and why it is not rated: the
    trust rules (:func:`rating_refusal`) first, then the result itself
    (:func:`result_places`)."""
    if reason := rating_refusal(result, seats, verified_owners):
        return None, reason
    return result_places(result, seats)


def result_places(
    result: CountedResult, seats: list[SeatedPlayer]
) -> tuple[list[list[int]] | None, str]:
    """A counted result as rating places ``[[player_id, place], …]`` in seat order, or
    ``None`` and the reason it is not rated (a forfeit, a result without information).

    The mapping of docs/ratings.md: finished = winner, players who finished all colours,
    then the order their first colour was placed; the others by counted pawns, or by count
    points in a time-limited game (whose "winner" counts only if they really finished).
    """
    if result.forfeit_loser_id is not None or result.source == Result.Source.FORFEIT:
        return None, "forfeit"
    seats = sorted(seats, key=lambda s: s.position)
    to_player = {s.entry_id: s.player_id for s in seats}
    players = [to_player[s.entry_id] for s in seats]
    finished = [to_player[e] for e in _finishing_entries(result) if e in to_player]
    scores, finished_score = _scores(result)
    scores = {to_player[int(k)]: v for k, v in scores.items()}
    scores = {p: v for p, v in scores.items() if p in players} or None
    try:
        places = finishing_places(players, finished, scores, finished_score=finished_score)
    except RatingError as exc:
        return None, str(exc)[:100]
    if places is None:
        return None, "nothing separates the players"
    return [[p, place] for p, place in places], ""


def _finishing_entries(result: CountedResult) -> list[int]:
    """The entries the game placed, best first: the winner (in a time-limited game only if
    they really finished), those who finished all colours, then by their first colour."""
    both = list(result.both_finished or [])
    if result.count_points:
        winner = [result.winner_id] if result.winner_id in both else []
    else:
        winner = [result.winner_id] if result.winner_id is not None else []
    return [*winner, *both, *(result.colour_places or [])]


def _scores(result: CountedResult) -> tuple[dict, float | None]:
    """The other players' scores by entry (count points of a time-limited game, else
    counted pawns) and the score that means "finished everything" (count points only)."""
    if result.count_points:
        fmt = get_format(result.league_format)
        return result.count_points, FINISHED_COUNT_POINTS * fmt.colours_per_player
    return result.counted_pawns or {}, None


def _state_locked() -> RatingState:
    """The ratings writer's lock: the one ``RatingState`` row. Only the ratings task and
    the recompute take it; organizers' result writes never do."""
    try:
        with transaction.atomic():
            RatingState.objects.get_or_create(pk=STATE_ID)
    except IntegrityError:  # created at the same moment by another transaction
        pass
    return RatingState.objects.select_for_update().get(pk=STATE_ID)


def _seats_with_players(fixture: Fixture | int) -> list[Seat] | None:
    """The fixture's seats when the caller read them already with their entries' players
    (a table's post locks the fixture with them: ``results.fixture_lock(table=True)``),
    else None (read them)."""
    cached = getattr(fixture, "_prefetched_objects_cache", {}).get("seats")
    if cached is None:
        return None
    seats = list(cached)
    if all(Seat.entry.is_cached(s) and Entry.player.is_cached(s.entry) for s in seats):
        return seats
    return None


def rating_game_counted(fixture: Fixture | int) -> RatingGame | None:
    """The counted result of ``fixture`` changed (confirmed, corrected, voided): bring its
    rated game in line, inside the caller's transaction, and update the ratings on commit.

    The entry point for every place that makes a result count (leagues, open tournaments;
    live rooms that create a fixture's result call it too). A game seen for the first time
    gets the next rating sequence; a correction keeps its sequence; a change of a game's
    places makes it pending (``applied = False``) and raises its ``revision``; a void
    leaves it pending with no places (``skip_reason = "voided"``), removed by the next
    update. The next update replays the ratings from the earliest pending game on
    (docs/ratings.md). The row is locked ``FOR NO KEY UPDATE``: the ratings task's history
    rows check their foreign key to it with a key-share lock, which this does not block,
    and the task itself never locks rated games until it marks them applied at its end.
    """
    fixture_id = fixture if isinstance(fixture, int) else fixture.pk
    result = (
        Result.objects.filter(fixture_id=fixture_id, state=Result.State.CONFIRMED)
        .select_related("fixture__league__owner")
        .first()
    )
    game = RatingGame.objects.select_for_update(no_key=True).filter(fixture_id=fixture_id).first()
    if result is None:
        _game_voided(game)
    else:
        seats = _seats_with_players(fixture)
        if seats is None:
            seats = list(Seat.objects.filter(fixture_id=fixture_id).select_related("entry__player"))
        places = rated_places(CountedResult.of(result), [SeatedPlayer.of(s) for s in seats])
        game = _game_rated(game, fixture_id, result, *places)
    _enqueue_unless_held()
    return game


def _game_voided(game: RatingGame | None) -> None:
    """A rated game whose result no longer counts: kept (unrated, pending) until the next
    update takes its history out — the task may be writing history rows that point at it
    right now."""
    if game is None or (game.places is None and game.skip_reason == VOIDED):
        return
    game.places, game.skip_reason, game.applied = None, VOIDED, False
    game.revision += 1
    game.save(update_fields=["places", "skip_reason", "applied", "revision"])


def _game_rated(
    game: RatingGame | None, fixture_id: int, result: Result, places, reason: str
) -> RatingGame:
    """The rated game of a counted result: new (the next sequence), or corrected in
    place (pending again if its places changed)."""
    if game is None:
        return RatingGame.objects.create(
            fixture_id=fixture_id,
            result=result,
            places=places,
            skip_reason=reason,
            played_at=result.decided_at or timezone.now(),
        )
    if (game.result_id, game.places, game.skip_reason) == (result.pk, places, reason):
        return game
    if game.places != places:
        game.applied = False  # rated with other places: pending again → replay
    game.result, game.places, game.skip_reason = result, places, reason
    game.revision += 1
    game.save(update_fields=["result", "places", "skip_reason", "applied", "revision"])
    return game


#: the one row of the ratings update's claim (``RatingClaim``)
CLAIM_ID = 1
#: how long a claim on the ratings update lasts: a worker killed mid-run holds it no
#: longer than this, after which the catch-up's task (``ratings-catch-up``) claims it
CLAIM_SECONDS = 60
#: a claim that lasts at least this much longer is a running holder's; measured from the
#: statement (``statement_timestamp()``), not the transaction's start
HELD_SECONDS = 5

#: claims in a row that applied nothing before the task stops (never in a correct run)
IDLE_CLAIMS = 3

_HELD_SQL = f"""SELECT "claimed_until" > statement_timestamp() + interval '{HELD_SECONDS} s'
FROM "{RatingClaim._meta.db_table}" WHERE "id" = %s FOR SHARE"""


def _enqueue_unless_held() -> None:
    """Send the update task on commit unless a worker holds the ratings update (issue 31):
    the holder applies this game (``ratings_update_coalesced``).

    Why it must: the claim's row is read ``FOR SHARE`` in this (the result's) transaction,
    and the holder lets go of its claim with an UPDATE of that row, which waits until this
    transaction has committed; the holder then checks for pending games once more and sees
    this one. Shared locks: results never wait for each other here, only for a holder's
    taking or letting go (one short statement each). A claim that lapses within
    ``HELD_SECONDS`` is not trusted; a holder killed without letting go leaves a claim that
    lapses, and the catch-up task applies what it left. SQLite: the task is always sent."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(_HELD_SQL, [CLAIM_ID])
            row = cursor.fetchone()
        if row is not None and row[0]:
            return
    transaction.on_commit(ratings_enqueue)


def ratings_enqueue() -> None:
    """Send the update task; a broker outage must not fail a submission (the periodic
    catch-up runs the update anyway)."""
    task_send(UPDATE_TASK)


# --- the update ------------------------------------------------------------------------------

#: rated games (and their history rows) read per batch
CHUNK = 2000
#: history rows written per statement (a binary ``COPY`` and one ``UPDATE … FROM``). A
#: change reaching most of the history is replayed too: at 100× the demo the replay of a
#: void of the first game (80,975 games re-rated, 162,907 rows rewritten in place) took
#: half the time of the full recompute it used to hand over to (``REPLAY_SHARE``), whose
#: ``COPY`` of every row also has every row's foreign keys checked at commit
WRITE_BATCH = 20000
#: the rated games after the change from which the walk reads ahead and rewrites in
#: background threads (:func:`history_io.walk_chunks`, :class:`history_io.Rewriter`)
THREADS_FROM = 5 * CHUNK
#: a long walk (from :data:`THREADS_FROM` games before the end) goes in waves of games that
#: share no player, each wave's two-player games rated as arrays (:class:`_WaveChunk`;
#: PostgreSQL); off, game by game (:meth:`_Replay._chunk`)
WAVES = True
#: rated games per batch of the walk in waves (a bigger batch: wider waves, fewer batches
#: to read and write; 16,000 against 8,000 on the 100× site's first-game void, alternately:
#: median 1.99 against 2.30 s over ten runs each, docs/performance.md, session 18)
WAVE_CHUNK = 16000
#: tuple positions of a rated game as :func:`history_io.rated_games` yields it
G_PK, G_PLAYERS, G_APPLIED, G_REVISION, G_REASON, G_PLAYED, G_FIXTURE, G_PLACES = range(8)


def _initial() -> tuple[float, float]:
    rating = initial_rating(PLATFORM_RATINGS)
    return rating.mu, rating.sigma


def _rate(
    befores: list[tuple[float, float]], places: list[int]
) -> list[tuple[int, float, float, float, float, int, int, float]]:
    """One game from its players' ratings before it: per player, in seat order, the values
    of :data:`CHANGE_FIELDS` (the fast openskill update, ``ratings.algorithms.plackett_luce``;
    the displayed ratings as :func:`ratings.algorithms.display_of` computes them)."""
    mus = [b[0] for b in befores]
    sigmas = [b[1] for b in befores]
    new_mus, new_sigmas, forecast = plackett_luce(mus, sigmas, places, PLATFORM_RATINGS)
    if len(places) == 2:
        a, b = places
        ranks = [1 + (b < a), 1 + (a < b)]
    else:
        ranks = competition_places(places)
    offset, scale, z = _DISPLAY
    return [
        (
            ranks[k],
            mus[k],
            sigmas[k],
            new_mus[k],
            new_sigmas[k],
            round(offset + scale * (mus[k] - z * sigmas[k])),
            round(offset + scale * (new_mus[k] - z * new_sigmas[k])),
            forecast[k],
        )
        for k in range(len(mus))
    ]


#: :func:`ratings.algorithms.display_of`'s constants, for :func:`_rate`'s loop
_DISPLAY = (
    PLATFORM_RATINGS.display_offset,
    PLATFORM_RATINGS.display_scale,
    PLATFORM_RATINGS.display_z,
)


def _where_revision(pairs: list[tuple[int, int]]) -> Q:
    """Games at exactly the revision this run read (a change since leaves them pending)."""
    return reduce(operator.or_, (Q(pk=pk, revision=rev) for pk, rev in pairs))


def _settle_games(marks: list[tuple[int, int]], voided: list[tuple[int, int]]) -> None:
    """Mark the pending games this run rated applied, and delete the voided ones it took
    out — each only at the revision it read (the only rated-game rows the task writes)."""
    for i in range(0, len(marks), 500):
        RatingGame.objects.filter(_where_revision(marks[i : i + 500]), applied=False).update(
            applied=True
        )
    for i in range(0, len(voided), 500):
        RatingGame.objects.filter(
            _where_revision(voided[i : i + 500]), places__isnull=True, skip_reason=VOIDED
        ).delete()


def _unnest_update(model, fields, rows: list[tuple]) -> None:
    """Write ``rows`` — tuples of the primary key and ``fields`` — with one ``UPDATE … FROM
    unnest(arrays)`` per :data:`WRITE_BATCH` rows on PostgreSQL: by primary key, so it
    locks only the rows it rewrites and the plan cannot become a scan of the table (an
    unnest is estimated small: index look-ups). Django's ``bulk_update`` builds a ``CASE``
    per field and row (27.9 s for 5,500 history rows) and a ``VALUES`` list of thousands of
    parameters spends seconds in the driver; ``bulk_update`` elsewhere."""
    if not rows:
        return
    meta = model._meta
    columns = [meta.get_field(name) for name in fields]
    if connection.vendor != "postgresql":
        objs = [model(pk=row[0], **dict(zip(fields, row[1:], strict=True))) for row in rows]
        model.objects.bulk_update(objs, fields, batch_size=1000)
        return
    arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in [meta.pk, *columns])
    names = ", ".join(f.column for f in columns)
    assign = ", ".join(f"{f.column} = v.{f.column}" for f in columns)
    sql = (
        f"UPDATE {meta.db_table} AS t SET {assign} "
        f"FROM unnest({arrays}) AS v(id, {names}) WHERE t.{meta.pk.column} = v.id"
    )
    with connection.cursor() as cursor:
        for i in range(0, len(rows), WRITE_BATCH):
            batch = rows[i : i + WRITE_BATCH]
            cursor.execute(sql, [list(column) for column in zip(*batch, strict=True)])


def _update_rows(model, rows: list, fields: tuple[str, ...] | list[str]) -> None:
    """:func:`_unnest_update` of model instances."""
    _unnest_update(
        model,
        fields,
        [
            (row.pk, *(getattr(row, model._meta.get_field(f).attname) for f in fields))
            for row in rows
        ],
    )


class _Writes:
    """The history rows the replay creates, rewrites and deletes, written every
    :data:`WRITE_BATCH` rows (deletes, then rewrites, then new rows: a game is walked
    once, so no row is in two of them)."""

    def __init__(self) -> None:
        self.creates: list[tuple] = []
        self.updates: list[tuple] = []
        self.deletes: list[int] = []
        #: rewritten rows packed many at a time (the waves': :func:`history_io.packed_rewrites`)
        self.packed: list[bytes] = []
        self.packed_rows = 0
        self.counts = {"created": 0, "updated": 0, "deleted": 0}
        self.rewriter = history_io.Rewriter()

    def pending(self) -> int:
        return len(self.creates) + len(self.updates) + self.packed_rows + len(self.deletes)

    def save(self) -> None:
        if self.deletes:
            RatingChange.objects.filter(pk__in=self.deletes).delete()
        self.rewriter.submit(self.updates + self.packed)  # written while the walk goes on
        history_io.insert_history(self.creates)
        self.counts["created"] += len(self.creates)
        self.counts["updated"] += len(self.updates) + self.packed_rows
        self.counts["deleted"] += len(self.deletes)
        self.creates, self.updates, self.deletes = [], [], []
        self.packed, self.packed_rows = [], 0


class _Replay:
    """One pass of the update from the earliest pending game on (docs/ratings.md, "Replay
    from the change").

    The stored history is a fold: each row's "before" is the player's previous "after".
    Walking the rated games from ``start`` in sequence order (one streamed query, plain
    tuples) with their stored history rows (a second streamed query, merged by game), a
    game is rated again only if it is pending (new, corrected, voided) or one of its
    players is **dirty** — their replayed rating differs from the stored one at that point
    (``dirty`` holds the replayed ``(mu, sigma)``). Everyone else's rating there is read
    from the stored rows. A player whose replayed "after" equals the stored one is clean
    again. Rows are written only where a value changed, so a correction of a late game
    reads and writes only the games after it, and rewrites only what its players' changes
    reach.
    """

    def __init__(self, through: int):
        self.through = through
        self.dirty: dict[int, tuple[float, float]] = {}
        self.touched: set[int] = set()
        self.counted: set[int] = set()  # players who gained or lost a history row
        self.current: dict[int, PlayerRating | None] = {}  # stored ratings (before this run)
        self.marks: list[tuple[int, int]] = []
        self.voided: list[tuple[int, int]] = []
        self.newest = through
        self.rated_delta = 0
        self.writes = _Writes()
        self.games = 0
        #: how a rewritten row is recorded (:func:`history_io.rewrite_packer`)
        self.pack = history_io.rewrite_packer()

    @property
    def written(self) -> dict[str, int]:
        return {**self.writes.counts, "games": self.games}

    # -- the stored value of a clean player at a game -------------------------------------

    def _stored_at(self, player: int, sequence: int) -> tuple[float, float]:
        if sequence > self.through:  # after everything stored: the current rating
            row = self.current.get(player)
            return (row.mu, row.sigma) if row else _initial()
        last = (
            RatingChange.objects.filter(player_id=player, sequence__lt=sequence)
            .order_by("-sequence")
            .values_list("mu_after", "sigma_after")
            .first()
        )
        return tuple(last) if last else _initial()

    def _settle(self, player: int, replayed: tuple[float, float], stored: tuple[float, float]):
        if replayed == stored:
            self.dirty.pop(player, None)
        else:
            self.dirty[player] = replayed
            self.touched.add(player)

    # -- the walk --------------------------------------------------------------------------

    def run(self, start: int) -> None:
        # background threads only for a long walk: for a few batches starting two threads
        # costs more than the overlap brings (0.05 s of a 0.12 s void of the latest game)
        long = self.through - start >= THREADS_FROM
        self.writes.rewriter.background = long
        try:
            if long and WAVES and history_io.postgres():
                for games, rows in history_io.array_chunks(start, WAVE_CHUNK):
                    _WaveChunk(self, games, rows).walk()
                    self.writes.save()  # rewritten while the walk rates the next batch
            else:
                for games, rows in history_io.walk_chunks(start, CHUNK, ahead=long):
                    self._chunk(games, rows)
            self.writes.save()
        finally:
            self.writes.rewriter.wait()

    def _chunk(self, games: list[tuple], stored_rows: list[tuple]) -> None:
        """Walk a batch of games with their stored history rows (ordered by game; rows of
        games the walk never sees, if any, are passed over).

        The loop is the replay's hot path (at 100× the demo a void of the first game walks
        105k games and rewrites 217k rows): a two-player game already applied with both
        stored rows — almost every game a replay re-rates — is rated right here (the
        operations of :func:`_rate`, written out: no call but the rating's own, no tuple
        per rewritten row but its packed ``COPY`` row), anything else goes to
        :meth:`_replay_game`. The rewritten rows are handed to the writer at the end of a
        batch (written while the walk rates the next)."""
        fresh = {
            p
            for g in games
            if g[G_PK] > self.through and g[G_PLAYERS] is not None
            for p in g[G_PLAYERS]
        }
        self._load_current(fresh)
        dirty, touched, updates = self.dirty, self.touched, self.writes.updates
        pack = history_io.rewrite_packer()
        rate_two, settings = plackett_luce_two, PLATFORM_RATINGS
        offset, scale, z = _DISPLAY
        rows, i, n = stored_rows, 0, len(stored_rows)
        replayed = 0
        for game in games:
            pk, players = game[0], game[1]
            if game[2] and len(players) == 2:  # applied (so rated), two players
                a, b = players
                if a not in dirty and b not in dirty:  # nothing reaching it changed
                    while i < n and rows[i][1] <= pk:
                        i += 1
                    continue
                while i < n and rows[i][1] < pk:
                    i += 1
                # its two stored rows (ordered by player), and no third
                if i + 1 < n and rows[i + 1][1] == pk and (i + 2 == n or rows[i + 2][1] != pk):
                    ra, rb = rows[i], rows[i + 1]
                    if ra[1] == pk and ra[2] == b and rb[2] == a:
                        ra, rb = rb, ra
                    if ra[1] == pk and ra[2] == a and rb[2] == b:
                        i += 2
                        replayed += 1
                        # _rate of two players, written out (the same operations)
                        mu_a, sigma_a = dirty.get(a) or (ra[4], ra[5])
                        mu_b, sigma_b = dirty.get(b) or (rb[4], rb[5])
                        (new_a, new_b), (sig_a, sig_b), (win_a, win_b) = rate_two(
                            float(mu_a), float(mu_b), float(sigma_a), float(sigma_b),
                            game[7], settings,
                        )  # fmt: skip
                        place_a, place_b = game[7]
                        for p, row, values in (
                            (a, ra, (
                                1 + (place_b < place_a), mu_a, sigma_a, new_a, sig_a,
                                round(offset + scale * (mu_a - z * sigma_a)),
                                round(offset + scale * (new_a - z * sig_a)), win_a,
                            )),
                            (b, rb, (
                                1 + (place_a < place_b), mu_b, sigma_b, new_b, sig_b,
                                round(offset + scale * (mu_b - z * sigma_b)),
                                round(offset + scale * (new_b - z * sig_b)), win_b,
                            )),
                        ):  # fmt: skip
                            if row[3:11] != values:  # rewritten where a value differs
                                if pack is None:
                                    updates.append((row[11], row[0], *values))
                                else:
                                    updates.append(pack(
                                        10, 6, row[11], 8, row[0], 2, values[0],
                                        8, values[1], 8, values[2], 8, values[3],
                                        8, values[4], 4, values[5], 4, values[6],
                                        8, values[7],
                                    ))  # fmt: skip
                            if values[3] == row[6] and values[4] == row[7]:
                                dirty.pop(p, None)  # the stored "after": clean again
                            else:
                                dirty[p] = (values[3], values[4])
                                touched.add(p)
                        continue
            elif game[2] and not any(p in dirty for p in players):
                while i < n and rows[i][1] <= pk:
                    i += 1
                continue
            stored = {}
            while i < n and rows[i][1] <= pk:
                if rows[i][1] == pk:
                    stored[rows[i][2]] = rows[i]
                i += 1
            self._replay_game(game, stored)
        self.games += replayed
        if self.writes.pending() >= WRITE_BATCH:
            self.writes.save()

    def _replay_game(self, game: tuple, stored: dict[int, tuple]) -> None:
        """Rate one game again from its players' replayed ratings; its stored rows are
        updated, created or deleted as the result says."""
        self.games += 1
        if not game[G_APPLIED]:
            self._note_pending(game, stored)
        if game[G_PLAYERS] is None:
            players, places = [], []
        else:
            players, places = game[G_PLAYERS], game[G_PLACES]
        for p, row in stored.items():
            if p not in players:  # no longer in this game (or the game no longer rated)
                self._drop(p, row)
        if not players:
            return
        dirty = self.dirty
        befores = []
        for p in players:  # the rating before the game: replayed (dirty), else as stored
            before = dirty.get(p)
            if before is None:
                row = stored.get(p)
                before = (row[4], row[5]) if row is not None else self._stored_at(p, game[G_PK])
            befores.append(before)
        updates = self.writes.updates
        for p, values in zip(players, _rate(befores, places), strict=True):
            row = stored.get(p)
            if row is None:
                self._create(game, p, values)
                continue
            if row[3:11] != values:  # the stored row, rewritten where a value differs
                updates.append(history_io.rewritten(row, values, self.pack))
            after = (values[3], values[4])
            if after == (row[6], row[7]):  # the replayed "after" is the stored one: clean
                dirty.pop(p, None)
            else:
                dirty[p] = after
                self.touched.add(p)

    def _note_pending(self, game: tuple, stored: dict[int, tuple]) -> None:
        """A pending game: marked applied (or deleted, voided) at the revision read."""
        places = game[G_PLAYERS]
        self.newest = max(self.newest, game[G_PK])
        if places is None and game[G_REASON] == VOIDED:
            self.voided.append((game[G_PK], game[G_REVISION]))
        else:
            self.marks.append((game[G_PK], game[G_REVISION]))
        self.rated_delta += (places is not None) - bool(stored)

    def _drop(self, player: int, row: tuple) -> None:
        """The player's row of a game they are no longer rated in."""
        replayed = self.dirty.get(player, (row[4], row[5]))
        self.writes.deletes.append(row[0])
        self.counted.add(player)
        self.touched.add(player)
        self._settle(player, replayed, (row[6], row[7]))

    def _create(self, game: tuple, player: int, values: tuple) -> None:
        """A new row: the player is newly seated in this game, or the game is new."""
        pk = game[G_PK]
        self.writes.creates.append((player, pk, game[G_FIXTURE], pk, *values, game[G_PLAYED]))
        self.counted.add(player)
        self.touched.add(player)
        self.dirty[player] = (values[3], values[4])

    def _load_current(self, players: set[int]) -> None:
        missing = players - self.current.keys()
        if missing:
            found = {r.player_id: r for r in PlayerRating.objects.filter(player_id__in=missing)}
            for p in missing:
                self.current[p] = found.get(p)

    # -- the players' current ratings -----------------------------------------------------

    def save_players(self) -> int:
        players = self.touched | set(self.dirty)
        if not players:
            return 0
        self._load_current(players)
        counts = _history_counts(self.counted)
        changed, fresh, gone = [], [], []
        for p in sorted(players):
            row = self.current.get(p)
            games, last = counts.get(p, (row.games, row.last_played_at) if row else (0, None))
            if games == 0:
                if row is not None:
                    gone.append(row.pk)
                continue
            mu, sigma = self.dirty.get(p) or (row.mu, row.sigma)
            if row is None:
                row = PlayerRating(player_id=p)
                fresh.append(row)
            else:
                changed.append(row)
            row.mu, row.sigma = mu, sigma
            row.display = display_of(mu, sigma, PLATFORM_RATINGS)
            row.games, row.last_played_at = games, last
        fields = ["mu", "sigma", "display", "games", "last_played_at"]
        _update_rows(PlayerRating, changed, fields)
        PlayerRating.objects.bulk_create(fresh, batch_size=1000)
        PlayerRating.objects.filter(pk__in=gone).delete()
        return len(players)


class _WaveChunk:
    """A batch of the walk (:func:`history_io.array_chunks`: games and stored rows as
    arrays) walked in **waves** (docs/ratings.md, "The walk in waves").

    A game's ratings depend only on its players' ratings before it, so a game's wave is one
    more than the latest wave of a game before it of any of its players (seated or with a
    stored row): the games of a wave share no player, and walking wave after wave keeps
    every player's games in sequence order — the walk of :meth:`_Replay._chunk`, game for
    game, in another order of independent steps. A wave's two-player games applied with
    both stored rows (almost all) are rated as arrays (``plackett_luce_two_arrays``, the
    same floats); the others go one by one to :meth:`_Replay._replay_game`.

    The players' state (dirty, and the replayed rating) lives in arrays over the batch's
    players while it is walked (the replay's ``dirty`` dict handed over at both ends and
    around each game walked one by one); the rows whose values changed are packed into
    the rewrite's binary ``COPY`` all at once."""

    def __init__(self, replay: _Replay, games, rows) -> None:
        self.replay = replay
        self.games, self.rows = games, rows
        self.pk = games["pk"].astype(np.int64)
        seats = games["seats"].astype(np.int64)
        self.players = np.stack(
            [games[f"p{k}"] for k in range(history_io.ARRAY_SEATS)], axis=1
        ).astype(np.int64)
        self.places = np.stack(
            [games[f"q{k}"] for k in range(history_io.ARRAY_SEATS)], axis=1
        ).astype(np.int64)
        row_game, self.row_player = rows["game"], rows["player"]
        count = len(row_game)
        #: the stored rows' values by field
        self.stored = {name: rows[name] for name in history_io.CHANGE_FIELDS}
        self.first = np.searchsorted(row_game, self.pk, "left")
        self.end = np.searchsorted(row_game, self.pk, "right")
        # the two-player games applied with their two stored rows, and which row is whose
        two = games["applied"] & (seats == 2) & (self.end - self.first == 2)
        if count:
            r0 = np.minimum(self.first, count - 1)
            r1 = np.minimum(self.first + 1, count - 1)
            p0, p1 = self.row_player[r0], self.row_player[r1]
            in_order = (p0 == self.players[:, 0]) & (p1 == self.players[:, 1])
            two &= in_order | ((p0 == self.players[:, 1]) & (p1 == self.players[:, 0]))
            self.row_a = np.where(in_order, r0, r1)
            self.row_b = np.where(in_order, r1, r0)
        else:
            two &= False
        self.two = two
        # the others, as the tuples :meth:`_Replay._replay_game` takes
        others = np.flatnonzero(~two)
        self.others: dict[int, tuple[tuple, dict[int, tuple]]] = {
            g: (game, {})
            for g, game in zip(others.tolist(), history_io.game_tuples(games, others), strict=True)
        }
        # their stored rows: the rows whose game is one of them
        of_game = np.minimum(np.searchsorted(self.pk, row_game), len(self.pk) - 1)
        theirs = np.flatnonzero((self.pk[of_game] == row_game) & ~two[of_game])
        stored = history_io.row_tuples(rows, theirs)
        for g, row in zip(of_game[theirs].tolist(), stored, strict=True):
            self.others[g][1][row[2]] = row
        seated = [
            p for game, stored in self.others.values() for p in [*(game[G_PLAYERS] or ()), *stored]
        ]
        self.everyone = np.unique(
            np.concatenate([self.players[two, :2].ravel(), np.asarray(seated, dtype=np.int64)])
        )
        fresh = self.players[two & (self.pk > replay.through), :2].ravel().tolist()
        fresh += [p for g, (game, _) in self.others.items() if game[G_PK] > replay.through
                  for p in game[G_PLAYERS] or ()]  # fmt: skip
        replay._load_current(set(fresh))
        count = len(self.everyone)
        self.index = dict(zip(self.everyone.tolist(), range(count), strict=True))
        self.dirty = np.zeros(count, dtype=bool)
        self.touched = np.zeros(count, dtype=bool)
        self.mu = np.zeros(count)
        self.sigma = np.zeros(count)
        self.rewrites: list[tuple[np.ndarray, dict[str, np.ndarray]]] = []

    def _local(self, players) -> np.ndarray:
        return np.searchsorted(self.everyone, np.asarray(players, dtype=np.int64))

    # -- the state handed over with the replay's dict --------------------------------------

    def _from_replay(self, local: np.ndarray) -> None:
        dirty = self.replay.dirty
        states = [dirty.get(p) for p in self.everyone[local].tolist()]
        is_dirty = np.fromiter((s is not None for s in states), dtype=bool, count=len(states))
        self.dirty[local] = is_dirty
        if is_dirty.any():
            replayed = np.array([s for s in states if s is not None], dtype=np.float64)
            self.mu[local[is_dirty]] = replayed[:, 0]
            self.sigma[local[is_dirty]] = replayed[:, 1]

    def _to_replay(self, local: np.ndarray) -> None:
        dirty = self.replay.dirty
        states = zip(
            self.everyone[local].tolist(),
            self.dirty[local].tolist(),
            self.mu[local].tolist(),
            self.sigma[local].tolist(),
            strict=True,
        )
        for p, is_dirty, mu, sigma in states:
            if is_dirty:
                dirty[p] = (mu, sigma)
            else:
                dirty.pop(p, None)

    # -- the walk --------------------------------------------------------------------------

    def _waves(self) -> list[np.ndarray]:
        """The batch's games (indices) per wave, each in sequence order."""
        local_a = self._local(self.players[:, 0]).tolist()
        local_b = self._local(self.players[:, 1]).tolist()
        index = self.index
        others = {
            g: [index[p] for p in {*(game[G_PLAYERS] or ()), *stored}]
            for g, (game, stored) in self.others.items()
        }
        latest = [0] * len(self.everyone)
        wave = [0] * len(self.pk)
        for g, two in enumerate(self.two.tolist()):
            if two:
                a, b = local_a[g], local_b[g]
                w = max(latest[a], latest[b]) + 1
                latest[a] = latest[b] = w
            else:
                players = others[g]
                w = max((latest[p] for p in players), default=0) + 1
                for p in players:
                    latest[p] = w
            wave[g] = w
        waves = np.asarray(wave, dtype=np.int64)
        order = np.argsort(waves, kind="stable")
        cuts = np.flatnonzero(np.diff(waves[order])) + 1
        return np.split(order, cuts)

    def walk(self) -> None:
        replay = self.replay
        everyone = np.arange(len(self.everyone))
        self._from_replay(everyone)
        created = len(replay.writes.creates)
        for wave in self._waves():
            two = self.two[wave]
            self._rate_twos(wave[two])
            if not two.all():
                self._one_by_one(wave[~two].tolist())
        self._to_replay(everyone)
        replay.touched.update(self.everyone[self.touched].tolist())
        # new rows in sequence order, as the walk game by game creates them
        replay.writes.creates[created:] = sorted(
            replay.writes.creates[created:], key=operator.itemgetter(1)
        )
        self._pack()

    def _one_by_one(self, wave: list[int]) -> None:
        """A wave's other games, one by one (:meth:`_Replay._replay_game`), their players'
        state handed over to the replay's dict and back (once for the wave: its games
        share no player)."""
        games = [self.others[g] for g in wave]
        index = self.index
        local = np.fromiter(
            (index[p] for game, stored in games for p in {*(game[G_PLAYERS] or ()), *stored}),
            dtype=np.int64,
        )
        self._to_replay(local)
        dirty = self.replay.dirty
        for game, stored in games:
            if not game[G_APPLIED] or any(p in dirty for p in game[G_PLAYERS] or ()):
                self.replay._replay_game(game, stored)
        self._from_replay(local)
        self.touched[local] |= self.dirty[local]

    def _rate_twos(self, wave: np.ndarray) -> None:
        """A wave's two-player games: those with a dirty player rated as arrays, the
        stored rows compared and the changed ones kept for the rewrite."""
        a = self._local(self.players[wave, 0])
        b = self._local(self.players[wave, 1])
        active = self.dirty[a] | self.dirty[b]
        if not active.any():
            return  # nothing reaching these games changed
        wave, a, b = wave[active], a[active], b[active]
        row_a, row_b = self.row_a[wave], self.row_b[wave]
        mu_before, sigma_before = self.stored["mu_before"], self.stored["sigma_before"]
        mu_a = np.where(self.dirty[a], self.mu[a], mu_before[row_a])
        sigma_a = np.where(self.dirty[a], self.sigma[a], sigma_before[row_a])
        mu_b = np.where(self.dirty[b], self.mu[b], mu_before[row_b])
        sigma_b = np.where(self.dirty[b], self.sigma[b], sigma_before[row_b])
        place_a, place_b = self.places[wave, 0], self.places[wave, 1]
        new_a, new_b, new_sigma_a, new_sigma_b, win_a, win_b = plackett_luce_two_arrays(
            mu_a, mu_b, sigma_a, sigma_b, place_a, place_b, PLATFORM_RATINGS
        )
        self.replay.games += len(wave)
        for local, row, values in (
            (a, row_a, (1 + (place_b < place_a), mu_a, sigma_a, new_a, new_sigma_a, win_a)),
            (b, row_b, (1 + (place_a < place_b), mu_b, sigma_b, new_b, new_sigma_b, win_b)),
        ):
            self._settle(local, row, *values)

    def _settle(self, local, row, place, mu, sigma, new_mu, new_sigma, win) -> None:
        """One side of a wave's games: the changed rows kept, the players' state set (dirty
        unless the replayed "after" is the stored one)."""
        offset, scale, z = _DISPLAY
        values = {
            "place": place,
            "mu_before": mu,
            "sigma_before": sigma,
            "mu_after": new_mu,
            "sigma_after": new_sigma,
            "display_before": np.rint(offset + scale * (mu - z * sigma)),
            "display_after": np.rint(offset + scale * (new_mu - z * new_sigma)),
            "win_probability": win,
        }
        stored = self.stored
        changed = np.zeros(len(row), dtype=bool)
        for name, value in values.items():
            changed |= stored[name][row] != value
        if changed.any():
            self.rewrites.append(
                (row[changed], {name: value[changed] for name, value in values.items()})
            )
        clean = (new_mu == stored["mu_after"][row]) & (new_sigma == stored["sigma_after"][row])
        self.dirty[local] = ~clean
        self.touched[local] |= ~clean
        self.mu[local] = new_mu
        self.sigma[local] = new_sigma

    def _pack(self) -> None:
        if not self.rewrites:
            return
        rows = np.concatenate([row for row, _ in self.rewrites])
        # in the stored rows' order (by game: mostly their order on disk) rather than the
        # waves': the rewrite's Tid Scans then walk the table's pages in order
        order = np.argsort(rows, kind="stable")
        rows = rows[order]
        values = {
            name: np.concatenate([v[name] for _, v in self.rewrites])[order]
            for name in history_io.CHANGE_FIELDS
        }
        writes = self.replay.writes
        tid, pk = self.rows["tid"][rows], self.rows["pk"][rows]
        writes.packed.append(history_io.packed_rewrites(tid, pk, values))
        writes.packed_rows += len(rows)


def _history_counts(players: set[int]) -> dict[int, tuple[int, Any]]:
    """Per player: how many history rows they have and when they last played."""
    if not players:
        return {}
    latest = RatingChange.objects.filter(player_id=OuterRef("pk")).order_by("-sequence")
    number = (
        RatingChange.objects.filter(player_id=OuterRef("pk"))
        .values("player_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return {
        pk: (n or 0, last)
        for pk, n, last in Player.objects.filter(pk__in=players).values_list(
            "pk", Subquery(number), Subquery(latest.values("played_at")[:1])
        )
    }


def ratings_update() -> dict[str, Any]:
    """Apply every pending rated game under the ratings writer's lock (the rating state
    row), replaying from the earliest one.

    New games after everything applied are an append; a pending game at or below what was
    applied (a correction, a void, a game whose transaction committed late) replays the
    history from that game on, rewriting only what changes (:class:`_Replay`), so the
    figures always equal a recompute from scratch. Idempotent: a game is marked applied at
    the revision it was rated, so a retried or duplicated task finds nothing to do and a
    correction committed meanwhile stays pending for the next run.
    """
    with transaction.atomic():
        state = _state_locked()
        if state.needs_recompute:
            return _recompute_locked(state, resync=False)
        start = (
            RatingGame.objects.filter(applied=False)
            .order_by("pk")
            .values_list("pk", flat=True)
            .first()
        )
        if start is None:
            return {"status": "up to date", "applied": 0, "through": state.applied_through}
        replay = _Replay(state.applied_through)
        replay.run(start)
        players = replay.save_players()
        _settle_games(replay.marks, replay.voided)
        state.applied_through = replay.newest
        state.games_rated += replay.rated_delta
        state.save(update_fields=["applied_through", "games_rated", "updated_at"])
        return {
            "status": "replayed" if start <= replay.through else "updated",
            "applied": len(replay.marks) + len(replay.voided),
            "from": start,
            "players": players,
            "through": state.applied_through,
            **replay.written,
        }


def ratings_update_coalesced() -> dict[str, Any]:
    """The ratings task: ``ratings_update`` by one worker at a time (issue 31).

    A worker **claims** the update with a conditional UPDATE of ``RatingClaim``'s row
    (empty or past); a task that finds it claimed does nothing, since the holder updates
    again before it lets go whenever a game is still pending, and checks once more after
    letting go (a result that sent no task because of the claim committed before that:
    ``_enqueue_unless_held``). So a burst of N results costs one task, or a few, and every
    game is applied. Nothing pending (and no recompute asked for): nothing done."""
    outcome: dict[str, Any] = {"status": "up to date", "applied": 0}
    idle = 0  # claims in a row under which nothing was applied although a game was pending
    while True:
        pending, claimed_until = _pending_and_claim()
        if not pending:
            return outcome
        if idle >= IDLE_CLAIMS:  # a game no run can take (a bug): left to the catch-up
            logger.warning("ratings update: a game stays pending; left to the catch-up")
            return outcome
        # a claim seen running is left to its holder without trying to take it
        if claimed_until is not None and claimed_until > timezone.now():
            return {"status": "claimed by another worker", "applied": 0}
        claim = _claim()
        if claim is None:
            return {"status": "claimed by another worker", "applied": 0}
        held, before = [claim], outcome.get("applied", 0)
        try:
            outcome = _update_while_pending(outcome, held)
            idle = idle + 1 if outcome.get("applied", 0) == before else 0
        finally:
            RatingClaim.objects.filter(pk=CLAIM_ID, claimed_until=held[0]).update(
                claimed_until=None
            )


def _update_while_pending(outcome: dict[str, Any], held: list) -> dict[str, Any]:
    """Under the claim (``held[0]``, renewed before each run): update until no game is
    pending; the outcome to report (the last run's, with every run's games in
    ``applied``). After a run the holder keeps the claim until ``RATINGS_UPDATE_SPACING``
    seconds after that run started and checks again: under a burst the results of that
    pause send no task and are taken by one run (at 4.6 uploads/s a holder that let go
    at once still left 67 tasks for 77 uploads: most results landed between runs)."""
    applied = outcome.get("applied", 0)
    spacing = float(getattr(settings, "RATINGS_UPDATE_SPACING", 0.0))
    started = None
    while True:
        if started is not None and (pause := started + spacing - time.monotonic()) > 0:
            time.sleep(pause)
        if not _pending_and_claim()[0]:
            return outcome
        if started is not None:  # renewed: a long burst must not outlast the claim
            renewed = timezone.now() + dt.timedelta(seconds=CLAIM_SECONDS)
            if not RatingClaim.objects.filter(pk=CLAIM_ID, claimed_until=held[0]).update(
                claimed_until=renewed
            ):
                return outcome  # lapsed and taken by another worker: its holder goes on
            held[0] = renewed
        started = time.monotonic()
        step = ratings_update()
        applied += step.get("applied", 0)
        outcome = {**step, "applied": applied}
        if not step.get("applied"):
            return outcome  # nothing left that this run could apply (another writer took it)


def _pending_and_claim() -> tuple[bool, Any]:
    """Whether a rated game is pending (or a recompute asked for) and, in the same query,
    until when the update is claimed."""
    pending = Exists(RatingGame.objects.filter(applied=False)) | Exists(
        RatingState.objects.filter(pk=STATE_ID, needs_recompute=True)
    )
    row = (
        RatingClaim.objects.filter(pk=CLAIM_ID)
        .annotate(pending=pending)
        .values_list("pending", "claimed_until")
        .first()
    )
    if row is None:  # no claim row yet (a flushed database): nobody holds the update
        waiting = RatingGame.objects.filter(applied=False).exists()
        return waiting or RatingState.objects.filter(needs_recompute=True).exists(), None
    return bool(row[0]), row[1]


def _claim():
    """Claim the ratings update (a conditional UPDATE, race-safe); the claim's value, or
    ``None`` if another worker holds an unexpired claim."""
    now = timezone.now()
    until = now + dt.timedelta(seconds=CLAIM_SECONDS)
    claimed = (
        RatingClaim.objects.filter(pk=CLAIM_ID)
        .filter(Q(claimed_until__isnull=True) | Q(claimed_until__lt=now))
        .update(claimed_until=until)
    )
    if claimed:
        return until
    # refused, or the row is missing (a flushed database): create it claimed only if it
    # does not exist — one statement, race-safe (no failing INSERT, no savepoint)
    return until if _claim_row_created(until) else None


def _claim_row_created(until) -> bool:
    """``INSERT … ON CONFLICT DO NOTHING`` of the claim's row, claimed until ``until``:
    whether this statement created it (PostgreSQL and SQLite)."""
    table = connection.ops.quote_name(RatingClaim._meta.db_table)
    value = connection.ops.adapt_datetimefield_value(until)
    with connection.cursor() as cursor:
        cursor.execute(
            f'INSERT INTO {table} ("id", "claimed_until") VALUES (%s, %s) '
            'ON CONFLICT ("id") DO NOTHING RETURNING "id"',
            [CLAIM_ID, value],
        )
        return cursor.fetchone() is not None


def ratings_recompute(*, resync: bool = True) -> dict[str, Any]:
    """Rebuild every rating and the whole history from scratch, in sequence order.

    With ``resync`` the rated games are first brought in line with the counted results
    (games whose result counts but has no rating sequence yet get one, in the order their
    results were decided; games no longer counted are dropped; places recomputed).
    """
    with transaction.atomic():
        state = _state_locked()
        return _recompute_locked(state, resync=resync)


def _resync() -> None:
    """The rated games in line with the counted results, streamed in batches of plain
    values (no model instances); only the games whose places changed are written."""
    counted = (
        Result.objects.filter(state=Result.State.CONFIRMED)
        .annotate(first_counted=Coalesce("decided_at", "created_at"))
        .order_by("decided_at", "pk")
        .values_list(*COUNTED_FIELDS, "first_counted")
    )
    verified_owners: dict[int, bool] = {}  # one look-up per league owner
    batch: list[tuple] = []
    for row in counted.iterator(chunk_size=CHUNK):
        batch.append(row)
        if len(batch) == CHUNK:
            _resync_batch(batch, verified_owners)
            batch = []
    _resync_batch(batch, verified_owners)
    is_counted = Result.objects.filter(
        fixture_id=OuterRef("fixture_id"), state=Result.State.CONFIRMED
    )
    RatingGame.objects.exclude(Exists(is_counted)).delete()


def _resync_batch(rows: list[tuple], verified_owners: dict[int, bool]) -> None:
    if not rows:
        return
    fixture_ids = [row[1] for row in rows]
    seats: dict[int, list[SeatedPlayer]] = defaultdict(list)
    for fixture_id, position, entry_id, player_id, user_id in Seat.objects.filter(
        fixture_id__in=fixture_ids
    ).values_list(*SEAT_FIELDS):
        seats[fixture_id].append(SeatedPlayer(position, entry_id, player_id, user_id is not None))
    games = {
        row[0]: row
        for row in RatingGame.objects.filter(fixture_id__in=fixture_ids).values_list(
            "fixture_id", "pk", "result_id", "places", "skip_reason", "revision"
        )
    }
    fresh, changed = [], []
    for *facts, first_counted in rows:
        result = CountedResult(*facts)
        places, reason = rated_places(result, seats[result.fixture_id], verified_owners)
        game = games.get(result.fixture_id)
        if game is None:
            fresh.append(
                RatingGame(
                    fixture_id=result.fixture_id,
                    result_id=result.pk,
                    places=places,
                    skip_reason=reason,
                    played_at=first_counted,
                )
            )
        elif game[2:5] != (result.pk, places, reason):
            changed.append(
                RatingGame(
                    pk=game[1],
                    result_id=result.pk,
                    places=places,
                    skip_reason=reason,
                    revision=game[5] + 1,
                )
            )
    RatingGame.objects.bulk_create(fresh)  # sequences in the results' order
    fields = ["result", "places", "skip_reason", "revision"]
    RatingGame.objects.bulk_update(changed, fields, batch_size=500)


def _recompute_locked(state: RatingState, *, resync: bool) -> dict[str, Any]:
    """Every rating from scratch: the rated games streamed in sequence order, the history
    written in batches; only the pending games are marked (at the revision read)."""
    if resync:
        _resync()
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    current: dict[int, tuple[float, float]] = {}
    played: dict[int, list] = {}  # per player: [games, last game]
    history: list[tuple] = []
    marks: list[tuple[int, int]] = []
    voided: list[tuple[int, int]] = []
    rated = 0
    newest = state.applied_through
    initial = _initial()
    games = history_io.rated_games(0, everything=True, size=CHUNK)
    for pk, players, applied, revision, reason, played_at, fixture_id, ranks in games:
        if not applied:
            newest = max(newest, pk)
            if players is None and reason == VOIDED:
                voided.append((pk, revision))
                continue
            marks.append((pk, revision))
        if players is None:
            continue
        rated += 1
        changes = _rate([current.get(p, initial) for p in players], ranks)
        for p, values in zip(players, changes, strict=True):
            current[p] = (values[3], values[4])
            history.append((p, pk, fixture_id, pk, *values, played_at))
            count = played.get(p)
            if count is None:
                played[p] = [1, played_at]
            else:
                count[0] += 1
                count[1] = played_at
        if len(history) >= WRITE_BATCH:
            history_io.insert_history(history)
            history = []
    history_io.insert_history(history)
    PlayerRating.objects.bulk_create(
        (
            PlayerRating(
                player_id=p,
                mu=mu,
                sigma=sigma,
                display=display_of(mu, sigma, PLATFORM_RATINGS),
                games=played[p][0],
                last_played_at=history_io.as_datetime(played[p][1]),
            )
            for p, (mu, sigma) in current.items()
        ),
        batch_size=1000,
    )
    _settle_games(marks, voided)
    state.applied_through = newest
    state.games_rated = rated
    state.needs_recompute = False
    state.recomputed_at = timezone.now()
    state.save()
    return {
        "status": "recomputed",
        "applied": rated,
        "players": len(current),
        "through": state.applied_through,
    }


# --- a subscriber of counted results (tournaments/services/counting.py, docs/architecture.md)
#: the rated game in line with the counted result, the ratings updated on commit
counting.subscribe("ratings", order=100)(rating_game_counted)
