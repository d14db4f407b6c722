"""Accounts: tokens for bots, sign-up with a player profile, log-in throttling, log-out and
password reset by e-mail."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from rest_framework.test import APIClient

from tests.api.conftest import error_of
from tests.builders import PASSWORD, example_bytes
from tournaments.models import Player, Result


@pytest.fixture
def no_login_limits(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": None, "login_account": None, "submissions": None},
    }


def get_token(username: str, password: str = PASSWORD):
    return APIClient().post(
        "/api/v1/auth/token/", {"username": username, "password": password}, format="json"
    )


def test_a_bot_gets_a_token_and_submits_a_log_with_it(world, token_auth):
    response = get_token("player")
    assert response.status_code == 200
    token = response.json()["token"]
    bot = APIClient()  # no session, no CSRF: just the header
    bot.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    submitted = bot.post(
        f"/api/v1/fixtures/{world.fixture.pk}/log/",
        example_bytes(),
        content_type="application/json",
    )
    assert submitted.status_code == 201, submitted.content
    assert Result.objects.get().submitted_by == world.users["player"]
    assert bot.get("/api/v1/me/").json()["username"] == "player"
    assert get_token("player").json()["token"] == token  # the same token again


def test_a_revoked_token_stops_working(world, token_auth):
    token = get_token("player").json()["token"]
    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert bot.delete("/api/v1/auth/token/").status_code == 204
    response = bot.get("/api/v1/me/")
    assert response.status_code == 401
    assert error_of(response)["code"] == "authentication_failed"


def test_wrong_credentials_get_no_token(world, token_auth):
    response = get_token("player", "wrong")
    # refused credentials, not a malformed request (issue 32: the schema's 400 is for that)
    assert response.status_code == 401
    assert "unable to log in" in error_of(response)["message"]
    assert not token_auth.objects.exists()


def test_anonymous_writes_are_401_with_a_token_challenge(world):
    response = APIClient().post("/api/v1/leagues/", {"name": "x"}, format="json")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert error_of(response)["code"] == "not_authenticated"


def test_session_writes_need_the_csrf_token(world):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(world.users["organizer"])
    response = client.post("/api/v1/leagues/", {"name": "x", "format": "2T"}, format="json")
    assert response.status_code == 403
    assert "CSRF" in error_of(response)["message"]


def test_token_login_is_throttled_per_address_and_per_account(world, token_auth, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": "100/min", "login_account": "3/min"},
    }
    for _ in range(3):
        assert get_token("player", "wrong").status_code == 401  # refused credentials (issue 32)
    response = get_token("player")  # even the right password: wait first
    assert response.status_code == 429
    assert error_of(response)["code"] == "throttled"
    assert int(response["Retry-After"]) > 0
    assert get_token("opponent").status_code == 200  # another account is not affected

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": "2/min", "login_account": None},
    }
    get_token("staff")
    get_token("staff")
    assert get_token("organizer").status_code == 429


def test_submissions_are_throttled_per_user(world, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"submissions": "2/min"},
    }
    client = world.client("player")
    url = f"/api/v1/fixtures/{world.fixture.pk}/log/"
    for _ in range(2):
        assert client.post(url, b"{}", content_type="application/json").status_code == 400
    response = client.post(url, example_bytes(), content_type="application/json")
    assert response.status_code == 429
    assert not Result.objects.exists()
    assert client.get(url).status_code == 404  # reading is not counted
    opponent = world.client("opponent")
    assert opponent.post(url, example_bytes(), content_type="application/json").status_code == 201


# --- the site's account pages --------------------------------------------------------------


def test_signup_creates_the_account_and_its_player(db, client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "hanna",
            "email": "hanna@example.org",
            "player_name": "Hanna K",
            "password1": "a-long-enough-pass-123",
            "password2": "a-long-enough-pass-123",
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="hanna")
    assert Player.objects.get(user=user).name == "Hanna K"
    assert client.get("/api/v1/me/").json()["player"]["name"] == "Hanna K"


def test_signup_with_a_player_name_an_organizer_uses_makes_a_second_one(db, client):
    # issue 34: names repeat across the site; the account's player is told apart by its user
    # name (a look-alike of a user name is refused: tests/tournaments/test_names.py)
    Player.objects.create(name="Hanna", slug="hanna")
    response = client.post(
        "/accounts/signup/",
        {
            "username": "hanna2",
            "email": "h@example.org",
            "player_name": "hanna",
            "password1": "a-long-enough-pass-123",
            "password2": "a-long-enough-pass-123",
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="hanna2")
    assert Player.objects.get(user=user).label == "hanna (@hanna2)"
    assert Player.objects.get(slug="hanna").label == "Hanna (hanna)"  # no creator: its slug


def test_the_login_form_logs_in_and_is_throttled(world, client, settings):
    page = client.get("/accounts/login/")
    assert page.status_code == 200 and b'name="password"' in page.content
    ok = client.post("/accounts/login/", {"username": "player", "password": PASSWORD})
    assert ok.status_code == 302
    client.post("/accounts/logout/")
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": "100/min", "login_account": "2/min"},
    }
    client.post("/accounts/login/", {"username": "staff", "password": "wrong"})
    client.post("/accounts/login/", {"username": "staff", "password": "wrong"})
    refused = client.post("/accounts/login/", {"username": "staff", "password": PASSWORD})
    assert refused.status_code == 429
    assert "Too many log-in attempts" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_logout_needs_a_post(world, client):
    client.force_login(world.users["player"])
    assert client.get("/accounts/logout/").status_code == 405
    response = client.post("/accounts/logout/")
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_password_reset_by_email(world, client, no_login_limits):
    response = client.post("/accounts/password/reset/", {"email": "player@example.org"})
    assert response.status_code == 302
    [message] = mail.outbox
    assert message.to == ["player@example.org"]
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", message.body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and b"new_password1" in form.content
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "brand-new-pass-456", "new_password2": "brand-new-pass-456"},
    )
    assert done.status_code == 302
    assert client.login(username="player", password="brand-new-pass-456")


def test_the_token_page(world, client, token_auth):
    client.force_login(world.users["player"])
    page = client.get("/accounts/token/")
    assert page.status_code == 200 and b"You have no token yet" in page.content
    assert client.post("/accounts/token/").status_code == 302
    key = token_auth.objects.get(user=world.users["player"]).key
    assert key in client.get("/accounts/token/").content.decode()
    client.post("/accounts/token/")
    assert token_auth.objects.get(user=world.users["player"]).key != key


def test_account_pages_render(db, client):
    for url in ("/accounts/signup/", "/accounts/login/", "/accounts/password/reset/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert b"<form" in response.content
    assert client.get("/accounts/token/").status_code == 302  # log in first
