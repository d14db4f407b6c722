"""The die-roll tie-break: every recorded roll counts, re-rolls included (issue 13, point 4)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.errors import SeedingError, StandingsError
from tournaments.algorithms.seeding import check_roll_off, roll_sequences, seed_by_die_roll
from tournaments.algorithms.standings import (
    GameOutcome,
    TieBreakRoll,
    compute_standings,
    order_by_rolls,
    roll_off_sequences,
)

# Seeding before the DRR: A and B both roll 5, C 2; A and B re-roll: A 3, B 6.
# The regulation: "highest is #1; ties re-rolled", so B is #1, A #2, C #3.
SEEDING = [{"A": 5, "B": 5, "C": 2}, {"A": 3, "B": 6}]
PRECEDENCE = ["wins", "die_roll"]


def ranks(rows) -> list[tuple[object, int]]:  # type: ignore[no-untyped-def]
    return [(r.entry, r.rank) for r in rows]


def test_roll_sequences_keep_every_roll() -> None:
    assert roll_sequences(SEEDING) == {"A": (5, 3), "B": (5, 6), "C": (2,)}
    order = seed_by_die_roll(list("ABC"), recorded_rolls=SEEDING)
    assert order.order == ("B", "A", "C")
    assert roll_sequences(order) == roll_sequences(order.history) == roll_sequences(SEEDING)


def test_a_recorded_reroll_separates_the_tied_players() -> None:
    # nobody has won a game: the die roll decides, and the re-roll separates A and B
    rows = compute_standings(list("ABC"), [], PRECEDENCE, roll_offs=[SEEDING])
    assert ranks(rows) == [("B", 1), ("A", 2), ("C", 3)]
    assert rows[0].values["die_roll"] == (5, 6)
    assert rows[0].separated_by == "die_roll"
    # the first rolls alone (5, 5) would have left them tied
    first_only = compute_standings(list("ABC"), [], PRECEDENCE, die_rolls={"A": 5, "B": 5, "C": 2})
    assert ranks(first_only) == [("A", 1), ("B", 1), ("C", 3)]


def test_dedicated_tie_break_roll() -> None:
    # A and C are tied on wins (one each), B is ahead with two
    games = [
        GameOutcome(1, ("B", "A"), winner="B"),
        GameOutcome(2, ("B", "C"), winner="B"),
        GameOutcome(3, ("A", "C"), winner="A"),
        GameOutcome(4, ("C", "A"), winner="C"),
    ]
    # the seeding puts A (5, 3) above C (2); the organizer then records a tie-break
    # roll between A and C: both 2, re-roll A 1, C 4 → C is ahead of A
    tie_break = TieBreakRoll(({"A": 2, "C": 2}, {"A": 1, "C": 4}), recorded_at="2026-12-01 18:05")
    rows = compute_standings(list("ABC"), games, PRECEDENCE, roll_offs=[SEEDING])
    assert ranks(rows) == [("B", 1), ("A", 2), ("C", 3)]
    rows = compute_standings(list("ABC"), games, PRECEDENCE, roll_offs=[SEEDING, tie_break])
    assert ranks(rows) == [("B", 1), ("C", 2), ("A", 3)]
    assert rows[1].values["die_roll"] == (2, 4)
    assert rows[2].values["die_roll"] == (2, 1)


def test_the_latest_roll_off_by_all_the_tied_players_decides() -> None:
    # all three tied: the A–C tie-break does not include B, so the seeding decides
    tie_break = TieBreakRoll(({"A": 2, "C": 6},))
    rows = compute_standings(list("ABC"), [], PRECEDENCE, roll_offs=[SEEDING, tie_break])
    assert ranks(rows) == [("B", 1), ("A", 2), ("C", 3)]
    # a later roll-off by all three overrides the seeding
    all_three = TieBreakRoll(({"A": 1, "B": 1, "C": 6}, {"A": 4, "B": 2}))
    rows = compute_standings(list("ABC"), [], PRECEDENCE, roll_offs=[SEEDING, all_three])
    assert ranks(rows) == [("C", 1), ("A", 2), ("B", 3)]
    # a player in no roll-off and without a roll: the group stays tied
    rows = compute_standings(list("ABCD"), [], PRECEDENCE, roll_offs=[SEEDING])
    assert [r.rank for r in rows] == [1, 1, 1, 1]


def test_order_by_rolls() -> None:
    assert order_by_rolls(list("ABC"), [SEEDING]) == (("B",), ("A",), ("C",))
    assert order_by_rolls(list("AC"), [SEEDING]) == (("A",), ("C",))
    assert order_by_rolls(list("AD"), [SEEDING]) == (("A", "D"),)
    assert order_by_rolls([], [SEEDING]) == ()


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        ([{"A": 5, "B": 5}], "tie unresolved"),
        ([{"A": 5, "B": 2}, {"A": 3}], "not needed"),
        ([{"A": 7, "B": 2}], "whole number from 1 to 6"),
    ],
)
def test_invalid_tie_break_rolls(rounds: list[dict[str, int]], message: str) -> None:
    with pytest.raises(StandingsError, match=message):
        compute_standings(list("AB"), [], PRECEDENCE, roll_offs=[rounds])
    with pytest.raises(SeedingError, match=message):
        check_roll_off(rounds)


def test_roll_offs_must_be_a_list() -> None:
    with pytest.raises(StandingsError, match="list of roll-offs"):
        compute_standings(list("AB"), [], PRECEDENCE, roll_offs=TieBreakRoll(({"A": 1, "B": 2},)))
    with pytest.raises(StandingsError, match="not one mapping"):
        TieBreakRoll({"A": 1})  # type: ignore[arg-type]
    with pytest.raises(StandingsError, match="at least one round"):
        TieBreakRoll(())


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=2, max_value=12), st.integers(min_value=0, max_value=10**6))
def test_roll_sequences_reproduce_the_roll_off(count: int, seed: int) -> None:
    players = list(range(count))
    order = seed_by_die_roll(players, seed=seed)
    assert order_by_rolls(players, [order.history]) == tuple((p,) for p in order.order)
    sequences = roll_off_sequences(order.history)
    assert sorted(players, key=lambda p: sequences[p], reverse=True) == list(order.order)
    rows = compute_standings(players, [], PRECEDENCE, roll_offs=[order.history])
    assert [r.entry for r in rows] == list(order.order)
    assert [r.rank for r in rows] == list(range(1, count + 1))
