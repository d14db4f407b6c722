"""Concurrent submissions and confirmations, through real concurrent PostgreSQL
connections (one per thread), end with exactly one confirmed result."""

import pytest

from tests.builders import example_text
from tests.concurrently import run_concurrently
from tournaments.models import League, Result
from tournaments.services.errors import ServiceError
from tournaments.services.results import game_log_submit, result_confirm, result_resolve

LOG = "valid-league-2tplus.json"


@pytest.mark.django_db(transaction=True)
def test_concurrent_uploads_of_both_players_count_once(table):
    League.objects.filter(pk=table["league"].pk).update(confirmation_required=False)
    text = example_text(LOG)
    outcomes = run_concurrently(
        *[
            (lambda u=u: game_log_submit(fixture=table["fixture"], content=text, by=u))
            for u in (table["erin"], table["carol"], table["erin"], table["carol"])
        ]
    )
    assert not [o for o in outcomes if isinstance(o, Exception) and not isinstance(o, ServiceError)]
    assert Result.objects.filter(state=Result.State.CONFIRMED).count() == 1
    assert Result.objects.count() == 1
    assert League.objects.get(pk=table["league"].pk).results_revision == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_confirmations_count_once(table):
    pending = game_log_submit(fixture=table["fixture"], content=example_text(LOG), by=table["erin"])
    outcomes = run_concurrently(
        lambda: result_confirm(result=pending, by=table["carol"]),
        lambda: result_resolve(result=pending, by=table["organizer"], accept=True, note="ok"),
        lambda: result_confirm(result=pending, by=table["carol"]),
    )
    unexpected = [
        o for o in outcomes if isinstance(o, Exception) and not isinstance(o, ServiceError)
    ]
    assert not unexpected
    assert Result.objects.filter(state=Result.State.CONFIRMED).count() == 1
    assert League.objects.get(pk=table["league"].pk).results_revision == 1


@pytest.mark.django_db(transaction=True)
def test_identical_concurrent_uploads_create_exactly_once(table):
    """Many copies of one upload at once: one creates the result, every other one is told
    the log is there already (the API answers 201 once, 200 for the rest)."""
    from tournaments.services.results import game_log_upload

    text = example_text(LOG)
    outcomes = run_concurrently(
        *[
            (lambda: game_log_upload(fixture=table["fixture"], content=text, by=table["erin"]))
            for _ in range(8)
        ]
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(o.created for o in outcomes) == [False] * 7 + [True]
    assert len({o.result.pk for o in outcomes}) == 1
    assert Result.objects.count() == 1
