"""The strong computer player: the heuristic's score plus an exact solo-race table.

:class:`~games.engine.bots.HeuristicBot` values a pawn by a hand-made curve of its
progress. :class:`StrongBot` adds what that curve can only guess: the number of turns
each of its colours still needs to finish — the **solo race** of its four pawns
under the game's own rules (a 6's extra roll, compulsory entry, clearing the start
field, no jumping in the house, three tries for a colour with nothing on the track),
played as well as possible, with every track pawn exposed to capture at a fixed rate
per roll (``HAZARD``). The race is computed once per rule set and board by dynamic
programming over every placement of four pawns (:func:`solo_table`: ~150,000 on board
4; seconds of CPU, cached per process) and kept in a file cache (:func:`set_table_dir`,
``$MAEDN_TABLE_DIR``), so the next process loads it in a fraction of a second.

The score of a position for the bot's side (higher is better):

* the heuristic's score (:meth:`HeuristicBot.evaluate`), plus ``RACE`` times
* minus the side's race in turns (allied colours under ``first-colour``: the soft
  minimum of their races — one of them finishing is enough; otherwise their sum),
* minus, for every own track pawn, the chance it is captured before its next turn
  (the heuristic's estimate) times the turns the capture would cost (``RISK``).

A decision plays every legal move on a copy (with the huff where due) and takes the
best score: a one-move look-ahead, like the heuristic. The weights come from paired
self-play against random players on a fixed seed set (``bench/tune_strong.py``); the
measured win rates are in docs/engine.md, "Computer players" (``bench/bots.py``).

Pure Python, no Django; it reads the game through the public-ish ``Game`` API only
(``copy``, ``move_pawn``, ``send_home``, ``huff_due``, ``huff_targets``, ``pawns``,
``finished``, ``rules``, ``T``, ``end``), like the heuristic.
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import itertools
import json
import math
import os
import sys
import tempfile
from array import array
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from pathlib import Path

from .board import PAWNS_PER_COLOUR, YARD
from .bots import HeuristicBot, LookAheadBot, _risk
from .game import Game

try:  # POSIX: one process builds a table, the others wait for its file
    import fcntl
except ImportError:  # pragma: no cover - elsewhere each process builds its own
    fcntl = None  # type: ignore[assignment]

__all__ = [
    "StrongBot",
    "set_table_dir",
    "solo_table",
    "solo_table_store",
    "solo_table_stored",
    "table_dir",
]

Placement = tuple[int, ...]
"""A colour's four pawn positions, most advanced first (``YARD`` = -1 last)."""

Key = tuple[int, bool, bool, bool, bool, float]
"""What a table depends on: ``(T, three, jump, entry, clear, hazard)``."""


@lru_cache(maxsize=16)
def solo_table(
    T: int, three: bool, jump: bool, entry: bool, clear: bool, hazard: float = 0.0
) -> dict[Placement, float]:
    """Expected turns a colour alone on the board still needs to finish, playing best,
    for every placement of its pawns — the turns *after* the one it is rolling in (so a
    fresh colour needs 1 + this), plus ``hazard`` times the turns a capture would cost
    for every pawn on the track at each roll.

    A turn is one roll opportunity, plus another after every 6; with ``three``, a colour
    with no pawn on the track and a packed house rolls up to three times for a 6 (rules.md
    §4). Moves only ever advance pawns, so the placements are solved from the finished one
    backwards, by total progress; a roll with no move that keeps the turn (a 6) is a
    self-loop, solved in closed form. The hazard uses the hazard-free table for what a
    capture costs (an approximation that keeps the recursion one pass).

    Cached per process, and in the file cache (:func:`table_dir`): a table stored by an
    earlier process is loaded instead of computed (the same floats, bit for bit); a table
    computed here is stored for the next one.
    """
    return _table(_key(T, three, jump, entry, clear, hazard), solo_table)


def solo_table_store(
    T: int, three: bool, jump: bool, entry: bool, clear: bool, hazard: float = 0.0
) -> bool:
    """Make sure the file cache holds this table, computing it if need be but without
    keeping it in this process (what warming a server's tables calls). While one process
    computes a table, another asking for the same one waits for its file. False when
    there is no usable cache directory."""
    key = _key(T, three, jump, entry, clear, hazard)
    path = _table_path(key)
    if path is None:
        return False
    with _building(path):
        if not _stored(path, key):

            def base(*args):  # the hazard-free table, loaded or computed: not kept either
                return _table((*args, 0.0), base)

            _table(key, base)
    return _stored(path, key)


def solo_table_stored(
    T: int, three: bool, jump: bool, entry: bool, clear: bool, hazard: float = 0.0
) -> bool:
    """Whether the file cache holds this table (so :func:`solo_table` loads it instead of
    computing it). Reads only the file's first line."""
    key = _key(T, three, jump, entry, clear, hazard)
    path = _table_path(key)
    return path is not None and _stored(path, key)


def _key(T: int, three: bool, jump: bool, entry: bool, clear: bool, hazard: float) -> Key:
    """The arguments of :func:`solo_table` as one table's key (flags as bools)."""
    return (T, bool(three), bool(jump), bool(entry), bool(clear), float(hazard))


# --- the file cache of the tables ------------------------------------------------------------

TABLE_FORMAT = 1
"""The layout of a stored table: a JSON header line (this number, a digest of the code that
computes the tables, the key, the count, the SHA-256 of the values), then the values as
little-endian doubles in the order of :func:`_states`. A new layout gets a new number;
a change to the race's code changes the digest, so a stale table is never loaded."""

TABLE_DIR_ENV = "MAEDN_TABLE_DIR"
"""Environment variable: the directory of the stored tables (``off``: store none)."""

_UNSET = object()
_table_dir: object = _UNSET


def set_table_dir(path: str | os.PathLike[str] | None) -> None:
    """Keep the stored tables in ``path`` from now on (``None``: keep none, every process
    computes its own). Until this is called: ``$MAEDN_TABLE_DIR`` (``off``: none), else
    ``maedn-tables`` in the system's temporary directory."""
    global _table_dir
    _table_dir = None if path is None else Path(path)


def table_dir() -> Path | None:
    """The directory of the stored tables, or None when they are not stored."""
    if _table_dir is not _UNSET:
        return _table_dir  # type: ignore[return-value]
    configured = os.environ.get(TABLE_DIR_ENV)
    if configured is None:
        return Path(tempfile.gettempdir()) / "maedn-tables"
    if configured.strip().lower() in ("", "off"):
        return None
    return Path(configured)


@cache
def _code_digest() -> str:
    """A digest of the source of the functions that compute a table."""
    try:
        source = "".join(inspect.getsource(f) for f in (_states, _solve, _solo_moves, _without))
    except (OSError, TypeError):  # no source files (a frozen build): the format alone
        source = ""
    return hashlib.sha256(f"{PAWNS_PER_COLOUR} {YARD}\n{source}".encode()).hexdigest()[:16]


def _table_path(key: Key) -> Path | None:
    directory = table_dir()
    if directory is None:
        return None
    T, three, jump, entry, clear, hazard = key
    flags = "".join("1" if f else "0" for f in (three, jump, entry, clear))
    return directory / f"solo-v{TABLE_FORMAT}-{_code_digest()}-T{T}-{flags}-h{hazard!r}.bin"


def _header(key: Key, count: int) -> dict:
    T, three, jump, entry, clear, hazard = key
    return {
        "format": TABLE_FORMAT,
        "code": _code_digest(),
        "T": T,
        "three": three,
        "jump": jump,
        "entry": entry,
        "clear": clear,
        "hazard": hazard,
        "count": count,
    }


def _table(key: Key, base_table: Callable[..., dict[Placement, float]]) -> dict:
    """The table of ``key``: loaded from the file cache, else computed (the hazard-free
    table it needs from ``base_table``) and stored."""
    T, three, jump, entry, clear, hazard = key
    states = _states(T)
    path = _table_path(key)
    if path is not None:
        values = _load(path, key, len(states))
        if values is not None:
            return dict(zip(states, values, strict=True))
    base = base_table(T, three, jump, entry, clear) if hazard else None
    table = _solve(states, T, three, jump, entry, clear, hazard, base)
    if path is not None:
        _save(path, key, [table[s] for s in states])
    return table


def _load(path: Path, key: Key, count: int) -> array | None:
    """The values stored at ``path`` for ``key``, or None for a missing, foreign, truncated
    or corrupt file (which is then computed again and replaced)."""
    try:
        raw = path.read_bytes()
        head, newline, data = raw.partition(b"\n")
        header = json.loads(head)
        if not newline or not isinstance(header, dict):
            return None
        if header.pop("sha256", None) != hashlib.sha256(data).hexdigest():
            return None
        if header != _header(key, count) or len(data) != 8 * count:
            return None
        values = array("d")
        values.frombytes(data)
    except (OSError, ValueError):  # unreadable, or not JSON (UnicodeDecodeError included)
        return None
    if sys.byteorder == "big":
        values.byteswap()
    return values


def _stored(path: Path, key: Key) -> bool:
    """Whether ``path`` holds ``key``'s table: its header and its size (not its checksum,
    which :func:`_load` checks)."""
    count = _state_count(key[0])
    try:
        with path.open("rb") as f:
            head = f.readline(4096)
            size = os.fstat(f.fileno()).st_size
        header = json.loads(head)
    except (OSError, ValueError):
        return False
    if not isinstance(header, dict):
        return False
    header.pop("sha256", None)
    return header == _header(key, count) and size == len(head) + 8 * count


def _save(path: Path, key: Key, values: list[float]) -> None:
    """Store a table atomically (a temporary file in the same directory, then
    ``os.replace``): a reader sees the old file or the new one, never half of one. A
    directory that cannot be written is no error: the table is computed again next time."""
    payload = array("d", values)
    if sys.byteorder == "big":
        payload.byteswap()
    data = payload.tobytes()
    header = {**_header(key, len(values)), "sha256": hashlib.sha256(data).hexdigest()}
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(json.dumps(header, sort_keys=True).encode() + b"\n")
            f.write(data)
        os.chmod(tmp, 0o644)  # other users' processes (web, worker) may load it too
        os.replace(tmp, path)
        tmp = None
    except OSError:
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


@contextlib.contextmanager
def _building(path: Path) -> Iterator[None]:
    """Hold the lock of ``path``'s table (a lock file beside it) while building it, so two
    processes never compute the same table at once. No lock where there is none to take."""
    handle = None
    if fcntl is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(path.with_name(path.name + ".lock"), "a")  # noqa: SIM115
            fcntl.flock(handle, fcntl.LOCK_EX)
        except OSError:
            if handle is not None:
                handle.close()
            handle = None
    try:
        yield
    finally:
        if handle is not None:
            handle.close()  # releases the lock


# --- computing a table -----------------------------------------------------------------------


def _states(T: int) -> list[Placement]:
    """Every placement of a colour's pawns on a board of ``T`` track fields, by total
    progress, most advanced first: the order the table is solved (and stored) in."""
    last = T + PAWNS_PER_COLOUR - 1
    states: list[Placement] = []
    for k in range(PAWNS_PER_COLOUR + 1):  # k pawns in the yard
        for combo in itertools.combinations(range(last, -1, -1), PAWNS_PER_COLOUR - k):
            states.append(combo + (YARD,) * k)
    states.sort(key=sum, reverse=True)
    return states


def _state_count(T: int) -> int:
    """``len(_states(T))`` without listing them."""
    fields = T + PAWNS_PER_COLOUR
    return sum(math.comb(fields, PAWNS_PER_COLOUR - k) for k in range(PAWNS_PER_COLOUR + 1))


def _solve(
    states: list[Placement],
    T: int,
    three: bool,
    jump: bool,
    entry: bool,
    clear: bool,
    hazard: float,
    base: dict[Placement, float] | None,
) -> dict[Placement, float]:
    """The dynamic programme of :func:`solo_table` (``base``: its hazard-free table)."""
    table: dict[Placement, float] = {}
    p6 = 1 - (5 / 6) ** 3 if three else 1 / 6
    for s in states:
        yard = s.count(YARD)
        if yard == 0 and s[-1] >= T:
            table[s] = 0.0
            continue
        exposed = 0.0
        if base is not None:
            r = base[s]
            exposed = hazard * sum(_without(base, s, p) - r for p in s if 0 <= p < T)
        if three and all(p < 0 or p >= T + yard for p in s):  # stuck: three tries
            entered = tuple(sorted((*s[: PAWNS_PER_COLOUR - yard], 0), reverse=True))
            entered += (YARD,) * (yard - 1)
            table[s] = (p6 * table[entered] + (1 - p6)) / p6
            continue
        const = loop = 0.0  # R(s) = const + loop · R(s)
        for d in range(1, 7):
            best = None
            for t in _solo_moves(s, d, yard, T, jump, entry, clear):
                # after a roll other than a 6 the turn passes (one more turn), unless done
                v = table[t] if d == 6 or t[-1] >= T else 1 + table[t]
                if best is None or v < best:
                    best = v
            if best is None:
                loop += 1 / 6
                if d != 6:
                    const += 1 / 6  # the turn passes: one more turn, same placement
            else:
                const += best / 6
        table[s] = const / (1 - loop) + exposed
    return table


def _solo_moves(
    s: Placement, d: int, yard: int, T: int, jump: bool, entry: bool, clear: bool
) -> list[Placement]:
    """The placements a lone colour at ``s`` may reach with the roll ``d`` (rules.md §3)."""
    last = T + PAWNS_PER_COLOUR - 1
    moves: list[tuple[int, int]] = []
    for i, p in enumerate(s):
        if p < 0:
            if d == 6 and 0 not in s:
                moves.append((i, 0))
            break  # the yard pawns come last, one entry for all
        t = p + d
        if t > last or t in s:
            continue
        if t >= T and not jump and any(q in s for q in range(max(p + 1, T), t)):
            continue
        moves.append((i, t))
    if entry and d == 6 and moves and s[moves[-1][0]] < 0:
        moves = moves[-1:]
    elif clear and yard and 0 in s:
        moves = [m for m in moves if s[m[0]] == 0] or moves
    out = []
    for i, t in moves:
        placed = list(s)
        placed[i] = t
        placed.sort(reverse=True)
        out.append(tuple(placed))
    return out


def _placement(table: dict[Placement, float], pawns: list[int]) -> Placement:
    """``pawns`` as a key of ``table``. A barrier's two pawns (``barriers``) share a field,
    which a lone colour without barriers never does: the race counts the second one a
    field further back (or the first free field behind it)."""
    place = tuple(sorted(pawns, reverse=True))
    if place in table:
        return place
    placed: list[int] = []
    for p in place:
        while p >= 0 and p in placed:
            p -= 1
        placed.append(p)
    return tuple(sorted(placed, reverse=True))


def _without(table: dict[Placement, float], place: Placement, p: int) -> float:
    """The race of ``place`` with its pawn at ``p`` sent back to the yard."""
    placed = list(place)
    placed[placed.index(p)] = YARD
    placed.sort(reverse=True)
    return table[tuple(placed)]


def _softmin(values: list[float], tau: float) -> float:
    lo = min(values)
    return lo - tau * math.log(sum(math.exp((lo - v) / tau) for v in values))


class StrongBot(LookAheadBot):
    """One-move look-ahead on the heuristic's score plus the solo race (module docstring)."""

    name = "strong"

    RACE = 1.0  # weight of the race (turns) against the heuristic's score
    HAZARD = 0.05  # capture rate per roll and track pawn inside the race table
    RISK = 1.0  # weight of the turns a capture before the next turn would cost
    TAU = 3.0  # softness (turns) of the minimum over allied colours' races
    FINISHED = 100.0  # turns "saved" by an allied colour that has finished

    def __init__(self) -> None:
        self._heuristic = HeuristicBot()

    def choose_huff(self, game, seat, targets, rng):
        return self._heuristic.choose_huff(game, seat, targets, rng)

    def table_args(self, g: Game) -> Key:
        """The arguments of :func:`solo_table` for ``g``'s rules and board."""
        r = g.rules
        return (
            g.T,
            r.three_tries,
            r.jump_in_goal,
            r.compulsory_entry,
            r.clear_start,
            float(self.HAZARD),
        )

    def table(self, g: Game) -> dict[Placement, float]:
        """The solo-race table of ``g``'s rules and board."""
        return solo_table(*self.table_args(g))

    def evaluate(self, g: Game, allies: frozenset[int]) -> float:
        """Score of the position for the side holding ``allies`` (higher is better)."""
        heuristic = self._heuristic
        score = heuristic.evaluate(g, allies)
        if not self.RACE:
            return score
        table = self.table(g)
        T = g.T
        races: list[float] = []
        danger = 0.0
        for s in allies:
            pw = g.pawns[s]
            if not pw:
                continue
            if g.finished[s]:
                races.append(-self.FINISHED)
                continue
            place = _placement(table, pw)
            race = table[place]
            races.append(race)
            for p in place:
                if 0 <= p < T:
                    chance = _risk(g, s, p, allies, heuristic)
                    if chance > 0.0:
                        danger += chance * (_without(table, place, p) - race)
        if not races:
            return score
        if len(races) == 1:
            own = races[0]
        elif g.end == "first-colour":
            own = _softmin(races, self.TAU)
        else:
            own = sum(races)
        return score - self.RACE * (own + self.RISK * danger)
