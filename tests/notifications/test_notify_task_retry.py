"""The notification task retries an outage (database, broker, mail server), never an error
of the notification code itself (which would fail the same way every time)."""

from __future__ import annotations

import smtplib

import pytest
from django.db import OperationalError

from notifications import services as notifications
from notifications.tasks import notify


def flaky(monkeypatch, error: Exception) -> list[tuple]:
    """``notify_event`` raises ``error`` on its first call and succeeds after that."""
    calls: list[tuple] = []

    def notify_event(kind, object_id, stamp=""):
        calls.append((kind, object_id, stamp))
        if len(calls) == 1:
            raise error
        return {"sent": 1}

    monkeypatch.setattr(notifications, "notify_event", notify_event)
    return calls


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("server closed the connection"),
        smtplib.SMTPServerDisconnected("Connection unexpectedly closed"),
        ConnectionRefusedError(111, "Connection refused"),
        TimeoutError("timed out"),
    ],
)
def test_an_outage_is_retried(monkeypatch, error):
    calls = flaky(monkeypatch, error)
    assert notify.apply(args=("result", 7), throw=False).get() == {"sent": 1}
    assert calls == [("result", 7, ""), ("result", 7, "")]


@pytest.mark.parametrize("error", [ValueError("a bug"), KeyError("fixture"), AttributeError()])
def test_a_bug_in_the_notification_code_is_not_retried(monkeypatch, error):
    calls = flaky(monkeypatch, error)
    with pytest.raises(type(error)):
        notify.apply(args=("result", 7), throw=False).get()
    assert len(calls) == 1
