"""One error format for every failure, and the access selectors agree with
tournaments.permissions.can_view for every role."""

from __future__ import annotations

import pytest

from tests.api.conftest import ROLES, error_of
from tournaments.api.errors import _first_message
from tournaments.models import League
from tournaments.permissions import can_view
from tournaments.selectors.visibility import visible_leagues


def test_malformed_json_is_a_parse_error(world):
    response = world.client("organizer").post(
        "/api/v1/leagues/", b'{"name": ', content_type="application/json"
    )
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "parse_error" and "JSON parse error" in error["message"]


@pytest.mark.parametrize("depth", [10_000, 100_000])
def test_deeply_nested_json_is_a_parse_error(world, depth):
    body = ("[" * depth + "]" * depth).encode()
    response = world.client("organizer").post(
        "/api/v1/leagues/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert error_of(response)["code"] == "parse_error"


def test_an_oversized_json_body_is_a_parse_error(world):
    body = b'{"name": "' + b"x" * 300_000 + b'"}'
    response = world.client("organizer").post(
        "/api/v1/leagues/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert "larger than" in error_of(response)["message"]


@pytest.mark.parametrize(
    "body",
    [
        b'{"name": "a\\u0000b", "format": "2T"}',
        b'{"name": "a", "format": "2T", "rules_overrides": {"\\ud800": 1}}',
        b'{"name": "NaN league", "format": "2T", "drr_count": NaN}',
    ],
)
def test_strings_postgres_cannot_store_are_refused(world, body):
    response = world.client("organizer").post(
        "/api/v1/leagues/", body, content_type="application/json"
    )
    assert response.status_code == 400
    assert error_of(response)["code"] == "parse_error"
    assert League.objects.count() == 2


def test_unknown_api_urls_answer_in_the_error_format(world):
    for method in ("get", "post", "delete"):
        response = getattr(world.client("organizer"), method)("/api/v1/nothing/here/")
        assert response.status_code == 404
        assert error_of(response)["code"] == "not_found"
    assert world.client("anonymous").get("/api/v1/fixtures/abc/").status_code == 404


def test_method_not_allowed(world):
    response = world.client("organizer").put("/api/v1/leagues/xleague/", {}, format="json")
    assert response.status_code == 405
    assert error_of(response)["code"] == "method_not_allowed"


def test_options_answers_without_describing_inputs(world):
    response = world.client("organizer").options("/api/v1/leagues/")
    assert response.status_code == 200
    assert response.json()["name"] == "League List"
    assert "actions" not in response.json()


def test_validation_errors_point_at_the_first_field():
    assert _first_message({"name": ["required"]}) == ("name", "required")
    assert _first_message({"non_field_errors": ["nope"]}) == (None, "nope")
    assert _first_message({"rolls": [{"alice": ["not a number"]}]}) == (
        "rolls[0].alice",
        "not a number",
    )
    assert _first_message(["flat"]) == (None, "flat")


def test_nested_validation_error_in_a_response(world):
    response = world.client("organizer").post(
        "/api/v1/leagues/xleague/cycles/", {"rolls": [{"erin": "six"}]}, format="json"
    )
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == "rolls[0].erin"
    assert error["message"].startswith("rolls[0].erin: ")
    assert error["fields"] == {"rolls": {"0": {"erin": ["A valid integer is required."]}}}


def test_a_service_error_keeps_its_field_and_message(world):
    response = world.client("organizer").post(
        "/api/v1/leagues/xleague/cycles/", {"rolls": [{"nobody": 6}]}, format="json"
    )
    assert response.status_code == 400
    assert error_of(response) == {
        "code": "invalid",
        "message": "'nobody' is not a player of Xleague",
        "field": "rolls",
        # a coded refusal (one error rule): its code alongside, as a client can branch on
        "reason": "seed_not_a_player",
    }


@pytest.mark.parametrize("private", [False, True])
def test_visible_leagues_agrees_with_can_view(world, private):
    League.objects.filter(pk=world.league.pk).update(is_public=not private)
    for role in ROLES:
        user = world.users[role]
        if user is None:
            from django.contrib.auth.models import AnonymousUser

            user = AnonymousUser()
        listed = set(visible_leagues(user))
        for league in League.objects.all():
            assert (league in listed) == can_view(user, league), (role, league.slug)


BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.mark.parametrize(
    ("role", "path"),
    [
        ("anonymous", "/api/v1/leagues/"),
        ("anonymous", "/api/v1/auth/token/"),  # was a 500 from the browsable renderer
        ("organizer", "/api/v1/leagues/"),
        ("organizer", "/api/v1/players/"),
    ],
)
def test_a_browser_gets_json_never_a_500(world, role, path):
    """The API speaks JSON only (its documentation is /api/docs/): a browser's request gets
    the JSON answer, or the JSON error, whatever it says it accepts."""
    response = world.client(role).get(path, HTTP_ACCEPT=BROWSER_ACCEPT)
    assert response.status_code in (200, 405), response.content
    assert response["Content-Type"].startswith("application/json")
