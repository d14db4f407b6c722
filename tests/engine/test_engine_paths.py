"""Every path that records a roll — ``Game.push`` (Move objects), ``push_event`` (one log
event, full checks), ``push_events`` (the validator's fast path) and the simulation —
ends in the same game, and the modules around ``Game`` use only its public members."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, Move, final_game, read_log, simulate_game

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def _state(g: Game) -> tuple[Any, ...]:
    return (
        g.positions(),
        g.turn,
        g.tries_left,
        g.attempt,
        g.placing_colours(),
        g.captures(),
        g.pawns_home(),
        g.winner,
        g.is_over(),
        g.events,
    )


RULES = st.sampled_from(
    [
        "league",
        "classic",
        "online",
        "league-gp",
        {"preset": "classic", "barriers": True},
        {"preset": "classic", "capture_backwards": True},
        {"preset": "classic", "compulsory_capture": True},
        {"preset": "classic", "compulsory_capture": "huff"},
        {"preset": "classic", "neutral": "green"},
    ]
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=RULES, board=st.sampled_from([4, 6]), seed=st.integers(0, 10**6))
def test_all_paths_reach_the_same_game(rules: Any, board: int, seed: int) -> None:
    log = simulate_game(rules=rules, board=board, seed=seed, max_events=3_000)
    setup, events = read_log(log)
    fast = Game(setup)
    fast.push_events(events)
    one_by_one = Game(setup)
    by_move = Game(setup)
    for ev in events:
        one_by_one.push_event(ev)
        move = None
        if "move" in ev:
            f, t = ev["move"]
            move = Move(ev["colour"], ev.get("pawn_colour", ev["colour"]), f, t)
        by_move.push(ev["die"], move, ev.get("huff"))
        assert _state(by_move) == _state(one_by_one)
    assert _state(fast) == _state(one_by_one) == _state(final_game(log))


def _private_uses(path: Path) -> list[str]:
    """Attribute accesses ``x._name`` on anything but ``self`` / ``cls`` in a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
        ):
            found.append(f"{path.name}:{node.lineno} .{node.attr}")
    return found


def test_bots_simulation_messages_and_readers_use_public_members_only() -> None:
    modules = ["bots.py", "simulate.py", "messages.py", "events.py", "validate.py", "cli.py"]
    assert [use for name in modules for use in _private_uses(ENGINE / name)] == []
