"""Hypothesis properties of ``games.engine.analysis.analyse`` on (prefixes of) simulated
games: deterministic for a seed, estimates are probabilities, the options are exactly
the legal moves, the played move is one of them, losses are ≥ 0 and agree with the
estimates, positions with one legal move are not listed, the luck decomposition adds
up, and the roll counts match the log."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import InvalidLog, replay_log, simulate_game, validate
from games.engine.analysis import ANALYSIS_FORMAT, THRESHOLDS, analyse

VARIANTS: list[Any] = [
    "league",
    "online",
    "classic",
    "league-gp",
    {"preset": "classic", "compulsory_capture": "huff"},
    {"preset": "classic", "neutral": "green"},
    {"preset": "classic", "barriers": True, "capture_backwards": True},
]
TWO_PLAYERS = {"alice": ["green", "red"], "bob": ["black", "yellow"]}
FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def game_logs(draw: st.DrawFn) -> dict[str, Any]:
    rules = draw(st.sampled_from(VARIANTS))
    neutral = isinstance(rules, dict) and "neutral" in rules
    players = None if neutral else draw(st.sampled_from([None, TWO_PLAYERS]))
    log = simulate_game(
        rules=rules,
        players=players,
        bots=draw(st.sampled_from(["random", "heuristic"])),
        seed=draw(st.integers(0, 2**31)),
    )
    # a prefix keeps the analysis short (complete games: test_a_complete_game_...)
    return dict(log, events=log["events"][: draw(st.sampled_from([30, 60, 120]))])


def legal_at(log: dict[str, Any]) -> list[tuple[str, int, list[str]]]:
    """Per event: the colour on turn, the die and the legal moves as strings."""
    _setup, game, steps = replay_log(log)
    out = []
    for step in steps:
        out.append((step.colour, step.die, [str(m) for m in game.legal_moves(step.die)]))
        game.push_event(step.event)
    return out


@FAST
@given(game_logs(), st.integers(0, 1000))
def test_analysis_properties(log: dict[str, Any], seed: int) -> None:
    rollouts = 3
    data = analyse(log, rollouts=rollouts, seed=seed)
    assert data["format"] == ANALYSIS_FORMAT
    assert data["rollouts"] == rollouts and data["seed"] == seed
    assert json.loads(json.dumps(data)) == data  # JSON-ready

    again = analyse(json.dumps(log), rollouts=rollouts, seed=seed)
    data.pop("seconds"), again.pop("seconds")
    assert again == data  # deterministic (and the same from JSON text)

    legal = legal_at(log)
    listed = {d["event"] for d in data["decisions"]}
    assert listed == {i for i, (_c, _d, moves) in enumerate(legal) if len(moves) > 1}
    players = data["players"]
    for d in data["decisions"]:
        colour, die, moves = legal[d["event"]]
        assert d["colour"] == colour and d["die"] == die
        assert d["player"] == data["colours"][colour]
        assert sorted(o["move"] for o in d["options"]) == sorted(moves)
        assert d["played"] in moves and d["best"] == d["options"][0]["move"]
        wins = [o["win"] for o in d["options"]]
        assert wins == sorted(wins, reverse=True)
        for o in d["options"]:
            assert 0 <= o["win"] <= 1 and 0 < o["half_width"] <= 1
            assert set(o["p"]) == set(players)
            assert o["p"][d["player"]] == o["win"]
            assert sum(o["p"].values()) <= 1 + 1e-3
        played = next(o for o in d["options"] if o["move"] == d["played"])
        assert d["loss"] >= 0
        assert d["loss"] == pytest.approx(wins[0] - played["win"], abs=2e-4)
        if d["mark"] is not None:
            assert d["loss"] > d["loss_half_width"]
            assert d["loss"] >= THRESHOLDS[d["mark"]]

    graph = data["win_probability"]
    assert graph[0]["event"] == -1
    assert [g["event"] for g in graph[1:]] == sorted({g["event"] for g in graph[1:]})
    summary = data["summary"]
    assert sum(s["decisions"] for s in summary.values()) == len(data["decisions"])
    assert sum(s["luck"]["rolls"] for s in summary.values()) == len(log["events"])
    for p, s in summary.items():
        luck = s["luck"]
        parts = luck["dice"] + luck["own_choices"] + luck["others_choices"]
        assert parts == pytest.approx(luck["end"] - luck["start"], abs=5e-3)
        assert luck["own_choices"] <= 1e-9  # one's own choices never beat the best option
        assert luck["sixes"] <= luck["rolls"]
        assert luck["capture_chances"] <= luck["rolls"]
        assert 0 <= luck["capture_chances_expected"] <= luck["rolls"]
        assert luck["captures"] <= luck["capture_chances"]
        assert luck["start"] == graph[0]["p"][p]
    if data["complete"]:
        winner = validate(log)["winner"]
        assert graph[-1] == {
            "event": len(log["events"]) - 1,
            "p": {p: float(p == winner) for p in players},
        }


def test_a_complete_game_ends_the_graph_with_the_result() -> None:
    log = simulate_game(rules="league", players=TWO_PLAYERS, bots="heuristic", seed=11)
    data = analyse(log, rollouts=2, seed=0)
    winner = validate(log)["winner"]
    assert data["complete"]
    last = data["win_probability"][-1]
    assert last == {"event": len(log["events"]) - 1, "p": {"alice": 0.0, "bob": 0.0, winner: 1.0}}
    luck = data["summary"][winner]["luck"]
    assert luck["end"] == 1.0
    parts = luck["dice"] + luck["own_choices"] + luck["others_choices"]
    assert parts == pytest.approx(1.0 - luck["start"], abs=5e-3)


def test_a_different_seed_gives_other_rollouts() -> None:
    log = simulate_game(rules="league", seed=3)
    log["events"] = log["events"][:60]
    a = analyse(log, rollouts=8, seed=1)["decisions"]
    b = analyse(log, rollouts=8, seed=2)["decisions"]
    assert [d["event"] for d in a] == [d["event"] for d in b]
    assert [o["p"] for d in a for o in d["options"]] != [o["p"] for d in b for o in d["options"]]


def test_invalid_logs_and_arguments_are_refused_clearly() -> None:
    log = simulate_game(rules="league", seed=4)
    bad = json.loads(json.dumps(log))
    bad["events"][10]["die"] = 9
    with pytest.raises(InvalidLog) as info:
        analyse(bad, rollouts=2)
    assert info.value.event == 10
    with pytest.raises(InvalidLog):
        analyse("{not json", rollouts=2)
    for rollouts in (0, 1, 2.5, "200"):
        with pytest.raises(ValueError, match="rollouts"):
            analyse(log, rollouts=rollouts)
    with pytest.raises(ValueError, match="seed"):
        analyse(log, seed=-1)
