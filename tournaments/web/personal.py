"""Signed-in pages stored per account and revision (docs/pages.md, "Stored renderings"):
My games, My leagues, a league's manage page and results desk. The whole page, the site's
header included, is rendered once per account, the header's own state (the account's name
and flags, the inbox count), what the account is to the league (manage, desk: staff, owner
or co-organizer), the revision of what the page shows (its stamp), language, scheme, host,
path and the page's known query (``Page.variants``), and code (``rendering_version``),
then served as stored bytes.

**A visit is the session and one statement** (``visit_statement``): the account's row (its
password hash, active flag, name and flags), the inbox count, for a league's page whether
the account organizes the league (``permissions.IS_ORGANIZER_SQL``) and the page's stamp.
``stored_visit`` answers from it before anything reads ``request.user``: it checks the
session as ``django.contrib.auth.get_user`` does (the model backend, an active account,
the session's hash of the password) and the organizer rights, every visit, from the
database; when any check fails, the stamp finds nothing or nothing is stored, the view
runs as it always did (``login_required``, the league's 403/404) and ``personal_page``
renders and stores. Each visit puts its own CSRF token in place of a placeholder
(``csrf_placeholder``); a visit with a pending message is rendered afresh (the messages
are shown once) and not stored; a page that changes with the clock says until when its
rendering holds (``until``, a Unix time)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache as memoize
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.core.cache import cache
from django.db import connection
from django.db.models.expressions import RawSQL
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.middleware.csrf import get_token
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import get_language

from notifications.context_processors import unread_known
from notifications.services import unread
from tournaments.permissions import IS_ORGANIZER_SQL, ORGANIZER_ROLE_SQL
from tournaments.web.caching import REVISED_PAGE_SECONDS, rendering_version

#: the one authentication backend whose sessions a stored visit checks itself (any other
#: backend's visits take the view's way, ``login_required``)
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


@memoize
def csrf_placeholder() -> str:
    """What a stored page holds in place of each form's CSRF token: derived from the
    secret key (the same in every process sharing the cache, unguessable, so no name a
    visitor types can contain it)."""
    return "csrf-" + salted_hmac("tournaments.me.csrf", "placeholder").hexdigest()[:32]


@dataclass(frozen=True)
class Page:
    """A signed-in page kept per account. ``stamp_sql`` is one statement giving one row
    (none: nothing to key on, the page is rendered each time) with one parameter: the
    account's id, or with ``league`` the league's address (the visitor must organize it);
    ``text`` makes the row the stamp's text. ``kinds``: a league's page is stored only
    for leagues of these event kinds (the desk: an open event's clock is rendered each
    time). ``variants``: the query parameters with a stored page of their own and their
    known values; any other query string is sent to the page without it (no stored page
    per address a visitor makes up). ``finish(content, extra)`` puts in what each visit
    mints afresh besides the CSRF token (signed links that hold the time of signing),
    from the ``extra`` the page's rendering gave."""

    scope: str
    stamp_sql: str
    text: Callable[[tuple], str]
    league: bool = False
    kinds: tuple[str, ...] = ()
    variants: tuple[tuple[str, tuple[str, ...]], ...] = ()
    finish: Callable[[bytes, Any], bytes] | None = None

    def query(self, request: HttpRequest) -> str:
        """The page's own query string of the request (its known variants, in order)."""
        parts = []
        for name, known in self.variants:
            value = request.GET.get(name)
            if value in known:
                parts.append(f"{name}={value}")
        return "&".join(parts)


def unknown_query(request: HttpRequest, page: Page) -> HttpResponse | None:
    """A redirect to the page with its known query alone when the request's query string
    is anything else (``/me/?games=x`` → ``/me/``); None when it is the page's own."""
    own = page.query(request)
    if request.META.get("QUERY_STRING", "") == own:
        return None
    return HttpResponseRedirect(request.path + (f"?{own}" if own else ""))


@memoize
def _unread_sql() -> tuple[str, tuple]:
    """The header's count of the account ``u`` of the enclosing statement, as a sub-select
    (notifications' own query, compiled once, the account a column, not a parameter)."""
    query = unread(RawSQL("u.id", ())).order_by().values("pk").query
    sql, params = query.sql_with_params()
    return f"(SELECT count(*) FROM ({sql}) AS unread)", tuple(params)


@memoize
def visit_statement(page: Page) -> tuple[str, tuple]:
    """The one statement of a visit, and the parameters it binds before the league's, the
    stamp's and the account's (``read_visit`` appends them): the account's password hash,
    active flag, name and flags; the inbox count; for a league's page the league's id and
    what the account is to it (nulls where it does not organize it or the league is not of
    ``kinds``); then the stamp's columns (nulls: no row)."""
    unread_sql, params = _unread_sql()
    league, join = "NULL, NULL", ""
    if page.league:
        league = f"l.id, {ORGANIZER_ROLE_SQL}"
        kinds = ", ".join(["%s"] * len(page.kinds))
        join = f" LEFT JOIN tournaments_league l ON l.slug = %s AND {IS_ORGANIZER_SQL}" + (
            f" AND l.event_kind IN ({kinds})" if page.kinds else ""
        )
    sql = (
        f"SELECT u.password, u.is_active, u.username, u.is_staff, u.is_superuser, {unread_sql},"
        f" {league}, s.* FROM auth_user u{join} LEFT JOIN ({page.stamp_sql}) AS s ON true"
        " WHERE u.id = %s"
    )
    return sql, params


@dataclass(frozen=True)
class Visit:
    """What the statement found: whether the session holds, the header's state, the
    league's id and the account's role in it, and the stamp (None: nothing to key on)."""

    verified: bool
    header: str
    unread: int
    league_id: int | None
    role: str | None
    stamp: str | None


def read_visit(
    page: Page, user_id: int, session_hash: str | None, slug: str | None
) -> Visit | None:
    """The visit's one statement for account ``user_id`` (None: no such account)."""
    sql, params = visit_statement(page)
    subject = slug if page.league else user_id
    league = (slug, *page.kinds) if page.league else ()
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *league, subject, user_id])
        found = cursor.fetchone()
    if found is None:
        return None
    password, active, username, staff, superuser, count, league_id, role, *stamp = found
    verified = (
        bool(active) and session_hash is not None and _hash_matches(user_id, password, session_hash)
    )
    name = hashlib.blake2b(
        f"{username}|{staff}|{superuser}|{active}".encode(), digest_size=12
    ).hexdigest()
    text = None if stamp[0] is None else page.text(tuple(stamp))
    return Visit(verified, f"{user_id}-{name}-{count}", count, league_id, role, text)


def _hash_matches(user_id: int, password: str, session_hash: str) -> bool:
    """The session's hash of the account's password, as ``django.contrib.auth.get_user``
    checks it (the current secret key; a session signed with a fallback key takes the
    view's way, where Django renews it)."""
    user = get_user_model()(pk=user_id, password=password)
    return constant_time_compare(session_hash, user.get_session_auth_hash())


def _session_account(request: HttpRequest) -> tuple[int, str | None] | None:
    """The account id and password hash the session holds when it was signed in through
    the model backend (None: anonymous, another backend, a malformed session)."""
    session = getattr(request, "session", None)
    if session is None:
        return None
    backend = session.get(BACKEND_SESSION_KEY)
    if backend != MODEL_BACKEND or backend not in settings.AUTHENTICATION_BACKENDS:
        return None
    try:
        return int(session[SESSION_KEY]), session.get(HASH_SESSION_KEY)
    except (KeyError, TypeError, ValueError):
        return None


def _key(request: HttpRequest, page: Page, visit: Visit) -> str:
    where = f"{request.scheme}://{request.get_host()}{request.path}?{page.query(request)}"
    where = hashlib.blake2b(where.encode(), digest_size=16).hexdigest()
    scope = page.scope if visit.league_id is None else f"{page.scope}-{visit.league_id}"
    role = visit.role or "-"
    return (
        f"personal-page:{rendering_version()}:{scope}:{role}:{visit.header}:{visit.stamp}:"
        f"{get_language()}:{where}"
    )


def _pending_messages(request: HttpRequest) -> bool:
    return bool(len(messages.get_messages(request)))


def stored_visit(request: HttpRequest, page: Page, slug: str | None = None) -> HttpResponse | None:
    """The stored page for this visit, read with the session and one statement before
    anything reads ``request.user``; None (the view then runs) when the session does not
    hold a model-backend sign-in whose hash matches an active account, when the account
    does not organize the league (a league's page), when the stamp finds nothing or the
    database keeps no revision (SQLite), when a message is pending, and when nothing is
    stored under the key (the view renders and stores it)."""
    if connection.vendor != "postgresql":
        return None
    account = _session_account(request)
    if account is None or _pending_messages(request):
        return None
    user_id, session_hash = account
    visit = read_visit(page, user_id, session_hash, slug)
    if visit is None or not visit.verified or visit.stamp is None:
        return None
    if page.league and visit.league_id is None:
        return None  # not an organizer (or not stored for this league): the view says so
    key = _key(request, page, visit)
    # the view, if it runs, reads the same statement for the same account: no second one
    request._personal_visit = (page, user_id, slug, visit)
    return _from_store(request, key, page)


def _from_store(request: HttpRequest, key: str, page: Page) -> HttpResponse | None:
    stored = cache.get(key)
    if stored is None or (stored[2] is not None and time.time() >= stored[2]):
        return None
    content, content_type, _until, extra = stored
    content = _with_token(content, get_token(request))
    if page.finish is not None:
        content = page.finish(content, extra)
    return HttpResponse(content, content_type=content_type)


#: what a page's view renders: ``render_page(csrf_token)`` gives the response, until when
#: it holds (a Unix time; None: until the stamp changes) and what ``finish`` needs
Rendered = tuple[HttpResponse, float | None, Any]


def personal_page(
    request: HttpRequest,
    page: Page,
    render_page: Callable[[str], Rendered],
    slug: str | None = None,
) -> HttpResponse:
    """The view's way (the visitor signed in, the league's rights checked by the view):
    the page from the store, or ``render_page(csrf_token)`` rendered with the placeholder
    and stored. The stamp's row finding nothing (no revision kept: SQLite; nothing exact
    to key on) renders afresh with the visit's own token; so does a visit with a pending
    message."""
    finish = page.finish
    token = get_token(request)  # the visit's own; sets the cookie as the tag would
    visit = _visit_of(request, page, slug)
    if visit is not None:
        unread_known(request, visit.unread)
    if visit is None or visit.stamp is None or _pending_messages(request):
        response, _until, extra = render_page(token)
        if finish is not None and not response.streaming:
            response.content = finish(response.content, extra)
        return response
    key = _key(request, page, visit)
    found = _from_store(request, key, page)
    if found is not None:
        return found
    response, until, extra = render_page(csrf_placeholder())
    if response.streaming or response.status_code != 200:
        if not response.streaming:  # not stored: its tokens are the visit's
            content = _with_token(response.content, token)
            response.content = finish(content, extra) if finish else content
        return response
    content, content_type = response.content, response["Content-Type"]
    cache.set(key, (content, content_type, until, extra), REVISED_PAGE_SECONDS)
    content = _with_token(content, token)
    if finish is not None:
        content = finish(content, extra)
    return HttpResponse(content, content_type=content_type)


def _visit_of(request: HttpRequest, page: Page, slug: str | None) -> Visit | None:
    """The visit's statement for the signed-in visitor: the one ``stored_visit`` read for
    this account and page, or read now. None where no revision is kept (SQLite) or the
    visitor organizes no league of this page (a race with a removal: rendered, not
    stored)."""
    if connection.vendor != "postgresql":
        return None
    known = getattr(request, "_personal_visit", None)
    if known is not None and known[:3] == (page, request.user.pk, slug):
        return known[3]
    visit = read_visit(page, request.user.pk, None, slug)
    if visit is None or (page.league and visit.league_id is None):
        return None
    return visit


def _with_token(content: bytes, token: str) -> bytes:
    return content.replace(csrf_placeholder().encode(), token.encode())
