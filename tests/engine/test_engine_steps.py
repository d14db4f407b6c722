"""Replay steps carry the try number and the captured pawn (``Step.attempt`` and
``Step.captured``): hand-worked logs, and properties over simulated games."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import replay, simulate_game, validate

ONE_OUT_LEAGUE = {"preset": "league", "setup": "one-out"}


def _log(rules: Any, first: str, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"format": "maedn-log/1", "rules": rules, "first": first, "events": events}


def test_tries_and_captures_of_a_hand_worked_log() -> None:
    # League rules with one pawn out: every colour starts with a pawn on its field A
    # (red 0, black 10, yellow 20, green 30 absolute).
    events = [
        # green must clear its field A (clear_start), then runs onto red's field A (abs 0)
        {"colour": "green", "die": 6, "move": [0, 6]},
        {"colour": "green", "die": 4, "move": [6, 10]},  # captures red on red's field 0
        # red now has every pawn in the yard: stuck, three tries
        {"colour": "red", "die": 2},
        {"colour": "red", "die": 5},
        {"colour": "red", "die": 6, "move": ["B", 0]},  # enters, capturing green (green's 10)
        {"colour": "red", "die": 1, "move": [0, 1]},  # a pawn on the track: one try
        {"colour": "black", "die": 3, "move": [0, 3]},
    ]
    steps = list(replay(_log(ONE_OUT_LEAGUE, "green", events)))
    assert [s.attempt for s in steps] == [(1, 1), (1, 1), (1, 3), (2, 3), (3, 3), (1, 1), (1, 1)]
    assert [s.captured for s in steps] == [None, ("red", 0), None, None, ("green", 10), None, None]
    assert steps[1].move is not None and steps[1].move.captures == "red"
    assert steps[4].to_dict()["attempt"] == [3, 3]
    assert steps[4].to_dict()["captured"] == ["green", 10]
    assert steps[0].to_dict()["captured"] is None


def test_three_tries_that_fail_pass_the_turn_and_the_next_colour_starts_at_try_one() -> None:
    events = [
        {"colour": "red", "die": 1},
        {"colour": "red", "die": 2},
        {"colour": "red", "die": 3},
        {"colour": "black", "die": 6, "move": ["B", 0]},
        {"colour": "black", "die": 6, "move": [0, 6]},  # after a 6: a new opportunity, one try
        {"colour": "black", "die": 2, "move": [6, 8]},
        {"colour": "yellow", "die": 5},
    ]
    steps = list(replay(_log("league", "red", events)))
    assert [s.attempt for s in steps] == [(1, 3), (2, 3), (3, 3), (1, 3), (1, 1), (1, 1), (1, 3)]
    assert all(s.captured is None for s in steps)


def test_a_capture_on_another_colours_track_field_is_named_relative_to_that_colour() -> None:
    # classic: one pawn out (red on abs 0, black on abs 10). Red's runner stops on red 12
    # (abs 12); black's 2 from its field A reaches abs 12 = black's 2 and captures it there.
    events = [
        {"colour": "red", "die": 6, "move": [0, 6]},  # clear start
        {"colour": "red", "die": 6, "move": ["B", 0]},  # compulsory entry
        {"colour": "red", "die": 6, "move": [6, 12]},  # A blocked by its own pawn, 0→6 too
        {"colour": "red", "die": 1, "move": [0, 1]},  # clear start again
        {"colour": "black", "die": 2, "move": [0, 2]},  # captures red's pawn on red 12
    ]
    result = validate(_log("classic", "red", events))
    if not result["valid"]:  # the hand-worked premise (which moves are legal) must hold
        raise AssertionError(result)
    steps = list(replay(_log("classic", "red", events)))
    assert steps[-1].captured == ("red", 12)
    assert steps[-1].move is not None and steps[-1].move.to == 2


def test_a_huff_is_not_a_capture() -> None:
    log = simulate_game(rules={"preset": "classic", "compulsory_capture": "huff"}, seed=11)
    steps = list(replay(log))
    huffed = [s for s in steps if s.move is not None and s.move.huff is not None]
    assert huffed
    for s in huffed:
        assert s.captured is None


@st.composite
def simulated(draw: st.DrawFn) -> dict[str, Any]:
    rules = draw(
        st.sampled_from(
            ["league", "classic", "online", {"preset": "classic", "three_tries": True}, "league-gp"]
        )
    )
    return simulate_game(
        rules=rules, board=draw(st.sampled_from([4, 6])), seed=draw(st.integers(0, 10**6))
    )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(simulated())
def test_attempts_count_up_and_captures_add_up(log: dict[str, Any]) -> None:
    steps = list(replay(log))
    previous = None
    for step in steps:
        k, of = step.attempt
        assert of in (1, 3) and 1 <= k <= of
        if k > 1:  # a later try follows the same colour's failed try just before it
            assert previous is not None and previous.colour == step.colour
            assert previous.attempt == (k - 1, of) and previous.die != 6
        if previous is not None and previous.colour == step.colour and previous.die == 6:
            assert k == 1  # a 6 opens a new roll opportunity
        if step.captured is not None:
            assert step.move is not None and step.move.captures == step.captured[0]
        else:
            assert step.move is None or step.move.captures is None
        previous = step
    made: dict[str, int] = {}
    for step in steps:
        if step.captured is not None:
            made[step.colour] = made.get(step.colour, 0) + 1
    result = validate(log)
    assert {c: n for c, n in result["captures"].items() if n} == made
