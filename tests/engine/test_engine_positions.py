"""Hand-built positions for every rule and variant of rules.md §3–§7.

Board 4 coordinates: red starts on absolute field 0, black on 10, yellow on 20,
green on 30. A pawn of black at black-relative ``p`` stands on red-relative
``p + 10`` (mod 40), etc. — the comments give red-relative fields.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import Game, IllegalMove, Move

B = "B"
HOME = [40, 41, 42, 43]


def game(rules: Any = "league", turn: str = "red", board: int = 4, **colours: list[Any]) -> Game:
    names = ["red", "black", "yellow", "green"] + (["blue", "white"] if board == 6 else [])
    positions = {c: colours.get(c, [B, B, B, B]) for c in names}
    return Game.from_positions(positions, turn=turn, rules=rules, board=board)


def legal(g: Game, die: int) -> set[str]:
    return {str(m) for m in g.legal_moves(die)}


CLASSIC_BARRIERS = {"preset": "classic", "barriers": True}
BACKWARDS = {"preset": "classic", "capture_backwards": True}
NO_CLEAR = {"preset": "league", "clear_start": False}

CASES = [
    # (id, rules, positions, die, legal moves)
    ("entry on a 6", "league", {"red": [B, B, B, B]}, 6, {"B→0"}),
    ("no entry without a 6", "league", {"red": [B, B, B, B]}, 5, set()),
    ("compulsory entry", "league", {"red": [10, B, B, B]}, 6, {"B→0"}),
    ("entry not compulsory online", "online", {"red": [10, B, B, B]}, 6, {"B→0", "10→16"}),
    # own pawn on A: entry impossible, so clear_start makes the A pawn move
    ("own pawn on A: clear start", "league", {"red": [0, 5, B, B]}, 6, {"0→6"}),
    ("own pawn on A: no clear start", NO_CLEAR, {"red": [0, 5, B, B]}, 6, {"0→6", "5→11"}),
    ("online: no clear start", "online", {"red": [0, 5, B, B]}, 3, {"0→3", "5→8"}),
    ("clear start, A pawn blocked", "league", {"red": [0, 6, B, B]}, 6, {"6→12"}),
    (
        "clear start needs a yard pawn",
        "league",
        {"red": [0, 5, 12, 30]},
        2,
        {"0→2", "5→7", "12→14", "30→32"},
    ),
    ("entry captures on A", "league", {"red": [B, B, B, B], "black": [30, B, B, B]}, 6, {"B→0"}),
    (
        "entry: own pawn on A even with barriers",
        CLASSIC_BARRIERS,
        {"red": [0, B, B, B]},
        6,
        {"0→6"},
    ),
    (
        "entry blocked by a barrier on A",
        CLASSIC_BARRIERS,
        {"red": [B, B, B, 5], "black": [30, 30, B, B]},
        6,
        {"5→11"},
    ),
    (
        "forward capture",
        "league",
        {"red": [5, 20, 21, 22], "black": [39, B, B, B]},
        4,
        {"5→9", "20→24", "21→25", "22→26"},
    ),
    ("own pawn on target", "league", {"red": [5, 9, 25, 26]}, 4, {"9→13", "25→29", "26→30"}),
    ("not past the end of the house", "league", {"red": [41, B, B, B]}, 3, set()),
    ("into the last house field", "league", {"red": [41, B, B, B]}, 2, {"41→43"}),
    ("no jump into the house", "league", {"red": [38, 41, B, B]}, 4, set()),
    ("jump into the house online", "online", {"red": [38, 41, B, B]}, 4, {"38→42"}),
    ("house targets", "league", {"red": [38, 41, B, B]}, 2, {"38→40", "41→43"}),
    ("house field taken", "league", {"red": [38, 41, B, B]}, 3, set()),
    ("no jump inside the house", "league", {"red": [40, 42, 10, 11]}, 3, {"10→13", "11→14"}),
    (
        "jump inside the house (classic)",
        "classic",
        {"red": [40, 42, 10, 11]},
        3,
        {"40→43", "10→13", "11→14"},
    ),
    # barriers (classic + barriers)
    (
        "own barrier blocks its builder",
        CLASSIC_BARRIERS,
        {"red": [5, 5, 3, 20]},
        4,
        {"5→9", "20→24"},
    ),
    ("no third pawn on a barrier", CLASSIC_BARRIERS, {"red": [5, 5, 3, 20]}, 2, {"5→7", "20→22"}),
    (
        "barrier pawns move one at a time",
        CLASSIC_BARRIERS,
        {"red": [5, 5, 3, 20]},
        1,
        {"3→4", "5→6", "20→21"},
    ),
    (
        "forming a barrier",
        CLASSIC_BARRIERS,
        {"red": [5, 3, 30, 31]},
        2,
        {"3→5", "5→7", "30→32", "31→33"},
    ),
    (
        "no barrier without the option",
        "classic",
        {"red": [5, 3, 30, 31]},
        2,
        {"5→7", "30→32", "31→33"},
    ),
    (
        "opponent barrier: not landed on",
        CLASSIC_BARRIERS,
        {"red": [5, 30, 31, 32], "black": [38, 38, B, B]},
        3,
        {"30→33", "31→34", "32→35"},
    ),
    (
        "opponent barrier: not passed",
        CLASSIC_BARRIERS,
        {"red": [5, 30, 31, 32], "black": [38, 38, B, B]},
        4,
        {"30→34", "31→35", "32→36"},
    ),
    (
        "barrier blocks the way into the house",
        CLASSIC_BARRIERS,
        {"red": [37, 20, 21, 22], "yellow": [19, 19, B, B]},
        4,
        {"20→24", "21→25", "22→26"},
    ),
    # capture backwards
    (
        "backward capture",
        BACKWARDS,
        {"red": [5, 41, 42, 43], "black": [33, B, B, B]},
        2,
        {"5→7", "5→3"},
    ),
    (
        "backward: never onto A",
        BACKWARDS,
        {"red": [3, 41, 42, 43], "black": [30, B, B, B]},
        3,
        {"3→6"},
    ),
    (
        "backward: never over A",
        BACKWARDS,
        {"red": [2, 41, 42, 43], "black": [29, B, B, B]},
        3,
        {"2→5"},
    ),
    ("backward: only to capture", BACKWARDS, {"red": [5, 41, 42, 43]}, 2, {"5→7"}),
    (
        "backward: only the track",
        BACKWARDS,
        {"red": [43, 41, 10, 42], "black": [29, B, B, B]},
        2,
        {"10→12"},
    ),
    (
        "backward: not past a barrier",
        {**BACKWARDS, "barriers": True},
        {"red": [8, 41, 42, 43], "black": [34, B, B, B], "yellow": [26, 26, B, B]},
        4,
        {"8→12"},
    ),
    (
        "backward: not onto a barrier",
        {**BACKWARDS, "barriers": True},
        {"red": [8, 41, 42, 43], "black": [34, 34, B, B]},
        4,
        {"8→12"},
    ),
    # compulsory capture
    (
        "compulsory capture",
        {"preset": "classic", "compulsory_capture": True},
        {"red": [5, 20, 42, 43], "black": [38, B, B, B]},
        3,
        {"5→8"},
    ),
    (
        "compulsory capture: none possible",
        {"preset": "classic", "compulsory_capture": True},
        {"red": [5, 20, 42, 43], "black": [39, B, B, B]},
        3,
        {"5→8", "20→23"},
    ),
    (
        "entry beats compulsory capture",
        {"preset": "classic", "compulsory_capture": True},
        {"red": [5, B, 40, 41], "black": [39, B, B, B]},
        6,
        {"B→0"},
    ),
]


@pytest.mark.parametrize(
    ("rules", "positions", "die", "expected"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_legal_moves(rules: Any, positions: dict, die: int, expected: set[str]) -> None:
    assert legal(game(rules, **positions), die) == expected


def test_captures_are_reported_on_the_move() -> None:
    g = game("league", red=[B, B, B, B], black=[30, B, B, B])
    (entry,) = g.legal_moves(6)
    assert entry.captures == "black" and entry.is_entry
    g.push(6, entry)
    assert g.positions()["black"] == (B, B, B, B)
    assert g.captures()["red"] == 1

    g = game(BACKWARDS, red=[5, 40, 41, 42], black=[33, B, B, B])
    back = next(m for m in g.legal_moves(2) if m.is_backward)
    assert back.captures == "black" and str(back) == "5→3"


def test_board_6() -> None:
    # blue (seat 4) starts on absolute 32; red's A (absolute 0) is blue-relative 16
    g = game("league", board=6, red=[B, B, B, B], blue=[16, B, B, B])
    (entry,) = g.legal_moves(6)
    assert entry.captures == "blue"
    g = game("online", board=6, red=[46, 48, 49, 50])
    assert legal(g, 5) == {"46→51"}
    assert legal(g, 3) == {"48→51"}  # 46 → 49: own pawn there
    assert legal(g, 6) == set()
    assert g.board.track_length == 48


# --- three tries -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "red", "tries"),
    [
        ("league", [B, B, B, B], 3),
        ("league", [42, 43, B, B], 3),  # packed at the end of the house: stuck
        ("league", [41, 42, 43, B], 3),
        ("league", [41, 43, B, B], 1),  # 41 can still move to 42
        ("league", [40, 41, B, B], 1),
        ("online", [40, 42, 43, B], 1),  # 40 can jump or step
        ("league", [40, 42, 43, B], 1),  # 40 → 41 is a move
        ("league", [5, B, B, B], 1),  # a pawn on the track
        ("classic", [B, B, B, B], 1),  # no three tries
    ],
)
def test_stuck_and_tries(rules: str, red: list, tries: int) -> None:
    g = game(rules, red=red)
    assert g.tries_left == tries
    assert g.is_stuck() is (red in ([B] * 4, [42, 43, B, B], [41, 42, 43, B]))


def test_three_tries_sequence() -> None:
    g = game("league", red=[42, 43, B, B], black=[5, B, B, B])
    g.push(2)
    g.push(4)
    assert (g.turn, g.tries_left) == ("red", 1)
    g.push(1)
    assert g.turn == "black"
    with pytest.raises(IllegalMove, match="three tries"):
        g.copy().push_event({"colour": "red", "die": 3})


def test_three_tries_stop_at_a_six_and_roll_again() -> None:
    g = game("league", red=[B, B, B, B], black=[5, B, B, B])
    g.push(3)
    (entry,) = g.legal_moves(6)
    g.push(6, entry)
    # a new roll opportunity; red now has a pawn on the track: one roll
    assert (g.turn, g.tries_left) == ("red", 1)
    g.push(2, g.legal_moves(2)[0])
    assert g.turn == "black"


def test_six_without_a_move_still_rolls_again() -> None:
    g = game(CLASSIC_BARRIERS, red=[B, B, B, 41], black=[30, 30, 4, 5])
    assert g.legal_moves(6) == []
    g.push(6)
    assert g.turn == "red"


# --- huffing -----------------------------------------------------------------------

HUFF = {"preset": "classic", "compulsory_capture": "huff"}


def test_huff_required_and_applied() -> None:
    # red on 5 could capture black on 8 with a 3, but moves 20 → 23
    g = game(HUFF, red=[5, 20, 42, 43], black=[38, B, B, B])
    non_capture = next(m for m in g.legal_moves(3) if str(m) == "20→23")
    assert g.huff_options(3, non_capture) == [5]
    with pytest.raises(IllegalMove, match="huff is missing"):
        g.copy().push(3, non_capture)
    with pytest.raises(IllegalMove, match="could have captured"):
        g.copy().push(3, non_capture, huff=23)
    played = g.push(3, non_capture, huff=5)
    assert played is not None and played.huff == 5
    assert g.positions()["red"] == (43, 42, 23, B)


def test_huff_where_no_capture_was_skipped() -> None:
    g = game(HUFF, red=[5, 20, 42, 43], black=[38, B, B, B])
    capture = next(m for m in g.legal_moves(3) if m.captures)
    assert g.huff_options(3, capture) == []
    with pytest.raises(IllegalMove, match="nobody is huffed"):
        g.copy().push(3, capture, huff=20)
    g2 = game(HUFF, red=[5, 20, 42, 43], black=[39, B, B, B])
    with pytest.raises(IllegalMove, match="nobody is huffed"):
        g2.push(3, g2.legal_moves(3)[0], huff=5)


def test_huff_of_the_moved_pawn() -> None:
    rules = {**HUFF, "capture_backwards": True}
    g = game(rules, red=[10, 41, 42, 43], black=[37, B, B, B])  # black on red 7
    forward = next(m for m in g.legal_moves(3) if str(m) == "10→13")
    assert g.huff_options(3, forward) == [13]
    g.push(3, forward, huff=13)
    assert g.positions()["red"] == (43, 42, 41, B)


def test_huff_naming_the_yard_changes_nothing() -> None:
    # online: no compulsory entry; red could enter capturing black on red's A
    rules = {"preset": "online", "compulsory_capture": "huff"}
    g = game(rules, red=[B, B, B, 12], black=[30, B, B, B])
    move = next(m for m in g.legal_moves(6) if str(m) == "12→18")
    assert g.huff_options(6, move) == [B]
    g.push(6, move, huff=B)
    assert g.positions()["red"] == (18, B, B, B)


def test_huff_under_rules_without_huffing() -> None:
    g = game("classic", red=[5, 20, 42, 43], black=[38, B, B, B])
    with pytest.raises(IllegalMove, match="no huffing"):
        g.push_event({"colour": "red", "die": 3, "move": [20, 23], "huff": 5})
    g.push_event({"colour": "red", "die": 3, "move": [20, 23], "huff": None})


# --- neutral colour ------------------------------------------------------------------

NEUTRAL = {"preset": "classic", "neutral": "green"}


def test_neutral_pawns_can_be_moved() -> None:
    g = game(NEUTRAL, red=[5, B, B, B], green=[10, B, B, B])
    assert legal(g, 2) == {"5→7", "green 10→12"}
    move = next(m for m in g.legal_moves(2) if m.is_neutral)
    assert move.pawn_colour == "green" and move.colour == "red"
    assert move.event(2) == {"colour": "red", "die": 2, "move": [10, 12], "pawn_colour": "green"}


def test_neutral_entry_is_not_compulsory_and_clear_start_is_own_only() -> None:
    assert legal(game(NEUTRAL, red=[5, B, B, B]), 6) == {"B→0"}
    assert legal(game(NEUTRAL, red=[5, 10, 15, 20]), 6) == {
        "5→11",
        "10→16",
        "15→21",
        "20→26",
        "green B→0",
    }
    # green's pawn on its own A does not have to clear it for red
    assert legal(game(NEUTRAL, red=[7, B, B, B], green=[0, B, B, B]), 3) == {"7→10", "green 0→3"}
    assert legal(game(NEUTRAL, red=[0, B, B, B], green=[0, B, B, B]), 3) == {"0→3"}


def test_neutral_pawn_captures_the_roller() -> None:
    # red on 32 = green-relative 2; green on its A can capture it
    g = game(NEUTRAL, red=[32, B, B, B], green=[0, B, B, B])
    move = next(m for m in g.legal_moves(2) if m.is_neutral)
    assert move.captures == "red"
    g.push(2, move)
    assert g.positions()["red"] == (B, B, B, B)
    assert g.captures()["red"] == 1  # credited to the colour on turn


def test_neutral_capture_forces_a_capture() -> None:
    rules = {**NEUTRAL, "compulsory_capture": True}
    g = game(rules, red=[5, 41, 42, 43], green=[0, B, B, B], black=[22, B, B, B])
    assert legal(g, 2) == {"green 0→2"}


def test_neutral_capture_is_not_huffed() -> None:
    rules = {**NEUTRAL, "compulsory_capture": "huff"}
    g = game(rules, red=[5, 41, 42, 43], green=[0, B, B, B], black=[22, B, B, B])
    own = next(m for m in g.legal_moves(2) if not m.is_neutral)
    assert g.huff_options(2, own) == []
    g.push(2, own)


def test_neutral_finishing_order() -> None:
    # red and yellow are home (red first), green's last pawn is on 38 (green-relative)
    g = game(
        NEUTRAL,
        turn="black",
        red=HOME,
        yellow=HOME,
        green=[40, 41, 42, 38],
        black=[5, 6, 7, 8],
    )
    assert g.placings == [] and g.home_order == [0, 2]
    assert g.turn == "black"
    move = next(m for m in g.legal_moves(5) if m.is_neutral)
    g.push(5, move)
    # the mover is not home; the others finish in the order they got home,
    # and black, the last colour in play, takes the last place
    assert g.placing_colours() == ["red", "yellow", "black"]
    assert g.is_over() and g.winner == "red"


def test_neutral_mover_finishes_first() -> None:
    g = game(NEUTRAL, turn="yellow", red=HOME, yellow=HOME, green=[40, 41, 42, 38])
    g.push(5, g.legal_moves(5)[0])
    assert g.placing_colours() == ["yellow", "red", "black"]
    assert g.winner == "yellow"


def test_home_colour_keeps_rolling_for_neutral_pawns() -> None:
    g = game(NEUTRAL, red=HOME, green=[10, B, B, B], black=[5, B, B, B])
    assert not g.is_over() and g.turn == "red"
    assert legal(g, 3) == {"green 10→13"}
    g.push(3, g.legal_moves(3)[0])
    assert g.turn == "black"


# --- ends ----------------------------------------------------------------------------

TWO_T = {"alice": ["red", "black"], "bob": ["yellow", "green"]}
GP = {"alice": ["red", "yellow"], "bob": ["black", "green"]}


def allied(rules: Any, players: dict, turn: str, placings: list | None = None, **pos: Any):
    names = ["red", "black", "yellow", "green"]
    positions = {c: pos.get(c, [B, B, B, B]) for c in names}
    return Game.from_positions(
        positions, turn=turn, rules=rules, players=players, placings=placings
    )


def test_first_colour_with_allied_colours() -> None:
    g = allied("league", TWO_T, "black", black=[41, 42, 43, 38])
    g.push(2, g.legal_moves(2)[0])
    assert g.is_over() and g.winner == "alice" and g.placing_colours() == ["black"]
    assert g.turn is None and g.legal_moves(3) == []


def test_both_colours() -> None:
    g = allied("league-2t+", TWO_T, "black", black=[41, 42, 43, 38], yellow=[5, B, B, B])
    g.push(2, g.legal_moves(2)[0])
    assert not g.is_over() and g.placing_colours() == ["black"]
    assert g.turn == "yellow"  # black finished; it stops taking turns
    g2 = allied("league-2t+", TWO_T, "red", placings=["black"], red=[41, 42, 43, 34], black=HOME)
    g2.push(6, g2.legal_moves(6)[0])
    assert g2.is_over() and g2.winner == "alice"
    assert g2.placing_colours() == ["black", "red"]


def test_finishing_with_a_six_ends_the_rolling() -> None:
    g = allied("league-2t+", TWO_T, "red", red=[41, 42, 43, 34])
    g.push(6, g.legal_moves(6)[0])
    assert g.placing_colours() == ["red"] and g.turn == "black"


def test_all_places_with_opposite_allies() -> None:
    g = allied(
        "league-gp",
        GP,
        "green",
        placings=["red", "black"],
        red=HOME,
        black=HOME,
        green=[41, 42, 43, 38],
        yellow=[5, 6, 7, 9],
    )
    g.push(2, g.legal_moves(2)[0])
    assert g.placing_colours() == ["red", "black", "green", "yellow"]
    assert g.is_over() and g.winner == "bob"  # bob finished both colours first


def test_allied_colours_capture_each_other() -> None:
    # friendly fire: black (alice's ally of red) on red-relative 8
    g = allied("league", TWO_T, "red", red=[5, 41, 42, 43], black=[38, B, B, B])
    (move,) = g.legal_moves(3)
    assert move.captures == "black"


def test_all_places_single_colours() -> None:
    g = game("classic", turn="black", red=HOME, black=[40, 41, 42, 38], yellow=[5, B, B, B])
    assert g.placing_colours() == ["red"]
    g.push(5, g.legal_moves(5)[0])
    assert g.placing_colours() == ["red", "black"] and not g.is_over()
    assert g.turn == "yellow"


def test_push_and_apply_api() -> None:
    g = Game.new("league", first="green")
    assert g.turn == "green" and g.tries_left == 3
    g2 = g.apply(6, g.legal_moves(6)[0])
    assert g.positions()["green"] == (B, B, B, B)
    assert g2.positions()["green"] == (0, B, B, B)
    with pytest.raises(IllegalMove):
        g.push(7)
    with pytest.raises(IllegalMove, match="made no move"):
        g.copy().push(6)
    bogus = Move("green", "green", 5, 9)
    with pytest.raises(IllegalMove, match="no pawn"):
        g2.copy().push(4, bogus)
