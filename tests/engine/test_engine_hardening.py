"""Bad values inside otherwise valid logs (game-log.md, "Malformed logs"): event times,
``-1`` as a yard, values that are not JSON, huge and negative numbers, the size limits —
and ``validate`` and ``replay`` always agreeing on the verdict and the offending event."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import MAX_EVENTS, MAX_LOG_BYTES, InvalidLog, replay, simulate_game, validate
from games.engine.rules import PRESETS


def _log(events: list[Any], rules: Any = "league", **over: Any) -> dict[str, Any]:
    return {"format": "maedn-log/1", "rules": rules, "first": "red", "events": events, **over}


def replay_verdict(log: object) -> tuple[bool, int | None]:
    """(valid, offending event) as ``replay`` sees it."""
    try:
        for _ in replay(log):
            pass
    except InvalidLog as exc:
        return False, exc.event
    return True, None


def verdict(log: object) -> tuple[bool, int | None]:
    result = validate(log)
    json.dumps(result, allow_nan=False)  # the answer itself is always plain JSON
    return result["valid"], result.get("event")


def assert_agree(log: object) -> dict[str, Any]:
    assert verdict(log) == replay_verdict(log)
    return validate(log)


# --- event times ------------------------------------------------------------------


def _timed(*times: Any) -> list[dict[str, Any]]:
    events = [{"colour": "red", "die": 1}, {"colour": "red", "die": 2}, {"colour": "red", "die": 3}]
    for ev, t in zip(events, times, strict=False):
        ev["t"] = t
    return events


@pytest.mark.parametrize(
    "times",
    [(0, 0.5, 7), (0, 0, 0), (3, 3.0, 10_000_000), (0.0,), (), (10_000_000.0,), (-0.0, 1)],
)
def test_valid_times(times: tuple[Any, ...]) -> None:
    result = assert_agree(_log(_timed(*times)))
    assert result["valid"], result


BAD_TIMES = [
    ("negative", -5, "from 0 to 10,000,000"),
    ("slightly negative", -0.001, "from 0 to 10,000,000"),
    ("just over the limit", 10_000_000.001, "at most 10,000,000 seconds"),
    ("1.7e308", 1.7e308, "at most 10,000,000 seconds"),
    ("a 300-digit integer", 10**300, "at most 10,000,000 seconds"),
    ("NaN", float("nan"), "NaN"),
    ("infinity", float("inf"), "Infinity"),
    ("minus infinity", float("-inf"), "-Infinity"),
    ("400-digit integer", 10**400, "a huge number"),
    ("true", True, "true"),
    ("a string", "12", '"12"'),
    ("null", None, "null"),
    ("a list", [1], "a list"),
]


@pytest.mark.parametrize(
    ("value", "words"), [b[1:] for b in BAD_TIMES], ids=[b[0] for b in BAD_TIMES]
)
def test_bad_times_are_refused_at_their_event(value: Any, words: str) -> None:
    log = _log(_timed(0, 1, value))
    result = assert_agree(log)
    assert result["valid"] is False and result["event"] == 2, result
    assert '"t"' in result["error"] and words in result["error"], result["error"]
    if not isinstance(value, float) or (value == value and abs(value) != float("inf")):
        text = json.dumps(log)
        assert validate(text)["event"] == 2


def test_times_never_go_back() -> None:
    result = assert_agree(_log(_timed(5, 4.5)))
    assert result["valid"] is False and result["event"] == 1
    assert "earlier" in result["error"] and "5" in result["error"]
    # an event without "t" does not reset the clock
    events = [{"colour": "red", "die": 1, "t": 5}, {"colour": "red", "die": 2}]
    events.append({"colour": "red", "die": 3, "t": 4})
    result = assert_agree(_log(events))
    assert result["event"] == 2 and "earlier" in result["error"]


@pytest.mark.parametrize(
    ("literal", "words"),
    [("NaN", "NaN"), ("Infinity", "infinite"), ("-Infinity", "infinite")],
)
def test_json_literals_that_are_not_json_are_refused_at_their_event(
    literal: str, words: str
) -> None:
    text = json.dumps(_log(_timed(0, 1, 2))).replace('"t": 2', f'"t": {literal}')
    assert literal in text
    result = assert_agree(text)
    assert result["valid"] is False and result["event"] == 2 and words in result["error"]
    # also where validation would ignore the key: an unknown key of an event
    text = json.dumps(_log(_timed(0, 1))).replace('"t": 1', f'"t": 1, "note": {literal}')
    result = assert_agree(text)
    assert result["event"] == 1 and "note" in result["error"]
    # and outside the events: a defect of the log as a whole
    text = json.dumps(_log(_timed(), meta={"x": 1})).replace('"x": 1', f'"x": {literal}')
    result = assert_agree(text)
    assert result["valid"] is False and "event" not in result and "meta.x" in result["error"]


def test_1e999_and_huge_integers_in_json_text() -> None:
    text = json.dumps(_log(_timed(0, 1, 2))).replace('"t": 2', '"t": 1e999')
    result = assert_agree(text)
    assert result["event"] == 2 and "infinite" in result["error"]
    text = json.dumps(_log(_timed(0, 1), meta={"x": 1})).replace('"x": 1', '"x": -1e999')
    assert "event" not in assert_agree(text)
    text = json.dumps(_log(_timed(0, 1, 2))).replace('"t": 2', '"t": ' + "9" * 400)
    result = assert_agree(text)
    assert result["event"] == 2 and '"t"' in result["error"]
    # an integer longer than Python's JSON reader converts: refused where it stands
    long_int = "7" * 5000
    text = json.dumps(_log(_timed(0, 1, 2))).replace('"t": 2', '"t": 2, "note": ' + long_int)
    result = assert_agree(text)
    assert result["event"] == 2 and "4,300 digits" in result["error"] and "note" in result["error"]
    text = json.dumps(_log(_timed(0, 1), meta={"x": 1})).replace('"x": 1', '"x": -' + long_int)
    result = assert_agree(text)
    assert "event" not in result and "4,300 digits" in result["error"]
    # the largest integers a double holds are numbers, but too late for a time
    text = json.dumps(_log(_timed(0, 1, 2))).replace('"t": 2', '"t": ' + "9" * 308)
    result = assert_agree(text)
    assert result["event"] == 2 and "at most 10,000,000" in result["error"]


def test_an_earlier_illegal_event_is_reported_before_a_later_value_that_is_not_json() -> None:
    events = [{"colour": "black", "die": 1}, {"colour": "red", "die": 2, "t": 1}]
    text = json.dumps(_log(events)).replace('"t": 1', '"t": NaN')
    result = assert_agree(text)
    assert result["event"] == 0 and "turn" in result["error"]


# --- -1 is not the yard ------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize(("die", "move"), [(3, [-1, 2]), (6, [-1, 0]), (6, [-1, 5])])
def test_minus_one_is_not_the_yard(preset: str, die: int, move: list[int]) -> None:
    first = PRESETS[preset]
    events = [{"colour": "red", "die": die, "move": move}]
    log = _log(events, rules=preset)
    if first.setup == "one-out":
        log["events"] = [{"colour": "red", "die": 6, "move": [0, 6]}, *events]
    result = assert_agree(log)
    assert result["valid"] is False, (preset, result)
    assert result["event"] == len(log["events"]) - 1
    assert "-1" in result["error"] and "position" in result["error"], result["error"]


# --- limits ---------------------------------------------------------------------------


def _no_six(count: int) -> list[dict[str, Any]]:
    """A legal league game in which nobody ever rolls a 6: every colour is stuck and rolls
    three times, clockwise, for ``count`` events."""
    colours = ("red", "black", "yellow", "green")
    return [{"colour": colours[(i // 3) % 4], "die": 1 + i % 5} for i in range(count)]


def test_a_long_legal_league_game_validates() -> None:
    log = _log(_no_six(20_408))
    text = json.dumps(log)
    assert len(text.encode()) < MAX_LOG_BYTES
    for form in (log, text, text.encode()):
        result = validate(form)
        assert result["valid"] and result["events"] == 20_408 and not result["complete"]


def test_the_event_limit() -> None:
    assert MAX_EVENTS == 50_000
    assert validate(_log(_no_six(MAX_EVENTS)))["valid"]
    text = json.dumps(_log(_no_six(MAX_EVENTS + 1)), separators=(",", ":"))
    assert len(text) <= MAX_LOG_BYTES  # refused for the count, not the bytes
    result = validate(text)
    assert result == {"valid": False, "error": result["error"]}
    assert "50,000" in result["error"] and "50,001" in result["error"]


def test_the_byte_limit_message_uses_the_constant() -> None:
    big = json.dumps(_log([], meta={"pad": "x" * MAX_LOG_BYTES}))
    error = validate(big)["error"]
    assert f"{MAX_LOG_BYTES:,} bytes" in error and "2 MB" in error


# --- fuzz: bad numbers in every numeric field --------------------------------------------

BAD_NUMBERS = [float("nan"), float("inf"), float("-inf"), -1, -5, -0.5, 10**400, 2.5, True]
FIELDS = ["board", "die", "from", "to", "t", "huff"]


def _base_log(seed: int) -> dict[str, Any]:
    return simulate_game(rules={"preset": "classic", "compulsory_capture": "huff"}, seed=seed)


def _mutate(
    log: dict[str, Any], field: str, k: int, value: Any
) -> tuple[dict[str, Any], int | None]:
    """The log with ``field`` of event ``k`` (or the header) set to ``value``; the index
    that must be blamed (``None`` for the whole log)."""
    log = copy.deepcopy(log)
    if field == "board":
        log["board"] = value
        return log, None
    ev = log["events"][k]
    if field in ("from", "to"):
        move = ev.get("move") or ["B", 0]
        move = list(move)
        move[0 if field == "from" else 1] = value
        ev["move"] = move
    else:
        ev[field] = value
    return log, k


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 30),
    field=st.sampled_from(FIELDS),
    where=st.floats(0, 1, exclude_max=True),
    value=st.sampled_from(BAD_NUMBERS),
    as_text=st.booleans(),
)
def test_bad_numbers_in_every_field_give_a_clear_invalid_result(
    seed: int, field: str, where: float, value: Any, as_text: bool
) -> None:
    base = _base_log(seed)
    k = int(where * len(base["events"]))
    log, blamed = _mutate(base, field, k, value)
    if field == "t" and value == 2.5:
        log["events"][k]["t"] = -2.5  # 2.5 is a fine time
    data: object = json.dumps(log) if as_text else log
    result = validate(data)
    assert result["valid"] is False, (field, value, result)
    assert result.get("event") == blamed, (field, value, result)
    assert result["error"] and len(result["error"]) < 2_000
    assert verdict(data) == replay_verdict(data)


# --- validate and replay agree ----------------------------------------------------------

ODD_VALUES = st.sampled_from(
    [-1, -2, 0, 1, 6, 7, 43, 44, "B", "b", None, True, 2.0, float("nan"), 10**400, [], {}]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(
        [
            "league",
            "classic",
            "online",
            {"preset": "classic", "barriers": True},
            {"preset": "classic", "compulsory_capture": "huff"},
        ]
    ),
    seed=st.integers(0, 10**6),
    where=st.floats(0, 1, exclude_max=True),
    key=st.sampled_from(["die", "from", "to", "t", "huff", "colour", "pawn_colour", "move"]),
    value=ODD_VALUES,
)
def test_validate_and_replay_agree_on_mutated_logs(
    rules: Any, seed: int, where: float, key: str, value: Any
) -> None:
    log = simulate_game(rules=rules, seed=seed)
    k = int(where * len(log["events"]))
    ev = log["events"][k]
    if key in ("from", "to"):
        move = list(ev.get("move") or ["B", 0])
        move[0 if key == "from" else 1] = value
        ev["move"] = move
    else:
        ev[key] = value
    assert verdict(log) == replay_verdict(log)
    text = json.dumps(log)
    assert verdict(text) == replay_verdict(text)
