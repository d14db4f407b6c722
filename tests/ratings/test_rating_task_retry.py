"""The ratings task retries an outage of the database or the broker, never an error of the
rating code itself (which would fail the same way every time)."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from kombu.exceptions import OperationalError as BrokerError

from ratings.services import ratings
from ratings.tasks import update_ratings


def flaky(monkeypatch, error: Exception) -> list[int]:
    """The task's service (``ratings_update_coalesced``) raises ``error`` on its first call
    and succeeds after that."""
    calls: list[int] = []

    def update():
        calls.append(1)
        if len(calls) == 1:
            raise error
        return {"status": "up to date", "applied": 0, "through": 0}

    monkeypatch.setattr(ratings, "ratings_update_coalesced", update)
    return calls


@pytest.mark.parametrize(
    "error",
    [OperationalError("server closed the connection"), BrokerError("Connection refused")],
)
def test_an_outage_is_retried(monkeypatch, error):
    calls = flaky(monkeypatch, error)
    assert update_ratings.apply(throw=False).get()["status"] == "up to date"
    assert len(calls) == 2


@pytest.mark.parametrize("error", [ValueError("a bug"), KeyError("player"), ZeroDivisionError()])
def test_a_bug_in_the_rating_code_is_not_retried(monkeypatch, error):
    calls = flaky(monkeypatch, error)
    with pytest.raises(type(error)):
        update_ratings.apply(throw=False).get()
    assert len(calls) == 1
