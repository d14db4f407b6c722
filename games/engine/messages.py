"""Error messages a player understands: what was rolled, what was recorded, what the rules
allowed instead.

Each function takes what it needs as arguments: the colour names, seat numbers and
moves, and — to say why a move is not legal — the
:class:`~games.engine.position.Position` (its public state and move generation).
Positions are written as in the log (``B``, ``0 … T+3``), relative to the moving
pawn's colour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._text import describe
from .board import HOUSE_LETTERS, position_name
from .codes import coded
from .moves import RawMove
from .rules import STUCK_TRIES

MAX_T = 10_000_000
"""The largest event time ``"t"`` in seconds (about 115 days; game-log.md): no game lasts
longer, and a sum of such times stays far from any overflow."""

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .position import Position


def show_move(names: Sequence[str], m: RawMove, c: int) -> str:
    text = f"{position_name(m[1])}→{m[2]}"
    return text if m[0] == c else f"{names[m[0]]} {text}"


def move_list(names: Sequence[str], moves: list[RawMove], c: int) -> str:
    ordered = sorted(moves, key=lambda m: (m[0] != c, m[0], m[1], m[2]))
    return ", ".join(show_move(names, m, c) for m in ordered)


def after_end(winner: str | None) -> str:
    if winner:
        return coded("game_over", who=winner)
    return coded("game_over_no_winner")


def not_on_turn(
    names: Sequence[str],
    c: int,
    turn_seat: int,
    *,
    neutral: int,
    in_play: bool,
    finished: bool,
    prev: tuple[int, int, int] | None,
    tries: int,
) -> str:
    """Why seat ``c`` may not roll now: ``turn_seat`` is on turn; ``in_play`` and
    ``finished`` are ``c``'s, ``prev`` the (seat, die, tries_max) of the last roll and
    ``tries`` the rolls the colour on turn has left."""
    name = names[c]
    turn = names[turn_seat]
    if c == neutral:
        return coded("neutral_turn", name=name, turn=turn)
    if not in_play:
        return coded("unused_turn", name=name, turn=turn)
    if finished:
        return coded("finished_turn", name=name, turn=turn)
    if prev is not None:
        ps, pd, pmax = prev
        if ps == c:
            if pmax == STUCK_TRIES and pd != 6:
                return coded("tries_used", name=name, turn=turn)
            return coded("turn_ended", name=name, n=pd, turn=turn)
        if ps == turn_seat:
            if pd == 6:
                return coded("rolls_again_six", turn=turn, name=name)
            return coded("rolls_again_stuck", turn=turn, tries=tries, name=name)
    return coded("not_your_turn", turn=turn, name=name)


def bad_time(name: str, t: object, last: float) -> str:
    """A ``"t"`` that is not a number from 0 to :data:`MAX_T`, or earlier than the previous
    event's."""
    if (type(t) is float or type(t) is int) and 0 <= t <= MAX_T:
        return coded("t_earlier", name=name, t=describe(t), last=describe(last))
    if (type(t) is float or type(t) is int) and t == t and t > MAX_T:
        return coded("t_too_late", name=name, t=describe(t), limit=f"{MAX_T:,}")
    return coded("t_not_seconds", name=name, t=describe(t), limit=f"{MAX_T:,}")


def illegal_move(
    pos: Position, c: int, n: int, s: int, frm: int, to: int, legal: list[RawMove]
) -> str:
    """A recorded move ``frm → to`` of seat ``s``'s pawn that seat ``c`` rolling ``n`` may
    not make in ``pos``; ``legal`` are the moves it may make."""
    head = {
        "name": pos.names[c],
        "die": n,
        "move": f"{position_name(frm)}→{to}",
        "pawn": coded("with_pawn", colour=pos.names[s]) if s != c else "",
        "why": why_illegal(pos, c, n, s, frm, to),
    }
    if not legal:
        return coded("illegal_move_none_legal", **head)
    return coded("illegal_move", **head, allowed=move_list(pos.names, legal, c))


def why_illegal(game: Position, c: int, n: int, s: int, frm: int, to: int) -> str:
    """Why moving seat ``s``'s pawn ``frm → to`` is not legal for ``c`` rolling ``n``: one
    check per rule, in the order a player reads them."""
    if frm < 0:
        why = _why_not_entering(game, s, n, to)
    elif frm not in game.pawns[s]:
        return _why_no_pawn(game, s, frm)
    elif to == frm + n:
        why = _why_not_forward(game, s, frm, to)
    elif to == frm - n:
        why = _why_not_backward(game, s, frm, to)
    else:
        return _why_wrong_distance(game, n, frm, to)
    return why or filtered_out(game, c, n, s, frm, to)


def _why_not_entering(game: Position, s: int, n: int, to: int) -> str | None:
    """Why seat ``s`` may not bring a pawn onto its start field ``to`` with ``n``."""
    if not game.yard[s]:
        return coded("why_no_pawn_in_yard", colour=game.names[s])
    if to != 0:
        return coded("why_leave_to_a")
    if n != 6:
        return coded("why_leave_with_six")
    a = game.abs_of[s][0]
    o = game.track[a]
    if o == s:
        return coded("why_own_on_a", colour=game.names[s])
    if o >= 0 and game.tcount[a] >= 2:
        return coded("why_barrier_on_a", owner=game.names[o])
    return None


def _why_no_pawn(game: Position, s: int, frm: int) -> str:
    """Seat ``s`` has no pawn on ``frm``."""
    pname = game.names[s]
    if frm >= game.T:
        return coded("why_no_pawn_in_house", colour=pname, letter=HOUSE_LETTERS[frm - game.T])
    if frm == 0:
        return coded("why_no_pawn_on_a", colour=pname)
    return coded("why_no_pawn_on_field", colour=pname, field=frm)


def _why_not_forward(game: Position, s: int, frm: int, to: int) -> str | None:
    """Why seat ``s``'s pawn may not move the die's fields forward ``frm → to``."""
    T = game.T
    absm = game.abs_of[s]
    if frm < T:
        for q in range(frm + 1, min(to, T)):
            if game.tcount[absm[q]] >= 2:
                return coded("why_barrier_blocks", owner=game.names[game.track[absm[q]]], field=q)
    if to < T:
        return _why_not_onto_field(game, s, to)
    return _why_not_into_house(game, s, frm, to)


def _why_not_onto_field(game: Position, s: int, to: int) -> str | None:
    """Why seat ``s``'s pawn may not end its move on track field ``to``."""
    a = game.abs_of[s][to]
    o = game.track[a]
    if o == s:
        if not game.barriers:
            return coded("why_own_on_field", colour=game.names[s], field=to)
        if game.tcount[a] >= 2:
            return coded("why_two_own", colour=game.names[s], field=to)
    elif o >= 0 and game.tcount[a] >= 2:
        return coded("why_barrier_target", owner=game.names[o], field=to)
    return None


def _why_not_into_house(game: Position, s: int, frm: int, to: int) -> str | None:
    """Why seat ``s``'s pawn may not move ``frm → to`` into (or within) its house."""
    T = game.T
    pw = game.pawns[s]
    pname = game.names[s]
    if to in pw:
        return coded("why_own_in_house", colour=pname, letter=HOUSE_LETTERS[to - T], field=to)
    if not game.jump:
        for h in range(max(frm + 1, T), to):
            if h in pw:
                letter = HOUSE_LETTERS[h - T]
                return coded("why_jump_in_house", colour=pname, letter=letter, field=h)
    return None


def _why_not_backward(game: Position, s: int, frm: int, to: int) -> str | None:
    """Why seat ``s``'s pawn may not capture backwards ``frm → to``."""
    if not game.back:
        return coded("why_forwards_only")
    if frm >= game.T:
        return coded("why_house_not_back")
    if to < 1:
        return coded("why_back_past_a")
    absm = game.abs_of[s]
    a = absm[to]
    o = game.track[a]
    if o < 0 or o == s:
        return coded("why_back_must_capture", field=to)
    if game.tcount[a] >= 2:
        return coded("why_barrier_not_captured", owner=game.names[o], field=to)
    for q in range(to + 1, frm):
        if game.tcount[absm[q]] >= 2:
            return coded("why_barrier_blocks_back", field=q)
    return None


def _why_wrong_distance(game: Position, n: int, frm: int, to: int) -> str:
    """A move that is not the die's number of fields (forwards, or backwards where allowed)."""
    if frm + n > game.last:
        return coded("why_past_house", die=n, field=frm)
    if to < frm and not game.back:
        return coded("why_forwards_only_to", die=n, field=frm, to=frm + n)
    code = "why_one_field" if n == 1 else "why_fields"
    return coded(code, die=n, field=frm, to=frm + n, moved=fields(to - frm))


def filtered_out(game: Position, c: int, n: int, s: int, frm: int, to: int) -> str:
    """Which filter of rules.md §3 ruled out a move that is possible on the board."""
    name = game.names[c]
    moves = game.candidates(c, n)
    if game.entry and n == 6 and any(m[1] < 0 and m[0] == c for m in moves):
        return coded("why_must_enter", colour=name)
    clearing = _clearing_moves(game, c, moves)
    if clearing and not (s == c and frm == 0):
        return coded("why_clear_a", colour=name)
    if game.capture and any(m[3] >= 0 for m in clearing or moves):
        return coded("why_must_capture")
    return coded("why_not_allowed")  # pragma: no cover - defensive


def _clearing_moves(game: Position, c: int, moves: list[RawMove]) -> list[RawMove]:
    """The moves off its start field A that seat ``c`` must choose from under
    ``clear_start`` (its own pawn on A, pawns in its yard); none if the rule does not bind."""
    if game.clear and game.yard[c] and game.track[game.start[c]] == c:
        return [m for m in moves if m[1] == 0 and m[0] == c]
    return []


def huff_not_due(names: Sequence[str], c: int, n: int, m: RawMove, huff: int) -> str:
    name = names[c]
    why = coded("huff_why_captured") if m[3] >= 0 else coded("huff_why_none_could", name=name)
    return coded(
        "huff_not_due",
        name=name,
        die=n,
        move=show_move(names, m, c),
        huff=position_name(huff),
        why=why,
    )


def huff_wrong(
    names: Sequence[str],
    c: int,
    n: int,
    m: RawMove,
    huff: int | None,
    legal: list[RawMove],
    targets: set[int],
) -> str:
    """A huff missing, or naming a pawn that could not have captured."""
    name = names[c]
    capture = ", ".join(show_move(names, x, c) for x in legal if x[0] == c and x[3] >= 0)
    shown = " or ".join(str(position_name(p)) for p in sorted(targets))
    moved = {"name": name, "die": n, "move": show_move(names, m, c)}
    if huff is None:
        return coded("huff_missing", **moved, capture=capture, shown=shown)
    return coded("huff_wrong_pawn", **moved, huff=position_name(huff), capture=capture, shown=shown)


def fields(k: int) -> str:
    return coded("fields_one") if abs(k) == 1 else coded("fields_many", n=abs(k))
