"""Differential tests: the engine against DeepMind's OpenSpiel ``maedn`` game.

OpenSpiel's C++ game plays the project's preset ``classic`` with ``setup: yard`` and
``end: first-colour`` on board 4 (the mapping is in docs/engine.md, "Speed"): its
player ``p`` is seat ``p`` (red, black, yellow, green), player 0 rolls first. Its
actions are 0 (pass), 1 (bring a pawn in: ``B→0``) and ``2 + f`` (move the pawn on
relative field ``f`` by the die).

* Random games played by OpenSpiel, written as a ``maedn-log/1`` log, validate in
  the engine with the same winner — and at every decision the engine's legal
  moves are OpenSpiel's legal actions.
* Random games the engine plays (``simulate_game``) are played move by move in
  OpenSpiel, which offers the same actions and ends with the same winner.

Skipped, with the reason in the summary, only where the ``open_spiel`` wheel is not
installed (it is a dev dependency; PyPI has wheels for CPython 3.11 on Linux x86-64).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Game, Setup, simulate_game, validate
from games.engine.board import position_name
from games.engine.log import FORMAT
from games.engine.simulate import play_random

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="OPENSPIEL NOT INSTALLED: `pip install open_spiel` (a dev dependency) failed or "
    "was skipped on this machine, so the differential tests against OpenSpiel did not run",
)

RULES = {"preset": "classic", "setup": "yard", "end": "first-colour"}
COLOURS = ("red", "black", "yellow", "green")
PASS, BRING_IN, FIELD = 0, 1, 2  # OpenSpiel maedn's action codes
MAX_ROLLS = 5_000  # far above any random game (about 435 rolls); a loop guard only

GAME = pyspiel.load_game("maedn", {"players": 4})


def actions_of(game: Game, die: int) -> list[int]:
    """The engine's legal moves for the colour on turn, as OpenSpiel actions (sorted)."""
    moves = game.legal(game.turn_seat, die)
    if not moves:
        return [PASS]
    return sorted(BRING_IN if frm < 0 else FIELD + frm for _s, frm, _to, _cap in moves)


def winner_of(state: Any) -> str:
    returns = state.returns()
    (winner,) = [p for p, r in enumerate(returns) if r > 0]
    return COLOURS[winner]


def header(events: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "board": 4,
        "rules": RULES,
        "colours": list(COLOURS),
        "first": "red",
        "events": events,
    }


def openspiel_game(seed: int) -> tuple[dict[str, Any], str, int]:
    """A random OpenSpiel game as a log, its winner and the decisions checked on the way."""
    rng = random.Random(seed)
    state = GAME.new_initial_state()
    game = Game(Setup.create(board=4, rules=RULES, first="red"))
    events: list[dict[str, Any]] = []
    die = 0
    decisions = 0
    while not state.is_terminal():
        assert len(events) < MAX_ROLLS
        if state.is_chance_node():
            outcome = rng.randrange(6)
            state.apply_action(outcome)
            die = outcome + 1
            continue
        seat = state.current_player()
        assert seat == game.turn_seat, f"OpenSpiel has {COLOURS[seat]} on turn"
        actions = sorted(state.legal_actions())
        assert actions_of(game, die) == actions, f"event {len(events)}: {state}"
        decisions += 1
        action = rng.choice(actions)
        state.apply_action(action)
        event: dict[str, Any] = {"colour": COLOURS[seat], "die": die}
        if action != PASS:
            frm = -1 if action == BRING_IN else action - FIELD
            event["move"] = [position_name(frm), frm + die if frm >= 0 else 0]
            (move,) = [m for m in game.legal(seat, die) if m[1] == frm]
            game.push_raw(die, move)
        else:
            game.push_raw(die)
        events.append(event)
    assert game.over
    return header(events), winner_of(state), decisions


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_openspiel_games_validate_with_the_same_winner(seed: int) -> None:
    log, winner, decisions = openspiel_game(seed)
    result = validate(log)
    assert result["valid"], result
    assert result["complete"] and result["winner"] == winner
    assert result["events"] == len(log["events"]) == decisions


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_engine_games_play_out_the_same_in_openspiel(seed: int) -> None:
    log = simulate_game(rules=RULES, first="red", seed=seed)
    state = GAME.new_initial_state()
    game = Game(Setup.create(board=4, rules=RULES, first="red"))
    for i, ev in enumerate(log["events"]):
        # a wrong action would abort the process inside OpenSpiel: check before applying
        assert state.is_chance_node(), f"OpenSpiel ended or wants a move before event {i}"
        state.apply_action(ev["die"] - 1)
        assert state.current_player() == game.turn_seat == COLOURS.index(ev["colour"])
        actions = sorted(state.legal_actions())
        assert actions == actions_of(game, ev["die"]), f"event {i}: {state}"
        move = ev.get("move")
        if move is None:
            state.apply_action(PASS)
        else:
            state.apply_action(BRING_IN if move[0] == "B" else FIELD + move[0])
        game.push_event(ev)
    assert state.is_terminal() and game.over
    assert winner_of(state) == validate(log)["winner"]


def test_the_lean_random_loop_plays_openspiel_games() -> None:
    """``play_random`` (what ``play`` runs for random bots with no log: the benchmark's
    path), recorded and played move by move in OpenSpiel: the same actions are legal
    there and it ends with the same winner after as many rolls."""
    setup = Setup.create(board=4, rules=RULES, first="red")
    for seed in range(20):
        events: list[dict[str, Any]] = []
        game = play_random(Game(setup), random.Random(seed), record=events, until_first=True)
        state = GAME.new_initial_state()
        for ev in events:
            assert state.is_chance_node()
            state.apply_action(ev["die"] - 1)
            move = ev.get("move")
            action = PASS if move is None else BRING_IN if move[0] == "B" else FIELD + move[0]
            assert action in state.legal_actions()
            state.apply_action(action)
        assert state.is_terminal() and winner_of(state) == game.names[game.placings[0]]
        assert game.events == len(events)
