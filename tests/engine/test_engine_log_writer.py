"""The log writer (games.engine.log: LogRecord, write_log, log_dumps) and the reader round-trip:
read(write(game)) gives back the game, write(read(text)) gives back the canonical text."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import read_log, simulate_game, validate
from games.engine.dice import play_with_seed
from games.engine.log import LOG_KEYS, InvalidLog, LogRecord, log_dumps, write_log

EXAMPLES = Path("/work/shared/examples")
OPTIONS = {
    "barriers": [True, False],
    "compulsory_capture": [True, False, "huff"],
    "capture_backwards": [True, False],
    "jump_in_goal": [True, False],
    "three_tries": [True, False],
}
FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A simulated game's log (random preset, options, seating, seed) and a meta (or None)."""
    preset = draw(st.sampled_from(["league", "league-2t+", "league-gp", "classic", "online"]))
    # options on board 6 can run to thousands of rolls with random players: presets only
    board = draw(st.sampled_from([4, 6])) if preset != "classic" else 4
    rules: Any = preset
    if board == 4 and draw(st.booleans()):
        chosen = draw(st.lists(st.sampled_from(sorted(OPTIONS)), unique=True, max_size=3))
        rules = {"preset": preset, **{o: draw(st.sampled_from(OPTIONS[o])) for o in chosen}}
    colours = ["red", "black", "yellow", "green"] if board == 4 else None
    unused: list[str] = []
    players = None
    if board == 4 and preset != "online" and draw(st.booleans()):  # online leaves none unused
        unused = draw(st.lists(st.sampled_from(colours), unique=True, max_size=2))
    elif board == 4 and draw(st.booleans()):
        players = {"alice": ["green", "red"], "bob ✓": ["black", "yellow"]}
    log = simulate_game(
        rules=rules,
        board=board,
        players=players,
        unused=unused,
        bots="random",
        seed=draw(st.integers(0, 2**32 - 1)),
        max_events=3000,
    )
    meta = draw(
        st.none()
        | st.fixed_dictionaries(
            {"generator": st.text(max_size=8), "game": st.integers(-(10**6), 10**6)},
            optional={"names": st.lists(st.text(max_size=5), max_size=3)},
        )
    )
    return log, meta


@FAST
@given(games())
def test_write_then_read_gives_back_the_game(game: tuple[dict[str, Any], dict | None]) -> None:
    log, meta = game
    setup, events = read_log(log)
    written = write_log(setup, events, meta)
    assert list(written) == [k for k in LOG_KEYS if k in written]
    assert ("meta" in written) == (meta is not None)
    # read(write(game)): the same setup, the same events, the same replayed outcome
    again_setup, again_events = read_log(written)
    assert again_setup == setup
    assert again_events == events
    assert LogRecord.read(written).setup() == setup
    assert validate(written) == validate(log)
    assert validate(json.loads(log_dumps(written))) == validate(log)
    # the simulation writes through the writer: its log is this log with its meta
    assert write_log(setup, events, log["meta"]) == log


@FAST
@given(games())
def test_read_then_write_gives_back_the_canonical_text(
    game: tuple[dict[str, Any], dict | None],
) -> None:
    log, meta = game
    for text in (log_dumps(log), log_dumps(replace(LogRecord.read(log), meta=meta))):
        read = LogRecord.read(text)
        assert log_dumps(read) == text
        assert read.dumps() == text
        assert LogRecord.read(read.to_dict()) == read
        # bytes, and text with a byte-order mark, read the same
        assert LogRecord.read(text.encode("utf-8")) == read
        assert LogRecord.read("\ufeff" + text) == read


def test_canonical_text_is_compact_utf8_in_the_writer_s_key_order() -> None:
    log = LogRecord(
        rules={"preset": "classic", "barriers": True},
        first="red",
        events=[{"colour": "red", "die": 6, "move": ["B", 0]}],
        board=4,
        players={"Jürgen": ["red", "yellow"]},
        meta={"note": "grüß dich"},
    )
    text = log.dumps()
    assert text == (
        '{"format":"maedn-log/1","board":4,"rules":{"preset":"classic","barriers":true},'
        '"players":{"Jürgen":["red","yellow"]},"first":"red","meta":{"note":"grüß dich"},'
        '"events":[{"colour":"red","die":6,"move":["B",0]}]}'
    )
    assert LogRecord.read(text) == log


def test_unset_fields_are_not_written_and_read_back_unset() -> None:
    log = LogRecord(rules="league", first="green")
    assert log.to_dict() == {
        "format": "maedn-log/1",
        "rules": "league",
        "first": "green",
        "events": [],
    }
    assert LogRecord.read(log.to_dict()) == log
    assert log.setup().board.size == 4


def test_of_a_setup_writes_the_shortest_rules_and_can_leave_default_colours_out() -> None:
    setup, _ = read_log(
        {
            "format": "maedn-log/1",
            "rules": {"preset": "league", "barriers": False, "jump_in_goal": True},
            "unused": ["black"],
            "first": "red",
            "events": [],
        }
    )
    full = write_log(setup, [])
    assert full["rules"] == {"preset": "league", "jump_in_goal": True}
    assert full["colours"] == ["red", "black", "yellow", "green"]
    assert full["unused"] == ["black"]
    short = write_log(setup, [], colours=False)
    assert "colours" not in short and read_log(short)[0] == setup


def test_a_log_that_cannot_be_written_is_refused_by_the_reader() -> None:
    with pytest.raises(InvalidLog):
        LogRecord(rules="no-such-preset", first="red").setup()
    with pytest.raises(InvalidLog):
        LogRecord.read({"format": "maedn-log/1", "rules": "league", "events": []})
    with pytest.raises(ValueError):  # not JSON: never written
        log_dumps(LogRecord(rules="league", first="red", meta={"x": float("nan")}))


def test_the_dice_demonstration_writes_through_the_writer() -> None:
    log = play_with_seed(b"\x01" * 32, max_events=50)
    read = LogRecord.read(log)
    assert read.to_dict() == log and list(log) == list(read.to_dict())
    assert read.meta is not None and read.meta["generator"] == "games.engine.dice"


def _examples() -> list[Path]:
    return sorted(EXAMPLES.glob("*.json")) if EXAMPLES.is_dir() else []


@pytest.mark.skipif(not _examples(), reason="the shared examples are not on this machine")
@pytest.mark.parametrize("path", _examples(), ids=lambda p: p.name)
def test_shared_examples_round_trip(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        read = LogRecord.read(text)
    except InvalidLog:  # a log invalid as a whole: nothing to write
        assert validate(text)["valid"] is False
        return
    written = read.dumps()
    # the same game (and the same verdict, valid or not at an event) as the example's
    assert validate(written) == validate(text)
    assert read_log(written)[0] == read_log(text)[0]
    assert LogRecord.read(written) == read
    assert LogRecord.read(written).dumps() == written
    assert json.loads(written) == {k: v for k, v in json.loads(text).items() if k in LOG_KEYS}
