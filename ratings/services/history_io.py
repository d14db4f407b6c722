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

A long walk in waves (``ratings._WaveChunk``) reads its batches instead as one row of
``array_agg`` columns loaded by binary loaders straight into numpy arrays
(:func:`array_chunks`) and packs its rewritten rows with one numpy record array
(:func:`packed_rewrites`): no Python object per value.

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

import numpy as np
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
    yield from _read_ahead(lambda db: _chunks(start, size, db))


def _read_ahead(chunks) -> Iterator:
    """The items of the generator ``chunks(db)``, produced by a background thread on this
    transaction's connection (``db``) two items ahead of the caller."""
    db = _db()
    ahead: queue.Queue = queue.Queue(maxsize=2)
    stop = threading.Event()

    def read() -> None:
        try:
            for chunk in chunks(db):
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


def rewritten(row: tuple, values: tuple, pack=None):
    """A stored row (:func:`history_row_batches`) rewritten with ``values``
    (:data:`CHANGE_FIELDS`), as :class:`Rewriter` takes it (``pack``: the caller's
    :func:`rewrite_packer`, else looked up)."""
    pk, tid = row[0], row[STORED_TID]
    pack = pack or rewrite_packer()
    if pack is None:
        return (tid, pk, *values)
    place, mu_b, sigma_b, mu_a, sigma_a, d_b, d_a, win = values
    return pack(
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


# --- the walk's input and output as arrays (PostgreSQL; ``ratings._WaveChunk``) -------------

#: the seats a rated game is read with as arrays (a bigger board: :func:`game_tuple` reads
#: its places whole)
ARRAY_SEATS = 4
#: PostgreSQL's array types read as numpy arrays (their oids) and their elements
_ARRAY_ELEMENTS = {
    1000: np.dtype("?"),  # bool[]
    1005: np.dtype(">i2"),  # int2[]
    1007: np.dtype(">i4"),  # int4[]
    1016: np.dtype(">i8"),  # int8[]
    1022: np.dtype(">f8"),  # float8[]
    1010: np.dtype("V6"),  # tid[]: block (4 bytes) and offset (2 bytes)
}


class _NumpyArrayLoader(psycopg.adapt.Loader):
    """A one-dimensional array without nulls in binary as a numpy array (native order),
    every element's length checked: no Python object per element."""

    format = psycopg.pq.Format.BINARY
    element = np.dtype(">i8")

    def load(self, data) -> np.ndarray:
        ndim, nulls, _ = struct.unpack_from(">iii", data)
        if ndim == 0:
            return np.empty(0, dtype=self.element.newbyteorder("="))
        if ndim != 1 or nulls:
            raise RuntimeError("expected a one-dimensional array without nulls")
        (count,) = struct.unpack_from(">i", data, 12)
        items = np.frombuffer(
            data, dtype=[("length", ">i4"), ("value", self.element)], count=count, offset=20
        )
        if (items["length"] != self.element.itemsize).any():
            raise RuntimeError("array elements of unexpected sizes")
        return items["value"].astype(self.element.newbyteorder("="))


_LOADERS = {
    oid: type(f"_NumpyArrayLoader{oid}", (_NumpyArrayLoader,), {"element": element})
    for oid, element in _ARRAY_ELEMENTS.items()
}


def _columns(db, sql: str, names: tuple[str, ...]) -> dict[str, np.ndarray] | None:
    """The one row of ``sql`` (a column of ``array_agg`` per name) as numpy arrays by name,
    or None (no rows aggregated)."""
    _log(sql, db)
    with psycopg.Cursor(db.connection) as cursor:  # not Django's client-side cursor
        for oid, loader in _LOADERS.items():
            cursor.adapters.register_loader(oid, loader)
        cursor.execute(sql, binary=True)
        row = cursor.fetchone()
    if row is None or row[0] is None:
        return None
    return dict(zip(names, row, strict=True))


#: a batch's games as :func:`array_chunks` reads them: ``seats`` the number of players
#: (0: not rated), ``p0…`` and ``q0…`` the players and their places (0 past the seats)
GAME_COLUMNS = (
    "pk",
    "applied",
    "seats",
    *(f"p{k}" for k in range(ARRAY_SEATS)),
    *(f"q{k}" for k in range(ARRAY_SEATS)),
)
#: what only a game walked one by one needs (``games["extra"]``, of the batch's pending
#: games and those not of two players; :func:`game_tuples` reads any other it needs): four
#: columns fewer for every game cost the server a quarter less
EXTRA_COLUMNS = ("pk", "revision", "voided", "played", "fixture")
#: a batch's stored rows as :func:`array_chunks` reads them (:data:`STORED_FIELDS`, ctid)
ROW_COLUMNS = ("pk", "game", "player", *CHANGE_FIELDS, "tid")


def _sorted(columns: dict[str, np.ndarray], *keys: str) -> dict[str, np.ndarray]:
    """The columns ordered by ``keys`` (an aggregate's input order is not promised)."""
    order = np.lexsort([columns[key] for key in reversed(keys)])
    return {name: values[order] for name, values in columns.items()}


def _array_chunk(db, start: int, size: int):
    """The next ``size`` games the walk needs from sequence ``start`` on with the stored
    rows of every game from ``start`` up to the last of them, or None (no game left)."""
    seats = ", ".join(
        f"coalesce((places->{k}->>{i})::int8, 0) AS {'pq'[i]}{k}"
        for i in (0, 1)
        for k in range(ARRAY_SEATS)
    )
    games = _columns(
        db,
        f"SELECT {', '.join(f'array_agg({name})' for name in GAME_COLUMNS)} FROM ("
        f"SELECT id AS pk, applied, coalesce(jsonb_array_length(places), 0) AS seats, {seats} "
        f"FROM {RatingGame._meta.db_table} WHERE id >= {int(start)} "
        f"AND (places IS NOT NULL OR NOT applied) ORDER BY id LIMIT {int(size)}) AS g",
        GAME_COLUMNS,
    )
    if games is None:
        return None
    games = _sorted(games, "pk")
    last = int(games["pk"][-1])
    games["extra"] = _extras(db, f"id >= {int(start)} AND id <= {last}")
    selected = ", ".join(
        f"array_agg({column})" for column in ("id", "game_id", "player_id", *CHANGE_FIELDS, "ctid")
    )
    rows = _columns(
        db,
        f"SELECT {selected} FROM {RatingChange._meta.db_table} "
        f"WHERE game_id >= {int(start)} AND game_id <= {last}",
        ROW_COLUMNS,
    )
    if rows is None:
        rows = {name: np.empty(0, dtype=np.int64) for name in ROW_COLUMNS}
    return games, _sorted(rows, "game", "player")


def _extras(db, where: str) -> dict[str, np.ndarray]:
    """:data:`EXTRA_COLUMNS` of the games ``where`` says that are pending or not of two
    players, ordered by id."""
    extras = _columns(
        db,
        f"SELECT {', '.join(f'array_agg({name})' for name in EXTRA_COLUMNS)} FROM ("
        "SELECT id AS pk, revision, coalesce(skip_reason = 'voided', false) AS voided, "
        "(EXTRACT(EPOCH FROM played_at) * 1000000)::int8 AS played, fixture_id AS fixture "
        f"FROM {RatingGame._meta.db_table} WHERE {where} AND (NOT applied OR "
        "coalesce(jsonb_array_length(places), 0) <> 2)) AS g",
        EXTRA_COLUMNS,
    )
    if extras is None:
        return {name: np.empty(0, dtype=np.int64) for name in EXTRA_COLUMNS}
    return _sorted(extras, "pk")


def array_chunks(start: int, size: int) -> Iterator[tuple[dict, dict]]:
    """:func:`walk_chunks` as arrays (PostgreSQL only): per batch the games (columns of
    :data:`GAME_COLUMNS`) and the stored rows of every game up to the batch's last (columns
    of :data:`ROW_COLUMNS`, ordered by game and player), each read as one row of arrays
    (``array_agg``) loaded straight into numpy (no Python object per value). Read ahead in
    a background thread as :func:`walk_chunks`."""

    def chunks(db=None) -> Iterator[tuple[dict, dict]]:
        db = db or _db()
        at = start
        while (chunk := _array_chunk(db, at, size)) is not None:
            yield chunk
            at = int(chunk[0]["pk"][-1]) + 1

    if not THREADS:
        yield from chunks()
        return
    yield from _read_ahead(chunks)


def game_tuples(games: dict[str, np.ndarray], which: np.ndarray) -> list[tuple]:
    """The games at the indices ``which`` of a batch (:data:`GAME_COLUMNS`, and
    :data:`EXTRA_COLUMNS` in ``games["extra"]``) as :func:`rated_games` yields them
    (``skip_reason`` only "voided" or "")."""
    columns = {name: games[name][which].tolist() for name in GAME_COLUMNS}
    extra = {name: values.tolist() for name, values in games["extra"].items()}
    known = {pk: k for k, pk in enumerate(extra["pk"])}
    seated = zip(*(columns[f"p{k}"] for k in range(ARRAY_SEATS)), strict=True)
    placed = zip(*(columns[f"q{k}"] for k in range(ARRAY_SEATS)), strict=True)
    tuples = []
    for pk, applied, seats, players, places in zip(
        columns["pk"], columns["applied"], columns["seats"], seated, placed, strict=True
    ):
        if seats > ARRAY_SEATS:  # read whole (never on a board of the formats today)
            flat = RatingGame.objects.values_list("places", flat=True).get(pk=pk)
            players, places = [int(p) for p, _ in flat], [int(q) for _, q in flat]
        elif seats:
            players, places = list(players[:seats]), list(places[:seats])
        else:
            players = places = None
        k = known.get(pk)
        if k is None:  # an applied two-player game without its two rows (never in order)
            revision, reason, at, fixture = RatingGame.objects.values_list(
                "revision", "skip_reason", "played_at", "fixture_id"
            ).get(pk=pk)
            voided, played = reason == "voided", (at - _EPOCH) // dt.timedelta(microseconds=1)
        else:
            revision, voided = extra["revision"][k], extra["voided"][k]
            played, fixture = extra["played"][k], extra["fixture"][k]
        reason = "voided" if voided else ""
        tuples.append((pk, players, applied, revision, reason, played, fixture, places))
    return tuples


def row_tuples(rows: dict[str, np.ndarray], which: np.ndarray) -> list[tuple]:
    """The stored rows at the indices ``which`` of a batch (:data:`ROW_COLUMNS`) as
    :func:`history_row_batches` yields them."""
    return list(zip(*(rows[name][which].tolist() for name in ROW_COLUMNS), strict=True))


#: a rewritten row in :class:`Rewriter`'s binary ``COPY``: the field count, then each field's
#: length and value (the layout of ``_REWRITTEN_ROW``)
REWRITE_DTYPE = np.dtype(
    [
        ("fields", ">i2"),
        *(
            item
            for name, kind in (
                ("tid", "V6"),
                ("pk", ">i8"),
                ("place", ">i2"),
                ("mu_before", ">f8"),
                ("sigma_before", ">f8"),
                ("mu_after", ">f8"),
                ("sigma_after", ">f8"),
                ("display_before", ">i4"),
                ("display_after", ">i4"),
                ("win_probability", ">f8"),
            )
            for item in ((f"{name}_length", ">i4"), (name, kind))
        ),
    ]
)
assert REWRITE_DTYPE.itemsize == _REWRITTEN_ROW.size


def packed_rewrites(tid: np.ndarray, pk: np.ndarray, values: dict[str, np.ndarray]) -> bytes:
    """Stored rows (their ``ctid`` and id) rewritten with ``values`` (arrays of
    :data:`CHANGE_FIELDS`) as :class:`Rewriter`'s binary ``COPY`` rows, all at once."""
    out = np.empty(len(pk), dtype=REWRITE_DTYPE)
    out["fields"] = 10
    for name in REWRITE_DTYPE.names:
        if name.endswith("_length"):
            out[name] = REWRITE_DTYPE[name[: -len("_length")]].itemsize
    out["tid"], out["pk"] = tid, pk
    for name in CHANGE_FIELDS:
        out[name] = values[name]
    return out.tobytes()
