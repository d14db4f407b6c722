"""Playing whole games with bots, producing valid ``maedn-log/1`` logs.

    >>> from games.engine import simulate_game, validate
    >>> log = simulate_game(rules="league", board=4,
    ...                     players={"alice": ["green", "red"], "bob": ["black", "yellow"]},
    ...                     first="green", bots={"alice": "heuristic", "bob": "random"}, seed=1)
    >>> validate(log)["complete"]
    True

Games are reproducible: the same arguments and ``seed`` give the same log.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

from .board import PAWNS_PER_COLOUR, YARD, position_name
from .bots import Bot, RandomBot
from .game import Game
from .log import write_log
from .moves import RawMove
from .registry import make_bot
from .rules import STUCK_TRIES, RuleSet
from .setup import Setup, colours_in_play
from .variants import get_variant, variant_rules

BotSpec = str | Bot

SIMULATE_MAX_EVENTS = 20_000
"""Default cap on a simulated game's rolls (well within the log limit ``MAX_EVENTS``)."""


def simulate_game(
    rules: RuleSet | str | Mapping[str, Any] = "league",
    board: int = 4,
    players: Mapping[str, Sequence[str]] | None = None,
    first: str | None = None,
    bots: BotSpec | Mapping[str, BotSpec] | None = None,
    seed: int | None = None,
    *,
    colours: Sequence[str] | None = None,
    unused: Iterable[str] | None = None,
    meta: Mapping[str, Any] | None = None,
    max_events: int = SIMULATE_MAX_EVENTS,
    variant: str | None = None,
) -> dict[str, Any]:
    """Play one complete game with computer players and return its log (a dict).

    ``players`` maps player names to the colours they hold (colours not listed
    play as their own player, named after the colour); ``bots`` is one bot for
    everyone or a mapping player name → bot (``"random"``, ``"heuristic"``,
    ``"strong"`` or a :class:`~games.engine.bots.Bot`), default ``"random"``; ``first``
    defaults to a colour drawn with the seeded generator. The log is complete unless it would
    need more than ``max_events`` rolls: with presets that never happens; random
    players under extreme variants (board 6, all places, backward captures) can
    get there, and the log is then valid but incomplete. A platform ``variant``
    (``"quick"``, ``"first-capture"``: games.engine.variants) is played to its own end;
    ``meta.variant`` names it (the log stops early).
    """
    rng = random.Random(seed)
    v = get_variant(variant)
    setup = _setup(variant_rules(rules, v), board, players, first, colours, unused, rng)
    game = Game(setup)
    game.platform_variant = v
    seat_bots = _seat_bots(setup, bots)
    events: list[dict[str, Any]] = []
    play(game, seat_bots, rng, record=events, max_events=max_events)
    return write_log(
        setup,
        events,
        {
            "generator": "games.engine.simulate",
            "seed": seed,
            "bots": {p: seat_bots[seats[0]].name for p, seats in setup.players.items()},
            **({"variant": v.key} if v else {}),
            **(meta or {}),
        },
    )


def _setup(
    rules: RuleSet | str | Mapping[str, Any],
    board: int,
    players: Mapping[str, Sequence[str]] | None,
    first: str | None,
    colours: Sequence[str] | None,
    unused: Iterable[str] | None,
    rng: random.Random,
) -> Setup:
    unused = list(unused or ())
    if first is None:
        first = rng.choice(colours_in_play(board, rules, colours, unused))
    return Setup.create(
        board=board, rules=rules, colours=colours, players=players, unused=unused, first=first
    )


def _seat_bots(setup: Setup, bots: BotSpec | Mapping[str, BotSpec] | None) -> list[Bot]:
    if bots is None or isinstance(bots, (str, Bot)):
        default = make_bot(bots or "random")
        table: Mapping[str, BotSpec] = {}
    else:
        default = make_bot("random")
        table = bots
        unknown = set(table) - set(setup.players)
        if unknown:
            raise ValueError(f"bots for unknown players: {', '.join(sorted(unknown))}")
    out: list[Bot] = [default] * setup.board.seats
    for player, seats in setup.players.items():
        if player in table:
            bot = make_bot(table[player])
            for s in seats:
                out[s] = bot
    return out


def play(
    game: Game,
    bots: Sequence[Bot],
    rng: random.Random,
    *,
    record: list[dict[str, Any]] | None = None,
    until_first: bool = False,
    max_events: int = SIMULATE_MAX_EVENTS,
) -> Game:
    """Play ``game`` on with ``bots[seat]`` choosing moves, until it ends.

    ``record`` collects the log events; ``until_first`` stops at the first
    finished colour (benchmarks, win-rate runs; at once if one has finished). This
    is the general simulation loop: it uses the engine's move tuples
    (``Position.legal``) and records each roll with the game's one move primitive,
    ``Game.push_raw``. Random players with no log to record, under the rules
    :func:`lean_rules` accepts (every preset), take the lean loop :func:`play_random`
    instead: the same rules, about twice the speed, its own use of ``rng`` (so other
    games for a seed than this loop's, whose logs stay as they were).
    """
    if until_first and game.placings:  # a colour has finished already
        return game
    if record is None and all(type(bot) is RandomBot for bot in bots) and lean_rules(game):
        return play_random(game, rng, until_first=until_first, max_events=max_events)
    return _play_general(game, bots, rng, record, until_first, max_events)


def _play_general(
    game: Game,
    bots: Sequence[Bot],
    rng: random.Random,
    record: list[dict[str, Any]] | None,
    until_first: bool,
    max_events: int,
) -> Game:
    """:func:`play`'s general loop (any rules, any bots, recording the log if asked)."""
    dice = rng.random
    legal = game.legal
    push = game.push_raw
    huffing = game.huffing
    huff_due = game.huff_due
    names = game.names
    pick_at_random = [type(bot) is RandomBot for bot in bots]  # inlined below
    while not game.over and game.events < max_events:
        c = game.turn_seat
        n = int(dice() * 6) + 1
        moves = legal(c, n)
        if not moves:
            push(n)
            if record is not None:
                record.append({"colour": names[c], "die": n})
            continue
        k = len(moves)
        if k == 1:
            m = moves[0]
        elif pick_at_random[c]:
            m = moves[int(dice() * k)]  # what RandomBot.choose does
        else:
            m = bots[c].choose(game, c, n, moves, rng)
        huff = None
        if huffing and huff_due(c, moves, m):
            huff = _huff_target(game, bots[c], c, moves, m, rng)
        push(n, m, huff)
        if record is not None:
            event: dict[str, Any] = {
                "colour": names[c],
                "die": n,
                "move": [position_name(m[1]), m[2]],
            }
            if m[0] != c:
                event["pawn_colour"] = names[m[0]]
            if huff is not None:
                event["huff"] = position_name(huff)
            record.append(event)
        if until_first and game.placings:
            break
    return game


def _huff_target(
    game: Game, bot: Bot, c: int, moves: list[RawMove], m: RawMove, rng: random.Random
) -> int:
    """The pawn seat ``c`` huffs after move ``m`` (its bot chooses among several)."""
    targets = sorted(game.huff_targets(c, moves, m))
    return targets[0] if len(targets) == 1 else bot.choose_huff(game, c, targets, rng)


# --- the lean random-play loop ---------------------------------------------------------

ENTER = (YARD,)
"""play_random's movable pawns (their positions) when a 6 must bring a pawn in: the yard's"""
FROM_START = (0,)
"""play_random's movable pawns when the pawn on field A must clear it: that one"""
BITS = (0, 0, 1, 2, 2)
"""Random bits for a uniform choice among k = 2 … 4 moves (one per pawn at most)"""


def lean_rules(game: Game) -> bool:
    """Whether :func:`play_random` can play ``game``: no barriers, no backward captures,
    no neutral colour, captures never compulsory (every preset; not the Schmidt variants)."""
    return (
        not game.variants
        and game.neutral < 0
        and game.setup.rules.compulsory_capture is False
        and game.platform_variant is None
    )


class SeatDice(Protocol):
    """A seat's die sequence for :func:`play_lean`: ``buf[j]`` is its j-th roll (1–6);
    ``extend()`` makes ``buf`` longer and returns it (analysis.dice.DiceStream)."""

    buf: bytearray

    def extend(self) -> bytearray: ...


Chooser = Callable[[Game, int, int, list[RawMove]], RawMove]
"""``choose(game, seat, die, moves)``: one of at least two legal ``moves`` (see play_lean)."""


def play_random(
    game: Game,
    rng: random.Random,
    *,
    record: list[dict[str, Any]] | None = None,
    until_first: bool = False,
    max_events: int = SIMULATE_MAX_EVENTS,
) -> Game:
    """Play ``game`` on with every colour choosing uniformly among its legal moves — the
    loop behind the random-play benchmarks, for :func:`lean_rules` games (see
    :func:`play_lean`, which it is with the dice and the choices drawn from ``rng``).
    """
    return play_lean(game, rng, record=record, until_first=until_first, max_events=max_events)


def play_lean(  # noqa: C901 (hot loop: the lean simulator and rollouts, per roll (docs/engine.md); inlined)
    game: Game,
    rng: random.Random | None = None,
    *,
    dice: Sequence[SeatDice] | None = None,
    choose: Chooser | None = None,
    record: list[dict[str, Any]] | None = None,
    until_first: bool = False,
    max_events: int = SIMULATE_MAX_EVENTS,
) -> Game:
    """Play ``game`` on to its end (or ``max_events`` rolls in all) — the lean loop behind
    the random-play benchmarks (:func:`play_random`) and the analysis rollouts, for
    :func:`lean_rules` games.

    The dice come from ``rng`` or, with ``dice``, from one sequence per seat (seat ``s``'s
    j-th roll in this call is ``dice[s].buf[j]``: common random numbers for rollouts). A
    choice between two or more legal moves is ``choose(game, seat, die, moves)`` with the
    moves as ``Position.legal`` lists them, or, without ``choose``, uniform from ``rng``.
    ``choose`` sees the board as it stands (pawns, track, yards, houses, finished
    colours); the turn fields (``turn_seat``, ``tries``, ``events``) are written back only
    when the loop ends.

    :func:`play` takes it for :class:`~games.engine.bots.RandomBot` players when no log
    is recorded; ``record`` and ``until_first`` mean what they mean there (``until_first``:
    stop once a colour has finished, at once if one has). A roll costs
    about half of what the general loop spends: no move tuples and no method calls on
    the common path, dice from ``rng.getrandbits`` — so for a seed it plays another game
    than :func:`play`'s general loop (whose logs, e.g. ``simulate_game``'s, stay the
    same) — and the rules of §3–§4 written out for this rule family (``Position.legal``
    and ``Game.push_raw`` are the general, documented forms; tests/engine/
    test_engine_simulate.py replays its games through them):

    * entry (compulsory_entry): on a 6 with pawns in the yard and no own pawn on A, the
      only move is entering;
    * clear_start: with pawns in the yard and an own pawn on A, that pawn moves on if
      its target is not an own pawn, and is then the only move;
    * otherwise every pawn moves by the roll onto a field without an own pawn (the first
      yard pawn enters on a 6), into the house only onto a free field and, without
      jump_in_goal, over no house pawn.

    Finishing and the end of the game (rare) are the game's own :meth:`Game.finish`;
    the stuck test of three tries is :meth:`Position.stuck`.
    """
    _check_lean(game, rng, dice, choose)
    bits = rng.getrandbits if rng is not None else None
    bufs = [d.buf for d in dice] if dice is not None else None
    used = [0] * len(game.pawns)
    T = game.T
    last = game.last
    entry = game.entry
    clear = game.clear
    jump = game.jump
    three = game.three
    stuck = game.stuck
    track = game.track
    tcount = game.tcount
    pawns = game.pawns
    yard = game.yard
    home = game.home
    abs_of = game.abs_of
    rel_of = game.rel_of
    captures = game.capture_counts
    finished = game.finished
    placings = game.placings
    names = game.names
    following = _following(game)
    events = game.events
    c = game.turn_seat
    tries = game.tries
    tries_max = game.tries_max
    over = game.over
    # the loop ends at the event limit; until_first lowers it to "now" once a colour finishes
    limit = events if over or (until_first and placings) else max_events
    roller = n = roll_max = -1
    while events < limit:
        roller = c
        roll_max = tries_max
        if bufs is None:
            n = bits(3)  # a die: 0-5 of three random bits, 1 + that
            while n > 5:
                n = bits(3)
            n += 1
        else:  # the seat's next die
            i = used[c]
            buf = bufs[c]
            if i >= len(buf):
                buf = bufs[c] = dice[c].extend()
            n = buf[i]
            used[c] = i + 1
        pw = pawns[c]
        absm = abs_of[c]
        # the pawns that may move (their positions, YARD to enter): Position.legal
        frms = None
        enter = False
        if yard[c]:
            if track[absm[0]] == c:
                if clear and track[absm[n]] != c:
                    frms = FROM_START
            elif n == 6:
                if entry:
                    frms = ENTER
                enter = True
        if frms is None:
            frms = []
            for p in pw:
                if p < 0:
                    if enter:  # the first yard pawn enters
                        enter = False
                        frms.append(YARD)
                    continue
                t = p + n
                if t < T:
                    if track[absm[t]] != c:
                        frms.append(p)
                elif t <= last and t not in pw:
                    if not jump:
                        lo = p + 1 if p >= T else T
                        if any(lo <= q < t for q in pw):
                            continue
                    frms.append(p)
        events += 1
        if frms:
            k = len(frms)
            if k == 1:
                frm = frms[0]
            elif choose is not None:  # the moves as Position.legal lists them
                moves = []
                for f in frms:
                    if f < 0:
                        moves.append((c, YARD, 0, track[absm[0]]))
                    elif f + n < T:
                        moves.append((c, f, f + n, track[absm[f + n]]))
                    else:
                        moves.append((c, f, f + n, -1))
                frm = choose(game, c, n, moves)[1]
            else:  # uniformly: BITS[k] random bits, again while they make k or more
                i = bits(BITS[k])
                while i >= k:
                    i = bits(BITS[k])
                frm = frms[i]
            # the move: Position.move_pawn
            if frm < 0:
                to = 0
                yard[c] -= 1
            else:
                to = frm + n
                if frm < T:
                    a = absm[frm]
                    track[a] = -1
                    tcount[a] = 0
            pw[pw.index(frm)] = to
            if record is not None:
                record.append({"colour": names[c], "die": n, "move": [position_name(frm), to]})
            if to < T:
                a = absm[to]
                o = track[a]
                if o >= 0:
                    cp = pawns[o]
                    cp[cp.index(rel_of[o][a])] = YARD
                    yard[o] += 1
                    captures[c] += 1
                track[a] = c
                tcount[a] = 1
            elif frm < T:
                home[c] += 1
                if home[c] == PAWNS_PER_COLOUR:
                    game.finish(c)  # finishing and the end of the game (rules.md §5–§6)
                    if game.over:
                        over = True
                        break
                    following = _following(game)
                    if until_first:
                        limit = events
        elif record is not None:
            record.append({"colour": names[c], "die": n})
        # who rolls next: Game.push_raw and Game._open
        if finished[c] or (n != 6 and tries == 1):
            c = following[c]
            if c < 0:  # nobody left to roll: only reachable from a hand-built position
                over = True
                break
            tries = tries_max = (
                STUCK_TRIES if three and yard[c] + home[c] == PAWNS_PER_COLOUR and stuck(c) else 1
            )
        elif n == 6:
            tries = tries_max = (
                STUCK_TRIES if three and yard[c] + home[c] == PAWNS_PER_COLOUR and stuck(c) else 1
            )
        else:
            tries -= 1
    if roller >= 0:
        game.prev = (roller, n, roll_max)
    game.events = events
    game.over = over
    game.turn_seat = -1 if over else c
    game.tries = tries
    game.tries_max = tries_max
    return game


def _check_lean(game: Game, rng, dice, choose) -> None:
    """:func:`play_lean`'s refusals: rules it does not play, no source of dice or choices."""
    if not lean_rules(game):
        raise ValueError(
            "the lean loop (play_random, play_lean) plays games without barriers, backward "
            "captures, a neutral colour, compulsory captures or a platform variant; use play()"
        )
    if rng is None and (dice is None or choose is None):
        raise ValueError("play_lean needs rng unless both dice and choose are given")


def _following(game: Game) -> list[int]:
    """For every seat, the next seat clockwise that takes turns (itself if it is the only
    one; ``-1``: nobody), as ``Game.push_raw`` looks for it."""
    seats = len(game.in_play)
    out = []
    for s in range(seats):
        nxt = -1
        for step in range(1, seats + 1):
            t = (s + step) % seats
            if game.in_play[t] and not game.finished[t]:
                nxt = t
                break
        out.append(nxt)
    return out
