"""The header's unread-notification count: at most one query per request, however many
templates the request renders, and none for an anonymous visitor."""

from __future__ import annotations

import pytest
from django.db import connection
from django.template import engines
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from notifications.models import Notification
from tests.builders import make_league, make_snapshot, make_user

pytestmark = pytest.mark.django_db

BADGE = engines["django"].from_string(
    "{% if unread_notifications %}{{ unread_notifications }}{% endif %}"
)


def inbox_of(user, unread: int) -> None:
    for i in range(unread):
        Notification.objects.create(
            user=user, kind="result_awaiting", key=f"k{i}", subject=f"n{i}", body=""
        )


def test_two_renders_of_one_request_count_once(rf, django_assert_num_queries):
    user = make_user("reader")
    inbox_of(user, 2)
    request = rf.get("/")
    request.user = user
    with django_assert_num_queries(1):
        assert BADGE.render(request=request) == "2"
        assert BADGE.render(request=request) == "2"  # a fragment rendered with the request


def test_a_template_without_the_badge_counts_nothing(rf, django_assert_num_queries):
    request = rf.get("/")
    request.user = make_user("reader")
    with django_assert_num_queries(0):
        engines["django"].from_string("{{ request.path }}").render(request=request)


def test_an_anonymous_visitor_costs_no_query(rf, django_assert_num_queries):
    from django.contrib.auth.models import AnonymousUser

    request = rf.get("/")
    request.user = AnonymousUser()
    with django_assert_num_queries(0):
        assert BADGE.render(request=request) == ""


def test_the_standings_page_counts_once_for_a_signed_in_user(client):
    user = make_user("reader")
    inbox_of(user, 1)
    league = make_league(user, "counted-once")
    make_snapshot(league, [])
    client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("tournaments:standings", args=[league.slug])).text
    assert 'id="unread-count">1<' in page
    counts = [q["sql"] for q in queries if 'FROM "accounts_notification"' in q["sql"]]
    assert len(counts) == 1, counts
