"""Throttles: one policy for the site's forms and the API, with default rates that
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` may override per scope (a rate of ``None``
switches a scope off):

| scope | what | key | default |
|---|---|---|---|
| ``submissions`` | result writes by players (logs, reports, confirm, dispute) | user | 30/min |
| ``login`` | log-in attempts (token endpoint and log-in form) | client address | 20/min |
| ``login_account`` | log-in attempts for one user name | user name | 10/min |

Counters live in Django's default cache: use a shared cache (Redis) in production, or each
web process counts on its own. The classes work on DRF requests and plain Django requests.
"""

from __future__ import annotations

import hashlib
from typing import Any

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

DEFAULT_RATES: dict[str, str | None] = {
    "submissions": "30/min",
    "login": "20/min",
    "login_account": "10/min",
}

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class _ScopedThrottle(SimpleRateThrottle):
    """A throttle whose rate comes from the settings at request time, else the default."""

    scope = ""

    def get_rate(self) -> str | None:
        rates = api_settings.DEFAULT_THROTTLE_RATES or {}
        if self.scope in rates:
            return rates[self.scope]
        return DEFAULT_RATES[self.scope]


class SubmissionThrottle(_ScopedThrottle):
    """Result writes per user (safe methods are not counted)."""

    scope = "submissions"

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request, view) -> str:
        user = getattr(request, "user", None)
        ident = user.pk if getattr(user, "is_authenticated", False) else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class LoginThrottle(_ScopedThrottle):
    """Log-in attempts per client address. Works on DRF and plain Django requests."""

    scope = "login"

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


def _posted_username(request: Any) -> str:
    data = getattr(request, "data", None)
    if data is None:
        data = request.POST
    try:
        value = data.get("username", "")
    except AttributeError:
        return ""
    return value.strip().casefold()[:150] if isinstance(value, str) else ""


class LoginAccountThrottle(LoginThrottle):
    """Log-in attempts per user name, whichever address they come from."""

    scope = "login_account"

    def get_cache_key(self, request, view) -> str | None:
        username = _posted_username(request)
        if not username:
            return None
        digest = hashlib.sha256(username.encode("utf-8")).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": digest}


LOGIN_THROTTLES = [LoginThrottle, LoginAccountThrottle]
