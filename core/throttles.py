"""Throttles: one policy for the site's forms and the API.

Default rates, which ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (environment variables
``THROTTLE_<SCOPE>``) may override per scope (a rate of ``None`` switches a scope off):

| scope | what | key | default |
|---|---|---|---|
| ``submissions`` | result writes, page or API (upload, report, confirm, dispute) | user | 30/min |
| ``login`` | log-in attempts (site, admin, token endpoint) | client address | 20/min |
| ``login_account`` | log-in attempts for one user name from one address | name + address | 10/min |
| ``password_reset`` | password-reset requests | client address | 10/hour |
| ``password_reset_email`` | password-reset mails to one address | e-mail address | 3/hour |
| ``replay`` | replays of pasted logs (``/replay/``) | user, else address | 20/min |
| ``signup`` | sign-up attempts (``/accounts/signup/``) | client address | 10/hour |
| ``signup_day`` | sign-up attempts, per day | client address | 20/day |
| ``exports`` | anonymous league archive downloads (304s too) | client address | 10/min |
| ``league_create`` | league creations, page or API (each POST counts) | user | 10/hour |

The client address is ``REMOTE_ADDR``, or the ``X-Forwarded-For`` entry added by the last
of ``NUM_PROXIES`` trusted proxies (0 unless configured: a client cannot pick its own
address). Log-in is limited per user name *and address*: someone guessing from elsewhere
cannot lock the owner out, and a refused owner is offered a password reset. Counters live
in Django's default cache, which production shares between processes (``CACHE_URL``).
While that Redis is down or hung, each process counts in a bounded memory of its own
(``config/cache.py``): the limits hold per process and are never lifted.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

from django.shortcuts import render
from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

DEFAULT_RATES: dict[str, str | None] = {
    "submissions": "30/min",
    "login": "20/min",
    "login_account": "10/min",
    "password_reset": "10/hour",
    "password_reset_email": "3/hour",
    "replay": "20/min",
    "signup": "10/hour",
    "signup_day": "20/day",
    "exports": "10/min",
    "league_create": "10/hour",
}

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def _posted(request: Any, field: str) -> str:
    data = getattr(request, "data", None)
    if data is None:
        data = request.POST
    try:
        value = data.get(field, "")
    except AttributeError:
        return ""
    return value.strip().casefold()[:254] if isinstance(value, str) else ""


class _ScopedThrottle(SimpleRateThrottle):
    """A throttle whose rate comes from the settings at request time, else the default.
    Safe methods are not counted. Works on DRF and plain Django requests."""

    scope = ""

    def get_rate(self) -> str | None:
        rates = api_settings.DEFAULT_THROTTLE_RATES or {}
        if self.scope in rates:
            return rates[self.scope]
        return DEFAULT_RATES[self.scope]

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def key(self, ident: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": ident}


class SubmissionThrottle(_ScopedThrottle):
    """Result writes per user (per address for the anonymous, who are refused anyway)."""

    scope = "submissions"

    def get_cache_key(self, request, view) -> str:
        user = getattr(request, "user", None)
        if getattr(user, "is_authenticated", False):
            return self.key(f"user-{user.pk}")
        # a player acting through the private result link this browser opened (the table
        # page of a championship day): per link, not per address — a venue's phones share
        # one address behind its Wi-Fi (h-champ)
        session = getattr(request, "session", None)
        link = session.get("result_link") if session is not None else None
        if isinstance(link, int):
            return self.key(f"link-{link}")
        return self.key(self.get_ident(request))


class LoginThrottle(_ScopedThrottle):
    """Log-in attempts per client address."""

    scope = "login"

    def get_cache_key(self, request, view) -> str:
        return self.key(self.get_ident(request))


class LoginAccountThrottle(_ScopedThrottle):
    """Log-in attempts for one user name from one client address."""

    scope = "login_account"

    def get_cache_key(self, request, view) -> str | None:
        username = _posted(request, "username")
        if not username:
            return None
        return self.key(_digest(f"{username}\n{self.get_ident(request)}"))


class PasswordResetThrottle(_ScopedThrottle):
    """Password-reset requests per client address."""

    scope = "password_reset"

    def get_cache_key(self, request, view) -> str:
        return self.key(self.get_ident(request))


class PasswordResetEmailThrottle(_ScopedThrottle):
    """Password-reset mails to one e-mail address, whoever asks."""

    scope = "password_reset_email"

    def get_cache_key(self, request, view) -> str | None:
        email = _posted(request, "email")
        return self.key(_digest(email)) if email else None


class ReplayThrottle(_ScopedThrottle):
    """Replays of pasted logs per user, else per client address."""

    scope = "replay"

    def get_cache_key(self, request, view) -> str:
        user = getattr(request, "user", None)
        if getattr(user, "is_authenticated", False):
            return self.key(f"user-{user.pk}")
        return self.key(self.get_ident(request))


class ExportThrottle(_ScopedThrottle):
    """Anonymous reads of a whole-league export (the archive) per client address: the one
    public answer whose size grows with a league's history. Signed-in users are not
    counted (their requests are accounted to them)."""

    scope = "exports"

    def allow_request(self, request, view) -> bool:
        user = getattr(request, "user", None)
        if getattr(user, "is_authenticated", False):
            return True
        return SimpleRateThrottle.allow_request(self, request, view)

    def get_cache_key(self, request, view) -> str:
        return self.key(self.get_ident(request))


class SignupThrottle(_ScopedThrottle):
    """Sign-up attempts per client address and hour: accounts are not free."""

    scope = "signup"

    def get_cache_key(self, request, view) -> str:
        return self.key(self.get_ident(request))


class SignupDayThrottle(SignupThrottle):
    """Sign-up attempts per client address and day."""

    scope = "signup_day"


class LeagueCreateThrottle(_ScopedThrottle):
    """League creations per account (page or API): a league costs the site mails, pages
    and ratings work, and a flood of them buries the real ones (issue 32)."""

    scope = "league_create"

    def get_cache_key(self, request, view) -> str:
        user = getattr(request, "user", None)
        if getattr(user, "is_authenticated", False):
            return self.key(f"user-{user.pk}")
        return self.key(self.get_ident(request))


LOGIN_THROTTLES = [LoginThrottle, LoginAccountThrottle]
SIGNUP_THROTTLES = [SignupThrottle, SignupDayThrottle]
PASSWORD_RESET_THROTTLES = [PasswordResetThrottle, PasswordResetEmailThrottle]


def refused_for(request, throttles: Iterable[type[_ScopedThrottle]], view=None) -> int | None:
    """Check (and count) ``request`` against each throttle: ``None`` when it may go on,
    else the seconds to wait. Every throttle counts the request, so a refusal by one does
    not let the others forget it."""
    checked = [throttle() for throttle in throttles]
    refused = [t for t in checked if not t.allow_request(request, view)]
    if not refused:
        return None
    return max(1, math.ceil(max(t.wait() or 0 for t in refused)))


def too_many_requests(request, retry_after: int, *, offer_reset: bool = False):
    """The page a refused request gets (HTTP 429), in the reader's language."""

    context = {"retry_after": retry_after, "offer_reset": offer_reset}
    return render(request, "registration/throttled.html", context, status=429)


def throttled_view(
    throttles: Iterable[type[_ScopedThrottle]],
    respond: Callable[[Any, int], Any] = too_many_requests,
) -> Callable:
    """Decorate a page view: a request past a rate gets ``respond(request, retry_after)``
    (with ``Retry-After``) instead of the view. Only writes count: showing a page or its
    form (GET, HEAD, OPTIONS) uses none of the allowance."""
    throttles = list(throttles)

    def decorate(view_func):
        @wraps(view_func)  # its module and name too: the route tables find the view
        def wrapper(request, *args, **kwargs):
            if request.method in ("GET", "HEAD", "OPTIONS"):
                return view_func(request, *args, **kwargs)
            wait = refused_for(request, throttles)
            if wait is not None:
                response = respond(request, wait)
                response["Retry-After"] = str(wait)
                return response
            return view_func(request, *args, **kwargs)

        return wrapper

    return decorate
