"""The review in plain facts (issue #37, games/engine/analysis/review.py): every fact it
states about a key moment is true of the position (checked independently over every pair
of legal moves of simulated games), the key moments are the largest marked losses in game
order, and the verdict weighs the winner's luck against the marked moves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import simulate_game
from games.engine.analysis.review import MAX_MOMENTS, _after, _reasons, review
from games.engine.board import YARD
from games.engine.validate import replay_log


def positions(seed: int, every: int = 3):
    """(game before the roll, seat, legal moves) at decisions of a simulated game."""
    log = simulate_game(rules="league", seed=seed)
    _, game, steps = replay_log(log)
    for step in steps:
        c = game.turn_seat
        legal = game.legal(c, step.event["die"])
        if len(legal) > 1 and step.index % every == 0:
            yield game.copy(), c, legal
        game.push_event(step.event)


def enemy_behind(game, c, field, fields):
    """An enemy pawn stands ``fields`` behind ``field`` and can still move that far (or,
    for 0, an enemy with yard pawns has its start field there)."""
    mine = set(game.setup.players[game.setup.player_of(c)])
    if fields == 0:
        return any(e not in mine and game.yard[e] and game.start[e] == field for e in range(4))
    f = (field - fields) % game.T
    e = game.track[f]
    return e >= 0 and e not in mine and game.rel_of[e][f] + fields < game.T


@settings(max_examples=6, deadline=None)
@given(st.integers(min_value=1, max_value=10_000))
def test_every_fact_is_true_of_the_position(seed) -> None:
    for game, c, legal in positions(seed):
        mine = set(game.setup.players[game.setup.player_of(c)])
        for played in legal:
            for best in legal:
                if played == best:
                    continue
                reasons = _reasons(game, c, played, best)
                codes = [r["code"] for r in reasons]
                assert 1 <= len(reasons) <= 2
                captures = best[3] >= 0 and best[3] not in mine and played[3] != best[3]
                assert ("missed_capture" in codes) == captures
                if captures:
                    assert reasons[0]["victim"] == game.names[best[3]]
                enters = best[1] < game.T <= best[2] and not played[1] < game.T <= played[2]
                if "missed_home" in codes:
                    assert enters
                if "missed_out" in codes:
                    assert best[1] == YARD != played[1]
                for r in reasons:
                    if r["code"] == "left_in_reach":
                        after = _after(game, c, played)
                        fields = [
                            after.abs_of[s][p]
                            for s in mine
                            for p in after.pawns[s]
                            if p != YARD and p < after.T
                        ]
                        assert any(enemy_behind(after, c, f, r["fields"]) for f in fields)
                if "race" in codes:
                    assert codes == ["race"] and not captures


def fake_analysis(log, marks):
    """An analysis of ``log`` in the engine's shape: the decisions ``marks`` names
    (event → (loss, mark, winner's gain)), yellow the winner with luck 0.5."""
    _, game, steps = replay_log(log)
    decisions = []
    for step in steps:
        c = game.turn_seat
        legal = game.legal(c, step.event["die"])
        if step.index in marks and len(legal) > 1:
            pushed = game.push_event(step.event)
            played = str(game.move_object(pushed[0], c))
            other = next(str(game.move_object(m, c)) for m in legal if m != pushed[0])
            loss, mark, gain = marks[step.index]
            name = game.names[c]
            decisions.append(
                {
                    "event": step.index,
                    "colour": name,
                    "player": name,
                    "die": step.event["die"],
                    "played": played,
                    "best": other,
                    "loss": loss,
                    "mark": mark,
                    "options": [
                        {"move": other, "win": 0.5, "p": {name: 0.5, "yellow": 0.2}},
                        {"move": played, "win": 0.5 - loss, "p": {name: 0.5, "yellow": 0.2 + gain}},
                    ],
                }
            )
        else:
            game.push_event(step.event)
    summary = {
        p: {"luck": {"end": 1.0 if p == "yellow" else 0.0, "luck": 0.5 if p == "yellow" else -0.2}}
        for p in ("red", "black", "yellow", "green")
    }
    return {"complete": True, "decisions": decisions, "summary": summary, "win_probability": []}


@pytest.fixture(scope="module")
def game_log():
    return simulate_game(rules="league", seed=5)


def decision_events(log, n):
    _, game, steps = replay_log(log)
    found = []
    for step in steps:
        c = game.turn_seat
        if len(game.legal(c, step.event["die"])) > 1 and game.names[c] != "yellow":
            found.append(step.index)
        game.push_event(step.event)
    return found[:n]


def test_the_key_moments_are_the_largest_marked_losses_in_game_order(game_log) -> None:
    events = decision_events(game_log, 5)
    losses = [0.04, 0.2, 0.09, 0.15, 0.01]
    marks = {
        e: (loss, "mistake" if loss > 0.03 else None, 0.0)
        for e, loss in zip(events, losses, strict=True)
    }
    out = review(game_log, fake_analysis(game_log, marks))
    shown = [m["event"] for m in out["moments"]]
    assert len(shown) == MAX_MOMENTS
    assert shown == sorted([events[1], events[3], events[2]])  # 0.2, 0.15, 0.09
    for m in out["moments"]:
        assert m["kind"] == "decision" and m["reasons"]


@pytest.mark.parametrize(
    ("gain", "kind", "sure"),
    [
        (0.0, "dice", "clearly"),
        (0.3, "dice", "mostly"),
        (0.8, "decisions", "mostly"),
        (1.2, "decisions", "clearly"),
    ],
)
def test_the_verdict_weighs_the_winners_luck_against_the_marked_moves(game_log, gain, kind, sure):
    events = decision_events(game_log, 2)
    marks = {events[0]: (0.1, "mistake", gain), events[1]: (0.01, None, 5.0)}  # unmarked: ignored
    verdict = review(game_log, fake_analysis(game_log, marks))["verdict"]
    assert (verdict["kind"], verdict["sure"], verdict["player"]) == (kind, sure, "yellow")
    assert verdict["dice_points"] == 50 and verdict["decision_points"] == round(100 * gain)


def test_an_unfinished_game_has_no_verdict(game_log) -> None:
    data = fake_analysis(game_log, {})
    data["complete"] = False
    assert review(game_log, data) == {"verdict": {"kind": "unfinished"}, "moments": []}
