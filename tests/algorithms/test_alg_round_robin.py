"""Round-robin schedules: DRR (Berger + XMädn three-player order) and triple threat."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.errors import SchedulingError
from tournaments.algorithms.round_robin import (
    Schedule,
    berger_tables,
    double_round_robin,
    three_player_drr,
    triple_threat_schedule,
)

player_counts = st.integers(min_value=2, max_value=64)


def first_mentioned_runs(schedule: Schedule) -> dict[int, int]:
    """Longest run of games in which each seed is first mentioned (byes don't break it)."""
    longest = dict.fromkeys(range(1, schedule.players + 1), 0)
    current = dict(longest)
    for rnd in schedule.rounds:
        for game in rnd.games:
            for position, player in enumerate(game):
                current[player] = current[player] + 1 if position == 0 else 0
                longest[player] = max(longest[player], current[player])
    return longest


# -- three players ---------------------------------------------------------------------


def test_three_player_exact_xmaedn_order() -> None:
    schedule = double_round_robin(3)
    assert schedule.games == ((1, 2), (3, 1), (2, 3), (2, 1), (1, 3), (3, 2))
    assert [r.label for r in schedule.rounds] == ["G1", "G2", "G3", "G4", "G5", "G6"]
    assert [r.bye for r in schedule.rounds] == [3, 2, 1, 3, 2, 1]
    assert [r.leg for r in schedule.rounds] == [1, 1, 1, 2, 2, 2]
    assert schedule == three_player_drr()


@pytest.mark.parametrize("late_order", list(permutations((4, 5, 6))))
def test_three_player_late_games_reordered(late_order: tuple[int, int, int]) -> None:
    schedule = three_player_drr(late_order)
    expected = {4: (2, 1), 5: (1, 3), 6: (3, 2)}
    assert schedule.games[:3] == ((1, 2), (3, 1), (2, 3))
    assert schedule.games[3:] == tuple(expected[g] for g in late_order)
    assert [r.label for r in schedule.rounds[3:]] == [f"G{g}" for g in late_order]
    assert [r.number for r in schedule.rounds] == [1, 2, 3, 4, 5, 6]
    assert double_round_robin(3, late_order=late_order) == schedule


@pytest.mark.parametrize(
    "late_order",
    [
        (4, 5),
        (4, 5, 5),
        (1, 2, 3),
        (4, 5, 6, 6),
        (4, 5, 7),
        ("4", "5", "6"),
        "456",
        (True, 5, 6),
        4,
    ],
)
def test_three_player_invalid_late_order(late_order: object) -> None:
    with pytest.raises(SchedulingError, match="G4–G6"):
        three_player_drr(late_order)  # type: ignore[arg-type]


def test_late_order_only_for_three_players() -> None:
    with pytest.raises(SchedulingError, match="only to the three-player DRR"):
        double_round_robin(4, late_order=(4, 5, 6))


# -- n players -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1, 65, 100, -3])
def test_player_count_out_of_range(n: int) -> None:
    with pytest.raises(SchedulingError, match="between 2 and 64 players"):
        double_round_robin(n)


@pytest.mark.parametrize("n", [2.0, "4", None, True])
def test_player_count_must_be_int(n: object) -> None:
    with pytest.raises(SchedulingError, match="integer"):
        double_round_robin(n)  # type: ignore[arg-type]


def test_berger_six_players_fide_table() -> None:
    rounds = berger_tables(6)
    assert [r.games for r in rounds] == [
        ((1, 6), (2, 5), (3, 4)),
        ((6, 4), (5, 3), (1, 2)),
        ((2, 6), (3, 1), (4, 5)),
        ((6, 5), (1, 4), (2, 3)),
        ((3, 6), (4, 2), (5, 1)),
    ]


def test_second_half_order_and_swap() -> None:
    schedule = double_round_robin(4)
    first, second = schedule.leg(1), schedule.leg(2)
    assert len(first) == len(second) == 3
    # the second half plays rounds 2, 3, 1 of the first half, swapped
    for rnd, original in zip(second, [first[1], first[2], first[0]], strict=True):
        assert rnd.games == tuple((b, a) for a, b in original.games)


@settings(max_examples=60, deadline=None)
@given(player_counts)
def test_drr_every_pair_twice_swapped(n: int) -> None:
    schedule = double_round_robin(n)
    assert schedule.players == n
    games = Counter(schedule.games)
    for a, b in combinations(range(1, n + 1), 2):
        assert games[(a, b)] == 1
        assert games[(b, a)] == 1
    assert sum(games.values()) == n * (n - 1)
    # each half is a single round robin
    for leg in (1, 2):
        pairs = Counter(frozenset(g) for r in schedule.leg(leg) for g in r.games)
        assert set(pairs.values()) == {1}
        assert len(pairs) == n * (n - 1) // 2


@settings(max_examples=60, deadline=None)
@given(player_counts)
def test_drr_nobody_twice_in_a_round(n: int) -> None:
    schedule = double_round_robin(n)
    for rnd in schedule.rounds:
        seen = [*rnd.players, *rnd.byes]
        assert sorted(seen) == list(range(1, n + 1))
        assert all(len(g) == 2 for g in rnd.games)


@settings(max_examples=60, deadline=None)
@given(player_counts)
def test_drr_byes_spread_evenly(n: int) -> None:
    schedule = double_round_robin(n)
    for leg in (1, 2):
        byes = Counter(p for r in schedule.leg(leg) for p in r.byes)
        if n % 2:
            assert byes == Counter(range(1, n + 1))  # exactly one bye per half
        else:
            assert not byes
    assert all(len(r.byes) <= 1 for r in schedule.rounds)
    rounds_expected = 2 * (n - 1 if n % 2 == 0 else n)
    assert len(schedule.rounds) == rounds_expected
    assert [r.number for r in schedule.rounds] == list(range(1, rounds_expected + 1))


@pytest.mark.parametrize("n", range(2, 65))
def test_drr_first_mentioned_at_most_twice_in_a_row(n: int) -> None:
    schedule = double_round_robin(n)
    runs = first_mentioned_runs(schedule)
    assert max(runs.values()) <= 2
    # second-mentioned runs are bounded too (the swapped half mirrors the first)
    mirrored = Schedule(
        players=n,
        rounds=tuple(
            type(r)(r.number, tuple(g[::-1] for g in r.games), r.byes, r.label, r.leg)
            for r in schedule.rounds
        ),
    )
    assert max(first_mentioned_runs(mirrored).values()) <= 2
    if n % 2 and n != 3:
        assert max(runs.values()) == 1  # odd counts alternate strictly
    # each player is first mentioned in exactly half of their games
    firsts = Counter(g[0] for g in schedule.games)
    assert set(firsts.values()) == {n - 1}


# -- triple threat ---------------------------------------------------------------------


def test_triple_threat_three_players_one_board_rotating() -> None:
    schedule = triple_threat_schedule(3, 6)
    assert schedule.games == ((1, 2, 3), (2, 3, 1), (3, 1, 2)) * 2
    assert all(r.byes == () for r in schedule.rounds)


def test_triple_threat_nine_players_kirkman() -> None:
    schedule = triple_threat_schedule(9, 4)
    pairs = Counter(frozenset(p) for g in schedule.games for p in combinations(g, 2))
    assert len(pairs) == 36
    assert set(pairs.values()) == {1}


def test_triple_threat_is_deterministic() -> None:
    assert triple_threat_schedule(11, 7) == triple_threat_schedule(11, 7)


@pytest.mark.parametrize(
    ("n", "rounds", "message"),
    [
        (2, 3, "between 3 and 64"),
        (65, 3, "between 3 and 64"),
        (6, 0, "rounds"),
        (6, 1001, "rounds"),
    ],
)
def test_triple_threat_errors(n: int, rounds: int, message: str) -> None:
    with pytest.raises(SchedulingError, match=message):
        triple_threat_schedule(n, rounds)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=3, max_value=21), st.integers(min_value=1, max_value=8))
def test_triple_threat_properties(n: int, rounds: int) -> None:
    schedule = triple_threat_schedule(n, rounds)
    assert len(schedule.rounds) == rounds
    byes: Counter[int] = Counter()
    firsts: Counter[int] = Counter()
    pairs: Counter[frozenset[int]] = Counter()
    for rnd in schedule.rounds:
        # boards of three, nobody twice in a round, everyone accounted for
        assert all(len(game) == 3 for game in rnd.games)
        assert len(rnd.games) == n // 3
        assert sorted([*rnd.players, *rnd.byes]) == list(range(1, n + 1))
        assert len(rnd.byes) == n % 3
        byes.update(rnd.byes)
        firsts.update(game[0] for game in rnd.games)
        pairs.update(frozenset(p) for g in rnd.games for p in combinations(g, 2))
        counts = [byes[p] for p in range(1, n + 1)]
        assert max(counts) - min(counts) <= 1  # byes spread evenly, at every point
        if n % 3 == 0:
            first_counts = [firsts[p] for p in range(1, n + 1)]
            assert max(first_counts) - min(first_counts) <= 1
    # the first round never repeats a pair, of course; later rounds prefer new pairs:
    # as long as fewer rounds than a player's possible partners/2 were played, the
    # heuristic finds an all-new partition at least for the second round
    if rounds >= 2 and n >= 9:
        second = schedule.rounds[1]
        first_pairs = {frozenset(p) for g in schedule.rounds[0].games for p in combinations(g, 2)}
        assert not any(
            frozenset(p) in first_pairs for g in second.games for p in combinations(g, 2)
        )
