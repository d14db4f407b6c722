"""Issue 22: an unsubscribe link (a signed token carrying the time it was made) stops
working after ``UNSUBSCRIBE_MAX_AGE_DAYS``; a fresh one works."""

from __future__ import annotations

import time
from unittest import mock

from django.urls import reverse

from notifications import services as notifications
from tests.builders import make_user


def test_an_old_link_is_refused_and_changes_nothing(db, client, settings):
    settings.UNSUBSCRIBE_MAX_AGE_DAYS = 30
    user = make_user("reader")
    with mock.patch("django.core.signing.time.time", return_value=time.time() - 31 * 86400):
        old = notifications.unsubscribe_token(user, "result_awaiting")
    response = client.get(reverse("notifications_unsubscribe", args=[old]))
    assert response.status_code == 400 and "has expired" in response.content.decode()
    assert notifications.switches(user, "result_awaiting") == (True, True)
    fresh = notifications.unsubscribe_token(user, "result_awaiting")
    assert client.get(reverse("notifications_unsubscribe", args=[fresh])).status_code == 200
    assert notifications.switches(user, "result_awaiting") == (False, True)
