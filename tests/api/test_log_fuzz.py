"""Fuzzed game logs through the upload endpoint: random JSON, mutated and truncated logs,
wrong types, huge and deeply nested documents, bytes that are not UTF-8. Every one is
answered 4xx with a clear message in the error format — never 500 — and stores nothing
(no game log, no result; the fixture stays as it was)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import GameLog
from games.services import MAX_LOG_BYTES
from tests.api.conftest import error_of
from tests.builders import example, example_bytes
from tournaments.models import Fixture, Result

FUZZ = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=25,
)
LOG_KEYS = ["format", "board", "rules", "colours", "players", "unused", "first", "events", "meta"]
EVENT_KEYS = ["colour", "die", "move", "huff", "pawn_colour", "t"]


@st.composite
def mutated_logs(draw) -> dict[str, Any]:
    """The valid example with a few keys replaced, removed or added — often by values of the
    wrong type — and its events cut short or changed."""
    log = example()
    for _ in range(draw(st.integers(1, 4))):
        action = draw(st.sampled_from(["replace", "delete", "event", "truncate", "add"]))
        key = draw(st.sampled_from(LOG_KEYS))
        if action == "replace":
            log[key] = draw(json_values)
        elif action == "delete":
            log.pop(key, None)
        elif action == "add":
            log[draw(st.text(max_size=8))] = draw(json_values)
        elif action == "truncate" and isinstance(log.get("events"), list):
            log["events"] = log["events"][: draw(st.integers(0, len(log["events"])))]
        elif isinstance(log.get("events"), list) and log["events"]:
            index = draw(st.integers(0, len(log["events"]) - 1))
            event = log["events"][index]
            if isinstance(event, dict):
                event[draw(st.sampled_from(EVENT_KEYS))] = draw(json_values)
            else:
                log["events"][index] = draw(json_values)
    return log


@pytest.fixture
def fuzz_world(world, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"submissions": None},
    }
    return world


def assert_refused(world, response) -> None:
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:500])
    error = error_of(response)
    assert len(error["message"]) >= 10
    assert not GameLog.objects.exists()
    assert not Result.objects.exists()
    assert Fixture.objects.get(pk=world.fixture.pk).status == Fixture.Status.SCHEDULED


def post_body(world, body: bytes):
    return world.client("player").post(
        f"/api/v1/fixtures/{world.fixture.pk}/log/", body, content_type="application/json"
    )


@FUZZ
@given(value=json_values)
def test_random_json(fuzz_world, value):
    assert_refused(fuzz_world, post_body(fuzz_world, json.dumps(value).encode()))


@FUZZ
@given(log=mutated_logs())
def test_mutated_logs(fuzz_world, log):
    response = post_body(fuzz_world, json.dumps(log).encode())
    if response.status_code == 201:  # a mutation that kept the log valid (e.g. new "meta")
        Result.objects.all().delete()
        GameLog.objects.all().delete()
        Fixture.objects.filter(pk=fuzz_world.fixture.pk).update(status="scheduled")
        return
    assert_refused(fuzz_world, response)


@FUZZ
@given(cut=st.integers(min_value=0, max_value=len(example_bytes()) - 2))
def test_truncated_logs(fuzz_world, cut):
    assert_refused(fuzz_world, post_body(fuzz_world, example_bytes()[:cut]))


@FUZZ
@given(junk=st.binary(max_size=300))
def test_bytes_that_are_not_a_log(fuzz_world, junk):
    assert_refused(fuzz_world, post_body(fuzz_world, junk))


@FUZZ
@given(junk=st.binary(max_size=300) | st.builds(lambda v: json.dumps(v).encode(), json_values))
def test_uploaded_files(fuzz_world, junk):
    upload = SimpleUploadedFile("log.json", junk, content_type="application/json")
    response = fuzz_world.client("player").post(
        f"/api/v1/fixtures/{fuzz_world.fixture.pk}/log/", {"file": upload}, format="multipart"
    )
    assert_refused(fuzz_world, response)


@pytest.mark.parametrize("depth", [50, 5_000, 200_000])
def test_deeply_nested_documents(fuzz_world, depth):
    nested = ("[" * depth + "]" * depth).encode()
    assert_refused(fuzz_world, post_body(fuzz_world, nested))
    inside = example()
    inside["meta"] = json.loads("[" * 50 + "]" * 50)
    inside["events"][0]["move"] = json.loads("[" * 50 + "]" * 50)
    assert_refused(fuzz_world, post_body(fuzz_world, json.dumps(inside).encode()))


def test_a_huge_log_is_refused_before_it_is_read(fuzz_world):
    log = example()
    log["meta"] = {"padding": "x" * (MAX_LOG_BYTES + 10)}
    response = post_body(fuzz_world, json.dumps(log).encode())
    assert response.status_code == 413
    assert "2 MB" in error_of(response)["message"]
    upload = SimpleUploadedFile("big.json", b" " * (MAX_LOG_BYTES + 1))
    response = fuzz_world.client("player").post(
        f"/api/v1/fixtures/{fuzz_world.fixture.pk}/log/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 413
    assert_refused(fuzz_world, response)


def test_a_log_with_many_events_is_a_clear_400(fuzz_world):
    log = example()
    log["events"] = [{"colour": "black", "die": 1}] * 70_000  # within 2 MB, far too long
    body = json.dumps(log, separators=(",", ":")).encode()
    assert len(body) <= MAX_LOG_BYTES
    assert_refused(fuzz_world, post_body(fuzz_world, body))


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "maedn-log/1", "rules": "league", "first": "\\u0000", "events": []}',
        '{"format": "maedn-log/1", "rules": "\\u0000", "first": "red", "events": []}',
        '{"format": "maedn-log/1", "rules": "league", "first": "red", '
        '"events": [{"colour": "\\u0000", "die": 1}]}',
        '{"format": "maedn-log/1", "rules": "league", "first": "red", "events": [], '
        '"players": {"\\u0000": ["red"]}}',
        '{"format": "maedn-log/1", "rules": "league", "first": "\\ud800", "events": []}',
        '{"format": "maedn-log/1", "rules": "league", "first": "red", "events": NaN}',
    ],
)
def test_awkward_strings_and_constants(fuzz_world, text):
    assert_refused(fuzz_world, post_body(fuzz_world, text.encode()))


def test_a_key_twice_is_a_clear_400_naming_the_key(fuzz_world):
    """game-log.md: a JSON object with a key twice is malformed (the example's own text
    with a second, empty "players" in front: Python's reader would keep the real one)."""
    text = json.dumps(example())
    assert text.startswith('{"format"')
    body = ('{"players": {}, ' + text[1:]).encode()
    response = post_body(fuzz_world, body)
    assert_refused(fuzz_world, response)
    assert '"players" twice' in error_of(response)["message"]


@pytest.mark.parametrize("t", ["1.7e308", "10000000.5", "-1"])
def test_an_event_time_out_of_bounds_is_a_clear_400(fuzz_world, t):
    log = example()
    log["events"][3]["t"] = 0  # replaced in the text, as a client would send it
    body = json.dumps(log).replace('"t": 0', f'"t": {t}', 1).encode()
    response = post_body(fuzz_world, body)
    assert_refused(fuzz_world, response)
    message = error_of(response)["message"]
    assert "(event 4)" in message and "10,000,000" in message, message
