"""RuleSet, presets, options, explain; boards, coordinates, allied colours, count points."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine import (
    BOARDS,
    OPTIONS,
    PRESETS,
    RulesError,
    RuleSet,
    count_points,
    explain,
    get_board,
    rearguard,
    track_field,
    vanguard,
)

# --- rules ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "values"),
    [
        ("league", ("yard", True, True, True, False, "first-colour")),
        ("league-2t+", ("yard", True, True, True, False, "both-colours")),
        ("league-3t+", ("yard", True, True, True, False, "both-colours")),
        ("league-gp", ("yard", True, True, True, False, "all-places")),
        ("classic", ("one-out", True, True, False, True, "all-places")),
        ("online", ("yard", False, False, True, True, "first-colour")),
    ],
)
def test_presets_match_rules_md(preset: str, values: tuple) -> None:
    r = PRESETS[preset]
    got = (r.setup, r.compulsory_entry, r.clear_start, r.three_tries, r.jump_in_goal, r.end)
    assert got == values
    assert (r.barriers, r.compulsory_capture, r.capture_backwards, r.neutral) == (
        False,
        False,
        False,
        None,
    )
    assert RuleSet.from_spec(preset) == r
    assert r.to_spec() == preset


def test_from_spec_with_overrides() -> None:
    r = RuleSet.from_spec({"preset": "classic", "barriers": True, "compulsory_capture": "huff"})
    assert r.preset == "classic" and r.barriers and r.huff
    assert r.overrides() == {"barriers": True, "compulsory_capture": "huff"}
    assert RuleSet.from_spec(r.to_spec()) == r
    assert RuleSet.from_spec({"preset": "league", "neutral": "green"}).neutral == "green"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("chess", "unknown rules preset"),
        ({"preset": "nope"}, "unknown rules preset"),
        ({"barriers": True}, "preset"),
        ({"preset": "league", "bonus_roll": True}, "unknown rules option"),
        ({"preset": "league", "barriers": 1}, "barriers must be"),
        ({"preset": "league", "barriers": "yes"}, "barriers must be"),
        ({"preset": "league", "compulsory_capture": "penalty"}, "compulsory_capture"),
        ({"preset": "league", "setup": "two-out"}, "setup"),
        ({"preset": "league", "end": "never"}, "end"),
        ({"preset": "league", "neutral": 3}, "neutral"),
        ({"preset": 4}, "preset"),
        (42, "preset name"),
        (None, "preset name"),
    ],
)
def test_from_spec_rejects(spec: object, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        RuleSet.from_spec(spec)
    assert issubclass(RulesError, ValueError)


def test_ruleset_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        PRESETS["league"].barriers = True  # type: ignore[misc]


def test_options_describe_every_ruleset_field() -> None:
    fields = {f.name for f in dataclasses.fields(RuleSet)} - {"preset"}
    assert set(OPTIONS) == fields
    for name, option in OPTIONS.items():
        assert option.description
        if option.values is not None:
            for value in option.values:
                option.check(value)
            assert getattr(PRESETS["league"], name) in option.values
    with pytest.raises(RulesError):
        OPTIONS["three_tries"].check(0)
    OPTIONS["neutral"].check(None)
    OPTIONS["neutral"].check("green")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_explain_mentions_each_option(preset: str) -> None:
    lines = explain(preset)
    assert lines[0].startswith(f"Preset {preset}")
    assert all(line.endswith(".") for line in lines)
    assert len(lines) >= 10


def test_explain_variants() -> None:
    text = " ".join(
        explain(
            {
                "preset": "classic",
                "barriers": True,
                "compulsory_capture": "huff",
                "capture_backwards": True,
                "neutral": "green",
            }
        )
    )
    assert "barrier" in text and "huffed" in text and "backwards" in text and "neutral" in text
    assert "Changed from the preset" in text


# --- boards ---------------------------------------------------------------------


def test_boards() -> None:
    b4, b6 = BOARDS[4], BOARDS[6]
    assert (b4.track_length, b4.colours) == (40, ("red", "black", "yellow", "green"))
    assert [b4.start_field(s) for s in range(4)] == [0, 10, 20, 30]
    assert b6.track_length == 48
    assert [b6.start_field(s) for s in range(6)] == [0, 8, 16, 24, 32, 40]
    assert b6.colours[-2:] == ("blue", "white")
    assert get_board(6) is b6
    with pytest.raises(ValueError):
        get_board(5)
    with pytest.raises(ValueError):
        get_board(True)  # type: ignore[arg-type]


def test_relative_and_absolute_coordinates() -> None:
    b = BOARDS[4]
    assert b.absolute(3, 15) == 5  # green's 15 is past red's start
    assert b.relative(3, 5) == 15
    for seat in range(4):
        for p in range(40):
            assert b.relative(seat, b.absolute(seat, p)) == p
    with pytest.raises(ValueError):
        b.absolute(0, 40)
    assert track_field(4, 1, 0) == 10
    assert track_field(6, 5, 10) == 2
    assert track_field(4, 2, "B") is None
    assert track_field(4, 2, 41) is None


@pytest.mark.parametrize(
    ("pair", "rear", "van"),
    [
        (("green", "red"), "green", "red"),
        (("red", "green"), "green", "red"),
        (("red", "black"), "red", "black"),
        (("black", "yellow"), "black", "yellow"),
        (("yellow", "green"), "yellow", "green"),
    ],
)
def test_rearguard_board_4(pair: tuple[str, str], rear: str, van: str) -> None:
    colours = BOARDS[4].colours
    assert rearguard(colours, pair) == rear
    assert vanguard(colours, pair) == van


def test_rearguard_board_6_and_errors() -> None:
    colours = BOARDS[6].colours
    assert rearguard(colours, ["white", "red"]) == "white"
    assert rearguard(colours, ["blue", "green"]) == "green"
    with pytest.raises(ValueError, match="side by side"):
        rearguard(BOARDS[4].colours, ["red", "yellow"])  # GP: opposite
    with pytest.raises(ValueError):
        rearguard(BOARDS[4].colours, ["red", "purple"])
    with pytest.raises(ValueError):
        rearguard(BOARDS[4].colours, ["red", "red"])


def test_count_points() -> None:
    assert count_points(["B", "B", "B", "B"]) == 0
    assert count_points([0, "B", "B", "B"]) == 10
    assert count_points([39, 40, 43, 5]) == 49 + 75 + 75 + 15
    assert count_points([47, 48, "B", 0], board=6) == 57 + 75 + 10
    assert count_points({"red": [0, 1, "B", "B"], "black": [40, 41, 42, 43]}) == {
        "red": 21,
        "black": 300,
    }
    with pytest.raises(ValueError):
        count_points([44])
