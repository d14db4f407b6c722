"""Sessions read from the cache, kept in the database (config/sessions.py): a signed-in
visit reads no session row, and a log-out, a password change or a Redis outage never
leaves a session usable that the database no longer holds."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

import config.sessions
from config.sessions import GENERATION_KEY, SessionStore
from tests.builders import PASSWORD, make_user

pytestmark = pytest.mark.django_db

PAGE = "/me/leagues/"


def session_reads(client: Client, url: str = PAGE) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return sum('"django_session"' in q["sql"] for q in queries)


def signed_in(user) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_the_production_settings_use_this_engine():
    assert settings.SESSION_ENGINE == "config.sessions"


def test_a_signed_in_visit_reads_no_session_row():
    client = signed_in(make_user())
    assert session_reads(client) == 0
    cache.clear()  # the cache lost it (evicted, restarted): read from the database once
    assert session_reads(client) == 1
    assert session_reads(client) == 0


def test_a_log_out_ends_the_session_everywhere():
    user = make_user()
    client = signed_in(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    replay = Client()
    replay.cookies[settings.SESSION_COOKIE_NAME] = cookie
    assert replay.get(PAGE).status_code == 200
    client.post("/accounts/logout/")
    assert not Session.objects.filter(session_key=cookie).exists()
    assert replay.get(PAGE).status_code == 302  # to the log-in page


def test_a_password_change_ends_the_other_sessions():
    user = make_user()
    client = signed_in(user)
    assert session_reads(client) == 0  # cached
    user.set_password("another-password-1")
    user.save()
    assert client.get(PAGE).status_code == 302  # the auth hash no longer matches


class FlakyCache(LocMemCache):
    """A cache whose outage a test switches on and off, as ResilientRedisCache's."""

    available = True


@pytest.fixture
def flaky(monkeypatch):
    shared = FlakyCache("sessions-test", {})
    shared.clear()
    monkeypatch.setattr(SessionStore, "__init__", _init_with(shared))
    monkeypatch.setattr(config.sessions, "_outage_seen", False)
    return shared


def _init_with(shared):
    def init(self, session_key=None):
        self._cache = shared
        super(config.sessions.CachedDBStore, self).__init__(session_key)

    return init


def test_an_outage_keeps_sessions_out_of_the_cache_and_stale_copies_are_not_trusted(flaky):
    store = SessionStore()
    store["who"] = "ann"
    store.create()
    key = store.session_key
    assert SessionStore(key).load() == {"who": "ann"}  # from the cache
    flaky.available = False  # Redis out: this process's log-out reaches the database only
    assert SessionStore(key).load() == {"who": "ann"}
    SessionStore(key).delete()
    assert SessionStore(key).load() == {}
    during = SessionStore()
    during["who"] = "bob"
    during.create()
    assert not flaky.has_key(SessionStore.cache_key_prefix + during.session_key)
    flaky.available = True  # Redis back: its copy of ann's session is still there …
    assert flaky.has_key(SessionStore.cache_key_prefix + key)
    assert SessionStore(key).load() == {}  # … and not trusted (the generation moved on)
    assert flaky.get(GENERATION_KEY) == 1
    assert SessionStore(during.session_key).load() == {"who": "bob"}  # from the database


def test_a_session_cached_before_an_outage_is_read_again_after_it(flaky):
    store = SessionStore()
    store["n"] = 1
    store.create()
    flaky.available = False
    changed = SessionStore(store.session_key)
    changed["n"] = 2
    changed.save()
    flaky.available = True
    assert SessionStore(store.session_key).load() == {"n": 2}


def test_a_visitor_without_a_cookie_costs_no_query():
    with CaptureQueriesContext(connection) as queries:
        assert SessionStore().load() == {}
    assert len(queries) == 0
