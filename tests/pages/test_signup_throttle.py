"""Issue 22, point 5: accounts are not free. Sign-ups from one client address are limited
per hour and per day (the ``signup`` and ``signup_day`` throttles): past the limit the
form answers 429 with Retry-After and creates nothing."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client


def form(n: int) -> dict:
    return {
        "username": f"sock{n}",
        "email": f"sock{n}@example.org",
        "password1": "a-long-enough-pass-123",
        "password2": "a-long-enough-pass-123",
    }


def test_sign_ups_from_one_address_are_limited(db, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "signup": "3/hour",
        },
    }
    for n in range(3):
        assert Client().post("/accounts/signup/", form(n)).status_code == 302
    refused = Client().post("/accounts/signup/", form(9))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many attempts" in refused.content.decode()
    assert not get_user_model().objects.filter(username="sock9").exists()
    # another address still signs up
    other = Client(REMOTE_ADDR="10.1.2.3").post("/accounts/signup/", form(10))
    assert other.status_code == 302
    # reading the form is not counted
    assert Client().get("/accounts/signup/").status_code == 200


def test_the_day_limit_holds_when_the_hour_allows(db, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "signup": "100/hour",
            "signup_day": "2/day",
        },
    }
    for n in range(2):
        assert Client().post("/accounts/signup/", form(n)).status_code == 302
    assert Client().post("/accounts/signup/", form(5)).status_code == 429


def test_the_default_rates_are_set(settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert rates["signup"] == "10/hour" and rates["signup_day"] == "20/day"
