"""Issue 35: what the system writes on a game's results is stored as a code with its
parameters and shown in the reader's language; what a person typed is kept as typed."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.builders import erin_against_carol, stopped_open_game
from tournaments.models import Entry, RejectedSubmission
from tournaments.services.errors import ServiceError, error_text
from tournaments.services.results import forfeit_record, game_log_submit


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("limit", "last_t", "code", "params", "german"),
    [
        (None, None, "log_no_time_limit", {}, "hat kein Zeitlimit"),
        (40, 15 * 60 + 7, "log_before_limit", {"at": "15:07", "limit": 40}, "bei 15:07"),
    ],
)
def test_why_an_unfinished_log_was_refused_is_stored_as_a_code(limit, last_t, code, params, german):
    organizer, _league, fixture, log = stopped_open_game(limit, last_t)
    with pytest.raises(ServiceError):
        game_log_submit(fixture=fixture, content=log, by=organizer)
    rejected = RejectedSubmission.objects.get(fixture=fixture)
    assert rejected.error_code == "log_mismatch"
    (problem,) = rejected.error_params["why"]
    assert problem["code"] == code
    assert params.items() <= problem["params"].items()
    with translation.override("de"):
        shown = error_text(rejected.error_code, rejected.error_params, rejected.error)
    assert german in shown and "time limit" not in shown


@pytest.mark.django_db
def test_a_forfeit_without_a_typed_reason_stores_no_english_word():
    table = erin_against_carol()
    erin = Entry.objects.get(league=table["league"], player__user=table["erin"])
    result = forfeit_record(fixture=table["fixture"], by=table["organizer"], loser=erin, reason="")
    assert result.reason == "" and result.source == "forfeit"
    typed = forfeit_record(
        fixture=table["fixture"], by=table["organizer"], loser=erin, reason="did not come"
    )
    assert typed.reason == "did not come"
