"""Hypothesis properties of ``games.engine.analysis.analyse`` (on the evaluator) over
(prefixes of) simulated games of the presets and variants: deterministic, options are
exactly the legal moves, best first, losses ≥ 0 and equal to best − played, marks only
where the loss clears the band and the margin, positions with one legal move never
listed, the luck split adds up exactly and sums to zero over the players, own skill ≤ 0,
the roll counts match the log. The model is a stand-in (tests/engine/stand_in_evaluator.py)
passed in as an object, as the real one is."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import InvalidLog, replay_log, simulate_game, validate
from games.engine.analysis import (
    ANALYSIS_FORMAT,
    LOSS_SD_ENDGAME_MW,
    LOSS_SD_LARGE_MW,
    THRESHOLDS_MW,
    analyse,
    clear_margin,
    is_endgame,
    loss_sd_mw,
    mark_for,
)
from games.engine.analysis.checks import MARK_CHECKS_PER_GAME
from tests.engine.stand_in_evaluator import ProgressEvaluator

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
MODEL = ProgressEvaluator()
CHECKS = 6  # rollouts per played-out mark: the path, at a fraction of the platform's cost


@st.composite
def game_logs(draw: st.DrawFn) -> dict[str, Any]:
    rules = draw(st.sampled_from(VARIANTS))
    neutral = isinstance(rules, dict) and "neutral" in rules
    players = None if neutral else draw(st.sampled_from([None, TWO_PLAYERS]))
    log = simulate_game(
        rules=rules,
        players=players,
        board=draw(st.sampled_from([4, 4, 6])) if not neutral else 4,
        bots=draw(st.sampled_from(["random", "heuristic"])),
        seed=draw(st.integers(0, 2**31)),
    )
    cut = draw(st.sampled_from([40, 120, None]))  # None: the whole game
    return dict(log, events=log["events"][:cut])


def legal_at(log: dict[str, Any]) -> tuple[list[tuple[str, int, list[str]]], list[Any]]:
    """Per event: the colour on turn, the die and the legal moves as strings; and the game
    before each event."""
    _setup, game, steps = replay_log(log)
    out, states = [], []
    for step in steps:
        out.append((step.colour, step.die, [str(m) for m in game.legal_moves(step.die)]))
        states.append(game.copy())
        game.push_event(step.event)
    return out, states


def check_luck_identity(data: dict[str, Any], tol: float = 1e-9) -> None:
    """start + luck + own skill + others' skill = end, exactly; own skill in [−1, 0]…"""
    for s in data["summary"].values():
        luck = s["luck"]
        total = luck["start"] + luck["luck"] + luck["own_skill"] + luck["others_skill"]
        assert abs(total - luck["end"]) <= tol
        assert luck["own_skill"] <= 0.0
        assert luck["luck_adjusted"] == pytest.approx(luck["end"] - luck["luck"], abs=1e-12)
        assert luck["luck_dice"] + luck["lookahead"] == pytest.approx(luck["luck"], abs=1e-12)
    luck_sum = sum(s["luck"]["luck"] for s in data["summary"].values())
    assert abs(luck_sum) <= tol  # the players' luck sums to zero
    assert abs(sum(s["luck"]["luck_dice"] for s in data["summary"].values())) <= tol


@FAST
@given(game_logs())
def test_analysis_properties(log: dict[str, Any]) -> None:
    data = analyse(log, evaluator=MODEL, mark_checks=CHECKS)
    assert data["format"] == ANALYSIS_FORMAT
    assert data["model"] == ProgressEvaluator.name and data["plies"] == 1
    assert json.loads(json.dumps(data)) == data  # JSON-ready

    again = analyse(json.dumps(log), evaluator=ProgressEvaluator(), mark_checks=CHECKS)
    data.pop("seconds"), again.pop("seconds")
    assert again == data  # deterministic (and the same from JSON text, a fresh model)

    legal, states = legal_at(log)
    listed = {d["event"] for d in data["decisions"]}
    assert listed == {i for i, (_c, _d, moves) in enumerate(legal) if len(moves) > 1}
    players = data["players"]
    checked: list[dict[str, Any]] = []
    unchecked: list[dict[str, Any]] = []
    # every mark is a loss of a mark's size: the margin allows for that size's error
    general = clear_margin(len(data["decisions"]), LOSS_SD_LARGE_MW)
    endgame = clear_margin(len(data["decisions"]), LOSS_SD_ENDGAME_MW)
    assert data["marks"]["margin_mw"] == round(general, 1)
    assert data["marks"]["margin_endgame_mw"] == round(endgame, 1)
    for d in data["decisions"]:
        colour, die, moves = legal[d["event"]]
        assert d["endgame"] == is_endgame(states[d["event"]])
        margin = endgame if d["endgame"] else general
        assert d["colour"] == colour and d["die"] == die
        assert d["player"] == data["colours"][colour]
        assert sorted(o["move"] for o in d["options"]) == sorted(moves)
        assert d["played"] in moves and d["best"] == d["options"][0]["move"]
        wins = [o["win"] for o in d["options"]]
        assert wins == sorted(wins, reverse=True)
        for o in d["options"]:
            assert 0 <= o["win"] <= 1
            assert set(o["p"]) == set(players)
            assert o["p"][d["player"]] == o["win"]
            assert sum(o["p"].values()) == pytest.approx(1, abs=1e-3)
        played = next(o for o in d["options"] if o["move"] == d["played"])
        assert d["loss"] >= 0
        assert d["loss"] == pytest.approx(wins[0] - played["win"], abs=2e-4)
        if "check" in d:  # a mark played out: it stands on its rollouts (checks.py)
            check = d["check"]
            assert 1000 * d["loss"] - margin >= THRESHOLDS_MW["inaccuracy"]
            assert check["model_loss_mw"] == round(1000 * d["loss"], 1)
            assert check["rollouts"] == CHECKS and check["confidence"] == 0.95
            assert d["loss_mw"] == check["loss_mw"] and d["interval_mw"] == check["interval_mw"]
            low, high = check["interval_mw"]
            assert low <= d["loss_mw"] <= high
            near = [(x, y) for x in (-0.05, 0.0, 0.05) for y in (-0.1, 0.0, 0.1)]  # rounding
            assert d["mark"] in {
                mark_for(d["loss_mw"] + x, d["loss_mw"] - low + y) for x, y in near
            }
            checked.append(d)
            continue
        assert d["loss_mw"] == round(1000 * d["loss"], 1)
        # the 90 % interval: centred on the loss, as wide as the error of its size and kind
        low, high = d["interval_mw"]
        half = 1.6449 * loss_sd_mw(d["endgame"], 1000 * d["loss"])
        assert low == pytest.approx(1000 * d["loss"] - half, abs=0.06)
        assert high == pytest.approx(1000 * d["loss"] + half, abs=0.06)
        if d["mark"] is None:
            assert 1000 * d["loss"] - margin < THRESHOLDS_MW["inaccuracy"]
        else:
            assert 1000 * d["loss"] - margin >= THRESHOLDS_MW[d["mark"]]
            unchecked.append(d)
    # the largest marks are played out, at most MARK_CHECKS_PER_GAME; a further one is not
    assert len(checked) <= MARK_CHECKS_PER_GAME
    if unchecked and data["variant"] is None:
        assert len(checked) == MARK_CHECKS_PER_GAME
        assert max(d["loss"] for d in unchecked) <= min(d["loss"] for d in checked)

    graph = data["win_probability"]
    assert [g["event"] for g in graph] == list(range(-1, len(log["events"])))
    summary = data["summary"]
    assert sum(s["decisions"] for s in summary.values()) == len(data["decisions"])
    assert sum(s["luck"]["rolls"] for s in summary.values()) == len(log["events"])
    check_luck_identity(data)
    for p, s in summary.items():
        mine = [d for d in data["decisions"] if d["player"] == p]
        assert s["luck"]["own_skill"] == pytest.approx(-sum(d["loss"] for d in mine), abs=1e-9)
        if mine:  # the error rate: the model's loss; the total: only what counts
            counted = [d["counted_mw"] for d in mine]
            # the counting rule's bound is the evaluator's loss (a played-out mark shows the
            # rollouts' in loss_mw; its counted_mw stays the evaluator's)
            bound = [round(1000 * d["loss"], 1) + 0.05 for d in mine]
            assert all(0.0 <= c <= b for c, b in zip(counted, bound, strict=True))
            assert s["loss_mw"] == pytest.approx(sum(counted), abs=0.05 * len(mine) + 0.05)
            assert s["raw_loss_mw"] == round(1000 * sum(d["loss"] for d in mine), 1)
            assert s["error_rate"] == round(1000 * sum(d["loss"] for d in mine) / len(mine), 1)
            assert s["loss_mw"] <= s["raw_loss_mw"]
        luck = s["luck"]
        assert luck["sixes"] <= luck["rolls"]
        assert luck["captures"] <= luck["capture_chances"] <= luck["rolls"]
    if data["complete"]:
        winner = validate(log)["winner"]
        assert graph[-1] == {
            "event": len(log["events"]) - 1,
            "p": {p: float(p == winner) for p in players},
        }
        for p, s in summary.items():
            assert s["luck"]["end"] == float(p == winner)


def test_a_complete_game_ends_with_the_result_and_the_identity_holds() -> None:
    log = simulate_game(rules="league", players=TWO_PLAYERS, bots="heuristic", seed=11)
    data = analyse(log, evaluator=MODEL)
    winner = validate(log)["winner"]
    assert data["complete"]
    last = data["win_probability"][-1]
    assert last == {"event": len(log["events"]) - 1, "p": {"alice": 0.0, "bob": 0.0, winner: 1.0}}
    check_luck_identity(data)
    assert data["summary"][winner]["luck"]["end"] == 1.0


def test_invalid_logs_and_arguments_are_refused_clearly() -> None:
    log = simulate_game(rules="league", seed=4)
    bad = json.loads(json.dumps(log))
    bad["events"][10]["die"] = 9
    with pytest.raises(InvalidLog) as info:
        analyse(bad, evaluator=MODEL)
    assert info.value.event == 10
    with pytest.raises(InvalidLog):
        analyse("{not json", evaluator=MODEL)
    for plies in (3, -1, 1.0, "1"):
        with pytest.raises(ValueError, match="plies"):
            analyse(log, evaluator=MODEL, plies=plies)
