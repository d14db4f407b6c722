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
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .board import position_name
from .bots import Bot, RandomBot
from .game import Game
from .log import FORMAT
from .registry import make_bot
from .rules import RuleSet
from .setup import Setup, colours_in_play

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
) -> dict[str, Any]:
    """Play one complete game with computer players and return its log (a dict).

    ``players`` maps player names to the colours they hold (colours not listed
    play as their own player, named after the colour); ``bots`` is one bot for
    everyone or a mapping player name → bot (``"random"``, ``"heuristic"``,
    ``"strong"`` or a :class:`~games.engine.bots.Bot`), default ``"random"``; ``first``
    defaults to a colour drawn with the seeded generator. The log is complete unless it would
    need more than ``max_events`` rolls: with presets that never happens; random
    players under extreme variants (board 6, all places, backward captures) can
    get there, and the log is then valid but incomplete.
    """
    rng = random.Random(seed)
    setup = _setup(rules, board, players, first, colours, unused, rng)
    game = Game(setup)
    seat_bots = _seat_bots(setup, bots)
    events: list[dict[str, Any]] = []
    play(game, seat_bots, rng, record=events, max_events=max_events)
    log: dict[str, Any] = {
        "format": FORMAT,
        "board": setup.board.size,
        "rules": setup.rules.to_spec(),
        "colours": list(setup.colours),
    }
    if setup.named_players:
        log["players"] = {p: list(cs) for p, cs in setup.named_players.items()}
    if setup.unused:
        log["unused"] = [setup.colours[s] for s in sorted(setup.unused)]
    log["first"] = setup.colours[setup.first]
    log["meta"] = {
        "generator": "games.engine.simulate",
        "seed": seed,
        "bots": {p: seat_bots[seats[0]].name for p, seats in setup.players.items()},
        **(meta or {}),
    }
    log["events"] = events
    return log


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
    finished colour (benchmarks, win-rate runs). This is the simulation hot
    loop: it uses the engine's move tuples (``Position.legal``) and records each roll
    with the game's one move primitive, ``Game.push_raw``.
    """
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
            targets = sorted(game.huff_targets(c, moves, m))
            huff = targets[0] if len(targets) == 1 else bots[c].choose_huff(game, c, targets, rng)
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
