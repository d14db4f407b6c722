"""Standings: metrics, tie-breaks, precedence."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.errors import StandingsError
from tournaments.algorithms.standings import (
    GP_PLUS_PRECEDENCE,
    GP_PRECEDENCE,
    LEAGUE_PRECEDENCE,
    METRICS,
    OPEN_PRECEDENCE,
    GameOutcome,
    GrandPrixPoints,
    Metric,
    PlacementPoints,
    StandingsRow,
    WonLost,
    compute_standings,
    leader_is_certain,
    resolve_metrics,
    top_is_tied,
)

_ids = iter(range(1, 10_000))


def game(winner: str, loser: str, **kwargs: object) -> GameOutcome:
    """A two-player game, at-board order winner first unless ``players`` given."""
    players = kwargs.pop("players", (winner, loser))
    return GameOutcome(next(_ids), players, winner=winner, **kwargs)  # type: ignore[arg-type]


def table(rows: tuple[StandingsRow, ...]) -> list[tuple[object, int, str | None]]:
    return [(r.entry, r.rank, r.separated_by) for r in rows]


def test_metric_keys() -> None:
    assert set(METRICS) == {
        "games_played",
        "wins",
        "losses",
        "won_lost",
        "win_percentage",
        "head_to_head",
        "counted_pawns_difference",
        "completed_colours",
        "game_time",
        "die_roll",
        "gp_points",
        "gp_plus_points",
        "placement_points",
    }
    for key, metric in METRICS.items():
        assert metric.key == key and metric.label
    assert not METRICS["losses"].higher_is_better
    assert not METRICS["game_time"].higher_is_better


def test_won_lost_ranks_by_percentage_and_shows_record() -> None:
    outcomes = [game("A", "B"), game("A", "C"), game("B", "C"), game("C", "B"), game("B", "A")]
    rows = compute_standings(["C", "B", "A"], outcomes)
    assert table(rows) == [("A", 1, "won_lost"), ("B", 2, "won_lost"), ("C", 3, None)]
    assert rows[0].values["won_lost"] == WonLost(2, 1)
    assert str(rows[0].values["won_lost"]) == "2–1"
    assert rows[0].values["games_played"] == 3
    assert rows[2].values["losses"] == 2


def head_to_head_league() -> list[GameOutcome]:
    """A, B, C finish 3–3; D 5–4 above them, E last.

    Among A, B, C: A beat B twice and split with C (+2); B beat C once (B −1, C −1).
    Re-applied between B and C, B's win over C decides.
    """
    return [
        game("A", "B"),
        game("A", "B"),
        game("A", "C"),
        game("C", "A"),
        game("B", "C"),
        game("D", "A"),
        game("D", "A"),
        game("B", "D"),
        game("B", "D"),
        game("D", "B"),
        game("C", "D"),
        game("C", "D"),
        game("D", "C"),
        game("D", "E"),
    ]


def test_head_to_head_among_three_tied() -> None:
    rows = compute_standings(["A", "B", "C", "D", "E"], head_to_head_league())
    assert table(rows) == [
        ("D", 1, "won_lost"),
        ("A", 2, "head_to_head"),
        ("B", 3, "head_to_head"),
        ("C", 4, "won_lost"),
        ("E", 5, None),
    ]
    assert [rows[i].values["won_lost"] for i in (1, 2, 3)] == [WonLost(3, 3)] * 3
    # head-to-head values: A within the three, B and C within their pair
    assert rows[1].values["head_to_head"] == 2
    assert rows[2].values["head_to_head"] == 1
    assert rows[3].values["head_to_head"] == -1
    assert rows[0].values["head_to_head"] is None  # never tied


def test_head_to_head_only_counts_games_within_the_group() -> None:
    # B beat A; both beat C; A beat D twice while B lost to D once: A and B tie 3–1;
    # head-to-head looks at A–B only.
    outcomes = [
        game("B", "A"),
        game("A", "C"),
        game("B", "C"),
        game("A", "D"),
        game("A", "D"),
        game("D", "B"),
        game("B", "D"),
    ]
    rows = compute_standings(["A", "B", "C", "D"], outcomes)
    assert table(rows)[:2] == [("B", 1, "head_to_head"), ("A", 2, "won_lost")]


def test_counted_pawns_difference() -> None:
    outcomes = [
        game("A", "B", counted_pawns={"A": 4, "B": 2}),
        game("B", "A", counted_pawns={"A": 1, "B": 4}),
    ]
    rows = compute_standings(["A", "B"], outcomes)
    assert table(rows) == [("B", 1, "counted_pawns_difference"), ("A", 2, None)]
    assert rows[0].values["counted_pawns_difference"] == 1
    assert rows[1].values["counted_pawns_difference"] == -1


def test_counted_pawns_three_players_and_forfeit() -> None:
    outcomes = [
        GameOutcome(1, ("A", "B", "C"), winner="A", counted_pawns={"A": 4, "B": 2, "C": 1}),
        GameOutcome(2, ("A", "B"), winner="B", forfeit_loser="A", counted_pawns={"A": 0, "B": 4}),
    ]
    rows = compute_standings(["A", "B", "C"], outcomes, ["counted_pawns_difference"])
    values = {r.entry: r.values["counted_pawns_difference"] for r in rows}
    assert values == {"A": 5, "B": -1, "C": -4}  # the forfeit adds nothing


def symmetric_pair() -> list[GameOutcome]:
    """A and B split 1–1 with equal pawns (2T+)."""
    return [
        game(
            "A",
            "B",
            counted_pawns={"A": 8, "B": 3},
            completed_colours={"A": 2, "B": 0},
            game_time=1200,
        ),
        game(
            "B",
            "A",
            counted_pawns={"A": 3, "B": 8},
            completed_colours={"A": 1, "B": 2},
            game_time=1300,
        ),
    ]


def test_completed_colours() -> None:
    rows = compute_standings(["B", "A"], symmetric_pair())
    assert table(rows) == [("A", 1, "completed_colours"), ("B", 2, None)]
    assert rows[0].values["completed_colours"] == 3
    assert rows[1].values["completed_colours"] == 2
    assert rows[0].values["counted_pawns_difference"] == 0
    assert rows[0].values["head_to_head"] == rows[1].values["head_to_head"] == 0


def time_table(a_time: float | None, b_time: float | None) -> list[GameOutcome]:
    outcomes = [
        game(
            "A",
            "B",
            counted_pawns={"A": 8, "B": 3},
            completed_colours={"A": 2, "B": 1},
            game_time=1200,
        ),
        game(
            "B",
            "A",
            counted_pawns={"A": 3, "B": 8},
            completed_colours={"A": 1, "B": 2},
            game_time=1300,
        ),
        game(
            "A", "C", counted_pawns={"A": 8, "C": 0}, completed_colours={"A": 2}, game_time=a_time
        ),
        game(
            "B", "C", counted_pawns={"B": 8, "C": 0}, completed_colours={"B": 2}, game_time=b_time
        ),
    ]
    return outcomes


def test_game_time_less_is_better() -> None:
    rows = compute_standings(["A", "B", "C"], time_table(1000, 900))
    assert table(rows) == [("B", 1, "game_time"), ("A", 2, "won_lost"), ("C", 3, None)]
    assert rows[0].values["game_time"] == 1200 + 1300 + 900
    assert rows[1].values["game_time"] == 1200 + 1300 + 1000


def test_unknown_game_time_does_not_separate() -> None:
    outcomes = time_table(1000, None)
    rows = compute_standings(["A", "B", "C"], outcomes)
    assert table(rows)[:2] == [("A", 1, None), ("B", 1, "won_lost")]
    assert rows[0].tied and rows[1].tied
    assert rows[1].values["game_time"] is None
    # the die roll then decides
    rows = compute_standings(["A", "B", "C"], outcomes, die_rolls={"A": 2, "B": 5})
    assert table(rows)[:2] == [("B", 1, "die_roll"), ("A", 2, "won_lost")]
    assert rows[0].values["die_roll"] == 5


def test_die_roll_with_rerolls_and_missing_rolls() -> None:
    outcomes = time_table(1000, 1000)
    rows = compute_standings(["A", "B", "C"], outcomes, die_rolls={"A": (4, 6), "B": [4, 2]})
    assert table(rows)[:2] == [("A", 1, "die_roll"), ("B", 2, "won_lost")]
    rows = compute_standings(["A", "B", "C"], outcomes, die_rolls={"A": 6})
    assert [r.rank for r in rows] == [1, 1, 3]  # B has no roll: still tied
    rows = compute_standings(["A", "B", "C"], outcomes, die_rolls={"A": 3, "B": 3})
    assert [r.rank for r in rows] == [1, 1, 3]
    with pytest.raises(StandingsError, match="die roll of 'A'"):
        compute_standings(["A", "B", "C"], outcomes, die_rolls={"A": 7})
    with pytest.raises(StandingsError, match="die roll of 'A'"):
        compute_standings(["A", "B", "C"], outcomes, die_rolls={"A": ()})


def test_gp_points_two_players() -> None:
    outcomes = [
        GameOutcome(
            1,
            ("A", "B"),
            winner="A",
            colour_places=("A", "B", "A", "B"),
            both_finished_order=("A", "B"),
        )
    ]
    rows = compute_standings(["A", "B"], outcomes, GP_PRECEDENCE)
    assert {r.entry: r.values["gp_points"] for r in rows} == {"A": 10 + 4 + 2, "B": 6 + 3}
    rows = compute_standings(["A", "B"], outcomes, GP_PLUS_PRECEDENCE)
    assert {r.entry: r.values["gp_plus_points"] for r in rows} == {"A": 10 + 4 + 4, "B": 6 + 3 + 2}


def test_gp_points_three_players_and_tie_at_top() -> None:
    outcomes = [
        GameOutcome(
            1,
            ("A", "B", "C"),
            winner="A",
            colour_places=("A", "B", "C", "A", "C", "B"),
            both_finished_order=("A", "C", "B"),
        ),
        GameOutcome(
            2,
            ("A", "B", "C"),
            winner="B",
            colour_places=("B", "B", "C", "A", "A", "C"),
            both_finished_order=("B", "A", "C"),
        ),
    ]
    rows = compute_standings(["A", "B", "C"], outcomes, GP_PRECEDENCE)
    points = {r.entry: r.values["gp_points"] for r in rows}
    # game 1: A 10+3+2, B 6+1, C 4+2; game 2: B 10+6+2, A 3+2, C 4+1
    assert points == {"A": 15 + 5, "B": 7 + 18, "C": 6 + 5}
    assert table(rows) == [("B", 1, "gp_points"), ("A", 2, "gp_points"), ("C", 3, None)]
    rows = compute_standings(["A", "B", "C"], outcomes, GP_PLUS_PRECEDENCE)
    plus = {r.entry: r.values["gp_plus_points"] for r in rows}
    # GP+: 4/2/1 to the first/second/third to finish both colours instead of the 2 bonus
    assert plus == {"A": 13 + 4 + 5 + 2, "B": 7 + 1 + 16 + 4, "C": 6 + 2 + 5 + 1}
    assert not top_is_tied(rows)
    tied = compute_standings(
        ["A", "B"],
        [GameOutcome(9, ("A", "B"), colour_places=("A", "B"))],
        [GrandPrixPoints(place_points=(5, 5))],
    )
    assert top_is_tied(tied)


def test_leader_is_certain() -> None:
    assert leader_is_certain({"A": 40, "B": 21}, games_left=1, max_points_per_game=18)
    assert not leader_is_certain({"A": 40, "B": 22}, games_left=1, max_points_per_game=18)
    assert leader_is_certain({"A": 1}, games_left=5, max_points_per_game=18)
    with pytest.raises(StandingsError):
        leader_is_certain({"A": 1}, games_left=-1, max_points_per_game=18)


def open_games() -> list[GameOutcome]:
    return [
        GameOutcome(1, (1, 2, 3, 4), winner=1, player_placings=(1, 2, 3, 4)),
        GameOutcome(2, (1, 2, 3, 4), winner=3, player_placings=(3, 4, 2, 1)),
        GameOutcome(3, (1, 2, 3, 4), winner=2, player_placings=(2, 3)),  # partial
    ]


def test_open_placement_points() -> None:
    rows = compute_standings([1, 2, 3, 4], open_games(), OPEN_PRECEDENCE)
    points = {r.entry: r.values["placement_points"] for r in rows}
    assert points == {1: 5 + 0 + 0, 2: 3 + 1 + 5, 3: 1 + 5 + 3, 4: 0 + 3 + 0}
    # 2 and 3 tie on 9 points and one win each; no die roll recorded
    assert table(rows) == [
        (2, 1, None),
        (3, 1, "placement_points"),
        (1, 3, "placement_points"),
        (4, 4, None),
    ]
    custom = [PlacementPoints(scheme=(5, 3, 2, 1)), "wins", "die_roll"]
    rows = compute_standings([1, 2, 3, 4], open_games(), custom, die_rolls={2: 1, 3: 6})
    points = {r.entry: r.values["placement_points"] for r in rows}
    assert points == {1: 5 + 1 + 0, 2: 3 + 2 + 5, 3: 2 + 5 + 3, 4: 1 + 3 + 0}
    assert table(rows) == [
        (3, 1, "die_roll"),
        (2, 2, "placement_points"),
        (1, 3, "placement_points"),
        (4, 4, None),
    ]


def test_precedence_validation() -> None:
    with pytest.raises(StandingsError, match="unknown standings metric 'goal_difference'"):
        compute_standings(["A"], [], ["wins", "goal_difference"])
    with pytest.raises(StandingsError, match="listed twice"):
        compute_standings(["A"], [], ["wins", "wins"])
    with pytest.raises(StandingsError, match="not one string"):
        compute_standings(["A"], [], "wins")
    with pytest.raises(StandingsError, match="unknown standings metric"):
        compute_standings(["A"], [], ["wins"], show=["nope"])
    assert [m.key for m in resolve_metrics(LEAGUE_PRECEDENCE)] == list(LEAGUE_PRECEDENCE)
    with pytest.raises(StandingsError, match="listed twice"):
        resolve_metrics([PlacementPoints(), PlacementPoints(scheme=(1,))])


def test_custom_metric() -> None:
    class Captures(Metric):
        def evaluate(self, ctx, group):  # type: ignore[no-untyped-def]
            return {e: {"A": 3, "B": 7}[e] for e in group}

    rows = compute_standings(["A", "B"], [], [Captures(key="captures", label="Captures")])
    assert table(rows) == [("B", 1, "captures"), ("A", 2, None)]


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        (dict(players=("A",)), "at least two players"),
        (dict(players=("A", "A")), "listed twice"),
        (dict(players=("A", "Z")), "'Z' is not an entry"),
        (dict(winner="C"), "winner 'C' did not play"),
        (dict(winner="A", forfeit_loser="A"), "cannot be the player who forfeited"),
        (dict(forfeit_loser="C"), "forfeited but did not play"),
        (dict(winner="A", player_placings=("B", "A")), "placings start with 'B'"),
        (dict(player_placings=("A", "A")), "names 'A' twice"),
        (dict(colour_places=("A", "C")), "names 'C', who did not play"),
        (dict(counted_pawns={"A": 4}), "counted pawns are missing"),
        (dict(counted_pawns={"A": 4, "B": -1}), "whole number"),
        (dict(completed_colours={"A": 1.5}), "whole number"),
        (dict(game_time=-3), "seconds"),
        (dict(game_time=float("nan")), "seconds"),
        (dict(players="AB"), "sequence of entries"),
        (dict(counted_pawns=[4, 2]), "must map entries"),
    ],
)
def test_outcome_validation(outcome: dict, message: str) -> None:
    data = {"players": ("A", "B"), **outcome}
    with pytest.raises(StandingsError, match=message):
        compute_standings(["A", "B"], [GameOutcome(1, **data)])


def test_duplicate_games_and_entries() -> None:
    with pytest.raises(StandingsError, match="game 1 is listed twice"):
        compute_standings(
            ["A", "B"],
            [
                game(
                    "A",
                    "B",
                ),
                GameOutcome(1, ("A", "B")),
                GameOutcome(1, ("A", "B")),
            ],
        )
    with pytest.raises(StandingsError, match="entry is listed twice"):
        compute_standings(["A", "A"], [])
    assert compute_standings([], []) == ()


def test_everyone_tied_keeps_entry_order() -> None:
    rows = compute_standings(["Z", "Y", "X"], [])
    assert table(rows) == [("Z", 1, None), ("Y", 1, None), ("X", 1, None)]
    assert all(r.tied for r in rows)


@st.composite
def leagues(draw: st.DrawFn) -> tuple[list[int], list[GameOutcome], dict[int, int]]:
    n = draw(st.integers(min_value=1, max_value=7))
    entries = list(range(n))
    outcomes = []
    if n >= 2:
        for index in range(draw(st.integers(min_value=0, max_value=12))):
            a, b = draw(st.permutations(entries))[:2]
            winner = draw(st.sampled_from([a, b, None]))
            pawns = draw(st.one_of(st.none(), st.tuples(st.integers(0, 8), st.integers(0, 8))))
            outcomes.append(
                GameOutcome(
                    index,
                    (a, b),
                    winner=winner,
                    counted_pawns={} if pawns is None else {a: pawns[0], b: pawns[1]},
                    completed_colours={a: draw(st.integers(0, 2))},
                    game_time=draw(st.one_of(st.none(), st.floats(0, 5000))),
                )
            )
    rolls = {e: draw(st.integers(1, 6)) for e in entries if draw(st.booleans())}
    return entries, outcomes, rolls


@settings(max_examples=50, deadline=None)
@given(leagues(), st.randoms(use_true_random=False))
def test_table_is_consistent_and_deterministic(
    league: tuple[list[int], list[GameOutcome], dict[int, int]], rnd: random.Random
) -> None:
    entries, outcomes, rolls = league
    rows = compute_standings(entries, outcomes, die_rolls=rolls)
    assert sorted(r.entry for r in rows) == entries
    for index, row in enumerate(rows):
        assert row.rank == 1 + next(i for i, r in enumerate(rows) if r.rank == row.rank)
        if index + 1 < len(rows):
            nxt = rows[index + 1]
            assert nxt.rank >= row.rank
            assert (row.separated_by is None) == (nxt.rank == row.rank)
            if row.separated_by is not None:
                assert row.separated_by in LEAGUE_PRECEDENCE
                # both rows agree on every metric before the separating one
                for key in LEAGUE_PRECEDENCE[: LEAGUE_PRECEDENCE.index(row.separated_by)]:
                    # (unknown values and group-dependent metrics don't separate)
                    mine, theirs = row.values[key], nxt.values[key]
                    if key != "head_to_head" and mine is not None and theirs is not None:
                        assert mine == theirs
                first = LEAGUE_PRECEDENCE[0]
                if row.separated_by == first:
                    assert METRICS[first].rank_key(row.values[first]) > METRICS[first].rank_key(
                        nxt.values[first]
                    )
        else:
            assert row.separated_by is None
        assert row.tied == any(r.rank == row.rank and r is not row for r in rows)
    # the order of the outcomes does not matter
    shuffled = list(outcomes)
    rnd.shuffle(shuffled)
    assert compute_standings(entries, shuffled, die_rolls=rolls) == rows


def test_impossible_game_times_are_unknown_and_never_overflow() -> None:
    # two games of 1.7e308 s once overflowed math.fsum (OverflowError froze the league)
    rows = compute_standings(["A", "B", "C"], time_table(1.7e308, 1.7e308))
    assert rows[0].values["game_time"] is None and rows[1].values["game_time"] is None
    assert table(rows)[:2] == [("A", 1, None), ("B", 1, "won_lost")]
    # the bound itself is a real time
    rows = compute_standings(["A", "B", "C"], time_table(10_000_000, 900))
    assert table(rows)[0] == ("B", 1, "game_time")
