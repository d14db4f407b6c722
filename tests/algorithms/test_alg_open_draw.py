"""Open tournaments: table draws, count-point placings, preliminary ranking, final table."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.board import count_points
from tournaments.algorithms.boards import BOARD_4, BOARD_6
from tournaments.algorithms.errors import AlgorithmError, DrawError
from tournaments.algorithms.open_draw import (
    PLACEMENT_SCHEMES,
    DrawHistory,
    RoundDraw,
    Seat,
    Table,
    check_placement_scheme,
    check_round,
    draw_quality,
    draw_round,
    final_ranking,
    final_table,
    lottery_round,
    place_unfinished_game,
    preliminary_ranking,
    seat_final_table,
)
from tournaments.algorithms.standings import GameOutcome, TieBreakRoll

# --------------------------------------------------------------------------------------
# Table sizes


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (3, (3,)),
        (4, (4,)),
        (6, (3, 3)),
        (7, (4, 3)),
        (8, (4, 4)),
        (9, (3, 3, 3)),
        (10, (4, 3, 3)),
        (12, (4, 4, 4)),
        (13, (4, 3, 3, 3)),
        (17, (4, 4, 3, 3, 3)),
    ],
)
def test_table_sizes(count: int, sizes: tuple[int, ...]) -> None:
    from tournaments.algorithms.open_draw import table_sizes

    assert table_sizes(count) == sizes


@pytest.mark.parametrize("count", [1, 2, 5])
def test_impossible_field_sizes(count: int) -> None:
    with pytest.raises(DrawError, match=f"{count} players cannot be split into tables of 3–4"):
        draw_round(range(count), seed=1)
    assert issubclass(DrawError, AlgorithmError)


def test_draw_errors() -> None:
    with pytest.raises(DrawError, match="listed twice"):
        draw_round([1, 2, 3, 1], seed=1)
    with pytest.raises(DrawError, match="do not fit a board of 4"):
        draw_round(range(10), seed=1, max_size=5)
    with pytest.raises(DrawError, match="not a single string"):
        draw_round("ABCD", seed=1)


# --------------------------------------------------------------------------------------
# The draw


def test_draw_is_reproducible() -> None:
    first = draw_round(range(13), seed="club-2026")
    assert draw_round(range(13), seed="club-2026") == first
    second = draw_round(range(13), [first], seed="club-2026")
    assert second.number == 2
    assert draw_round(range(13), [first], seed="club-2026") == second
    others = {draw_round(range(13), seed=s) for s in range(10)}
    assert len(others) > 1  # drawn by lot


def test_second_round_avoids_repeat_opponents() -> None:
    # 9 players, round 1 tables {0,1,2} {3,4,5} {6,7,8}: round 2 can give every
    # table one player of each first-round table, so nobody meets anybody again
    round1 = RoundDraw(
        1,
        tuple(Table(t + 1, tuple(Seat(3 * t + i, BOARD_4[i]) for i in range(3))) for t in range(3)),
    )
    round2 = draw_round(range(9), [round1], seed=5)
    for table in round2.tables:
        assert sorted(p // 3 for p in table.players) == [0, 1, 2]
    # 8 players after {0..3} {4..7}: the best is two of each at both tables
    round1 = RoundDraw(
        1,
        (
            Table(1, tuple(Seat(p, c) for p, c in zip(range(4), BOARD_4, strict=True))),
            Table(2, tuple(Seat(p, c) for p, c in zip(range(4, 8), BOARD_4, strict=True))),
        ),
    )
    for seed in range(5):
        round2 = draw_round(range(8), [round1], seed=seed)
        for table in round2.tables:
            assert Counter(p // 4 for p in table.players) == {0: 2, 1: 2}


def test_one_table_of_four_plays_every_colour_and_position_once() -> None:
    # four rounds at one table: the least-used colour and position each time give a
    # Latin square: every player every colour once, every position once
    history: list[RoundDraw] = []
    for _ in range(4):
        history.append(draw_round(["ABCD"] if False else list("ABCD"), history, seed=9))
    past = DrawHistory.of(history)
    for player in "ABCD":
        assert past.colours[player] == Counter(BOARD_4)
        assert past.positions[player] == Counter(range(4))
    quality = draw_quality(history)
    assert quality.colour_spread == 0 and quality.position_spread == 0
    assert quality.repeat_pairings == 9  # each player meets the same 3 four times: 3 × 3


def test_draw_quality_by_hand() -> None:
    # three players at one table in both rounds
    r1 = RoundDraw(1, (Table(1, (Seat("A", "red"), Seat("B", "black"), Seat("C", "yellow"))),))
    r2 = RoundDraw(2, (Table(1, (Seat("A", "red"), Seat("C", "black"), Seat("B", "green"))),))
    quality = draw_quality([r1, r2])
    # A met B and C twice: 2 repeats; B met A, C twice: 2; C: 2 → 2 per player
    assert quality.repeat_pairings == 2
    assert quality.worst_repeats == 2
    # colours over red, black, yellow, green: A 2,0,0,0 → 2; B 0,1,0,1 → 1; C 0,1,1,0 → 1
    assert quality.colour_spread == pytest.approx(4 / 3)
    # positions 0–3: A 2,0,0,0 → 2; B 0,1,1,0 → 1; C 0,1,1,0 → 1
    assert quality.position_spread == pytest.approx(4 / 3)


def test_draw_beats_the_lottery() -> None:
    # the same figures as bench/open_draw.py, on a few tournaments
    draw_repeats = lottery_repeats = draw_colours = lottery_colours = 0.0
    for t in range(10):
        drawn: list[RoundDraw] = []
        lottery: list[RoundDraw] = []
        rng = random.Random(t)
        for number in range(1, 6):
            drawn.append(draw_round(range(17), drawn, seed=t))
            lottery.append(lottery_round(range(17), number, rng=rng))
        a, b = draw_quality(drawn), draw_quality(lottery)
        draw_repeats += a.repeat_pairings
        lottery_repeats += b.repeat_pairings
        draw_colours += a.colour_spread
        lottery_colours += b.colour_spread
    assert draw_repeats < lottery_repeats / 4
    assert draw_colours < lottery_colours / 1.5


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[int, int, int, tuple[str, ...]]:
    board = draw(st.sampled_from([BOARD_4, BOARD_6]))
    count = draw(st.integers(min_value=3, max_value=26).filter(lambda n: n != 5))
    rounds = draw(st.integers(min_value=1, max_value=6))
    seed = draw(st.integers(min_value=0, max_value=1000))
    return count, rounds, seed, board


def _cost(history: DrawHistory, members: list[int]) -> int:
    return sum(4 ** history.met(a, b) - 1 for a, b in itertools.combinations(members, 2))


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_every_round_is_a_valid_and_locally_best_draw(
    case: tuple[int, int, int, tuple[str, ...]],
) -> None:
    count, rounds, seed, board = case
    history: list[RoundDraw] = []
    for _ in range(rounds):
        past = DrawHistory.of(history)
        draw = draw_round(range(count), history, seed=seed, board_colours=board)
        # every player exactly once, tables of 3–4, no colour twice at a table
        check_round(draw, range(count), board)
        assert sorted(draw.players) == list(range(count))
        assert all(3 <= len(t.seats) <= 4 for t in draw.tables)
        tables = [list(t.players) for t in draw.tables]
        # no swap of two players between tables meets fewer earlier opponents
        for (i, a), (j, b) in itertools.combinations(
            [(i, p) for i, t in enumerate(tables) for p in t], 2
        ):
            if i == j:
                continue
            before = _cost(past, tables[i]) + _cost(past, tables[j])
            ti = [b if p == a else p for p in tables[i]]
            tj = [a if p == b else p for p in tables[j]]
            assert _cost(past, ti) + _cost(past, tj) >= before
        # positions and colours at each table: no other assignment uses them less
        for table in draw.tables:
            players = table.players
            used = sum(
                past.colours.get(p, Counter())[s.colour]
                for p, s in zip(players, table.seats, strict=True)
            )
            for colours in itertools.permutations(board, len(players)):
                other = sum(
                    past.colours.get(p, Counter())[c] for p, c in zip(players, colours, strict=True)
                )
                assert other >= used
            seated = sum(past.positions.get(p, Counter())[i] for i, p in enumerate(players))
            for order in itertools.permutations(players):
                other = sum(past.positions.get(p, Counter())[i] for i, p in enumerate(order))
                assert other >= seated
        history.append(draw)


def test_check_round_refuses_bad_draws() -> None:
    good = draw_round(range(7), seed=1)
    check_round(good, range(7))
    with pytest.raises(DrawError, match="drawn 0 times"):
        check_round(good, range(8))
    twice = RoundDraw(1, (Table(1, (Seat(1, "red"), Seat(2, "red"), Seat(3, "black"))),))
    with pytest.raises(DrawError, match="colour is played twice"):
        check_round(twice, [1, 2, 3])
    small = RoundDraw(1, (Table(1, (Seat(1, "red"), Seat(2, "black"))),))
    with pytest.raises(DrawError, match="2 players"):
        check_round(small, [1, 2])


# --------------------------------------------------------------------------------------
# Placement points, time-limited games, the final table


def test_placement_schemes() -> None:
    assert check_placement_scheme(PLACEMENT_SCHEMES["5-3-1-0"]) == (5, 3, 1, 0)
    assert check_placement_scheme([5, 3, 2, 1]) == (5, 3, 2, 1)
    with pytest.raises(DrawError, match=r"place 2 scores more \(5\) than place 1 \(3\)"):
        check_placement_scheme([3, 5, 1])
    with pytest.raises(DrawError, match="at least two places"):
        check_placement_scheme([5])
    with pytest.raises(DrawError, match="whole numbers ≥ 0"):
        check_placement_scheme([5, -1])


def test_unfinished_game_placed_by_count_points() -> None:
    # time is up. B got all pawns home. A: pawns on fields 0 (start, 10) and 30
    # (40), two in the yard → 50; C: one pawn in the house (75) → 75; D: start field
    # and 30, like A → 50. A and D are tied: the recorded die roll decides.
    points = {
        "A": count_points([0, 30, "B", "B"]),
        "C": count_points([40, "B", "B", "B"]),
        "D": count_points([30, 0, "B", "B"]),
    }
    assert points == {"A": 50, "C": 75, "D": 50}
    open_tie = place_unfinished_game(list("ABCD"), points, finished=["B"])
    assert open_tie.placings == ("B", "C", "A", "D")
    assert open_tie.open_ties == (("A", "D"),) and not open_tie.complete
    # the organizer records the roll: A 4, D 4, re-roll A 2, D 6 → D ahead of A
    roll = TieBreakRoll(({"A": 4, "D": 4}, {"A": 2, "D": 6}), recorded_at="20:41")
    placed = place_unfinished_game(list("ABCD"), points, finished=["B"], tie_rolls=[roll])
    assert placed.placings == ("B", "C", "D", "A") and placed.complete
    with pytest.raises(DrawError, match="count points of 'C'"):
        place_unfinished_game(list("ABCD"), {"A": 1, "D": 2}, finished=["B"])
    with pytest.raises(DrawError, match="not at this table"):
        place_unfinished_game(list("ABC"), points, finished=["Z"])


def six_player_preliminaries() -> list[GameOutcome]:
    #  R1: A, B, C → A 1st, B 2nd, C 3rd;   D, E, F → D, E, F
    #  R2: A, D, E → E, A, D;               B, C, F → B, F, C
    return [
        GameOutcome(1, ("A", "B", "C"), winner="A", player_placings=("A", "B", "C")),
        GameOutcome(2, ("D", "E", "F"), winner="D", player_placings=("D", "E", "F")),
        GameOutcome(3, ("A", "D", "E"), winner="E", player_placings=("E", "A", "D")),
        GameOutcome(4, ("B", "C", "F"), winner="B", player_placings=("B", "F", "C")),
    ]


def test_preliminary_ranking_and_final_table() -> None:
    games = six_player_preliminaries()
    # 5/3/1/0: A 5+3 = 8, B 3+5 = 8, C 1+1 = 2, D 5+1 = 6, E 3+5 = 8, F 1+3 = 4
    rows = preliminary_ranking(list("ABCDEF"), games, (5, 3, 1, 0))
    points = {r.entry: r.values["placement_points"] for r in rows}
    assert points == {"A": 8, "B": 8, "C": 2, "D": 6, "E": 8, "F": 4}
    # A, B and E also won one game each: tied (rank 1) until a die roll
    assert [(r.entry, r.rank) for r in rows] == [
        ("A", 1),
        ("B", 1),
        ("E", 1),
        ("D", 4),
        ("F", 5),
        ("C", 6),
    ]
    # the cut after four is clear: the final table is A, B, E, D
    assert final_table(rows) == ("A", "B", "E", "D")
    # 5/3/2/1: C third twice 2 + 2 = 4, F 2 + 3 = 5, D 5 + 2 = 7
    rows2 = preliminary_ranking(list("ABCDEF"), games, (5, 3, 2, 1))
    assert {r.entry: r.values["placement_points"] for r in rows2} == {
        "A": 8,
        "B": 8,
        "C": 4,
        "D": 7,
        "E": 8,
        "F": 5,
    }
    # a recorded roll between the three leaders orders them: B 6, E 4, A 2
    rolled = preliminary_ranking(list("ABCDEF"), games, roll_offs=[[{"A": 2, "B": 6, "E": 4}]])
    assert final_table(rolled) == ("B", "E", "A", "D")
    # the final table decides places 1–4, the others keep their preliminary order
    assert final_ranking(rolled, ["E", "D", "B", "A"]) == ("E", "D", "B", "A", "F", "C")
    with pytest.raises(DrawError, match="exactly the finalists"):
        final_ranking(rolled, ["E", "D", "B", "F"])


def test_final_table_refuses_a_tie_across_the_cut() -> None:
    # nobody has played yet: all five tied
    rows = preliminary_ranking(list("ABCDE"), [])
    with pytest.raises(DrawError, match="tied for the last place at the final table"):
        final_table(rows)
    rolled = preliminary_ranking(
        list("ABCDE"), [], roll_offs=[[{"A": 1, "B": 2, "C": 3, "D": 4, "E": 5}]]
    )
    assert final_table(rolled) == ("E", "D", "C", "B")
    with pytest.raises(DrawError, match="needs 4 players"):
        final_table(rows[:3])


def test_final_table_seated_in_ranking_order_with_least_played_colours() -> None:
    # four preliminary rounds at one table gave everyone every colour once; in a fifth
    # round with A having played red twice, A does not get red at the final
    history: list[RoundDraw] = []
    for _ in range(4):
        history.append(draw_round(list("ABCD"), history, seed=3))
    history.append(
        RoundDraw(
            5,
            (
                Table(
                    1,
                    (Seat("A", "red"), Seat("B", "black"), Seat("C", "yellow"), Seat("D", "green")),
                ),
            ),
        )
    )
    final = seat_final_table(["D", "A", "C", "B"], history, seed=3)
    (table,) = final.tables
    assert table.players == ("D", "A", "C", "B")
    # everybody now has one colour played twice: each gets one of the other three
    colours = dict(zip(table.players, table.colours, strict=True))
    assert colours["A"] != "red" and colours["B"] != "black"
    assert colours["C"] != "yellow" and colours["D"] != "green"
    assert sorted(colours.values()) == sorted(BOARD_4)
    with pytest.raises(DrawError, match="seats 2–4 players, got 5"):
        seat_final_table(list("ABCDE"), seed=1)
