"""Concurrent submissions and confirmations, through real concurrent PostgreSQL
connections (one per thread), end with exactly one confirmed result."""

import threading

import pytest
from django.db import connection

from tests.builders import example_text
from tournaments.models import League, Result
from tournaments.services.errors import ServiceError
from tournaments.services.results import game_log_submit, result_confirm, result_resolve

LOG = "valid-league-2tplus.json"


def run_concurrently(*calls):
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def worker(i, call):
        try:
            barrier.wait(timeout=10)
            outcomes[i] = call()
        except Exception as exc:  # collected and asserted by the test
            outcomes[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_concurrent_uploads_of_both_players_count_once(table):
    League.objects.filter(pk=table["league"].pk).update(confirmation_required=False)
    text = example_text(LOG)
    outcomes = run_concurrently(
        *[
            (lambda u=u: game_log_submit(fixture=table["fixture"], content=text, user=u))
            for u in (table["erin"], table["carol"], table["erin"], table["carol"])
        ]
    )
    assert not [o for o in outcomes if isinstance(o, Exception) and not isinstance(o, ServiceError)]
    assert Result.objects.filter(state=Result.State.CONFIRMED).count() == 1
    assert Result.objects.count() == 1
    assert League.objects.get(pk=table["league"].pk).results_revision == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_confirmations_count_once(table):
    pending = game_log_submit(
        fixture=table["fixture"], content=example_text(LOG), user=table["erin"]
    )
    outcomes = run_concurrently(
        lambda: result_confirm(result=pending, user=table["carol"]),
        lambda: result_resolve(result=pending, user=table["organizer"], accept=True, note="ok"),
        lambda: result_confirm(result=pending, user=table["carol"]),
    )
    unexpected = [
        o for o in outcomes if isinstance(o, Exception) and not isinstance(o, ServiceError)
    ]
    assert not unexpected
    assert Result.objects.filter(state=Result.State.CONFIRMED).count() == 1
    assert League.objects.get(pk=table["league"].pk).results_revision == 1
