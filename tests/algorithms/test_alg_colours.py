"""Allied colours, rearguard/vanguard and colour assignment."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.algorithms.boards import BOARD_4, BOARD_6, default_colours
from tournaments.algorithms.colours import (
    allied_units,
    assign_colours,
    colours_in_play,
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
    assert rearguard(pair) == rear
    assert vanguard(pair) == van
    assert rearguard(pair, BOARD_4) == rear


def test_rearguard_board_6() -> None:
    assert rearguard(("white", "red"), BOARD_6) == "white"
    assert rearguard(("blue", "green"), BOARD_6) == "green"
    assert vanguard(("blue", "green"), BOARD_6) == "blue"


@pytest.mark.parametrize(
    ("pair", "message"),
    [
        (("red", "yellow"), "not a pair of neighbouring colours"),
        (("red", "purple"), "not a colour of this board"),
        (("red",), "not a pair"),
        (("red", "red"), "not a pair"),
    ],
)
def test_rearguard_errors(pair: tuple[str, ...], message: str) -> None:
    with pytest.raises(ColourError, match=message):
        rearguard(pair)


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


def test_owner_and_colours_in_play() -> None:
    assignment = {"A": ("green", "red"), "B": ("black", "yellow")}
    assert owner_of("red", assignment) == "A"
    assert colours_in_play(assignment, BOARD_4) == BOARD_4
    with pytest.raises(ColourError, match="nobody holds"):
        owner_of("blue", assignment)
    with pytest.raises(ColourError, match="held by both"):
        colours_in_play({"A": ("red", "black"), "B": ("black", "yellow")}, BOARD_4)


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
