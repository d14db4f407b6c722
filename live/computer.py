"""The computer's choice of a move for a seat: the engine's bots (``make_bot``) on a live game.

The engine's bots choose among engine-internal move tuples; the engine's public ``Game``
hands out ``Move`` objects. :func:`choose` maps one to the other through public names only
(``Game.seat_of``, ``YARD``), so this adapter is the one place to change when the engine
offers a public ``choose_move(game, die) -> Move`` (see docs/live.md, "Later in the engine").

The strong computer (``StrongBot``: the engine's learned evaluator with a two- to three-ply search)
needs nothing prepared: its weights ship with the engine and load in milliseconds
(``live/apps.py`` loads them when the process starts), so every decision, the first of a
process included, takes milliseconds (docs/engine.md, "Computer players").
"""

from __future__ import annotations

import random
import secrets

from games.engine import YARD, Game, Move, make_bot

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
    """The move the computer of ``strength`` plays with ``die`` (``moves`` is not empty)."""
    if len(moves) == 1:
        return moves[0]
    bot = make_bot(strength if strength in STRENGTHS else "heuristic")
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
