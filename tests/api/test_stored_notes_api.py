"""Stored notes through the API (issue 35, "One error rule": stored notes are codes plus
parameters, translated at the edge): a note the platform wrote — a result's reason or
decision note, a game's start reason — is answered in the request's language, with its
code and parameters beside it (``…_code``, ``…_params``); a person's own words come back
as typed, with a null code."""

from __future__ import annotations

import pytest

from core.reasons import DISAGREEMENT, LEFT_BOARD, PLAYED_ONLINE, START_BY_HAND, note
from live import services as live_services
from tests.builders import example_text
from tournaments.algorithms.starting_colour import REARGUARD_FIRST_FINISHER
from tournaments.models import Fixture
from tournaments.services.results import (
    game_log_submit,
    game_log_upload,
    result_dispute,
    result_enter,
)

GONE = note(
    PLAYED_ONLINE,
    gone="; ".join(
        [
            note(LEFT_BOARD, name="carol", colours="green, red", since=5),
            note(LEFT_BOARD, name="erin", colours="black", since=9),
        ]
    ),
)


def read(world, path: str, language: str | None) -> dict:
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    response = world.client("player").get(f"/api/v1/{path}", **headers)
    assert response.status_code == 200, response.content
    return response.json()


def played_online(world):
    """The result live play stores for a league game two players left (live.services.finish)."""
    upload = game_log_upload(
        fixture=world.fixture,
        content=example_text(),
        by=world.users["player"],
        played_online=True,
        reason=GONE,
    )
    return upload.result


def test_a_game_played_online_reads_in_german_with_its_code_and_parameters(world):
    result = played_online(world)
    german = read(world, f"results/{result.pk}/", "de")
    assert german["reason"] == (
        "online gespielt; carol hat das Brett verlassen: der Computer spielte grün, rot ab "
        "Wurf 5; erin hat das Brett verlassen: der Computer spielte schwarz ab Wurf 9"
    )
    assert german["reason_code"] == "played_online"
    assert german["reason_params"] == {
        "gone": [
            {
                "code": "left_board",
                "params": {"name": "carol", "colours": "green, red", "since": "5"},
            },
            {"code": "left_board", "params": {"name": "erin", "colours": "black", "since": "9"}},
        ]
    }
    counted = read(world, f"fixtures/{world.fixture.pk}/", "de")["counted_result"]
    assert counted["reason"] == german["reason"] and counted["reason_code"] == "played_online"
    listed = read(world, f"fixtures/?league={world.league.slug}", "de")["results"]
    assert listed[0]["counted_result"]["reason"].startswith("online gespielt; carol hat")


def test_english_reads_the_note_as_it_was_stored(world):
    result = played_online(world)
    for language in ("en", None):
        english = read(world, f"results/{result.pk}/", language)
        assert english["reason"] == GONE
        assert english["reason_code"] == "played_online"
        assert english["reason_params"]["gone"][1]["params"]["name"] == "erin"
    assert GONE.startswith("played online; carol left the board: the computer played green")


def test_a_no_show_recorded_in_live_play_reads_in_german(world, monkeypatch):
    monkeypatch.setattr("live.services.timers.later", lambda task, args, delay: None)
    organizer = world.users["organizer"]
    room = live_services.fixture_room_create(fixture=world.fixture, by=organizer)
    live_services.seat_take(room=room, by=world.users["player"], colour="black")
    live_services.fixture_no_show(room=room, by=organizer, absent=world.entries["carol"])
    counted = read(world, f"fixtures/{world.fixture.pk}/", "de")["counted_result"]
    assert counted["reason"] == "ist nicht zur Online-Partie gekommen"
    assert (counted["reason_code"], counted["reason_params"]) == ("no_show", {})
    english = read(world, f"fixtures/{world.fixture.pk}/", "en")["counted_result"]
    assert english["reason"] == "did not come to the online game"


def test_a_person_s_words_come_back_as_typed_with_a_null_code(world):
    result_enter(
        fixture=world.fixture,
        by=world.users["organizer"],
        winner=world.entries["erin"],
        reason="paper score sheet",
    )
    for language in ("de", "en"):
        counted = read(world, f"fixtures/{world.fixture.pk}/", language)["counted_result"]
        assert counted["reason"] == "paper score sheet"
        assert counted["reason_code"] is None and counted["reason_params"] is None
        assert counted["decision_note"] == ""
        assert counted["decision_note_code"] is None and counted["decision_note_params"] is None


@pytest.mark.parametrize(
    ("typed", "code", "german"),
    [
        ("I was not there", None, "I was not there"),
        (
            note(DISAGREEMENT, order="carol, erin"),
            "disagreement",
            "ein anderer Spieler am Tisch hat andere Platzierungen eingegeben: carol, erin",
        ),
    ],
)
def test_a_dispute_s_note_reads_in_german_when_the_platform_wrote_it(world, typed, code, german):
    pending = game_log_submit(
        fixture=world.fixture, content=example_text(), by=world.users["player"]
    )
    result_dispute(result=pending, by=world.users["opponent"], reason=typed)
    body = read(world, f"results/{pending.pk}/", "de")
    assert (body["decision_note"], body["decision_note_code"]) == (german, code)
    assert body["decision_note_params"] == ({"order": "carol, erin"} if code else None)


def test_a_game_s_start_reason_reads_in_german_with_its_code(world):
    fixture = world.fixture
    Fixture.objects.filter(pk=fixture.pk).update(
        start_reason=note(START_BY_HAND, reason="Spiel 1 kampflos")
    )
    start = read(world, f"fixtures/{fixture.pk}/", "de")["start"]
    assert start["reason"] == "vom Organisator festgelegt: Spiel 1 kampflos"
    assert (start["reason_code"], start["reason_params"]) == (
        "start_by_hand",
        {"reason": "Spiel 1 kampflos"},
    )
    Fixture.objects.filter(pk=fixture.pk).update(
        start_reason=note(REARGUARD_FIRST_FINISHER, player="erin", game=1)
    )
    start = read(world, f"fixtures/{fixture.pk}/", "de")["start"]
    assert start["reason"] == "hintere Farbe von erin, der in Partie 1 als Erster fertig war"
    assert start["reason_code"] == "start_rearguard_first_finisher"
    assert start["reason_params"] == {"player": "erin", "game": "1"}
    Fixture.objects.filter(pk=fixture.pk).update(start_reason="the coin said so")
    start = read(world, f"fixtures/{fixture.pk}/", "de")["start"]
    assert (start["reason"], start["reason_code"], start["reason_params"]) == (
        "the coin said so",
        None,
        None,
    )


def test_a_withdrawal_without_a_reason_forfeits_with_a_note_in_german(world):
    slug, entry = world.league.slug, world.entries["carol"]
    withdrawn = world.client("organizer").post(
        f"/api/v1/leagues/{slug}/entries/{entry.pk}/withdraw/", {}, format="json"
    )
    assert withdrawn.status_code == 200, withdrawn.content
    counted = read(world, f"fixtures/{world.fixture.pk}/", "de")["counted_result"]
    assert (counted["reason"], counted["reason_code"]) == ("zurückgezogen", "withdrew")
    english = read(world, f"fixtures/{world.fixture.pk}/", "en")["counted_result"]
    assert english["reason"] == "withdrew"


def test_each_note_is_matched_against_the_templates_once_per_answer(world, monkeypatch):
    """The API words a note three times a row (``reason``, ``reason_code``,
    ``reason_params``; with its notes inside for ``played_online``): the text is matched
    against the site's templates once, not once per field."""
    import core.reasons

    result = played_online(world)
    core.reasons._match.cache_clear()
    matched: list[str] = []
    real = core.reasons._patterns

    def counting(notes):
        patterns = real(notes)
        return tuple((template, _Counting(pattern, matched)) for template, pattern in patterns)

    monkeypatch.setattr(core.reasons, "_patterns", counting)
    answer = read(world, f"results/{result.pk}/", "de")
    assert answer["reason_code"] == "played_online"
    # the note itself and the two notes inside it: each matched once
    assert sorted(set(matched)) == sorted(matched)
    assert GONE in matched and len(matched) == 3


class _Counting:
    """A compiled pattern that records the texts it is asked to match (once per text and
    template walk: the first template tried records it)."""

    def __init__(self, pattern, seen: list[str]):
        self.pattern, self.seen = pattern, seen

    def fullmatch(self, text):
        if not self.seen or self.seen[-1] != text:
            self.seen.append(text)
        return self.pattern.fullmatch(text)
