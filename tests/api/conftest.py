"""Test data for the API: one league with every role of the permissions matrix
(docs/permissions.md), built with the ORM."""

from __future__ import annotations

import sys
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.apps import apps
from django.conf import UserSettingsHolder
from django.core.cache import cache
from django.db import connection
from rest_framework.test import APIClient

from tests.builders import make_fixture, make_league, make_player, make_user
from tournaments.models import Entry, Fixture, League, Player

#: Every role of the permissions matrix; ``None`` is the anonymous visitor.
ROLES = (
    "anonymous",
    "stranger",
    "entrant",
    "player",
    "opponent",
    "other_organizer",
    "co_organizer",
    "organizer",
    "staff",
)


@dataclass
class World:
    """A public 2T+ league "xleague" (owner ``organizer``, co-organizer ``co_organizer``)
    with entrants erin, carol and dave and one game: erin (black+yellow, first mentioned)
    against carol (green+red), black starts — the players of valid-league-2tplus.json.
    ``player`` is erin's account, ``opponent`` carol's, ``entrant`` dave's (entered, not
    at this board). ``other_organizer`` owns another league."""

    users: dict[str, Any]
    league: League
    other_league: League
    fixture: Fixture
    entries: dict[str, Entry]
    players: dict[str, Player] = field(default_factory=dict)

    def client(self, role: str) -> APIClient:
        client = APIClient()
        if self.users.get(role) is not None:
            client.force_login(self.users[role])
        return client


@pytest.fixture(autouse=True)
def _api_urls(settings):
    settings.ROOT_URLCONF = "tests.api.urls"


@pytest.fixture(autouse=True)
def _fresh_throttles():
    cache.clear()
    yield
    cache.clear()


def build_world() -> World:
    users: dict[str, Any] = {"anonymous": None}
    for role in ROLES[1:]:
        users[role] = make_user(role, staff=role == "staff")
    league = make_league(users["organizer"], "xleague")
    league.organizers.add(users["co_organizer"])
    other = make_league(users["other_organizer"], "other-league")
    players = {
        "erin": make_player("erin", users["player"]),
        "carol": make_player("carol", users["opponent"]),
        "dave": make_player("dave", users["entrant"]),
    }
    entries = {name: Entry.objects.create(league=league, player=p) for name, p in players.items()}
    fixture = make_fixture(
        league,
        [(entries["erin"], ["black", "yellow"]), (entries["carol"], ["green", "red"])],
        "black",
        label="G1",
    )
    return World(users, league, other, fixture, entries, players)


@pytest.fixture
def world(db) -> World:
    return build_world()


def _forget_abstract_authtoken() -> None:
    """If rest_framework.authtoken was imported while not installed (drf-spectacular's
    contrib extension does so), its Token is abstract for good: forget the modules, so
    that they are imported again once the app is installed."""
    module = sys.modules.get("rest_framework.authtoken.models")
    if module is not None and module.Token._meta.abstract:
        for name in [n for n in sys.modules if n.startswith("rest_framework.authtoken.")]:
            del sys.modules[name]


@contextmanager
def _app_installed(app: str):
    """Install an app for a while: the settings first, then the app registry (the order
    matters to rest_framework.authtoken, whose Token model is abstract unless its app is in
    INSTALLED_APPS when the module is first imported)."""
    from django.conf import settings as live_settings
    from django.contrib import admin

    original = live_settings._wrapped
    holder = UserSettingsHolder(original)
    holder.INSTALLED_APPS = [*original.INSTALLED_APPS, app]
    registered = set(admin.site._registry)
    _forget_abstract_authtoken()
    live_settings._wrapped = holder
    try:
        apps.set_installed_apps(holder.INSTALLED_APPS)
        try:
            yield
        finally:
            apps.unset_installed_apps()
            for model in set(admin.site._registry) - registered:
                admin.site.unregister(model)
    finally:
        live_settings._wrapped = original


@pytest.fixture
def token_auth(db):
    """DRF authtoken, whether or not the settings install it yet: if not, the app is added
    for the test and its table created inside the test's transaction (rolled back after
    it). Not for transactional tests."""
    with ExitStack() as stack:
        if not apps.is_installed("rest_framework.authtoken"):
            stack.enter_context(_app_installed("rest_framework.authtoken"))
        from rest_framework.authtoken.models import Token

        with connection.cursor() as cursor:
            tables = connection.introspection.table_names(cursor)
        if Token._meta.db_table not in tables:
            with connection.schema_editor() as editor:
                editor.create_model(Token)
        yield Token


def error_of(response) -> dict[str, Any]:
    """The error object of an error response, checked against the one format."""
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert isinstance(error["code"], str) and error["code"]
    assert isinstance(error["message"], str) and error["message"]
    assert "field" in error
    return error
