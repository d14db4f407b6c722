"""Rules engine for Mensch ärgere Dich nicht (MÄDN) — pure Python, no Django.

The contract is ``shared/spec/rules.md`` and ``shared/spec/game-log.md``; the
design follows python-chess: a game state with ``legal_moves``/``push``, variants
as option sets, and a log reader that reports the first illegal event.

    >>> from games.engine import validate, simulate_game, Game
    >>> log = simulate_game(rules="league", seed=7)
    >>> validate(log)["valid"]
    True
    >>> game = Game.new("classic", first="red")
    >>> [str(m) for m in game.legal_moves(3)]
    ['0→3']

Modules: ``board`` (boards, coordinates, allied colours, count points),
``rules`` (RuleSet, presets, options, explain), ``setup`` (Setup: a log's header),
``moves`` (Move, the move tuple, IllegalMove), ``position`` (Position: pawns and move
generation), ``game`` (Game: the turn flow and the one move primitive ``push_raw``;
Outcome), ``events`` (reading log events into a game), ``messages`` (error texts),
``log`` (reading logs), ``validate`` (validate, replay, outcome), ``bots``, ``strong``
(StrongBot: the evaluator with a two-ply search), ``evaluator`` (the learned win
chances), ``registry`` (make_bot), ``simulate``, ``cli`` (``python -m games.engine``).
"""

from .board import (
    BOARDS,
    YARD,
    Board,
    count_points,
    get_board,
    rearguard,
    track_field,
    vanguard,
)
from .bots import Bot, HeuristicBot, RandomBot
from .game import Game, IllegalMove, Outcome
from .log import MAX_EVENTS, MAX_LOG_BYTES, InvalidLog, read_log
from .moves import Move
from .position import Position
from .registry import make_bot
from .rules import OPTIONS, PRESETS, RulesError, RuleSet, explain
from .setup import Setup, SetupError
from .simulate import play, play_random, simulate_game
from .snapshot import SnapshotError, game_restore, game_snapshot
from .strong import StrongBot
from .validate import (
    Step,
    Turn,
    final_game,
    outcome,
    replay,
    replay_log,
    replay_turns,
    validate,
    validate_parsed,
)

__all__ = [
    "BOARDS",
    "MAX_EVENTS",
    "MAX_LOG_BYTES",
    "OPTIONS",
    "PRESETS",
    "YARD",
    "Board",
    "Bot",
    "Game",
    "HeuristicBot",
    "IllegalMove",
    "InvalidLog",
    "Move",
    "Outcome",
    "Position",
    "RandomBot",
    "RuleSet",
    "RulesError",
    "Setup",
    "SetupError",
    "SnapshotError",
    "Step",
    "StrongBot",
    "Turn",
    "count_points",
    "explain",
    "final_game",
    "game_restore",
    "game_snapshot",
    "get_board",
    "make_bot",
    "outcome",
    "play",
    "play_random",
    "read_log",
    "rearguard",
    "replay",
    "replay_log",
    "replay_turns",
    "simulate_game",
    "track_field",
    "validate",
    "validate_parsed",
    "vanguard",
]
