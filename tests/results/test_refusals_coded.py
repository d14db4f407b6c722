"""A refused result action (``tournaments.permissions.Refusal``) is a code with parameters
(issue 35): the service raises it with its code, the API answers with the code as
``reason`` and the message in the request's language, a page shows it in German."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from tests.builders import example_text
from tournaments.models import Entry
from tournaments.permissions import CONFIRM, DISPUTE, Refusal, result_actions
from tournaments.services.entries import invitation_create
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.guards import refusal_error
from tournaments.services.results import game_log_submit, result_confirm

LOG = "valid-league-2tplus.json"


@pytest.fixture
def pending(table):
    return game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])


def test_the_submitter_confirming_is_refused_with_a_code_and_german_words(table, pending):
    with pytest.raises(NotAllowed) as refused:
        result_confirm(result=pending, by=table["erin"])
    assert refused.value.code == "confirm_own"
    assert refused.value.message == "you submitted this result; your opponent must confirm it"
    with translation.override("de"):
        assert refused.value.localized() == (
            "du hast dieses Ergebnis eingereicht; dein Gegner muss es bestätigen"
        )


def test_a_result_state_in_a_refusal_is_a_translated_word(table, pending):
    result_confirm(result=pending, by=table["carol"])
    pending.refresh_from_db()
    actions = result_actions(table["organizer"], table["fixture"], result=pending)
    refusal = actions.refusal(CONFIRM)
    assert refusal.code == "confirm_not_pending"
    error = refusal_error(refusal)
    assert error.message == "this result is confirmed, not pending"
    with translation.override("de"):
        assert error.localized() == (
            "dieses Ergebnis ist bestätigt und wartet nicht auf Bestätigung"
        )
    dispute = result_actions(table["carol"], table["fixture"], result=pending).refusal(DISPUTE)
    with translation.override("de"):
        assert refusal_error(dispute).localized().endswith("dieses ist: bestätigt")


def test_the_api_answers_a_refusal_with_its_code_and_german_message(table, pending):
    client = APIClient()
    client.force_authenticate(table["erin"])
    response = client.post(
        f"/api/v1/results/{pending.pk}/confirm/", HTTP_ACCEPT_LANGUAGE="de", format="json"
    )
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "not_allowed" and error["reason"] == "confirm_own"
    assert error["message"] == "du hast dieses Ergebnis eingereicht; dein Gegner muss es bestätigen"


def test_a_refused_withdrawal_is_german_on_the_german_withdraw_page(table):
    entry = Entry.objects.get(league=table["league"], player__user=table["erin"])
    Entry.objects.filter(pk=entry.pk).update(withdrawn_at="2026-01-01T00:00Z")
    client = Client()
    client.force_login(table["erin"])
    client.cookies["django_language"] = "de"
    response = client.get(reverse("tournaments:entry-withdraw", args=[entry.pk]))
    page = response.content.decode()
    assert "erin hat sich schon zurückgezogen" in page
    assert "already withdrawn" not in page


def test_a_refusal_keeps_its_code_and_parameters():
    refusal = Refusal("organizers_only", forbidden=True, league="Cup")
    error = refusal_error(refusal)
    assert error.message == "only the organizers of Cup may do this"
    assert isinstance(error, NotAllowed) and error.code == "organizers_only"
    assert error.params == {"league": "Cup"}
    with translation.override("de"):
        assert error.localized() == "das dürfen nur die Organisatoren von Cup"


def test_an_invitation_to_a_league_whose_entries_closed_is_refused_with_its_code(table):
    league = table["league"]
    league.status = "running"
    league.save(update_fields=["status"])
    with pytest.raises(ServiceError) as refused:
        invitation_create(league=league, by=table["organizer"], email="x@example.org", name="X")
    assert refused.value.code == "entries_closed"
    with translation.override("de"):
        assert refused.value.localized() != refused.value.message
