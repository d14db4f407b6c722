"""Playoff brackets, head start and series."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.brackets import (
    Bracket,
    bracket_order,
    build_bracket,
    head_start,
    series_state,
    xleague_playoffs,
)
from tournaments.algorithms.errors import BracketError


def chalk(bracket: Bracket) -> dict[tuple[int, int], int]:
    """Winners if the higher seed always wins."""
    winners: dict[tuple[int, int], int] = {}
    for match in bracket.matches:
        top, bottom = bracket.progress(winners).participants[match.key]
        assert top is not None and bottom is not None
        winners[match.key] = min(top, bottom)
    return winners


def test_bracket_order_eight() -> None:
    order = bracket_order(8)
    pairs = [tuple(sorted(order[i : i + 2])) for i in range(0, 8, 2)]
    assert pairs == [(1, 8), (4, 5), (3, 6), (2, 7)]
    bracket = build_bracket(8)
    assert [(m.top.seed, m.bottom.seed) for m in bracket.rounds[0].matches] == [
        (1, 8),
        (4, 5),
        (3, 6),
        (2, 7),
    ]
    assert [r.name for r in bracket.rounds] == ["Quarter-finals", "Semi-finals", "Final"]


def test_xleague_playoffs() -> None:
    bracket = xleague_playoffs()
    assert bracket.byes == (1,)
    qualifying, final = bracket.rounds
    assert qualifying.name == "Qualifying Series" and qualifying.first_to == 3
    assert final.name == "Final Series" and final.first_to == 4
    (qs,) = qualifying.matches
    assert (qs.top.seed, qs.bottom.seed) == (2, 3)
    assert qs.head_start and final.head_start
    assert bracket.next_slot(*qs.key) == (2, 0, "bottom")
    assert bracket.final.top.seed == 1
    assert bracket.final.bottom.winner_of == qs.key
    progress = bracket.progress({qs.key: 3})
    assert progress.participants[bracket.final.key] == (1, 3)
    assert progress.pending() == (bracket.final.key,)
    assert progress.champion is None
    assert bracket.progress({qs.key: 3, bracket.final.key: 3}).champion == 3


@pytest.mark.parametrize("k", range(2, 17))
def test_bracket_seeding(k: int) -> None:
    bracket = build_bracket(k)
    size = bracket.size
    assert size >= k and size // 2 < k and size & (size - 1) == 0
    # byes go to the top seeds
    assert bracket.byes == tuple(range(1, size - k + 1))
    first_round = [s for m in bracket.rounds[0].matches for s in (m.top.seed, m.bottom.seed)]
    assert sorted(first_round + list(bracket.byes)) == list(range(1, k + 1))
    for match in bracket.rounds[0].matches:
        assert match.top.seed + match.bottom.seed == size + 1  # 1 v K, 2 v K−1, …
        assert match.top.seed < match.bottom.seed
    # each round halves the field
    field = k
    for rnd in bracket.rounds:
        entrants = 2 * len(rnd.matches) + (len(bracket.byes) if rnd.number == 1 else 0)
        assert entrants == field
        field = entrants - len(rnd.matches)
        assert field == size >> rnd.number
    assert field == 1
    # if the favourite always wins, every round pairs best v worst remaining and
    # 1 and 2 meet only in the final
    winners = chalk(bracket)
    progress = bracket.progress(winners)
    for rnd in bracket.rounds:
        for match in rnd.matches:
            top, bottom = progress.participants[match.key]
            assert top is not None and bottom is not None
            remaining = size >> (rnd.number - 1)
            assert top + bottom == remaining + 1
            if {top, bottom} == {1, 2}:
                assert rnd is bracket.rounds[-1]
    assert progress.participants[bracket.final.key] in ((1, 2), (2, 1))
    assert progress.champion == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=2, max_value=64), st.data())
def test_one_and_two_only_meet_in_the_final(k: int, data: st.DataObject) -> None:
    bracket = build_bracket(k)
    winners: dict[tuple[int, int], int] = {}
    for match in bracket.matches:
        top, bottom = bracket.progress(winners).participants[match.key]
        assert top is not None and bottom is not None
        if {top, bottom} == {1, 2}:
            assert match.key == bracket.final.key
        winners[match.key] = data.draw(st.sampled_from([top, bottom]))
        nxt = bracket.next_slot(*match.key)
        assert (nxt is None) == (match.key == bracket.final.key)
    progress = bracket.progress(winners)
    assert progress.champion == winners[bracket.final.key]
    assert progress.pending() == ()


def test_per_round_series_length_and_head_start() -> None:
    bracket = build_bracket(4, first_to=(3, 4), head_start=(False, True), names=("Semis", "Final"))
    assert [r.first_to for r in bracket.rounds] == [3, 4]
    assert [m.head_start for m in bracket.matches] == [False, False, True]
    assert [m.name for m in bracket.matches] == ["Semis", "Semis", "Final"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seeds": 1}, "between 2 and 64"),
        ({"seeds": 65}, "between 2 and 64"),
        ({"seeds": True}, "between 2 and 64"),
        ({"seeds": 4, "first_to": (3,)}, "one value per round"),
        ({"seeds": 4, "first_to": 0}, "positive integer"),
        ({"seeds": 4, "head_start": True}, "head start would decide a first-to-1"),
        ({"seeds": 4, "head_start": "yes"}, "True or False"),
        ({"seeds": 4, "names": ("Only",)}, "one name per round"),
    ],
)
def test_bracket_errors(kwargs: dict, message: str) -> None:
    with pytest.raises(BracketError, match=message):
        build_bracket(**kwargs)


def test_progress_errors() -> None:
    bracket = xleague_playoffs()
    with pytest.raises(BracketError, match="did not play"):
        bracket.progress({(1, 1): 1})
    with pytest.raises(BracketError, match="before both its players are known"):
        bracket.progress({(2, 0): 1})
    with pytest.raises(BracketError, match="no match"):
        bracket.progress({(1, 0): 1})
    with pytest.raises(BracketError, match="no match"):
        bracket.next_slot(1, 0)  # seed 1's bye is not a match


def test_head_start_rule() -> None:
    assert head_start((10, 2), (8, 4)) == 1
    assert head_start((9, 3), (9, 3)) == 0  # same record, separated by tie-breaks only
    assert head_start((9, 3), (9, 3), enabled=True) == 0
    assert head_start((10, 2), (8, 4), enabled=False) == 0
    assert head_start() == 1


def test_series_state() -> None:
    state = series_state([], higher="A", lower="B", first_to=4, head_start=1)
    assert state.score == "1–0" and not state.decided and state.max_games_left == 6
    state = series_state(["B", "B", "A", "B"], higher="A", lower="B", first_to=4, head_start=1)
    assert state.score == "2–3" and not state.decided and state.max_games_left == 2
    state = series_state(["B", "B", "A", "B", "B"], higher="A", lower="B", first_to=4, head_start=1)
    assert state.decided and state.winner == "B" and state.loser == "A"
    assert state.games_played == 5 and state.max_games_left == 0
    state = series_state(["A", "A", "A"], higher="A", lower="B", first_to=4, head_start=1)
    assert state.winner == "A" and state.score == "4–0"
    state = series_state(["A"], higher="A", lower="B", first_to=1)
    assert state.winner == "A"


@pytest.mark.parametrize(
    ("winners", "kwargs", "message"),
    [
        (["A", "A", "A", "B"], {"first_to": 3}, "after the series was decided"),
        (["C"], {"first_to": 3}, "not in this series"),
        ([], {"first_to": 3, "head_start": 3}, "impossible"),
        ([], {"first_to": 0}, "positive integer"),
        ([], {"first_to": 3, "lower": "A"}, "two different players"),
    ],
)
def test_series_errors(winners: list[str], kwargs: dict, message: str) -> None:
    kwargs = {"higher": "A", "lower": "B", **kwargs}
    with pytest.raises(BracketError, match=message):
        series_state(winners, **kwargs)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=7), st.booleans(), st.lists(st.booleans(), max_size=20))
def test_series_property(first_to: int, start: bool, games: list[bool]) -> None:
    lead = 1 if start and first_to > 1 else 0
    winners: list[str] = []
    state = series_state([], higher="H", lower="L", first_to=first_to, head_start=lead)
    for higher_won in games:
        if state.decided:
            break
        winners.append("H" if higher_won else "L")
        state = series_state(winners, higher="H", lower="L", first_to=first_to, head_start=lead)
    assert state.higher_score + state.lower_score == lead + len(winners)
    assert state.decided == (max(state.higher_score, state.lower_score) == first_to)
    assert state.games_played <= 2 * first_to - 1 - lead
