"""Grand Prix: seating on opposite pairs, GP points per game, when the GP is decided."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.boards import BOARD_4
from tournaments.algorithms.errors import GrandPrixError
from tournaments.algorithms.grand_prix import (
    BONUS,
    game_points,
    grand_prix_seating,
    grand_prix_status,
    max_gain_per_game,
)


def test_three_players_on_board_6_hold_opposite_pairs() -> None:
    assert grand_prix_seating(["A", "B", "C"]) == {
        "A": ("red", "green"),
        "B": ("black", "blue"),
        "C": ("yellow", "white"),
    }
    # C asked for red+green, which nobody earlier asked for: C keeps it
    seated = grand_prix_seating(["A", "B", "C"], {"C": ("green", "red")})
    assert seated == {"A": ("black", "blue"), "B": ("yellow", "white"), "C": ("red", "green")}
    assert grand_prix_seating(["A", "B"], None, BOARD_4) == {
        "A": ("red", "yellow"),
        "B": ("black", "green"),
    }
    with pytest.raises(GrandPrixError, match="seats 2–2 players, got 3"):
        grand_prix_seating(["A", "B", "C"], None, BOARD_4)
    with pytest.raises(GrandPrixError, match="seats 2–3 players, got 1"):
        grand_prix_seating(["A"])


def test_game_points_by_hand() -> None:
    # places 1–6 owned by A, B, C, A, B, C: A 10 + 3, B 6 + 2, C 4 + 1; A finishes both
    # first (4th place), then B (5th), then C (6th)
    order = ["A", "B", "C", "A", "B", "C"]
    assert game_points(order) == {"A": 15, "B": 8, "C": 5}
    assert game_points(order, bonus=BONUS["GP+"]) == {"A": 17, "B": 10, "C": 6}


def test_max_gain_per_game_by_hand() -> None:
    # GP, three players: 10 + 6 + 2 bonus = 18 against 2 + 1 = 3
    assert max_gain_per_game(3) == 15
    # GP+: 10 + 6 + 4 = 20 against 2 + 1 + 1 (third to finish both) = 4
    assert max_gain_per_game(3, bonus=BONUS["GP+"]) == 16
    # two players, four colours: 10 + 6 + 2 against 4 + 3; GP+ 20 against 7 + 2
    assert max_gain_per_game(2) == 11
    assert max_gain_per_game(2, bonus=BONUS["GP+"]) == 11
    with pytest.raises(GrandPrixError, match="2 or 3 players"):
        max_gain_per_game(4)


def test_winner_certain_and_games_cancelled() -> None:
    # one game left: B can gain at most 15, 24 + 15 = 39 < 40
    status = grand_prix_status({"A": 40, "B": 24, "C": 20}, 1)
    assert status.winner == "A" and status.cancel_games == 1 and status.chasers == ()
    # B at 25 could tie (40): the game is played
    status = grand_prix_status({"A": 40, "B": 25, "C": 20}, 1)
    assert status.winner is None and status.cancel_games == 0 and status.chasers == ("B",)
    # GP+: B gains up to 16, so 24 can still tie
    assert grand_prix_status({"A": 40, "B": 24, "C": 20}, 1, fmt="GP+").chasers == ("B",)
    # two games left: 10 + 2 × 15 = 40 reaches the leader for both chasers
    assert grand_prix_status({"A": 40, "B": 10, "C": 10}, 2).chasers == ("B", "C")


def test_extra_game_while_the_top_is_tied() -> None:
    status = grand_prix_status({"A": 30, "B": 30, "C": 10}, 0)
    assert status.extra_game_needed and status.leaders == ("A", "B") and status.winner is None
    # with games left the tie needs no extra game yet
    assert not grand_prix_status({"A": 30, "B": 30, "C": 10}, 1).extra_game_needed
    # all played, one leader: the winner
    done = grand_prix_status({"A": 31, "B": 30, "C": 10}, 0)
    assert done.winner == "A" and not done.extra_game_needed and done.cancel_games == 0


@pytest.mark.parametrize(
    ("points", "games_left", "kwargs", "message"),
    [
        ({"A": 1}, 1, {}, "2 or 3 players"),
        ({"A": 1, "B": -2}, 1, {}, "whole number ≥ 0"),
        ({"A": 1, "B": 2}, -1, {}, "games left"),
        ({"A": 1, "B": 2}, 1, {"fmt": "GP++"}, "unknown Grand Prix format"),
    ],
)
def test_status_errors(points: dict, games_left: int, kwargs: dict, message: str) -> None:
    with pytest.raises(GrandPrixError, match=message):
        grand_prix_status(points, games_left, **kwargs)


def _random_game(players: list[str], rng: random.Random) -> list[str]:
    order = [p for p in players for _ in range(2)]
    rng.shuffle(order)
    return order


@settings(max_examples=80, deadline=None)
@given(
    st.sampled_from([2, 3]),
    st.sampled_from(["GP", "GP+"]),
    st.integers(min_value=0, max_value=6),
    st.integers(min_value=0, max_value=4),
    st.integers(min_value=0, max_value=10**6),
)
def test_status_agrees_with_playing_on(
    count: int, fmt: str, played: int, left: int, seed: int
) -> None:
    rng = random.Random(seed)
    players = ["A", "B", "C"][:count]
    totals = dict.fromkeys(players, 0)
    for _ in range(played):
        for p, v in game_points(_random_game(players, rng), bonus=BONUS[fmt]).items():
            totals[p] += v
    status = grand_prix_status(totals, left, fmt=fmt)
    leader = max(totals, key=totals.get)  # type: ignore[arg-type]
    if status.winner is not None:
        # no way of playing the games left lets anybody reach the winner
        for _ in range(20):
            final = dict(totals)
            for _ in range(left):
                for p, v in game_points(_random_game(players, rng), bonus=BONUS[fmt]).items():
                    final[p] += v
            assert all(final[p] < final[status.winner] for p in players if p != status.winner)
    for chaser in status.chasers:
        # the chaser's best games: both colours first, the leader's last → they catch up
        final = dict(totals)
        others = [p for p in players if p not in (chaser, leader)]
        best = [chaser, chaser, *[o for o in others for _ in range(2)], leader, leader]
        for _ in range(left):
            for p, v in game_points(best, bonus=BONUS[fmt]).items():
                final[p] += v
        assert final[chaser] >= final[leader]
