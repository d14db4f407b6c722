"""Head start and series length per playoff round (issue 13, point 5)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.brackets import PlayoffRounds, playoff_rounds, rounds_for
from tournaments.algorithms.errors import BracketError


def test_head_start_kept_per_round() -> None:
    # four seeds: semi-finals first to 3 without a head start, final first to 4 with
    rounds = playoff_rounds(4, first_to=[3, 4], head_start=[False, True])
    assert rounds == PlayoffRounds(4, (3, 4), (False, True))
    bracket = rounds.build()
    semis, final = bracket.rounds
    assert [m.head_start for m in semis.matches] == [False, False]
    assert [m.head_start for m in final.matches] == [True]
    assert (semis.first_to, final.first_to) == (3, 4)


def test_one_value_for_every_round() -> None:
    assert playoff_rounds(8, 4, True) == PlayoffRounds(8, (4, 4, 4), (True, True, True))
    assert playoff_rounds(8, [2], [False]).head_start == (False, False, False)
    # default: the head-start rule in every round longer than first to 1
    assert playoff_rounds(4, [1, 3]).head_start == (False, True)
    assert playoff_rounds(2).head_start == (False,)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((4, [1, 3], [True, True]), "round 1: a 1–0 head start would decide"),
        ((4, 3, [True, False, True]), r"one per round \(2\), got 3"),
        ((4, 3, ["yes", True]), "round 1: head_start must be true or false, got 'yes'"),
        ((4, [3, 0]), "round 2: first_to is a series length"),
        ((4, [3, 10]), "round 2: first_to"),
        ((1,), "between 2 and 64 seeds"),
        ((65,), "between 2 and 64 seeds"),
    ],
)
def test_refused_settings(args: tuple, message: str) -> None:
    with pytest.raises(BracketError, match=message):
        playoff_rounds(*args)


@pytest.mark.parametrize(("seeds", "count"), [(2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4)])
def test_rounds_for(seeds: int, count: int) -> None:
    assert rounds_for(seeds) == count


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=64), st.data())
def test_every_round_keeps_its_own_setting(seeds: int, data: st.DataObject) -> None:
    count = rounds_for(seeds)
    lengths = data.draw(st.lists(st.integers(2, 9), min_size=count, max_size=count))
    starts = data.draw(st.lists(st.booleans(), min_size=count, max_size=count))
    rounds = playoff_rounds(seeds, lengths, starts)
    assert rounds.head_start == tuple(starts)
    for number, rnd in enumerate(rounds.build().rounds):
        assert rnd.head_start == starts[number]
        assert rnd.first_to == lengths[number]
        assert all(m.head_start == starts[number] for m in rnd.matches)
