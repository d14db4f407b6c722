"""The notes a service stores on a record (issue 35: stored notes are codes plus
parameters): a note is one of ``core.reasons.NOTES`` filled in, kept as its English text,
and shown in the reader's language; a person's own words stay as typed."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core.reasons import (
    DISAGREEMENT,
    FORFEIT,
    LEFT_BOARD,
    NOTES,
    NUMBER_PARAMS,
    PLAYED_ONLINE,
    START_AT_TABLE,
    START_BY_HAND,
    note,
    note_parts,
    reason_text,
)
from notifications.kinds import dispute_opened
from tests.builders import example_text
from tournaments.algorithms.starting_colour import REARGUARD_FIRST_FINISHER, START_NOTES
from tournaments.models import Fixture
from tournaments.notes import SITE_CODES, SITE_NOTES
from tournaments.services.results import game_log_submit, result_dispute

LOG = "valid-league-2tplus.json"


def german_page(user, fixture) -> str:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = "de"
    response = client.get(reverse("tournaments:game", args=[fixture.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("template", SITE_NOTES)
def test_every_note_has_german(template):
    assert set(NOTES) | set(START_NOTES) == set(SITE_NOTES)
    names = re.findall(r"%\((\w+)\)s", template)
    stored = note(template, **{name: 7 if name in NUMBER_PARAMS else "X" for name in names})
    with translation.override("de"):
        assert reason_text(stored, SITE_NOTES) != stored


@pytest.mark.parametrize("code", SITE_CODES)
def test_every_note_reads_back_as_its_own_code_and_parameters(code):
    """The API's ``…_code`` and ``…_params``: a note whose text may hold another's is tried
    first, so each filled-in template is recognised as itself."""
    assert len(set(SITE_CODES.values())) == len(SITE_CODES)  # one code per template
    template = SITE_CODES[code]
    names = re.findall(r"%\((\w+)\)s", template)
    params = {
        name: str(10 + i) if name in NUMBER_PARAMS else f"{name} {i} (as typed)"
        for i, name in enumerate(names)
    }
    found, found_params = note_parts(note(template, **params), SITE_CODES)
    assert found == code
    nested = {"gone": lambda v: [v], "note": lambda v: v}  # no note inside: kept as typed
    assert found_params == {k: nested.get(k, lambda v: v)(v) for k, v in params.items()}
    assert note_parts("the dice fell off the table", SITE_CODES) == (None, None)


def test_a_person_s_words_stay_as_typed_and_their_words_inside_a_note_too():
    assert reason_text("the dice fell off the table") == "the dice fell off the table"
    stored = note(START_BY_HAND, reason="game 1 was 100% a forfeit")
    assert stored == "set by the organizer: game 1 was 100% a forfeit"
    with translation.override("de"):
        assert reason_text(stored) == "vom Organisator festgelegt: game 1 was 100% a forfeit"
        assert reason_text(FORFEIT) == "kampflos"


def test_a_table_disagreement_is_german_on_the_german_game_page(table):
    pending = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    result_dispute(
        result=pending, by=table["carol"], reason=note(DISAGREEMENT, order="carol, erin")
    )
    page = german_page(table["organizer"], table["fixture"])
    assert "ein anderer Spieler am Tisch hat andere Platzierungen eingegeben: carol, erin" in page
    assert "entered different placings" not in page


def test_a_start_set_by_hand_and_one_rolled_at_the_table_are_german_on_the_game_page(table):
    fixture = table["fixture"]
    Fixture.objects.filter(pk=fixture.pk).update(
        start_reason=note(START_BY_HAND, reason="Spiel 1 kampflos")
    )
    page = german_page(table["organizer"], fixture)
    assert "vom Organisator festgelegt: Spiel 1 kampflos" in page
    assert "set by the organizer" not in page
    Fixture.objects.filter(pk=fixture.pk).update(start_reason=START_AT_TABLE)
    page = german_page(table["organizer"], fixture)
    assert "höchster Würfelwurf der Farben im Spiel (am Tisch gewürfelt)" in page
    assert "rolled at the table" not in page


def test_a_game_played_online_with_a_player_gone_is_german_with_german_colours():
    gone = [
        note(LEFT_BOARD, name="carol", colours="green, red", since=5),
        note(LEFT_BOARD, name="erin", colours="black", since=9),
    ]
    stored = note(PLAYED_ONLINE, gone="; ".join(gone))
    assert stored == (
        "played online; carol left the board: the computer played green, red from roll 5 on; "
        "erin left the board: the computer played black from roll 9 on"
    )
    with translation.override("de"):
        assert reason_text(stored) == (
            "online gespielt; carol hat das Brett verlassen: der Computer spielte grün, rot ab "
            "Wurf 5; erin hat das Brett verlassen: der Computer spielte schwarz ab Wurf 9"
        )


def test_a_start_the_regulations_decide_is_german_on_the_game_page(table):
    fixture = table["fixture"]
    reason = note(REARGUARD_FIRST_FINISHER, player=repr("erin"), game=1)
    assert reason == "rearguard of 'erin', who finished game 1 first"
    Fixture.objects.filter(pk=fixture.pk).update(start_reason=reason)
    page = german_page(table["organizer"], fixture)
    assert "hintere Farbe von &#x27;erin&#x27;, der in Partie 1 als Erster fertig war" in page
    assert "who finished game" not in page


def test_the_dispute_mail_words_a_table_disagreement_in_its_reader_s_language(table):
    pending = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    result_dispute(
        result=pending, by=table["carol"], reason=note(DISAGREEMENT, order="carol, erin")
    )
    with translation.override("de"):
        _users, message = dispute_opened(pending.pk, "disputed")
    assert "ein anderer Spieler am Tisch hat andere Platzierungen eingegeben: carol, erin" in (
        message.body
    )
