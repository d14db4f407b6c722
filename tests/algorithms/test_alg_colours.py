"""Allied colours, rearguard/vanguard and colour assignment."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.boards import BOARD_4, BOARD_6, default_colours
from tournaments.algorithms.colours import (
    allied_units,
    assign_colours,
    assigned_colours,
    kept_preferences,
    normalise,
    opposite_pairs,
    owner_of,
    rearguard,
    side_by_side_pairs,
    vanguard,
)
from tournaments.algorithms.errors import ColourError


def test_default_boards() -> None:
    assert default_colours(4) == ("red", "black", "yellow", "green")
    assert default_colours(6) == ("red", "black", "yellow", "green", "blue", "white")
    with pytest.raises(ColourError, match="boards are 4 and 6"):
        default_colours(5)


def test_side_by_side_pairs() -> None:
    assert side_by_side_pairs(BOARD_4) == (
        ("red", "black"),
        ("black", "yellow"),
        ("yellow", "green"),
        ("green", "red"),
    )
    assert len(side_by_side_pairs(BOARD_6)) == 6
    assert side_by_side_pairs(BOARD_6)[-1] == ("white", "red")


def test_opposite_pairs() -> None:
    assert opposite_pairs(BOARD_4) == (("red", "yellow"), ("black", "green"))
    assert opposite_pairs(BOARD_6) == (("red", "green"), ("black", "blue"), ("yellow", "white"))


@pytest.mark.parametrize(
    ("pair", "rear", "van"),
    [
        (("red", "black"), "red", "black"),
        (("black", "red"), "red", "black"),
        (("black", "yellow"), "black", "yellow"),
        (("yellow", "green"), "yellow", "green"),
        (("green", "red"), "green", "red"),
        (("red", "green"), "green", "red"),
    ],
)
def test_rearguard_vanguard_board_4(pair: tuple[str, str], rear: str, van: str) -> None:
    # the engine's functions, one signature everywhere: (board colours, pair)
    assert rearguard(BOARD_4, pair) == rear
    assert vanguard(BOARD_4, pair) == van


def test_rearguard_is_the_engines() -> None:
    from games.engine import board

    assert rearguard is board.rearguard
    assert vanguard is board.vanguard


def test_rearguard_board_6() -> None:
    assert rearguard(BOARD_6, ("white", "red")) == "white"
    assert rearguard(BOARD_6, ("blue", "green")) == "green"
    assert vanguard(BOARD_6, ("blue", "green")) == "blue"


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        (("red", "yellow"), "do not sit side by side"),
        (("red", "purple"), "are not both among the colours"),
        (("red",), "two different colours"),
        (("red", "red"), "two different colours"),
    ],
)
def test_rearguard_errors(pair: tuple[str, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        rearguard(BOARD_4, pair)


def test_normalise() -> None:
    assert normalise(("yellow", "red"), BOARD_4, "opposite") == ("red", "yellow")
    assert normalise("blue", BOARD_6, "single") == ("blue",)
    with pytest.raises(ColourError, match="unknown colour layout"):
        normalise(("red", "black"), BOARD_4, "diagonal")


def test_two_players_board_4_complement_pair() -> None:
    prefs = {"A": ("red", "black"), "B": ("black", "yellow")}
    assert assign_colours(["A", "B"], prefs) == {
        "A": ("red", "black"),
        "B": ("yellow", "green"),
    }
    # the first mentioned keeps theirs: swap the at-board order
    assert assign_colours(["B", "A"], prefs) == {
        "B": ("black", "yellow"),
        "A": ("green", "red"),
    }
    # no clash: both keep their pairs
    prefs = {"A": ("green", "red"), "B": ("black", "yellow")}
    assert assign_colours(["B", "A"], prefs) == {"B": ("black", "yellow"), "A": ("green", "red")}


def test_three_players_board_6_partition_by_first_player() -> None:
    prefs = {"A": ("black", "yellow"), "B": ("blue", "white"), "C": ("yellow", "green")}
    result = assign_colours(["A", "B", "C"], prefs, BOARD_6)
    # A's pair fixes the partition (black,yellow) (green,blue) (white,red)
    assert result["A"] == ("black", "yellow")
    assert set(result.values()) == {("black", "yellow"), ("green", "blue"), ("white", "red")}
    # B wanted blue+white: the partition has green+blue and white+red, equally close;
    # B takes the first clockwise, C the remaining pair
    assert result["B"] == ("green", "blue")
    assert result["C"] == ("white", "red")


def test_later_player_keeps_non_clashing_preference_only_if_rest_fits() -> None:
    # B's green+blue would not clash with A, but would leave yellow and white for C
    prefs = {"A": ("red", "black"), "B": ("green", "blue")}
    result = assign_colours(["A", "B", "C"], prefs, BOARD_6)
    assert result["B"] in {("yellow", "green"), ("blue", "white")}
    assert result["C"] in {("yellow", "green"), ("blue", "white")}
    # two players on board 6 side by side: B keeps green+blue
    assert assign_colours(["A", "B"], prefs, BOARD_6)["B"] == ("green", "blue")


def test_gp_opposite_and_open_single() -> None:
    prefs = {"A": ("yellow", "red"), "B": ("red", "yellow")}
    assert assign_colours(["A", "B"], prefs, layout="opposite") == {
        "A": ("red", "yellow"),
        "B": ("black", "green"),
    }
    prefs_single = {1: "red", 2: "red", 3: "green", 4: None}
    assert assign_colours([1, 2, 3, 4], prefs_single, layout="single") == {
        1: ("red",),
        2: ("black",),
        3: ("green",),
        4: ("yellow",),
    }


@pytest.mark.parametrize(
    ("players", "prefs", "board", "layout", "policy", "message"),
    [
        (["A", "B", "C"], {}, BOARD_4, "side-by-side", "first-mentioned-keeps", "at most 2"),
        (["A", "B", "C", "D"], {}, BOARD_6, "opposite", "first-mentioned-keeps", "at most 3"),
        (list("ABCDE"), {}, BOARD_4, "single", "first-mentioned-keeps", "at most 4"),
        (
            ["A", "B"],
            {"B": ("red", "yellow")},
            BOARD_4,
            "side-by-side",
            "first-mentioned-keeps",
            "preference of player 'B'",
        ),
        (
            ["A", "B"],
            {"A": ("red", "black")},
            BOARD_4,
            "opposite",
            "first-mentioned-keeps",
            "not a pair of opposite colours",
        ),
        (["A", "B"], {"A": "pink"}, BOARD_4, "single", "first-mentioned-keeps", "not a colour"),
        (["A", "A"], {}, BOARD_4, "side-by-side", "first-mentioned-keeps", "listed twice"),
        ([], {}, BOARD_4, "side-by-side", "first-mentioned-keeps", "no players"),
        (["A", "B"], {}, BOARD_4, "side-by-side", "higher-seed-keeps", "unknown colour policy"),
        (["A", "B"], {}, BOARD_4, "zigzag", "first-mentioned-keeps", "unknown colour layout"),
        (["A", "B"], {}, ("red", "red", "blue"), "single", "first-mentioned-keeps", "distinct"),
    ],
)
def test_assign_colours_errors(
    players: list[str], prefs: dict, board: tuple[str, ...], layout: str, policy: str, message: str
) -> None:
    with pytest.raises(ColourError, match=message):
        assign_colours(players, prefs, board, layout=layout, policy=policy)


def test_owner_and_assigned_colours() -> None:
    assignment = {"A": ("green", "red"), "B": ("black", "yellow")}
    assert owner_of("red", assignment) == "A"
    assert assigned_colours(assignment, BOARD_4) == BOARD_4
    assert assigned_colours({"A": ("yellow", "white")}, BOARD_6) == ("yellow", "white")
    with pytest.raises(ColourError, match="nobody holds"):
        owner_of("blue", assignment)
    with pytest.raises(ColourError, match="held by both"):
        assigned_colours({"A": ("red", "black"), "B": ("black", "yellow")}, BOARD_4)


@st.composite
def seatings(draw: st.DrawFn) -> tuple[tuple[str, ...], str, list[int], dict[int, object]]:
    board = draw(st.sampled_from([BOARD_4, BOARD_6]))
    layout = draw(st.sampled_from(["side-by-side", "opposite", "single"]))
    capacity = len(board) if layout == "single" else len(board) // 2
    count = draw(st.integers(min_value=1, max_value=capacity))
    players = list(range(count))
    units = allied_units(board, layout)
    prefs: dict[int, object] = {}
    for player in players:
        choice = draw(st.one_of(st.none(), st.sampled_from(units)))
        if choice is not None and draw(st.booleans()):
            choice = tuple(reversed(choice))  # any order is accepted
        prefs[player] = choice
    return board, layout, players, prefs


@settings(max_examples=150, deadline=None)
@given(seatings())
def test_colours_never_clash(
    seating: tuple[tuple[str, ...], str, list[int], dict[int, object]],
) -> None:
    board, layout, players, prefs = seating
    result = assign_colours(players, prefs, board, layout=layout)  # type: ignore[arg-type]
    assert list(result) == players
    held = [c for unit in result.values() for c in unit]
    assert len(held) == len(set(held))  # never clash
    units = allied_units(board, layout)
    assert all(unit in units for unit in result.values())
    # the first mentioned keeps their preference
    first = prefs[players[0]]
    if first is not None:
        assert result[players[0]] == normalise(first, board, layout)  # type: ignore[arg-type]
    # anyone whose preference is kept did not take someone else's colour
    for player in players:
        pref = prefs[player]
        if pref is not None and result[player] != normalise(pref, board, layout):  # type: ignore[arg-type]
            earlier = [c for p in players[: players.index(player)] for c in result[p]]
            later_needed = len(players) - players.index(player) - 1
            wanted = set(normalise(pref, board, layout))  # type: ignore[arg-type]
            # displaced only because of a clash with earlier players or to seat the rest
            assert wanted & set(earlier) or later_needed > 0


# --------------------------------------------------------------------------------------
# The clash rule (issue 13, point 1): only a real clash moves anyone.

SIX = BOARD_6
RB, BY, YG, GBL, BLW, WR = side_by_side_pairs(SIX)


def test_player_without_preference_does_not_take_a_later_players_pair() -> None:
    # board 4: A has no preference, B asked for red+black. Nothing clashes, so B keeps
    # it and A takes the other pair (A used to take red+black, the first free pair).
    result = assign_colours(["A", "B"], {"B": ("red", "black")}, BOARD_4)
    assert result == {"A": ("yellow", "green"), "B": ("red", "black")}
    # board 6, two players without a preference before C's black+yellow: C keeps it;
    # A and B take the other two pairs of C's partition, first clockwise first
    result = assign_colours(["A", "B", "C"], {"C": ("black", "yellow")}, SIX)
    assert result == {"A": GBL, "B": WR, "C": BY}


def test_board_6_clash_does_not_ripple() -> None:
    # A keeps red+black; B wanted red+black too (a real clash) and is moved; C's
    # yellow+green is still free and C keeps it, so B takes the remaining pair.
    prefs = {"A": ("red", "black"), "B": ("red", "black"), "C": ("yellow", "green")}
    assert assign_colours(["A", "B", "C"], prefs, SIX) == {"A": RB, "B": BLW, "C": YG}
    # the same with B clashing on one colour only
    prefs = {"A": ("red", "black"), "B": ("black", "yellow"), "C": ("blue", "white")}
    assert assign_colours(["A", "B", "C"], prefs, SIX) == {"A": RB, "B": YG, "C": BLW}


def test_remaining_pair_when_several_remain() -> None:
    # two players on board 6 side by side: B clashes on black; four pairs are free
    # (yellow+green, green+blue, blue+white; white+red shares red with A). B takes the
    # one sharing most colours with black+yellow: yellow+green.
    prefs = {"A": ("red", "black"), "B": ("black", "yellow")}
    assert assign_colours(["A", "B"], prefs, SIX)["B"] == YG
    # GP on board 6, two players, same preference: black+blue and yellow+white remain,
    # neither shares a colour: the first clockwise from the board's first colour
    prefs = {"A": ("red", "green"), "B": ("green", "red")}
    assert assign_colours(["A", "B"], prefs, SIX, "opposite")["B"] == ("black", "blue")
    # three GP players: C's black+blue is free, so C keeps it and B takes yellow+white
    prefs = {"A": ("red", "green"), "B": ("red", "green"), "C": ("black", "blue")}
    assert assign_colours(["A", "B", "C"], prefs, SIX, "opposite") == {
        "A": ("red", "green"),
        "B": ("yellow", "white"),
        "C": ("black", "blue"),
    }


def test_a_pair_that_leaves_no_pair_for_a_later_player_is_a_clash() -> None:
    # board 6, three players: with red+black kept, green+blue would leave yellow and
    # white, which are not neighbours. B is moved; C, without a preference, takes what
    # B leaves. B's pair: yellow+green and blue+white each share one colour → clockwise.
    prefs = {"A": ("red", "black"), "B": ("green", "blue")}
    assert assign_colours(["A", "B", "C"], prefs, SIX) == {"A": RB, "B": YG, "C": BLW}
    # and when C asked for yellow+green, C keeps it and B takes blue+white
    prefs["C"] = ("yellow", "green")
    assert assign_colours(["A", "B", "C"], prefs, SIX) == {"A": RB, "B": BLW, "C": YG}
    # the first preference decides even when the first mentioned player has none
    prefs = {"B": ("green", "blue"), "C": ("red", "black")}
    assert assign_colours(["A", "B", "C"], prefs, SIX) == {"A": WR, "B": GBL, "C": BY}


def test_kept_preferences() -> None:
    wanted = {"A": RB, "B": RB, "C": YG, "D": None}
    assert kept_preferences(["A", "B", "C"], wanted, side_by_side_pairs(SIX)) == {"A", "C"}


def _valid_assignments(units, count):  # type: ignore[no-untyped-def]
    """Every way to give ``count`` players disjoint units, by brute force."""
    if count == 0:
        yield ()
        return
    for rest in _valid_assignments(units, count - 1):
        used = {c for unit in rest for c in unit}
        for unit in units:
            if used.isdisjoint(unit):
                yield (*rest, unit)


@settings(max_examples=300, deadline=None)
@given(seatings())
def test_nobody_who_could_keep_their_pair_is_moved(
    seating: tuple[tuple[str, ...], str, list[int], dict[int, object]],
) -> None:
    board, layout, players, prefs = seating
    result = assign_colours(players, prefs, board, layout=layout)  # type: ignore[arg-type]
    units = allied_units(board, layout)
    wanted = {p: None if prefs[p] is None else normalise(prefs[p], board, layout) for p in players}  # type: ignore[arg-type]
    kept = [p for p in players if wanted[p] is not None and result[p] == wanted[p]]
    every = list(_valid_assignments(units, len(players)))
    for index, player in enumerate(players):
        if wanted[player] is None or player in kept:
            continue
        earlier_kept = [p for p in kept if players.index(p) < index]
        # no seating of everybody lets the earlier keepers and this player all keep
        assert not any(
            all(seat[players.index(p)] == wanted[p] for p in [*earlier_kept, player])
            for seat in every
        ), (player, result)
    # without any real clash, everybody with a preference keeps it
    wishes = [p for p in players if wanted[p] is not None]
    if any(all(seat[players.index(p)] == wanted[p] for p in wishes) for seat in every):
        assert set(kept) == set(wishes)
