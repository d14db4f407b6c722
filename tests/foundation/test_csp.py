"""Every HTML page carries the Content-Security-Policy, and the policy lets scripts and
styles come from this site only: no ``'unsafe-inline'``, no ``'unsafe-eval'``.

The pages are found by walking the URL configuration (so a new page is covered without
editing this file), their parameters filled from one league with a submitted result.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tests.builders import build_league, example_text, make_user

REPO_ROOT = Path(__file__).resolve().parents[2]
HEADER = "Content-Security-Policy"


def policy_of(response) -> dict[str, list[str]]:
    assert HEADER in response, f"{response.request['PATH_INFO']}: no {HEADER}"
    directives = {}
    for part in response[HEADER].split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


#: the only pages another site may frame: the embeds (docs/api.md, "Embeds")
FRAMABLE = (
    "tournaments:embed-standings",
    "tournaments:embed-bracket",
    "tournaments:embed-schedule",
)


def assert_strict(policy: dict[str, list[str]], where: str) -> None:
    for directive in ("script-src", "style-src", "default-src"):
        values = policy.get(directive, [])
        assert values, f"{where}: no {directive}"
        assert "'unsafe-inline'" not in values, f"{where}: {directive} allows inline"
        assert "'unsafe-eval'" not in values, f"{where}: {directive} allows eval"
        assert "*" not in values and "data:" not in values, f"{where}: {directive} too wide"
    assert policy["script-src"] == ["'self'"], where
    assert policy["object-src"] == ["'none'"], where
    if where.split()[0] in FRAMABLE:
        assert policy["frame-ancestors"] == settings.EMBED_FRAME_ANCESTORS, where
    else:
        assert policy["frame-ancestors"] == ["'none'"], where


def routes(resolver=None, prefix: str = "", namespace: str | None = None):
    """(route, name) of every URL pattern: ``("leagues/<slug:slug>/", "tournaments:league")``."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        if isinstance(pattern, URLResolver):
            yield from routes(
                pattern, prefix + str(pattern.pattern), pattern.namespace or namespace
            )
        elif isinstance(pattern, URLPattern):
            yield (
                prefix + str(pattern.pattern),
                f"{namespace}:{pattern.name}" if namespace else (pattern.name),
            )


@pytest.fixture
def world(db):
    from tournaments.services.results import game_log_submit

    owner = make_user("olga", staff=True, is_superuser=True)
    league = build_league(owner, make_user("erin-user"), make_user("carol-user"))
    objs = league.test_objects
    result = game_log_submit(
        fixture=objs["g1"], content=example_text("valid-league-2tplus.json"), by=owner
    )
    uid = urlsafe_base64_encode(force_bytes(owner.pk))
    return {
        "owner": owner,
        "leagues": league.slug,
        "players": objs["erin"].player.slug,
        "games": objs["g1"].pk,
        "fixtures": objs["g1"].pk,
        "results": result.pk,
        "result_id": result.pk,
        "logs": result.game_log_id,
        "entries": objs["erin"].pk,
        "cycles": objs["cycle"].number,
        "uidb64": uid,
        "token": default_token_generator.make_token(owner),
    }


PARAMETER = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


def fill(route: str, world: dict) -> str | None:
    """The route with each parameter replaced by the world's value for the path segment
    it follows (``leagues/<slug>`` → the league's slug); None for regex routes."""
    if route.startswith("^") or "^" in route or "(?P" in route:
        return None
    out, last = "", 0
    for match in PARAMETER.finditer(route):
        before = route[last : match.start()]
        out += before
        segment = before.strip("/").split("/")[-1] if before.strip("/") else ""
        name = match["name"]
        key = name if name in {"result_id", "uidb64", "token"} else segment
        if key not in world:
            return None
        out += str(world[key])
        last = match.end()
    return "/" + out + route[last:]


def html_pages(client, world) -> dict[str, object]:
    """GET every page (API views too, as the browsable API's HTML); an error page (a view
    that fails on GET) is an HTML page too and is checked like the others."""
    client.raise_request_exception = False
    pages = {}
    for route, name in routes():
        if route.startswith("admin/") and name not in {"admin:index", "admin:login"}:
            continue  # the admin's many model pages share the same templates and middleware
        if name in {"logout", "set_language"}:
            continue  # POST only
        url = fill(route, world)
        if url is None:
            continue
        response = client.get(url, HTTP_ACCEPT="text/html")
        if response.get("Content-Type", "").startswith("text/html"):
            pages[f"{name} {url} {response.status_code}"] = response
    return pages


@pytest.mark.parametrize("who", ["anonymous", "organizer"])
def test_every_html_page_carries_a_strict_policy(client, world, who):
    if who == "organizer":
        client.force_login(world["owner"])
    pages = html_pages(client, world)
    names = {key.split()[0] for key in pages}
    expected = {
        "tournaments:home",
        "tournaments:league",
        "tournaments:standings",
        "tournaments:game",
        "tournaments:player",
        "login",
        "signup",
        "password_reset",
        "api-docs",
        "admin:login" if who == "anonymous" else "admin:index",
    }
    assert expected <= names, sorted(expected - names)
    for where, response in pages.items():
        assert_strict(policy_of(response), where)


def test_error_pages_carry_the_policy_too(client, db):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert_strict(policy_of(response), "404")


def test_the_swagger_ui_page_has_no_inline_script_or_style(client, db):
    page = client.get("/api/docs/")
    html = page.content.decode()
    assert_strict(policy_of(page), "/api/docs/")
    assert "<style" not in html
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag, tag  # every script is a file
    script = client.get("/api/docs/?script=")
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in script.content.decode()


INLINE = re.compile(
    r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>|\bstyle=|<style\b|\son[a-z]+="
)


def test_templates_have_no_inline_script_style_or_event_handlers():
    offenders = [
        f"{path.relative_to(REPO_ROOT)}: {match.group(0)}"
        for path in sorted((REPO_ROOT / "templates").rglob("*.html"))
        for match in INLINE.finditer(path.read_text())
    ]
    assert offenders == []
