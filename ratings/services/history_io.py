"""Reading and writing the rating history in bulk (issue 31): the rated games and history
rows as plain tuples, new rows and rewritten rows in one statement per batch.

On PostgreSQL the reads are server-side cursors with binary results (psycopg's C loaders:
no Django converters, no datetime per game — ``played_at`` travels as microseconds since
the Unix epoch), and the writes binary ``COPY`` streams packed with ``struct`` (one call per
row): new rows straight into the history table, rewritten rows into a temporary table and
then one ``UPDATE … FROM`` it by primary key. Building the same with Django's machinery
(model instances, ``bulk_update``'s ``CASE``, psycopg's array dumping, a regular expression
per value) cost more than the ratings themselves. Elsewhere (SQLite: ``make run``) the
ORM does the same work the slow way.

Every statement run here outside Django's cursor is entered into Django's query log when
it is kept (tests count queries)."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import struct
from collections.abc import Iterable, Iterator

import psycopg
from django.db import connection

from ratings.models import RatingChange, RatingGame

#: a rated game as the walk reads it
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
#: the columns of a new history row
HISTORY_COLUMNS = ("player_id", "game_id", "fixture_id", "sequence", *CHANGE_FIELDS, "played_at")

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
#: PostgreSQL's binary timestamps count from 2000-01-01 (in microseconds)
_PG_EPOCH_US = 946_684_800_000_000
_COPY_HEADER = b"PGCOPY\n\xff\r\n\x00" + struct.pack(">ii", 0, 0)
_COPY_TRAILER = struct.pack(">h", -1)
# binary COPY rows: a field count, then per field its length and value (network order)
_NEW_ROW = struct.Struct(">h" + "iq" * 4 + "ih" + "id" * 4 + "ii" * 2 + "id" + "iq")
_REWRITTEN_ROW = struct.Struct(">h" + "iq" + "ih" + "id" * 4 + "ii" * 2 + "id")
_REWRITE_TABLE = "ratings_history_rewrite"
_cursors = itertools.count(1)


def postgres() -> bool:
    return connection.vendor == "postgresql"


def as_datetime(played) -> dt.datetime:
    """A game's ``played_at`` as read here (microseconds on PostgreSQL) as a datetime."""
    if isinstance(played, int):
        return _EPOCH + dt.timedelta(microseconds=played)
    return played


def _log(sql: str) -> None:
    if connection.queries_logged:
        connection.queries_log.append({"sql": sql, "time": "0.000"})


def _stream(sql: str, params: list, size: int) -> Iterator[tuple]:
    """Rows of ``sql`` from a server-side cursor in binary, ``size`` at a time (inside the
    caller's transaction: other statements may run between the fetches)."""
    connection.ensure_connection()
    _log(sql)
    cursor = psycopg.ServerCursor(connection.connection, f"ratings_history_{next(_cursors)}")
    try:
        cursor.itersize = size
        cursor.execute(sql, params, binary=True)
        while rows := cursor.fetchmany(size):
            yield from rows
    finally:
        cursor.close()


def rated_games(start: int, *, everything: bool, size: int) -> Iterator[tuple]:
    """The rated games from sequence ``start`` on, in sequence order, as tuples of
    :data:`GAME_FIELDS` with ``places`` decoded: every one (``everything``) or only those
    the walk needs (rated, or pending)."""
    if not postgres():
        games = RatingGame.objects.filter(pk__gte=start).order_by("pk")
        if not everything:
            games = games.exclude(places__isnull=True, applied=True)
        yield from games.values_list(*GAME_FIELDS).iterator(chunk_size=size)
        return
    table = RatingGame._meta.db_table
    where = "" if everything else " AND (places IS NOT NULL OR NOT applied)"
    sql = (
        "SELECT id, places::text, applied, revision, skip_reason, "
        "(EXTRACT(EPOCH FROM played_at) * 1000000)::int8, fixture_id "
        f"FROM {table} WHERE id >= %s{where} ORDER BY id"
    )
    # places as text and decoded here: psycopg's binary jsonb loader took twice the time
    loads = json.loads
    for pk, places, applied, revision, reason, played, fixture_id in _stream(sql, [start], size):
        if places is not None:
            places = loads(places)
        yield pk, places, applied, revision, reason, played, fixture_id


def history_rows(start: int, *, size: int) -> Iterator[tuple]:
    """The stored history rows of the games from sequence ``start`` on, ordered by game,
    as tuples of :data:`STORED_FIELDS`."""
    if not postgres():
        rows = RatingChange.objects.filter(game_id__gte=start).order_by("game_id", "player_id")
        yield from rows.values_list(*STORED_FIELDS).iterator(chunk_size=size)
        return
    sql = (
        f"SELECT id, game_id, player_id, {', '.join(CHANGE_FIELDS)} "
        f"FROM {RatingChange._meta.db_table} WHERE game_id >= %s ORDER BY game_id, player_id"
    )
    yield from _stream(sql, [start], size)


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


def _packed_rewrite(row: tuple) -> bytes:
    """A rewritten history row in binary ``COPY``: the id and :data:`CHANGE_FIELDS`."""
    pk, place, mu_b, sigma_b, mu_a, sigma_a, d_b, d_a, win = row
    return _REWRITTEN_ROW.pack(
        9, 8, pk, 2, place, 8, mu_b, 8, sigma_b, 8, mu_a, 8, sigma_a, 4, d_b, 4, d_a, 8, win
    )


def rewrite_history(rows: list[tuple]) -> None:
    """Rewrite stored history rows: tuples of the row id and :data:`CHANGE_FIELDS`. Locks
    exactly those rows (by primary key); no indexed column changes, so with room on the
    page (the table's fillfactor) PostgreSQL rewrites each in place without index entries."""
    if not rows:
        return
    if not postgres():
        objs = [RatingChange(pk=r[0], **dict(zip(CHANGE_FIELDS, r[1:], strict=True))) for r in rows]
        RatingChange.objects.bulk_update(objs, CHANGE_FIELDS, batch_size=1000)
        return
    table = RatingChange._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMPORARY TABLE IF NOT EXISTS {_REWRITE_TABLE} (id int8, place int2, "
            "mu_before float8, sigma_before float8, mu_after float8, sigma_after float8, "
            "display_before int4, display_after int4, win_probability float8) "
            "ON COMMIT DROP"
        )
        cursor.execute(f"TRUNCATE {_REWRITE_TABLE}")
    _copy(f"COPY {_REWRITE_TABLE} FROM STDIN WITH (FORMAT binary)", map(_packed_rewrite, rows))
    assign = ", ".join(f"{name} = v.{name}" for name in CHANGE_FIELDS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} AS t SET {assign} FROM {_REWRITE_TABLE} AS v WHERE t.id = v.id"
        )
