"""The throttles hold as an attacker would try them: a rotated X-Forwarded-For does not reset
the count, the admin's log-in form is limited too, nobody can lock the owner out from
elsewhere, the site's forms share the API's submission limit, password-reset mails are
limited per address, a reset or changed password revokes the API token, and /replay/ is
bounded for visitors who are not logged in."""

from __future__ import annotations

import re

from django.core import mail
from django.core.cache import cache

from tests.builders import PASSWORD, example_bytes
from tournaments.models import RejectedSubmission


def rates(settings, **scopes):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": scopes}


def login(client, username, password, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def test_a_rotated_forwarded_for_header_does_not_reset_the_count(world, client, settings):
    rates(settings, login="3/min", login_account=None)
    answers = [
        login(client, "staff", "wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code
        for n in range(6)
    ]
    assert answers[:3] == [200, 200, 200] and set(answers[3:]) == {429}


def test_with_one_trusted_proxy_its_forwarded_address_is_the_client(world, client, settings):
    rates(settings, login="2/min", login_account=None)
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    for _ in range(2):
        login(client, "staff", "wrong", HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert login(client, "staff", "wrong", HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 429
    # another client behind the same proxy has a count of its own
    assert login(client, "staff", "wrong", HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 200


def test_guessing_from_elsewhere_cannot_lock_the_owner_out(world, client, settings):
    rates(settings, login="100/min", login_account="3/min")
    for _ in range(5):
        login(client, "player", "guess", REMOTE_ADDR="192.0.2.66")
    assert login(client, "player", PASSWORD, REMOTE_ADDR="192.0.2.66").status_code == 429
    owner = login(client, "player", PASSWORD, REMOTE_ADDR="192.0.2.10")
    assert owner.status_code == 302 and "_auth_user_id" in client.session


def test_a_refused_login_offers_a_password_reset(world, client, settings):
    rates(settings, login="1/min", login_account=None)
    login(client, "staff", "wrong")
    refused = login(client, "staff", "wrong")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "/accounts/password/reset/" in refused.content.decode()


def test_the_admin_login_form_is_throttled(world, client, settings):
    rates(settings, login="100/min", login_account="3/min")
    for _ in range(3):
        response = client.post(
            "/admin/login/", {"username": "staff", "password": "wrong", "next": "/admin/"}
        )
        assert response.status_code == 200  # the admin's own "wrong password" page
    refused = client.post(
        "/admin/login/", {"username": "staff", "password": PASSWORD, "next": "/admin/"}
    )
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/login/").status_code == 200  # looking is not counted


def test_the_site_upload_form_shares_the_submission_limit(world, client, settings):
    rates(settings, submissions="3/min")
    client.force_login(world.users["player"])
    url = f"/games/{world.fixture.pk}/submit/"
    codes = [client.post(url, {"content": "not a log"}).status_code for _ in range(6)]
    assert codes[:3] == [400, 400, 400] and set(codes[3:]) == {429}
    assert RejectedSubmission.objects.count() == 3  # refused requests store nothing


def test_password_reset_mails_are_limited_per_address(world, client, settings):
    rates(settings, password_reset="100/hour", password_reset_email="3/hour")
    answers = [
        client.post(
            "/accounts/password/reset/", {"email": "player@example.org"}, REMOTE_ADDR=f"10.1.0.{n}"
        ).status_code
        for n in range(6)
    ]
    assert answers[:3] == [302, 302, 302] and set(answers[3:]) == {429}
    assert len(mail.outbox) == 3


def test_password_reset_requests_are_limited_per_client(world, client, settings):
    rates(settings, password_reset="2/hour", password_reset_email="100/hour")
    for n in range(2):
        client.post("/accounts/password/reset/", {"email": f"x{n}@example.org"})
    assert client.post("/accounts/password/reset/", {"email": "y@example.org"}).status_code == 429


def _token_of(user):
    from accounts.tokens import api_token_issue

    return api_token_issue(user).key


def test_a_password_reset_revokes_the_api_token(world, client, token_auth, settings):
    rates(settings)
    from rest_framework.authtoken.models import Token

    user = world.users["player"]
    _token_of(user)
    client.post("/accounts/password/reset/", {"email": "player@example.org"})
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    form = client.get(link.group(1), follow=True)
    client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "brand-new-pass-456", "new_password2": "brand-new-pass-456"},
    )
    assert not Token.objects.filter(user=user).exists()


def test_a_password_change_revokes_the_api_token(world, client, token_auth):
    from rest_framework.authtoken.models import Token

    user = world.users["player"]
    _token_of(user)
    client.force_login(user)
    response = client.post(
        "/accounts/password/change/",
        {
            "old_password": PASSWORD,
            "new_password1": "brand-new-pass-789",
            "new_password2": "brand-new-pass-789",
        },
    )
    assert response.status_code == 302
    assert not Token.objects.filter(user=user).exists()


def test_an_anonymous_replay_of_a_large_log_is_refused_cheaply(db, client, settings):
    settings.REPLAY_ANONYMOUS_MAX_BYTES = 1024
    text = example_bytes().decode()
    assert len(text) > 1024
    response = client.post("/replay/", {"content": text})
    assert response.status_code == 400
    assert "after logging in" in response.content.decode()
    assert len(response.content) < len(text)  # the log is not echoed back


def test_a_pasted_replay_is_not_cached(db, client, django_user_model):
    client.force_login(django_user_model.objects.create_user("viewer"))
    assert client.post("/replay/", {"content": example_bytes().decode()}).status_code == 200
    assert not [key for key in cache._cache if "replay:" in key]  # the throttle counts only


def test_replays_are_throttled_per_visitor(db, client, settings):
    rates(settings, replay="2/min")
    text = example_bytes().decode()
    codes = [client.post("/replay/", {"content": text}).status_code for _ in range(4)]
    assert codes == [200, 200, 429, 429]


def test_the_token_page_is_never_stored(world, client, token_auth):
    client.force_login(world.users["player"])
    response = client.get("/accounts/token/")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
