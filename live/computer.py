"""The computer's choice of a move for a seat: the engine's bots (``make_bot``) on a live game.

The engine's bots choose among engine-internal move tuples; the engine's public ``Game``
hands out ``Move`` objects. :func:`choose` maps one to the other through public names only
(``Game.seat_of``, ``YARD``), so this adapter is the one place to change when the engine
offers a public ``choose_move(game, die) -> Move`` (see docs/live.md, "Later in the engine").

**The strong computer's tables.** ``StrongBot`` needs a solo-race table per rule set and
board: seconds of CPU to compute (docs/engine.md, "Computer players"), a fraction of a
second to load from the engine's file cache. A room's decision must take at most 1 s, so
a strong seat never waits for one: :func:`warm_tables` (a worker or the ASGI server
starting) computes the stored tables of every preset on both boards that the cache lacks,
in a daemon thread; a strong seat whose table is neither stored nor held here plays the
heuristic's move meanwhile, and its table is prepared in the same thread.
"""

from __future__ import annotations

import logging
import queue
import random
import secrets
import threading
from collections.abc import Iterable

from games.engine import (
    PRESETS,
    YARD,
    Game,
    Move,
    StrongBot,
    make_bot,
    solo_table,
    solo_table_store,
    solo_table_stored,
)
from games.engine.strong import Key  # the arguments of solo_table (StrongBot.table_args)

logger = logging.getLogger(__name__)

STRENGTHS = ("strong", "heuristic", "random")
"""The computer players a room offers: the engine's bots by name (``make_bot``)."""

BOARDS = (4, 6)
"""The boards a room is played on (``services.room_create``)."""

_rng = random.Random(secrets.randbits(64))


def _raw(game: Game, move: Move) -> tuple[int, int, int, int]:
    seats = game.seat_of
    frm = YARD if move.is_entry else int(move.from_)
    captured = seats[move.captures] if move.captures is not None else -1
    return (seats[move.pawn_colour], frm, move.to, captured)


def choose(game: Game, die: int, moves: list[Move], strength: str = "heuristic") -> Move:
    """The move the computer of ``strength`` plays with ``die`` (``moves`` is not empty).
    A strong seat whose table is not ready plays the heuristic's move (module docstring)."""
    if len(moves) == 1:
        return moves[0]
    bot = make_bot(strength if strength in STRENGTHS else "heuristic")
    if isinstance(bot, StrongBot) and not table_ready(bot, game):
        bot = make_bot("heuristic")
    raws = [_raw(game, m) for m in moves]
    seat = game.seat_of[game.turn]
    picked = bot.choose(game, seat, die, raws, _rng)
    return moves[raws.index(tuple(picked))]


def choose_huff(game: Game, die: int, move: Move) -> int | str | None:
    """Which pawn is huffed for ``move`` (None when the rules ask for none): the computer's
    habit, the yard pawn if allowed, else the least advanced eligible pawn."""
    options = game.huff_options(die, move)
    if not options:
        return None
    if "B" in options:
        return "B"
    return min(options, key=lambda p: -1 if p == "B" else int(p))


# --- the strong computer's tables ------------------------------------------------------------


_lock = threading.Lock()
_held: set[Key] = set()  # kept by solo_table's cache in this process: decides at once
_queued: dict[Key, bool] = {}  # waiting or being prepared → also hold it here
_jobs: queue.SimpleQueue[Key] = queue.SimpleQueue()
_thread: threading.Thread | None = None


def table_ready(bot: StrongBot, game: Game) -> bool:
    """Whether ``bot`` decides in ``game`` at once: its table is held in this process, or
    stored (then the first decision loads it, ~0.1 s on board 4, ~0.2 s on board 6).
    Otherwise the table is prepared in the background and this says no."""
    key = bot.table_args(game)
    if key in _held:
        return True
    if solo_table_stored(*key):  # the first decision loads it; solo_table keeps it
        with _lock:
            _held.add(key)  # (so no later decision reads the file's header again)
        return True
    _prepare([key], hold=True)
    return False


def offered_tables() -> list[Key]:
    """The tables of every preset a room offers, on each board: the online rules first."""
    bot = StrongBot()
    keys: list[Key] = []
    for board in BOARDS:
        for preset in sorted(PRESETS, key=lambda p: (p != "online", p)):
            key = bot.table_args(Game.new(preset, board))
            if key not in keys:
                keys.append(key)
    return keys


def warm_tables() -> None:
    """Compute, in the background, the offered tables that the file cache lacks (stored,
    not kept in this process); returns at once."""
    missing = [key for key in offered_tables() if not solo_table_stored(*key)]
    if missing:
        logger.info("computing %d solo-race tables of the strong computer", len(missing))
        _prepare(missing, hold=False)


def _prepare(keys: Iterable[Key], *, hold: bool) -> None:
    global _thread
    with _lock:
        for key in keys:
            if key in _held:
                continue
            if key in _queued:
                _queued[key] = _queued[key] or hold
                continue
            _queued[key] = hold
            _jobs.put(key)
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_prepare_tables, name="strong-tables", daemon=True)
            _thread.start()


def _prepare_tables() -> None:
    """The preparing thread: one table at a time, for as long as the process lives."""
    while True:
        key = _jobs.get()
        with _lock:
            hold = _queued[key]
        try:
            if hold:  # a room needs it: loaded or computed (and stored), kept here
                solo_table(*key)
            else:
                solo_table_store(*key)
        except Exception:  # a bug: logged once, and this table stays queued (never again)
            logger.exception("the strong computer's table %r could not be prepared", key)
            continue
        with _lock:
            if hold:
                _held.add(key)
            # stored (or held): a room asking from now on finds it; a room that asked while
            # it was only being stored finds the file
            del _queued[key]
