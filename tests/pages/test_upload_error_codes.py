"""Issue 24: the engine's validation errors carry a code and parameters, and an upload's
refusal is shown in the reader's language from them (pages, the API's message with the code
as ``reason``) — no regular expressions over English sentences. The English text is the
engine's own, unchanged."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import simulate_game, validate
from games.engine.codes import TEMPLATES, Coded
from games.error_text import ENGINE_MESSAGES, engine_error_text, localize
from tests.builders import example_text
from tournaments.models import RejectedSubmission
from tournaments.services.errors import CATALOGUE

LOG = "valid-league-2tplus.json"


def test_the_sites_catalogue_is_the_engines():
    assert ENGINE_MESSAGES == TEMPLATES


def test_every_code_has_a_german_wording_with_the_same_parameters():
    for code, template in CATALOGUE.items():
        with translation.override("de"):
            german = translation.gettext(template)
        wordless = not re.search(r"[a-zA-Z]", re.sub(r"%\(\w+\)s", "", template))
        assert german != template or wordless, f"{code} is not translated"
        names = set(re.findall(r"%\((\w+)\)s", template))
        assert set(re.findall(r"%\((\w+)\)s", german)) == names, code


def mutations(log: dict, index: int, kind: str) -> dict:
    """The log with one event broken in one of the ways players break logs."""
    broken = json.loads(json.dumps(log))
    events = broken["events"]
    index %= len(events)
    event = events[index]
    colours = sorted({e["colour"] for e in events})
    if kind == "die":
        event["die"] = 7
    elif kind == "other_die":
        event["die"] = event["die"] % 6 + 1
    elif kind == "colour":
        event["colour"] = colours[(colours.index(event["colour"]) + 1) % len(colours)]
    elif kind == "target" and event.get("move"):
        event["move"] = [event["move"][0], event["move"][1] + 1]
    elif kind == "no_move":
        event.pop("move", None)
        event.pop("pawn_colour", None)
    elif kind == "after_end":
        events.append({"colour": colours[0], "die": 3})
    elif kind == "drop":
        del events[index]
    return broken


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    index=st.integers(0, 10_000),
    kind=st.sampled_from(["die", "other_die", "colour", "target", "no_move", "after_end", "drop"]),
    rules=st.sampled_from(["league", "classic"]),
)
def test_a_broken_events_message_is_coded_and_its_english_unchanged(seed, index, kind, rules):
    log = simulate_game(rules, seed=seed)
    verdict = validate(mutations(log, index, kind))
    if verdict["valid"]:
        return  # some mutations keep a log legal
    error = verdict["error"]
    assert isinstance(error, Coded), f"uncoded: {error}"
    assert error.code in TEMPLATES
    with translation.override("en"):
        assert engine_error_text(error) == str(error)  # the English is the engine's
    data = error.data()
    json.dumps(data)  # storable
    with translation.override("de"):
        german = localize(data["code"], data["params"], fallback="")
    assert german and german != str(error)


@pytest.mark.django_db
def test_a_german_reader_sees_the_refusal_in_german(client, league, erin_user):
    client.force_login(erin_user)
    data = json.loads(example_text(LOG))
    data["events"][3]["die"] = 7
    response = client.post(
        reverse("tournaments:game-submit", args=[league.test_objects["g1"].pk]),
        {"content": json.dumps(data)},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400
    assert "Das Protokoll wurde abgelehnt (Ereignis 4)" in response.text
    assert "aber ein Würfel zeigt eine ganze Zahl von 1 bis 6" in response.text
    rejection = RejectedSubmission.objects.get()
    assert rejection.error.startswith("the log was rejected (event 4): ")  # English kept
    assert rejection.error_code == "log_rejected_at"
    assert rejection.error_params["why"]["code"] == "bad_die"
    game = reverse("tournaments:game", args=[league.test_objects["g1"].pk])
    page = client.get(game, HTTP_ACCEPT_LANGUAGE="de").text
    assert "aber ein Würfel zeigt eine ganze Zahl von 1 bis 6" in page
    assert "a die shows a whole number" not in page
    english = client.get(game, HTTP_ACCEPT_LANGUAGE="en").text
    assert "but a die shows a whole number from 1 to 6" in english


@pytest.mark.django_db
def test_another_games_log_is_refused_in_german_part_by_part(client, league, erin_user):
    client.force_login(erin_user)
    response = client.post(
        reverse("tournaments:game-submit", args=[league.test_objects["g2"].pk]),
        {"content": example_text(LOG)},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 400
    assert "Dieses Protokoll gehört nicht zu dieser Partie" in response.text
    assert "das Protokoll beginnt mit schwarz, aber in dieser Partie beginnt grün" in response.text
    rejection = RejectedSubmission.objects.get()
    assert rejection.error_code == "log_mismatch"
    assert "starting colour is green" in rejection.error


@pytest.mark.django_db
def test_the_replay_page_names_the_broken_event_in_german(client):
    data = json.loads(example_text(LOG))
    data["events"][3]["die"] = 7
    page = client.post("/replay/", {"content": json.dumps(data)}, HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 400
    assert "aber ein Würfel zeigt eine ganze Zahl von 1 bis 6 (Ereignis 4)" in page.text
    english = client.post("/replay/", {"content": json.dumps(data)}).text
    assert "but a die shows a whole number from 1 to 6 (event 4)" in english


def _header_broken(change) -> str | bytes:
    data = json.loads(example_text(LOG))
    result = change(data)
    return result if result is not None else json.dumps(data)


def _t_back(data):
    data["events"][2]["t"], data["events"][3]["t"] = 50, 20


def _t_too_late(data):
    data["events"][1]["t"] = 10**9


RARER = {
    "log_utf16": lambda d: json.dumps(d).encode("utf-16"),
    "log_not_utf8": lambda d: b'{"format": "\xff"}',
    "json_too_deep": lambda d: "[" * 100_000 + "]" * 100_000,
    "duplicate_key": lambda d: '{"format": "maedn-log/1", "format": "x"}',
    "log_not_object": lambda d: "[1, 2]",
    "no_format": lambda d: d.pop("format") and None,
    "unknown_format": lambda d: d.update(format="maedn-log/9"),
    "bad_board": lambda d: d.update(board=5),
    "events_not_list": lambda d: d.update(events={"a": 1}),
    "unused_not_list": lambda d: d.update(unused="red"),
    "first_not_colour": lambda d: d.update(first=3),
    "t_earlier": _t_back,
    "t_too_late": _t_too_late,
}


@pytest.mark.parametrize("code", sorted(RARER))
def test_the_rarer_refusals_are_coded_and_shown_in_german(code):
    """Issue 25: the log's bytes, JSON and header, and a "t" out of order, have codes too:
    the English is what the engine always said, a German reader gets German."""
    verdict = validate(_header_broken(RARER[code]))
    assert not verdict["valid"]
    error = verdict["error"]
    assert isinstance(error, Coded) and error.code == code, error
    data = error.data()
    json.dumps(data)
    with translation.override("en"):
        assert engine_error_text(error) == str(error)
    with translation.override("de"):
        german = localize(data["code"], data["params"], fallback="")
    assert german and german != str(error)
    assert "Protokoll" in german or "Ereignis" in german or "muss" in german, german


@pytest.mark.parametrize(
    ("move", "code", "english", "german"),
    [
        (
            [99, None],
            "bad_start",
            "the start of {c}'s move is 99, which is not a position",
            "der Start des Zugs von {de} ist 99",
        ),
        (
            [None, 99],
            "bad_target",
            "the target of {c}'s move is 99, which is not a position",
            "das Ziel des Zugs von {de} ist 99",
        ),
        (
            "12-16",
            "move_syntax",
            'a move is written [FROM, TO], e.g. [12, 16] or ["B", 0], not "12-16"',
            'nicht "12-16"',
        ),
        (
            [None, "B"],
            "move_to_yard",
            "a move can't end in the yard",
            "ein Zug kann nicht im Haus enden",
        ),
    ],
)
def test_a_move_that_names_no_position_is_coded(move, code, english, german):
    log = simulate_game("league", seed=3)
    k, event = next((k, e) for k, e in enumerate(log["events"]) if e.get("move"))
    if isinstance(move, list):
        move = [
            event["move"][0] if move[0] is None else move[0],
            event["move"][1] if move[1] is None else move[1],
        ]
    log["events"][k] = dict(event, move=move)
    error = validate(log)["error"]
    assert isinstance(error, Coded) and error.code == code
    colour = event["colour"]
    assert english.format(c=colour) in str(error)  # the English is the engine's, as before
    with translation.override("de"):
        de_colour = translation.pgettext("colour", colour)
        assert german.format(de=de_colour) in engine_error_text(error)
