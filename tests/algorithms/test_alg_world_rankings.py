"""3T World Rankings: hand-computed tables from the regulation's words (tournament.md).

"The last 9 triple-threat tournaments; basic points 7 for 1st, 4 for 2nd with at least one
game won (2 with none), 2 for 3rd, times the tournament's level (1–4); each game won adds
1 winner point. Ties: tournament points, then world championships won, then majors, then
tournaments won."
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.world_rankings import (
    PRECEDENCE,
    Placing,
    Tournament,
    WorldRankingError,
    basic_points,
    counted_tournaments,
    placings_from_order,
    tie_break_label,
    world_ranking,
)

_day = dt.date(2026, 1, 1)


def tourney(tid, level, *placings, day=None, wc=False, major=False):
    """A tournament from ``(player, place, games won)`` triples."""
    return Tournament(
        tid,
        day or _day,
        level,
        tuple(Placing(*p) for p in placings),
        world_championship=wc,
        major=major,
        name=f"T{tid}",
    )


def on(n):
    return _day + dt.timedelta(days=n)


def table(ranking):
    return [
        (r.rank, r.player, r.points, r.tournament_points, r.winner_points, r.separated_by)
        for r in ranking.rows
    ]


# --------------------------------------------------------------------------------------
# Points


@pytest.mark.parametrize(
    ("place", "won", "points"),
    [(1, 0, 7), (1, 5, 7), (2, 1, 4), (2, 3, 4), (2, 0, 2), (3, 0, 2), (3, 4, 2), (4, 2, 0)],
)
def test_basic_points(place, won, points):
    assert basic_points(place, won) == points


def test_two_tournaments_by_hand():
    ranking = world_ranking(
        [
            # level 2: A 7×2 + 3 = 17, B 4×2 + 1 = 9, C 2×2 = 4, D 0 + 1 = 1
            tourney(1, 2, ("A", 1, 3), ("B", 2, 1), ("C", 3, 0), ("D", 4, 1), day=on(10)),
            # level 1: B 7 + 2 = 9, A 2 (2nd, no game won) + 0, C 2 + 1 = 3
            tourney(2, 1, ("B", 1, 2), ("A", 2, 0), ("C", 3, 1), day=on(20)),
        ]
    )
    assert table(ranking) == [
        (1, "A", 19, 16, 3, "points"),
        (2, "B", 18, 15, 3, "points"),
        (3, "C", 7, 6, 1, "points"),
        (4, "D", 1, 0, 1, None),
    ]
    a = ranking.row("A")
    assert (a.tournaments_won, a.seconds, a.thirds, a.tournaments_played) == (1, 1, 0, 2)
    assert [(h.tournament_id, h.place, h.basic_points, h.points) for h in a.history] == [
        (2, 2, 2, 2),  # most recent first
        (1, 1, 7, 17),
    ]


def test_second_place_with_and_without_a_game_won_at_level_4():
    ranking = world_ranking(
        [
            tourney(1, 4, ("W1", 1, 4), ("S1", 2, 1), ("T1", 3, 0), day=on(1)),
            tourney(2, 4, ("W2", 1, 4), ("S0", 2, 0), ("T2", 3, 2), day=on(2)),
        ]
    )
    s1, s0 = ranking.row("S1"), ranking.row("S0")
    assert (s1.tournament_points, s1.winner_points, s1.points) == (16, 1, 17)
    assert (s0.tournament_points, s0.winner_points, s0.points) == (8, 0, 8)
    t2 = ranking.row("T2")
    assert (t2.tournament_points, t2.points) == (8, 10)  # 2 × 4 + 2 winner points
    # The two winners: equal on every column, so they share 1st place.
    assert [(r.rank, r.player) for r in ranking.rows[:2]] == [(1, "W1"), (1, "W2")]
    assert ranking.rows[0].separated_by is None


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_level_multiplies_basic_points_not_winner_points(level):
    ranking = world_ranking([tourney(1, level, ("A", 1, 3), ("B", 2, 1), ("C", 3, 2))])
    assert [(r.player, r.points) for r in ranking.rows] == [
        ("A", 7 * level + 3),
        ("B", 4 * level + 1),
        ("C", 2 * level + 2),
    ]
    assert ranking.row("B").tournament_points == 4 * level


# --------------------------------------------------------------------------------------
# Tie-breaks, one level at a time


def test_tie_on_points_broken_by_tournament_points():
    ranking = world_ranking(
        [
            # level 1: Y 7 + 3 = 10 (tournament points 7); Z 2; U 2
            tourney(1, 1, ("Y", 1, 3), ("Z", 2, 0), ("U", 3, 0), day=on(1)),
            # level 2: V 14 + 5 = 19; X 8 + 2 = 10 (tournament points 8); Z 4
            tourney(2, 2, ("V", 1, 5), ("X", 2, 2), ("Z", 3, 0), day=on(2)),
        ]
    )
    assert table(ranking) == [
        (1, "V", 19, 14, 5, "points"),
        (2, "X", 10, 8, 2, "tournament_points"),
        (3, "Y", 10, 7, 3, "points"),
        (4, "Z", 6, 6, 0, "points"),
        (5, "U", 2, 2, 0, None),
    ]
    assert tie_break_label(ranking.row("X").separated_by) == "tournament points"


def test_then_world_championships_won():
    ranking = world_ranking(
        [
            # Both winners: 7 × 3 + 2 = 23, tournament points 21, one tournament won each.
            tourney("wc", 3, ("P", 1, 2), ("R", 2, 0), day=on(1), wc=True),
            tourney("open", 3, ("Q", 1, 2), ("S", 2, 0), day=on(2)),
        ]
    )
    assert [(r.rank, r.player, r.points, r.separated_by) for r in ranking.rows] == [
        (1, "P", 23, "world_championships_won"),
        (2, "Q", 23, "points"),
        (3, "R", 6, None),  # R and S: 2 × 3, equal on everything: shared rank
        (3, "S", 6, None),
    ]
    assert ranking.row("P").world_championships_won == 1
    assert ranking.row("Q").tournaments_won == 1


def test_then_majors_won():
    ranking = world_ranking(
        [
            tourney("minor", 2, ("N", 1, 1), ("O", 3, 0), day=on(1)),
            tourney("major", 2, ("M", 1, 1), ("O2", 3, 0), day=on(2), major=True),
        ]
    )
    assert [(r.player, r.points, r.majors_won, r.separated_by) for r in ranking.rows[:2]] == [
        ("M", 15, 1, "majors_won"),
        ("N", 15, 0, "points"),
    ]


def test_majors_won_come_before_tournaments_won():
    ranking = world_ranking(
        [
            # M: one major, level 2, no game won: 14. N: two level-1 tournaments: 7 + 7.
            tourney("major", 2, ("M", 1, 0), day=on(1), major=True),
            tourney("a", 1, ("N", 1, 0), day=on(2)),
            tourney("b", 1, ("N", 1, 0), day=on(3)),
        ]
    )
    assert [(r.player, r.points, r.majors_won, r.tournaments_won) for r in ranking.rows] == [
        ("M", 14, 1, 1),
        ("N", 14, 0, 2),
    ]
    assert ranking.rows[0].separated_by == "majors_won"


def test_world_championships_won_come_before_majors_won():
    ranking = world_ranking(
        [
            # A: a level-4 world championship: 28. B: two level-2 majors: 14 + 14.
            tourney("wc", 4, ("A", 1, 0), day=on(1), wc=True),
            tourney("m1", 2, ("B", 1, 0), day=on(2), major=True),
            tourney("m2", 2, ("B", 1, 0), day=on(3), major=True),
        ]
    )
    assert [(r.player, r.world_championships_won, r.majors_won) for r in ranking.rows] == [
        ("A", 1, 0),
        ("B", 0, 2),
    ]
    assert ranking.rows[0].separated_by == "world_championships_won"


def test_a_world_championship_is_not_a_major_unless_flagged():
    ranking = world_ranking(
        [
            tourney("wc", 4, ("A", 1, 0), day=on(1), wc=True),
            tourney("major", 4, ("B", 1, 0), day=on(2), major=True),
        ]
    )
    # A: a world championship outranks B's major, though B leads on majors won.
    assert [(r.player, r.world_championships_won, r.majors_won) for r in ranking.rows] == [
        ("A", 1, 0),
        ("B", 0, 1),
    ]
    assert ranking.rows[0].separated_by == "world_championships_won"


def test_then_tournaments_won():
    ranking = world_ranking(
        [
            # A: won a level-2 tournament, 2 games: 14 + 2 = 16.
            tourney(1, 2, ("A", 1, 2), ("E", 2, 0), day=on(1)),
            # B: 2nd with a game won at level 2 (8 + 1) and 3rd at level 3 (6 + 1) = 16,
            # tournament points 14 as A's, no tournament won.
            tourney(2, 2, ("F", 1, 0), ("B", 2, 1), day=on(2)),
            tourney(3, 3, ("G", 1, 0), ("H", 2, 0), ("B", 3, 1), day=on(3)),
        ]
    )
    a, b = ranking.row("A"), ranking.row("B")
    assert (a.points, a.tournament_points, a.tournaments_won) == (16, 14, 1)
    assert (b.points, b.tournament_points, b.tournaments_won) == (16, 14, 0)
    assert a.separated_by == "tournaments_won"
    assert [(r.rank, r.player, r.points) for r in ranking.rows] == [
        (1, "G", 21),  # 7 × 3
        (2, "A", 16),
        (3, "B", 16),
        (4, "F", 14),  # 7 × 2
        (5, "H", 6),  # 2nd without a game won: 2 × 3
        (6, "E", 4),  # 2nd without a game won: 2 × 2
    ]


def test_equal_on_every_column_share_the_rank_and_the_next_rank_is_skipped():
    ranking = world_ranking(
        [
            tourney(1, 1, ("A", 1, 1), ("B", 3, 0), day=on(1)),
            tourney(2, 1, ("C", 1, 1), ("D", 3, 0), day=on(2)),
            tourney(3, 1, ("E", 1, 0), ("F", 2, 0), day=on(3)),
        ]
    )
    assert [(r.rank, r.player, r.points) for r in ranking.rows] == [
        (1, "A", 8),
        (1, "C", 8),
        (3, "E", 7),
        (4, "B", 2),
        (4, "D", 2),
        (4, "F", 2),
    ]


# --------------------------------------------------------------------------------------
# The 9-tournament window


def ten_tournaments():
    """Ten tournaments on days 1–10. K plays them all (3rd, no game won: 2 × level); the
    oldest is a level-4 world championship won by O, who plays no other."""
    out = [tourney(1, 4, ("O", 1, 5), ("K", 3, 0), day=on(1), wc=True)]
    for i in range(2, 11):
        out.append(tourney(i, 1, (f"W{i}", 1, 0), ("K", 3, 0), day=on(i)))
    return out


def test_only_the_last_nine_tournaments_count():
    ranking = world_ranking(ten_tournaments())
    assert [t.tournament_id for t in ranking.tournaments] == list(range(10, 1, -1))
    k = ranking.row("K")
    assert (k.points, k.tournaments_played, len(k.history)) == (9 * 2, 9, 9)
    with pytest.raises(WorldRankingError, match="not in the ranking"):
        ranking.row("O")  # O's only tournament fell out of the window
    assert {r.player for r in ranking.rows} == {"K"} | {f"W{i}" for i in range(2, 11)}


def test_ranking_as_of_an_earlier_date_keeps_the_older_tournament():
    ranking = world_ranking(ten_tournaments(), as_of=on(9))
    assert [t.tournament_id for t in ranking.tournaments] == list(range(9, 0, -1))
    o = ranking.row("O")
    assert (o.rank, o.points, o.world_championships_won) == (1, 28 + 5, 1)
    assert ranking.row("K").points == 2 * 4 + 8 * 2


def test_window_is_a_parameter_and_same_day_tournaments_keep_input_order():
    same_day = [
        tourney("early", 1, ("A", 1, 0), day=on(5)),
        tourney("late", 1, ("B", 1, 0), day=on(5)),
        tourney("old", 1, ("C", 1, 0), day=on(1)),
    ]
    assert [t.tournament_id for t in counted_tournaments(same_day, window=2)] == [
        "late",
        "early",
    ]
    assert [r.player for r in world_ranking(same_day, window=1).rows] == ["B"]


# --------------------------------------------------------------------------------------
# Input checks


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: tourney(1, 0, ("A", 1, 0)), "level"),
        (lambda: tourney(1, 5, ("A", 1, 0)), "level"),
        (lambda: tourney(1, True, ("A", 1, 0)), "level"),
        (lambda: tourney(1, 1, ("A", 1, 0), ("A", 2, 0)), "appears twice"),
        (lambda: tourney(1, 1, ("A", 1, 0), ("B", 1, 0)), "exactly one player"),
        (lambda: tourney(1, 1, ("A", 2, 0)), "exactly one player"),
        (lambda: tourney(1, 1, ("A", 1, -1)), "games won"),
        (lambda: tourney(1, 1, ("A", 0, 0)), "place"),
        (lambda: Tournament(1, "2026-01-01", 1, ()), "date"),  # type: ignore[arg-type]
    ],
)
def test_bad_tournaments_name_the_problem(make, message):
    with pytest.raises(WorldRankingError, match=message):
        make()


def test_bad_lists_name_the_problem():
    t = tourney(1, 1, ("A", 1, 0))
    with pytest.raises(WorldRankingError, match="listed twice"):
        world_ranking([t, t])
    with pytest.raises(WorldRankingError, match="window"):
        world_ranking([t], window=0)
    with pytest.raises(WorldRankingError, match="without a place"):
        placings_from_order(["A", "B"], {"C": 1})


def test_placings_from_order():
    assert placings_from_order(["A", "B", "C"], {"B": 2}) == (
        Placing("A", 1, 0),
        Placing("B", 2, 2),
        Placing("C", 3, 0),
    )


# --------------------------------------------------------------------------------------
# Properties


@st.composite
def tournament_lists(draw):
    pool = [f"p{i}" for i in range(8)]
    n = draw(st.integers(1, 14))
    out = []
    for i in range(n):
        entrants = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=6, unique=True))
        wins = draw(st.lists(st.integers(0, 6), min_size=len(entrants), max_size=len(entrants)))
        out.append(
            Tournament(
                i,
                on(draw(st.integers(0, 30))),
                draw(st.integers(1, 4)),
                placings_from_order(entrants, dict(zip(entrants, wins, strict=True))),
                world_championship=draw(st.booleans()),
                major=draw(st.booleans()),
            )
        )
    return out


@settings(max_examples=80, deadline=None)
@given(tournament_lists())
def test_rows_add_up_and_are_ordered_by_the_precedence(tournaments):
    ranking = world_ranking(tournaments)
    assert len(ranking.tournaments) == min(9, len(tournaments))
    counted = {t.tournament_id for t in ranking.tournaments}
    for row in ranking.rows:
        assert row.points == row.tournament_points + row.winner_points
        assert row.points == sum(h.points for h in row.history)
        assert {h.tournament_id for h in row.history} <= counted
        assert row.tournaments_won == sum(h.place == 1 for h in row.history)
    keys = [r.key() for r in ranking.rows]
    assert keys == sorted(keys, reverse=True)
    for prev, row in zip(ranking.rows, ranking.rows[1:], strict=False):
        assert (row.rank == prev.rank) == (row.key() == prev.key())
        if row.rank != prev.rank:
            assert row.rank == ranking.rows.index(row) + 1
            assert prev.separated_by in {c for c, _ in PRECEDENCE}
