"""The platform variants "Quick" and "First capture" in the engine: a Game with a variant
ends by its condition, simulation plays to that end, and the log stays a valid
``maedn-log/1`` log of the variant's rules that stops there."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import Game, RulesError, RuleSet, final_game, simulate_game, validate
from games.engine.variants import QUICK_PAWNS, get_variant, variant_rules


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    rules=st.sampled_from(["online", "league", "classic"]),
    bots=st.sampled_from(["random", "heuristic"]),
)
def test_first_capture_ends_at_the_first_capture(seed, rules, bots):
    log = simulate_game(rules, variant="first-capture", bots=bots, seed=seed)
    verdict = validate(log)
    assert verdict["valid"], verdict
    assert log["meta"]["variant"] == "first-capture"
    game = final_game(log)  # the spec's game of the same events: no variant
    captures = sum(verdict["captures"].values())
    if captures:  # ended by the variant: exactly one capture, by the winner, at the last roll
        assert captures == 1 and not verdict["complete"]
        last = log["events"][-1]
        assert verdict["captures"].get(last.get("pawn_colour", last["colour"]), 0) == 1
    else:  # no capture at all: the normal end
        assert verdict["complete"] and game.is_over()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), rules=st.sampled_from(["online", "league", "classic"]))
def test_quick_starts_one_out_and_ends_with_two_pawns_home(seed, rules):
    log = simulate_game(rules, variant="quick", seed=seed)
    verdict = validate(log)
    assert verdict["valid"], verdict
    assert RuleSet.from_spec(log["rules"]).setup == "one-out"
    home = verdict["pawns_home"]
    assert max(home.values()) == QUICK_PAWNS
    assert sorted(home.values()).count(QUICK_PAWNS) == 1  # one colour got there first
    assert not verdict["complete"]


def test_a_variant_game_knows_its_end_and_a_copy_keeps_it():
    log = simulate_game("online", variant="first-capture", seed=3)
    game = Game.new("online", variant="first-capture", first=log["first"])
    game.push_events(log["events"][:-1])
    copy = game.copy()
    copy.push_event(log["events"][-1])
    assert copy.is_over() and copy.ended_by == "first-capture"
    assert copy.winner == log["events"][-1]["colour"]
    assert not game.is_over() and game.ended_by is None  # the original is untouched


def test_variant_rules_and_unknown_variants():
    assert variant_rules("online", "quick") == {"preset": "online", "setup": "one-out"}
    assert variant_rules({"preset": "league", "end": "all-places"}, "first-capture") == {
        "preset": "league",
        "end": "all-places",
    }
    assert variant_rules("league", None) == "league"
    assert get_variant("") is None
    with pytest.raises(RulesError, match="unknown variant 'speedy'"):
        Game.new("online", variant="speedy")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), variant=st.sampled_from(["quick", "first-capture"]))
def test_a_variant_with_a_neutral_colour_ends_with_a_player_winning(seed, variant):
    # moving the neutral colour's pawn can meet the condition: the roller wins, never "green"
    rules = {"preset": "league", "neutral": "green"}
    log = simulate_game(rules, variant=variant, seed=seed)
    assert validate(log)["valid"]
    game = Game.new(rules, variant=variant, first=log["first"])
    game.push_events(log["events"])
    if game.ended_by:
        assert game.winner in {"red", "black", "yellow"}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), bots=st.sampled_from(["heuristic", "strong"]))
def test_the_computer_takes_a_capture_that_wins_a_first_capture_game(seed, bots):
    log = simulate_game("online", variant="first-capture", bots=bots, seed=seed)
    game = Game.new(log["rules"], first=log["first"])  # the plain rules: every roll looked at
    for event in log["events"][:-1]:  # before the end, no capture was ever on offer
        legal = game.legal(game.turn_seat, event["die"])
        assert all(m[3] < 0 for m in legal), event
        game.push_event(event)
