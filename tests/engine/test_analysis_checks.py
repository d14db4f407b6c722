"""Marks played out to the end (``games.engine.analysis.checks``, issue #37): the largest
marks of a game are valued again by paired rollouts, the shown loss and the mark stand on
them, the evaluator's loss is kept beside them, and the same log always gives the same
checks. On the shipped model and a mixed league game whose random player blunders (seed
50,048 of ``bench/analysis.py``'s mixed games: one mark)."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import replay_log, simulate_game
from games.engine.analysis import MARK_CHECKS_PER_GAME, analyse, mark_for
from games.engine.analysis.analyse import decision_mark, mark_margins
from games.engine.analysis.checks import MarkCheck, check_decisions, check_seed
from games.engine.analysis.decisions import walk
from games.engine.analysis.equity import Equity
from games.engine.evaluator import evaluator_for
from tests.engine.stand_in_evaluator import ProgressEvaluator

MIXED = ("random", "heuristic", "strong", "heuristic")
COLOURS = ("red", "black", "yellow", "green")
ROLLOUTS = 200  # the path at a fraction of the platform's 1,500


def mixed_log(seed: int) -> dict[str, Any]:
    i = seed - 50_000
    bots = {COLOURS[(s + i) % 4]: MIXED[s] for s in range(4)}
    return simulate_game(rules="league", bots=bots, seed=seed)


@pytest.fixture(scope="module")
def game() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    log = mixed_log(50_048)
    return log, analyse(log, mark_checks=ROLLOUTS), analyse(log)


def test_the_marks_of_the_model_are_played_out_and_stand_on_the_rollouts(game) -> None:
    _log, checked, plain = game
    model_marks = [d for d in plain["decisions"] if d["mark"]]
    assert model_marks, "the game has a mark by the evaluator"
    assert plain["marks"]["check_rollouts"] == 0
    assert checked["marks"]["check_rollouts"] == ROLLOUTS
    by_event = {d["event"]: d for d in checked["decisions"]}
    for d in plain["decisions"]:
        e = by_event[d["event"]]
        assert e["loss"] == d["loss"] and e["options"] == d["options"]  # the model's values
        if not d["mark"]:
            assert "check" not in e and e == d  # nothing else changes
            continue
        check = e["check"]
        assert check["rollouts"] == ROLLOUTS and check["model_loss_mw"] == d["loss_mw"]
        assert e["loss_mw"] == check["loss_mw"] and e["interval_mw"] == check["interval_mw"]
        low, high = check["interval_mw"]
        assert low < e["loss_mw"] < high
        assert high - e["loss_mw"] == pytest.approx(e["loss_mw"] - low, abs=0.11)
        # the mark: the band the played-out loss clears by its own 95 % margin
        assert e["mark"] == mark_for(e["loss_mw"], e["loss_mw"] - low) or e["mark"] == mark_for(
            e["loss_mw"] + 0.05, e["loss_mw"] - low - 0.1
        )
    # the summary counts the marks that stand, the totals keep the model's losses
    for player, s in checked["summary"].items():
        mine = [d for d in checked["decisions"] if d["player"] == player]
        for band, key in (
            ("inaccuracy", "inaccuracies"),
            ("mistake", "mistakes"),
            ("blunder", "blunders"),
        ):
            assert s[key] == sum(d["mark"] == band for d in mine)
        ps = plain["summary"][player]
        assert s["loss_mw"] == ps["loss_mw"] and s["error_rate"] == ps["error_rate"]
        assert s["luck"] == ps["luck"]


def test_the_checks_are_deterministic_and_on_the_games_own_dice(game) -> None:
    log, checked, _plain = game
    w = walk(log, lambda g: Equity(evaluator_for(g.rules), g, 1), lookahead=False)
    seed = check_seed([r.die for r in w.rolls])
    assert seed == check_seed([e["die"] for e in log["events"]]) and 0 <= seed < 2**48
    assert check_seed([e["die"] for e in mixed_log(50_040)["events"]]) != seed
    marked = {d["event"] for d in checked["decisions"] if "check" in d}
    decisions = [d for d in w.decisions if d.event in marked]
    first = check_decisions(log, decisions, ROLLOUTS, seed)
    assert first == check_decisions(log, decisions, ROLLOUTS, seed)  # the same dice again
    for d in checked["decisions"]:
        if d["event"] in first:
            assert d["check"] == first[d["event"]].entry(d["check"]["model_loss_mw"])
    other = check_decisions(log, decisions, ROLLOUTS, seed + 1)  # other dice: other figures
    assert [c.loss_mw for c in other.values()] != [c.loss_mw for c in first.values()]


def test_a_check_plays_the_moves_the_decision_names() -> None:
    """The options are taken in the walk's order: the move played and the best are the ones
    the decision names (every decision of a game, checked with two rollouts)."""
    log = simulate_game(rules="league", bots="random", seed=3)
    log = dict(log, events=log["events"][:80])
    w = walk(log, lambda g: Equity(evaluator_for(g.rules), g, 1), lookahead=False)
    _setup, g, steps = replay_log(log)
    names_at = {}
    for step in steps:
        c = g.turn_seat
        names_at[step.index] = [str(g.move_object(m, c)) for m in g.legal(c, step.die)]
        g.push_event(step.event)
    for d in w.decisions:
        assert names_at[d.event] == d.names
    checks = check_decisions(log, w.decisions[:3], 2, seed=1)
    assert set(checks) == {d.event for d in w.decisions[:3]}
    assert all(isinstance(c, MarkCheck) and c.rollouts == 2 for c in checks.values())


def test_at_most_the_largest_marks_of_a_game_are_played_out() -> None:
    model = ProgressEvaluator()  # a crude stand-in: it marks many moves
    log = simulate_game(rules="league", bots="random", seed=7)
    plain = analyse(log, evaluator=model)
    marks = sorted(
        (d for d in plain["decisions"] if d["mark"]), key=lambda d: (-d["loss"], d["event"])
    )
    assert len(marks) > MARK_CHECKS_PER_GAME
    checked = analyse(log, evaluator=model, mark_checks=20)
    played_out = {d["event"] for d in checked["decisions"] if "check" in d}
    assert played_out == {d["event"] for d in marks[:MARK_CHECKS_PER_GAME]}
    margins = mark_margins(len(plain["decisions"]))
    for d in checked["decisions"]:
        if "check" not in d:  # the others keep the evaluator's verdict
            assert d["mark"] == decision_mark(1000 * d["loss"], d["endgame"], margins)


def test_a_variant_game_is_not_played_out() -> None:
    """A live room's "Quick" game ends by its variant, the rollouts play to the normal end:
    its marks keep the evaluator's verdict; the same log without the variant is played out."""
    model = ProgressEvaluator()  # a crude stand-in: it marks many moves
    for seed in range(4, 40):
        log = simulate_game("online", variant="quick", bots="random", seed=seed)
        data = analyse(log, evaluator=model, mark_checks=20)
        if any(d["mark"] for d in data["decisions"]):
            break
    assert data["variant"] == "quick" and any(d["mark"] for d in data["decisions"])
    assert not any("check" in d for d in data["decisions"])
    assert data["marks"]["check_rollouts"] == 0
    without = {**log, "meta": {k: v for k, v in log["meta"].items() if k != "variant"}}
    plain = analyse(without, evaluator=model, mark_checks=20)
    assert plain["variant"] is None and any("check" in d for d in plain["decisions"])


def test_the_review_says_what_playing_out_found_in_english_and_german(game) -> None:
    from django.template.loader import render_to_string
    from django.utils import translation

    from games.engine.analysis.review import review

    log, checked, plain = game
    moments = [m for m in review(log, checked)["moments"] if m["kind"] == "decision"]
    assert moments
    by_event = {d["event"]: d for d in checked["decisions"]}
    for m in moments:
        check = by_event[m["event"]]["check"]
        assert m["played_out"] == {
            "times": ROLLOUTS,
            "per_hundred": round(check["loss_mw"] / 10),
        }
    assert all(m.get("played_out") is None for m in review(log, plain)["moments"])
    m = moments[0]
    for language, words in (
        (
            "en",
            f"Played out {ROLLOUTS} times from here with each move, the better one won about "
            f"{m['played_out']['per_hundred']} more games in every 100.",
        ),
        (
            "de",
            f"Von hier aus {ROLLOUTS}-mal mit jedem der beiden Züge zu Ende gespielt, gewann "
            f"der bessere etwa {m['played_out']['per_hundred']} Partien von 100 mehr.",
        ),
    ):
        with translation.override(language):
            html = render_to_string(
                "tournaments/_analysis_review.html", {"review": review(log, checked)}
            )
        assert " ".join(words.split()) in " ".join(html.split())


def test_the_review_groups_the_platforms_1500_rollouts_by_the_language(game) -> None:
    from django.template.loader import render_to_string
    from django.utils import translation

    from games.engine.analysis.review import review

    log, checked, _plain = game
    said = review(log, checked)
    for m in said["moments"]:
        if m.get("played_out"):
            m["played_out"]["times"] = 1500  # as on the platform (MARK_CHECK_ROLLOUTS)
    for language, words in (("en", "Played out 1,500 times"), ("de", "Von hier aus 1.500-mal")):
        with translation.override(language):
            html = render_to_string("tournaments/_analysis_review.html", {"review": said})
        assert words in html
