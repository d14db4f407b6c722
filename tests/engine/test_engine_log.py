"""Reading logs: whole-log defects (no index) vs event-level defects (with index), guards,
colour renames, unused colours, replay and the final outcome."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import (
    MAX_EVENTS,
    MAX_LOG_BYTES,
    InvalidLog,
    final_game,
    outcome,
    replay,
    simulate_game,
    validate,
)


def log(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "format": "maedn-log/1",
        "board": 4,
        "rules": "league",
        "first": "red",
        "events": [{"colour": "red", "die": 1}, {"colour": "red", "die": 2}],
    }
    base.update(over)
    return {k: v for k, v in base.items() if v is not DROP}


DROP = object()


def with_event(event: Any, **over: Any) -> dict[str, Any]:
    lg = log(**over)
    lg["events"] = [*lg["events"], event]
    return lg


WHOLE_LOG_DEFECTS = [
    ("not an object", [], "JSON object"),
    ("a string that is not JSON", "{nope", "not valid JSON"),
    ("bytes that are not UTF-8", b'{"format": "\xc3\x28"}', "not UTF-8"),
    ("UTF-16 with a byte-order mark", b"\xff\xfe{\x00}\x00", "UTF-16"),
    ("UTF-16 big-endian with a byte-order mark", b"\xfe\xff\x00{\x00}", "UTF-16"),
    ("UTF-16 without a byte-order mark", json.dumps(log()).encode("utf-16-le"), "UTF-16"),
    ("NaN in the header", '{"format": "maedn-log/1", "board": NaN}', "NaN"),
    ("Infinity in meta", json.dumps(log(meta={"x": float("inf")})), "not valid JSON"),
    ("JSON null", "null", "JSON object"),
    ("no format", log(format=DROP), "format"),
    ("wrong format", log(format="maedn-log/2"), "format"),
    ("no rules", log(rules=DROP), "rules"),
    ("no first", log(first=DROP), "first"),
    ("no events", log(events=DROP), "events"),
    ("events not a list", log(events={"0": {}}), "events must be a list"),
    ("rules without preset", log(rules={"barriers": True}), "preset"),
    ("unknown preset", log(rules="chess"), "unknown rules preset"),
    ("unknown option", log(rules={"preset": "league", "bonus_roll": True}), "bonus_roll"),
    ("bad option value", log(rules={"preset": "league", "barriers": "yes"}), "barriers"),
    ("rules not a string or object", log(rules=4), "rules"),
    ("board 5", log(board=5), "board"),
    ("board as a string", log(board="4"), "board"),
    ("board true", log(board=True), "board"),
    ("too few colour names", log(colours=["red", "black"]), "colours"),
    ("duplicate colour names", log(colours=["a", "a", "b", "c"]), "differ"),
    ("non-string colour name", log(colours=["a", 1, "b", "c"]), "colour name"),
    ("first unknown", log(first="purple"), "purple"),
    ("first not a string", log(first=0), "first"),
    ("first unused", log(unused=["red"]), "unused"),
    ("first neutral", log(rules={"preset": "classic", "neutral": "red"}), "neutral"),
    ("neutral unknown", log(rules={"preset": "classic", "neutral": "pink"}), "pink"),
    (
        "player holds the neutral colour",
        log(rules={"preset": "classic", "neutral": "green"}, players={"al": ["green"]}),
        "neutral",
    ),
    ("player holds an unknown colour", log(players={"al": ["red", "pink"]}), "pink"),
    ("player holds an unused colour", log(players={"al": ["black"]}, unused=["black"]), "unused"),
    ("colour held twice", log(players={"al": ["red"], "bo": ["red"]}), "both"),
    ("colour listed twice by a player", log(players={"al": ["red", "red"]}), "red twice"),
    ("empty player name", log(players={"": ["red"]}), "non-empty"),
    ("colour listed twice in unused", log(unused=["black", "black"]), "black twice"),
    ("player holds no list", log(players={"al": "red"}), "list"),
    ("players not an object", log(players=["red"]), "players"),
    ("player named like a colour", log(players={"black": ["red"]}), "clashes"),
    ("unused not a list", log(unused="black"), "unused"),
    ("unused unknown colour", log(unused=["pink"]), "pink"),
    ("one colour in play", log(unused=["black", "yellow", "green"]), "at least two"),
    (
        "neutral and unused leave one colour",
        log(rules={"preset": "classic", "neutral": "green"}, unused=["black", "yellow"]),
        "at least two",
    ),
    ("unused under the online rules", log(rules="online", unused=["black"]), "online"),
    (
        "unused under overridden online rules",
        log(rules={"preset": "online", "barriers": True}, unused=["black"]),
        "online",
    ),
    ("too many events", log(events=[{"colour": "red", "die": 1}] * (MAX_EVENTS + 1)), "50,000"),
]


@pytest.mark.parametrize(
    ("data", "words"),
    [c[1:] for c in WHOLE_LOG_DEFECTS],
    ids=[c[0] for c in WHOLE_LOG_DEFECTS],
)
def test_whole_log_defects_have_no_index(data: Any, words: str) -> None:
    result = validate(data)
    assert result["valid"] is False
    assert "event" not in result
    assert words in result["error"]


def test_too_large() -> None:
    big = json.dumps(log(meta={"pad": "x" * MAX_LOG_BYTES}))
    result = validate(big)
    assert result == {"valid": False, "error": result["error"]}
    assert "2 MB" in result["error"]
    assert validate(big.encode())["error"] == result["error"]


def test_byte_order_mark_is_tolerated() -> None:
    text = json.dumps(log())
    assert validate("\ufeff" + text)["valid"]
    assert validate(b"\xef\xbb\xbf" + text.encode())["valid"]


def test_deeply_nested_json() -> None:
    result = validate("[" * 100_000 + "]" * 100_000)
    assert result["valid"] is False and "event" not in result


EVENT_DEFECTS = [
    ("event not an object", 5, "object"),
    ("event is a list", ["red", 1], "object"),
    ("unknown colour", {"colour": "purple", "die": 3}, "unknown colour"),
    ("no colour", {"die": 3}, "colour"),
    ("colour not a string", {"colour": ["red"], "die": 3}, "unknown colour"),
    ("die as a string", {"colour": "red", "die": "3"}, "die"),
    ("die as a float", {"colour": "red", "die": 3.0}, "die"),
    ("die true", {"colour": "red", "die": True}, "die"),
    ("die null", {"colour": "red", "die": None}, "die"),
    ("no die", {"colour": "red"}, "die"),
    ("die 0", {"colour": "red", "die": 0}, "1 to 6"),
    ("die 7", {"colour": "red", "die": 7}, "1 to 6"),
    ("die huge", {"colour": "red", "die": 10**100}, "1 to 6"),
    ("move of one position", {"colour": "red", "die": 6, "move": ["B"]}, "[FROM, TO]"),
    ("move as a string", {"colour": "red", "die": 6, "move": "B→0"}, "[FROM, TO]"),
    ("move as an object", {"colour": "red", "die": 6, "move": {"from": "B"}}, "[FROM, TO]"),
    ("move to the yard", {"colour": "red", "die": 6, "move": [0, "B"]}, "yard"),
    ("move with a bool", {"colour": "red", "die": 6, "move": [True, 1]}, "position"),
    ("move off the board", {"colour": "red", "die": 6, "move": ["B", 44]}, "position"),
    ("move to a negative field", {"colour": "red", "die": 6, "move": ["B", -1]}, "position"),
    ("move on a roll without one", {"colour": "red", "die": 3, "move": ["B", 3]}, "no legal"),
    (
        "pawn_colour of an opponent",
        {"colour": "red", "die": 6, "move": ["B", 0], "pawn_colour": "black"},
        "own pawns",
    ),
    (
        "unknown pawn_colour",
        {"colour": "red", "die": 6, "move": ["B", 0], "pawn_colour": "pink"},
        "pawn_colour",
    ),
    ("huff without huffing", {"colour": "red", "die": 6, "move": ["B", 0], "huff": 0}, "huff"),
    ("wrong colour", {"colour": "black", "die": 3}, "red"),
    ("no move on a 6", {"colour": "red", "die": 6}, "made no move"),
]


@pytest.mark.parametrize(
    ("event", "words"), [c[1:] for c in EVENT_DEFECTS], ids=[c[0] for c in EVENT_DEFECTS]
)
def test_event_defects_name_the_event(event: Any, words: str) -> None:
    result = validate(with_event(event))
    assert result["valid"] is False
    assert result["event"] == 2, result
    assert words in result["error"]


def test_huff_badly_shaped_under_huff_rules() -> None:
    rules = {"preset": "classic", "compulsory_capture": "huff"}
    ev = {"colour": "red", "die": 3, "move": [0, 3], "huff": [1]}
    result = validate(log(rules=rules, events=[ev]))
    assert result["event"] == 0 and "huff" in result["error"]


def test_accepted_extras() -> None:
    events = [
        {"colour": "red", "die": 1, "t": 0.5, "move": None, "note": "x"},
        {"colour": "red", "die": 2, "huff": None, "t": 3},
        {"colour": "red", "die": 6, "move": ["B", 0], "pawn_colour": None, "comment": {}},
        {"colour": "red", "die": 3, "move": [0, 3], "pawn_colour": "red"},
    ]
    result = validate(log(events=events, meta={"tournament": [1, 2]}, extra=5))
    assert result["valid"] is True and result["events"] == 4 and result["complete"] is False
    assert "winner" not in result


def test_result_shape_for_an_incomplete_game() -> None:
    result = validate(log(unused=["yellow"]))
    assert result == {
        "valid": True,
        "complete": False,
        "events": 2,
        "placings": [],
        "pawns_home": {"red": 0, "black": 0, "yellow": 0, "green": 0},
        "captures": {"red": 0, "black": 0, "yellow": 0, "green": 0},
    }


def test_empty_event_list_is_valid_and_incomplete() -> None:
    result = validate(log(events=[]))
    assert result["valid"] and not result["complete"] and result["events"] == 0


def test_colour_renames() -> None:
    colours = ["rot", "schwarz", "gelb", "grün"]
    events = [{"colour": "rot", "die": 1}, {"colour": "rot", "die": 2}]
    ok = validate(log(colours=colours, first="rot", events=events))
    assert ok["valid"] and set(ok["pawns_home"]) == set(colours)
    bad = validate(log(colours=colours, first="rot", events=[*events, {"colour": "red", "die": 1}]))
    assert bad["event"] == 2 and "unknown colour" in bad["error"]
    assert validate(log(colours=colours, first="red"))["valid"] is False


def test_unused_colours_are_skipped() -> None:
    # classic: one roll each; black is unused, so yellow follows red
    good = log(
        rules="classic",
        unused=["black"],
        events=[
            {"colour": "red", "die": 1, "move": [0, 1]},
            {"colour": "yellow", "die": 2, "move": [0, 2]},
        ],
    )
    result = validate(good)
    assert result["valid"] and result["pawns_home"]["black"] == 0
    assert outcome(good).positions["black"] == ()
    bad = log(
        rules="classic",
        unused=["black"],
        events=[{"colour": "red", "die": 1, "move": [0, 1]}, {"colour": "black", "die": 2}],
    )
    result = validate(bad)
    assert result["event"] == 1 and "not used" in result["error"]


def test_messages_escape_control_characters() -> None:
    result = validate(log(first="r\x00ed\ud800"))
    assert "\\u0000" in result["error"] and "\\ud800" in result["error"]
    assert json.dumps(result, ensure_ascii=False).encode("utf-8")


def test_turn_order_defects() -> None:
    # a 6 earns another roll: black may not roll yet
    events = [
        {"colour": "red", "die": 6, "move": ["B", 0]},
        {"colour": "black", "die": 3},
    ]
    result = validate(log(events=events))
    assert result["event"] == 1 and "rolls again" in result["error"]
    # fourth try
    events = [{"colour": "red", "die": d} for d in (1, 2, 3, 4)]
    result = validate(log(events=events))
    assert result["event"] == 3 and "three tries" in result["error"]
    # missing retry
    events = [{"colour": "red", "die": 1}, {"colour": "black", "die": 2}]
    result = validate(log(events=events))
    assert result["event"] == 1 and "tries" in result["error"]


def test_roll_after_the_end() -> None:
    game = simulate_game(rules="league", seed=3)
    assert validate(game)["complete"]
    n = len(game["events"])
    game["events"].append(dict(game["events"][-1]))
    result = validate(game)
    assert result["event"] == n and "over" in result["error"]


def test_clear_start_message() -> None:
    events = [
        {"colour": "red", "die": 6, "move": ["B", 0]},
        {"colour": "red", "die": 6, "move": [0, 6]},
        {"colour": "red", "die": 6, "move": ["B", 0]},
        {"colour": "red", "die": 4, "move": [6, 10]},
    ]
    result = validate(log(events=events))
    assert result["event"] == 3
    assert result["error"] == (
        "red rolled 4 and moved 6→10, but while red has pawns in the yard its pawn on "
        "field A must move off first (allowed: 0→4)"
    )


def test_replay_steps() -> None:
    game = simulate_game(rules={"preset": "classic", "compulsory_capture": "huff"}, seed=11)
    steps = list(replay(game))
    assert [s.index for s in steps] == list(range(len(game["events"])))
    assert steps[-1].over and steps[-1].turn is None
    for step, event in zip(steps, game["events"], strict=True):
        assert step.colour == event["colour"] and step.die == event["die"]
        if "move" in event:
            assert step.move is not None and step.move.as_list() == event["move"]
            assert step.move.huff == event.get("huff")
        else:
            assert step.move is None
        assert json.dumps(step.to_dict())
    assert any(s.move is not None and s.move.captures for s in steps)
    final = outcome(game)
    assert final.positions == steps[-1].positions
    assert final.complete and final.winner == validate(game)["winner"]
    assert final_game(game).is_over()


def test_replay_and_outcome_raise_on_invalid_logs() -> None:
    with pytest.raises(InvalidLog) as info:
        list(replay(log(rules="chess")))
    assert info.value.event is None
    with pytest.raises(InvalidLog) as info:
        outcome(with_event({"colour": "red", "die": 9}))
    assert info.value.event == 2
    assert isinstance(info.value, ValueError)
