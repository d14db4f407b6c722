"""Inputs that once answered HTTP 500 are clear 4xx errors naming what is wrong, and change
nothing: a NUL in a query parameter, a time-zone offset or moment the database cannot
store, an integer past the database's range, a non-ASCII digit as an entry id, and two
requests racing for one league address or one user name."""

from __future__ import annotations

import pytest

from tests.api.conftest import error_of
from tests.concurrently import run_concurrently
from tournaments.models import League, Result
from tournaments.services.errors import ServiceError


@pytest.mark.parametrize("path", ["standings/", "standings.csv", "entries/"])
def test_a_nul_in_a_query_parameter_is_a_400_naming_it(world, path):
    response = world.client("anonymous").get(f"/api/v1/leagues/xleague/{path}?stage=a%00b")
    assert response.status_code == 400
    error = error_of(response)
    assert error["field"] == "stage" and "NUL" in error["message"]


@pytest.mark.parametrize(
    "moment",
    [
        "2026-01-01T00:00:00+99:00",
        "9999-12-31T23:59:59-23:00",  # past year 9999 in UTC
    ],
)
@pytest.mark.parametrize("name", ["scheduled_after", "scheduled_before"])
def test_an_unstorable_moment_is_a_400(world, name, moment):
    response = world.client("anonymous").get("/api/v1/fixtures/", {name: moment})
    assert response.status_code == 400, response.content
    assert name in error_of(response)["message"] or error_of(response)["field"] == name


@pytest.mark.parametrize("offset", ["+14:00", "+23:59", "-23:59"])
def test_any_offset_python_reads_filters_in_utc(world, offset):
    """PostgreSQL refuses offsets past ±15:59: the moment is turned into UTC first."""
    response = world.client("anonymous").get(
        "/api/v1/fixtures/", {"scheduled_after": f"2000-01-01T00:00:00{offset}"}
    )
    assert response.status_code == 200


@pytest.mark.parametrize("name", ["cycle", "round", "series"])
def test_an_integer_past_the_database_range_is_a_400(world, name):
    response = world.client("anonymous").get("/api/v1/fixtures/", {name: "9" * 30})
    assert response.status_code == 400


@pytest.mark.parametrize("key", ["²", "١", "1.0", "-1"])
def test_a_counted_pawns_key_that_is_not_an_entry_id_is_a_400(world, key):
    winner = world.entries["erin"].pk
    response = world.client("organizer").post(
        f"/api/v1/fixtures/{world.fixture.pk}/result/",
        {"winner": winner, "counted_pawns": {key: 3}, "reason": "typed in"},
        format="json",
    )
    assert response.status_code == 400
    assert error_of(response)["field"] == "counted_pawns"
    assert not Result.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_leagues_racing_for_one_address_one_wins_the_other_is_told(django_user_model):
    from tournaments.services.leagues import league_create

    owner = django_user_model.objects.create_user("racer")
    outcomes = run_concurrently(
        *[
            (lambda: league_create(owner=owner, name="Race", format="2T", slug="race"))
            for _ in range(4)
        ]
    )
    assert sum(isinstance(o, League) for o in outcomes) == 1
    errors = [o for o in outcomes if not isinstance(o, League)]
    assert all(isinstance(e, ServiceError) and e.field == "slug" for e in errors), errors
    assert League.objects.filter(slug="race").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_signups_racing_for_one_user_name_one_wins_the_other_is_told(django_user_model):
    from accounts.services import account_signup

    outcomes = run_concurrently(
        *[
            (
                lambda i=i: account_signup(
                    username="rosa", email=f"r{i}@example.org", password="x-long-pass-1"
                )
            )
            for i in range(4)
        ]
    )
    created = [o for o in outcomes if isinstance(o, django_user_model)]
    assert len(created) == 1
    errors = [o for o in outcomes if o not in created]
    assert all(isinstance(e, ServiceError) and e.field in {"username", "name"} for e in errors)
    assert django_user_model.objects.filter(username="rosa").count() == 1
