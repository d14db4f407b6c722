"""Reading and writing the rating history in bulk (issue 31): the rated games and history
rows as plain tuples, new rows and rewritten rows in one statement per batch.

On PostgreSQL the reads are server-side cursors with binary results (psycopg's C loaders:
no Django converters, no datetime per game — ``played_at`` travels as microseconds since
the Unix epoch), and the writes binary ``COPY`` streams packed with ``struct`` (one call per
row): new rows straight into the history table, rewritten rows into a temporary table and
then one ``UPDATE … FROM`` it by the rows' physical address (``ctid``, read with them).
A long walk reads ahead and rewrites in two background threads on the transaction's own
connection (:func:`walk_chunks`, :class:`Rewriter`). Building the same with Django's machinery
(model instances, ``bulk_update``'s ``CASE``, psycopg's array dumping, a regular expression
per value) cost more than the ratings themselves. Elsewhere (SQLite: ``make run``) the
ORM does the same work the slow way.

Every statement run here outside Django's cursor is entered into Django's query log when
it is kept (tests count queries), the background threads' into the caller's."""

from __future__ import annotations

import bisect
import contextlib
import datetime as dt
import itertools
import operator
import queue
import struct
import threading
from collections.abc import Iterable, Iterator

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections

from ratings.models import RatingChange, RatingGame

#: a rated game as the walk reads it (``places`` read from the database; :func:`rated_games`
#: yields the players and their places as two lists in its stead, and the places last)
GAME_FIELDS = ("pk", "places", "applied", "revision", "skip_reason", "played_at", "fixture_id")
#: a stored history row: its id, game and player, then the recomputed values
CHANGE_FIELDS = (
    "place",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
    "display_before",
    "display_after",
    "win_probability",
)
STORED_FIELDS = ("pk", "game_id", "player_id", *CHANGE_FIELDS)
#: where a stored row's tuple ends: :func:`history_row_batches` adds the row's physical address
#: (``ctid``) after :data:`STORED_FIELDS` on PostgreSQL (None elsewhere)
STORED_TID = len(STORED_FIELDS)
#: the columns of a new history row
HISTORY_COLUMNS = ("player_id", "game_id", "fixture_id", "sequence", *CHANGE_FIELDS, "played_at")

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
#: PostgreSQL's binary timestamps count from 2000-01-01 (in microseconds)
_PG_EPOCH_US = 946_684_800_000_000
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_COPY_TRAILER = struct.pack(">h", -1)
# binary COPY rows: a field count, then per field its length and value (network order)
_NEW_ROW = struct.Struct(">h" + "iq" * 4 + "ih" + "id" * 4 + "ii" * 2 + "id" + "iq")
_REWRITTEN_ROW = struct.Struct(">h" + "i6s" + "iq" + "ih" + "id" * 4 + "ii" * 2 + "id")
_REWRITE_TABLE = "ratings_history_rewrite"
_cursors = itertools.count(1)
#: read ahead and rewrite in background threads on PostgreSQL (:func:`walk_chunks`,
#: :class:`Rewriter`); off, everything runs in the caller's thread, one statement at a time
THREADS = True


def postgres() -> bool:
    return connection.vendor == "postgresql"


def as_datetime(played) -> dt.datetime:
    """A game's ``played_at`` as read here (microseconds on PostgreSQL) as a datetime."""
    if isinstance(played, int):
        return _EPOCH + dt.timedelta(microseconds=played)
    return played


def _db():
    """This thread's database connection (Django's wrapper), handed to the threads below:
    they use its psycopg connection (inside its transaction) and its query log."""
    db = connections[DEFAULT_DB_ALIAS]
    db.ensure_connection()
    return db


def _log(sql: str, db=None) -> None:
    db = db or connection
    if db.queries_logged:
        db.queries_log.append({"sql": sql, "time": "0.000"})


def _batches(sql: str, params: list, size: int, db=None) -> Iterator[list[tuple]]:
    """Rows of ``sql`` from a server-side cursor in binary, as lists of ``size`` rows
    (inside the caller's transaction: other statements may run between the fetches)."""
    db = db or _db()
    _log(sql, db)
    cursor = psycopg.ServerCursor(db.connection, f"ratings_history_{next(_cursors)}")
    try:
        cursor.itersize = size
        cursor.execute(sql, params, binary=True)
        while rows := cursor.fetchmany(size):
            yield rows
    finally:
        cursor.close()


def _orm_batches(rows, size: int) -> Iterator[list[tuple]]:
    rows = iter(rows)
    while batch := list(itertools.islice(rows, size)):
        yield batch


def rated_games(start: int, *, everything: bool, size: int) -> Iterator[tuple]:
    """The rated games from sequence ``start`` on, in sequence order, as tuples ``(pk,
    players, applied, revision, skip_reason, played_at, fixture_id, places)``: the
    players and their places in seat order as two lists of ints (both None for a game
    not rated); every game (``everything``) or only those the walk needs (rated, or
    pending)."""
    for batch in rated_game_batches(start, everything=everything, size=size):
        yield from batch


def rated_game_batches(
    start: int, *, everything: bool, size: int, db=None
) -> Iterator[list[tuple]]:
    """:func:`rated_games` in lists of ``size``."""
    if not postgres():
        games = RatingGame.objects.filter(pk__gte=start).order_by("pk")
        if not everything:
            games = games.exclude(places__isnull=True, applied=True)
        for batch in _orm_batches(games.values_list(*GAME_FIELDS).iterator(size), size):
            yield [
                (pk, None, *rest, None)
                if places is None
                else (pk, [int(p) for p, _ in places], *rest, [int(q) for _, q in places])
                for pk, places, *rest in batch
            ]
        return
    table = RatingGame._meta.db_table
    where = "" if everything else " AND (places IS NOT NULL OR NOT applied)"
    # places ([[player, place], …], ints) flattened by the server into one int8 array,
    # loaded by psycopg's C array loader and split by slicing: json.loads of every game's
    # places was a fifth of a replay's CPU at 100×
    sql = (
        "SELECT id, ('{' || translate(places::text, '[] ', '') || '}')::int8[], applied, "
        "revision, skip_reason, (EXTRACT(EPOCH FROM played_at) * 1000000)::int8, fixture_id "
        f"FROM {table} WHERE id >= %s{where} ORDER BY id"
    )
    for batch in _batches(sql, [start], size, db):
        yield [
            (pk, None, applied, revision, reason, played, fixture, None)
            if flat is None
            else (pk, flat[0::2], applied, revision, reason, played, fixture, flat[1::2])
            for pk, flat, applied, revision, reason, played, fixture in batch
        ]


def history_row_batches(start: int, *, size: int, db=None) -> Iterator[list[tuple]]:
    """The stored history rows of the games from sequence ``start`` on, ordered by game,
    in lists of ``size``, as tuples of :data:`STORED_FIELDS` and the row's ``ctid`` (its
    physical address, the six bytes of PostgreSQL's binary ``tid``: :class:`Rewriter`
    finds the row by it; None elsewhere)."""
    if not postgres():
        rows = RatingChange.objects.filter(game_id__gte=start).order_by("game_id", "player_id")
        for batch in _orm_batches(rows.values_list(*STORED_FIELDS).iterator(size), size):
            yield [(*row, None) for row in batch]
        return
    sql = (
        f"SELECT id, game_id, player_id, {', '.join(CHANGE_FIELDS)}, ctid "
        f"FROM {RatingChange._meta.db_table} WHERE game_id >= %s ORDER BY game_id, player_id"
    )
    yield from _batches(sql, [start], size, db)


def walk_chunks(
    start: int, size: int, *, ahead: bool = True
) -> Iterator[tuple[list[tuple], list[tuple]]]:
    """The walk's input: the games :func:`rated_games` reads (rated, or pending) from
    sequence ``start`` on, ``size`` at a time, each batch with the stored rows of its games
    (:func:`history_row_batches`: every row of a game up to the batch's last).

    On PostgreSQL (and ``ahead``) a background thread reads ahead (two batches) on the
    transaction's own connection while the walk rates, so the server's reading overlaps the
    ratings; the walk's own statements wait for a fetch in flight (psycopg serialises
    them)."""
    if not postgres() or not THREADS or not ahead:
        yield from _chunks(start, size)
        return
    db = _db()
    ahead: queue.Queue = queue.Queue(maxsize=2)
    stop = threading.Event()

    def read() -> None:
        try:
            for chunk in _chunks(start, size, db):
                while not stop.is_set():
                    try:
                        ahead.put(chunk, timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            ahead.put(None)
        except BaseException as exc:  # raised in the walk's thread
            ahead.put(exc)

    thread = threading.Thread(target=read, name="ratings-read-ahead")
    thread.start()
    try:
        while (item := ahead.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        stop.set()
        while thread.is_alive():
            with contextlib.suppress(queue.Empty):
                ahead.get(timeout=0.1)
        thread.join()


def _chunks(start: int, size: int, db=None) -> Iterator[tuple[list[tuple], list[tuple]]]:
    """Batches of games with their rows, cut from the fetched lists (no per-row Python)."""
    games = rated_game_batches(start, everything=False, size=size, db=db)
    rows = history_row_batches(start, size=size * 2, db=db)
    game_of = operator.itemgetter(1)
    try:
        fetched: list[tuple] = []
        more = True
        for batch in games:
            last = batch[-1][0]
            while more and (not fetched or fetched[-1][1] <= last):
                rows_batch = next(rows, None)
                if rows_batch is None:
                    more = False
                else:
                    fetched += rows_batch
            cut = bisect.bisect_right(fetched, last, key=game_of)
            yield batch, fetched[:cut]
            fetched = fetched[cut:]
    finally:
        games.close()
        rows.close()


def _copy(sql: str, packed: Iterable[bytes]) -> None:
    _log(sql)
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        copy.write(_COPY_HEADER)
        buffer: list[bytes] = []
        for row in packed:
            buffer.append(row)
            if len(buffer) == 4096:
                copy.write(b"".join(buffer))
                buffer = []
        buffer.append(_COPY_TRAILER)
        copy.write(b"".join(buffer))


def insert_history(rows: list[tuple]) -> None:
    """New history rows, tuples of :data:`HISTORY_COLUMNS` (``played_at`` as read by
    :func:`rated_games`)."""
    if not rows:
        return
    if not postgres():
        RatingChange.objects.bulk_create(
            (RatingChange(**dict(zip(HISTORY_COLUMNS, row, strict=True))) for row in rows),
            batch_size=1000,
        )
        return
    table = RatingChange._meta.db_table
    _copy(
        f"COPY {table} ({', '.join(HISTORY_COLUMNS)}) FROM STDIN WITH (FORMAT binary)",
        map(_packed_new, rows),
    )


def _packed_new(row: tuple) -> bytes:
    """A new history row in binary ``COPY``: 13 fields, each its byte length and value."""
    player, game, fixture, sequence, place, mu_b, sigma_b, mu_a, sigma_a, d_b, d_a, win, at = row
    return _NEW_ROW.pack(
        13, 8, player, 8, game, 8, fixture, 8, sequence, 2, place, 8, mu_b, 8, sigma_b,
        8, mu_a, 8, sigma_a, 4, d_b, 4, d_a, 8, win, 8, at - _PG_EPOCH_US,
    )  # fmt: skip


def rewrite_packer():
    """How the walk records a rewritten row (:class:`Rewriter`): on PostgreSQL the
    ``struct`` packer of its binary ``COPY`` row, called as ``pack(10, 6, ctid, 8, id, 2,
    place, 8, mu_before, 8, sigma_before, 8, mu_after, 8, sigma_after, 4, display_before,
    4, display_after, 8, win_probability)`` (packed as the walk goes: no tuple per row);
    None elsewhere (tuples of the ctid, the id and :data:`CHANGE_FIELDS`)."""
    return _REWRITTEN_ROW.pack if postgres() else None


def rewritten(row: tuple, values: tuple):
    """A stored row (:func:`history_row_batches`) rewritten with ``values``
    (:data:`CHANGE_FIELDS`), as :class:`Rewriter` takes it."""
    pk, tid = row[0], row[STORED_TID]
    if not postgres():
        return (tid, pk, *values)
    place, mu_b, sigma_b, mu_a, sigma_a, d_b, d_a, win = values
    return _REWRITTEN_ROW.pack(
        10, 6, tid, 8, pk, 2, place, 8, mu_b, 8, sigma_b, 8, mu_a, 8, sigma_a, 4, d_b, 4, d_a,
        8, win,
    )  # fmt: skip


#: the planner's switches for the rewrite's ``UPDATE`` (this statement only): a nested loop
#: of ``ctid`` look-ups (``Tid Scan``, one buffer a row). Left alone, the planner hashes
#: the whole history table for every batch (the temporary table is not analysed: 11 scans
#: of it for a void of the first game at 100×) or, given the id too, looks each row up in
#: the primary key (four buffers a row); JIT would compile a 0.1 s statement for 0.13 s
_REWRITE_PLAN = (
    ("enable_hashjoin", "off"),
    ("enable_mergejoin", "off"),
    ("enable_indexscan", "off"),
    ("enable_bitmapscan", "off"),
    ("jit", "off"),
)


class Rewriter:
    """Rewrites stored history rows, each as :func:`rewritten` gives it (the ``ctid`` read
    by :func:`history_row_batches`, the id and :data:`CHANGE_FIELDS`). Locks exactly those
    rows; no indexed column
    changes, so with room on the page (the table's fillfactor) PostgreSQL rewrites each in
    place without index entries.

    The rows are found by their physical address, read in this transaction (no index
    look-up, no scan): a row's ``ctid`` changes only when the row is updated — by the
    ratings writer alone, which holds the writer's lock — or deleted; the id is checked
    too, so a row deleted meanwhile (a cascade) is passed over, never another row that
    took its place.

    On PostgreSQL a batch is written by a background thread on the transaction's own
    connection (psycopg serialises its users: a statement of the walk waits for the
    statement in flight), so the server rewrites one batch while the walk rates the next;
    :meth:`submit` waits for the batch before, :meth:`wait` for the last (and raises its
    error)."""

    def __init__(self) -> None:
        #: write in a background thread (a long walk); else in the caller's, at once
        self.background = True
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def submit(self, rows: list) -> None:
        self.wait()
        if not rows:
            return
        if not postgres():
            objs = [
                RatingChange(pk=r[1], **dict(zip(CHANGE_FIELDS, r[2:], strict=True))) for r in rows
            ]
            RatingChange.objects.bulk_update(objs, CHANGE_FIELDS, batch_size=1000)
            return
        db = _db()
        data = b"".join([_COPY_HEADER, *rows, _COPY_TRAILER])
        if not THREADS or not self.background:
            _rewrite(db, data)
            return
        self._thread = threading.Thread(target=self._write, args=(db, data), name="ratings-rewrite")
        self._thread.start()

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _write(self, db, data: bytes) -> None:
        try:
            _rewrite(db, data)
        except BaseException as exc:  # raised in the walk's thread by wait()
            self._error = exc


def _rewrite(db, data: bytes) -> None:
    """One batch: a binary ``COPY`` into the temporary table, one ``UPDATE … FROM`` it."""
    table = RatingChange._meta.db_table
    assign = ", ".join(f"{name} = v.{name}" for name in CHANGE_FIELDS)
    names = [name for name, _ in _REWRITE_PLAN]
    statements = [
        f"CREATE TEMPORARY TABLE IF NOT EXISTS {_REWRITE_TABLE} (tid tid, id int8, "
        "place int2, mu_before float8, sigma_before float8, mu_after float8, "
        "sigma_after float8, display_before int4, display_after int4, "
        "win_probability float8) ON COMMIT DROP",
        f"TRUNCATE {_REWRITE_TABLE}",
        f"COPY {_REWRITE_TABLE} FROM STDIN WITH (FORMAT binary)",
        f"UPDATE {table} AS t SET {assign} FROM {_REWRITE_TABLE} AS v "
        "WHERE t.ctid = v.tid AND t.id = v.id",
    ]
    for sql in statements:
        _log(sql, db)
    with db.connection.cursor() as cursor:
        cursor.execute(statements[0])
        cursor.execute(statements[1])
        with cursor.copy(statements[2]) as copy:
            copy.write(data)
        cursor.execute("SELECT " + ", ".join(f"current_setting('{n}')" for n in names))
        before = cursor.fetchone()
        _set_local(cursor, _REWRITE_PLAN)
        cursor.execute(statements[3])
        _set_local(cursor, zip(names, before, strict=True))


def _set_local(cursor, settings: Iterable[tuple[str, str]]) -> None:
    pairs = list(settings)
    cursor.execute(
        "SELECT " + ", ".join("set_config(%s, %s, true)" for _ in pairs),
        [value for pair in pairs for value in pair],
    )
