"""Only the documented methods exist: every API route's view answers exactly the methods
its OpenAPI operations document (no handler inherited by accident), and an undocumented
method is 405 even for staff."""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.plumbing import _load_enum_name_overrides

API_PREFIX = "/api/v1/"
HANDLERS = ("get", "post", "put", "patch", "delete")


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern


def _openapi_path(route: str) -> str:
    path = API_PREFIX + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route)
    return path.replace("{pk}", "{id}")  # drf-spectacular names a pk "id"


@pytest.fixture(scope="module")
def schema_paths():
    """The served schema's operations by path (generated as /api/schema/ does)."""
    _load_enum_name_overrides.cache_clear()
    try:
        schema = SchemaGenerator(urlconf="config.urls").get_schema(public=True)
    finally:
        _load_enum_name_overrides.cache_clear()
    return {
        path: {method for method in operations if method in HANDLERS}
        for path, operations in schema["paths"].items()
    }


def _api_views():
    for route, pattern in _routes(get_resolver("tournaments.api.urls").url_patterns):
        view = getattr(pattern.callback, "view_class", None)
        if view is not None:
            yield route, pattern.name, view


def test_the_walk_finds_the_api():
    names = {name for _route, name, _view in _api_views()}
    assert {"league-list", "entry-withdraw", "fixture-log", "result-confirm"} <= names


@pytest.mark.parametrize(("route", "name", "view"), list(_api_views()), ids=lambda v: str(v))
def test_a_view_answers_exactly_the_documented_methods(schema_paths, route, name, view):
    implemented = {method for method in HANDLERS if hasattr(view, method)}
    documented = schema_paths.get(_openapi_path(route), set())
    assert implemented == documented, f"{name}: implements {implemented}, documents {documented}"


def test_withdraw_cannot_delete_an_entry(client, django_user_model, db):
    from tournaments.models import Entry
    from tournaments.services.leagues import entry_add, league_create
    from tournaments.services.players import player_create

    staff = django_user_model.objects.create_user("staff", password="pw", is_staff=True)
    league = league_create(owner=staff, name="Methods", format="2T")
    entry = entry_add(league=league, player=player_create(name="Ann", shared=True), by=staff)
    client.force_login(staff)
    url = f"/api/v1/leagues/{league.slug}/entries/{entry.pk}/withdraw/"
    assert client.delete(url).status_code == 405
    assert client.put(url, {}, content_type="application/json").status_code == 405
    assert Entry.objects.filter(pk=entry.pk).exists()


def _documented_in_api_md() -> dict[str, set[str]]:
    """The endpoint table of docs/api.md: ``| GET, POST | `leagues/` | … |`` rows."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    table: dict[str, set[str]] = {}
    for methods, path in re.findall(r"^\| ([A-Z][A-Z, ]*) \| `([^`]+)` \|", text, re.M):
        key = re.sub(r"\{[^}]*\}", "{}", path)
        table.setdefault(key, set()).update(m.strip().lower() for m in methods.split(","))
    return table


@pytest.mark.parametrize(("route", "name", "view"), list(_api_views()), ids=lambda v: str(v))
def test_a_view_answers_exactly_the_methods_docs_api_md_lists(route, name, view):
    """The schema is generated from the views, so it cannot catch a handler inherited by
    accident (DELETE on withdraw/ was one): the hand-written endpoint table can."""
    documented = _documented_in_api_md().get(re.sub(r"<[^>]*>", "{}", route), set())
    implemented = {method for method in HANDLERS if hasattr(view, method)}
    assert implemented == documented, f"{name}: implements {implemented}, docs list {documented}"
