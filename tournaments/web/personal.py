"""Signed-in pages stored per account and revision (docs/pages.md, "Stored renderings"):
My games, My leagues, a league's manage page and results desk. The whole page, the site's
header included, is rendered once per account, revision of what it shows (``stamp``, one
SQL statement the page's view reads), the header's own state (the account's name and
flags, the inbox count), language, scheme, host and full path, and code
(``rendering_version``), then served as stored bytes. Per visit stay: the session (from
the cache, ``config.sessions``), the user, the stamp, the inbox count and the forms' CSRF
tokens (the stored page holds a
placeholder, each visit puts in its own token: ``csrf_placeholder``). A visit with a
pending message is rendered afresh (the messages are shown once) and not stored; a page
that changes with the clock says until when its rendering holds (``until``, a Unix time).
The stamp and the inbox count are read in one statement (``read_stamp``)."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache as memoize
from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template import engines
from django.utils.crypto import salted_hmac
from django.utils.translation import get_language

from notifications.context_processors import unread_known
from notifications.services import unread
from tournaments.web.caching import REVISED_PAGE_SECONDS, rendering_version


@memoize
def csrf_placeholder() -> str:
    """What a stored page holds in place of each form's CSRF token: derived from the
    secret key (the same in every process sharing the cache, unguessable, so no name a
    visitor types can contain it)."""
    return "csrf-" + salted_hmac("tournaments.me.csrf", "placeholder").hexdigest()[:32]


@dataclass(frozen=True)
class Stamp:
    """What a stored page is keyed by: one SQL statement giving one row (none: nothing to
    key on, the page is rendered), its parameters, and the row made text."""

    sql: str
    params: tuple
    text: Callable[[tuple], str]


#: no account has this id: the unread count's statement is compiled once with it in place
_SOMEONE = -987_654_321


@memoize
def _unread_statement() -> tuple[str, tuple]:
    """The header's count as a sub-select (notifications' own query, compiled once)."""
    sql, params = unread(_SOMEONE).order_by().values("pk").query.sql_with_params()
    return f"(SELECT count(*) FROM ({sql}) AS unread)", params


def read_stamp(request: HttpRequest, stamp: Stamp) -> str | None:
    """The page's stamp and the header's inbox count in one statement (the count then
    known to the header: no second query); None when the stamp's statement finds no row
    or the database keeps no revision (SQLite)."""
    if connection.vendor != "postgresql":
        return None
    unread_sql, unread_params = _unread_statement()
    user_id = request.user.pk
    params = [user_id if p == _SOMEONE else p for p in unread_params] + list(stamp.params)
    sql = f"SELECT {unread_sql}, s.* FROM (SELECT 1) AS one LEFT JOIN ({stamp.sql}) AS s ON true"
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        count, *found = cursor.fetchone()
    unread_known(request, count)
    return None if found[0] is None else stamp.text(tuple(found))


def header_state(request: HttpRequest) -> str:
    """What the site's header shows of the visitor: their account, name and flags and
    their inbox count (read with the stamp, ``read_stamp``)."""
    user = request.user
    name = f"{user.get_username()}|{user.is_staff}|{user.is_superuser}|{user.is_active}"
    name = hashlib.blake2b(name.encode(), digest_size=12).hexdigest()
    return f"{user.pk}-{name}-{_unread_count(request)}"


def _unread_count(request: HttpRequest):
    """The header's inbox count, as the header asks it (the template engine's context
    processors; known without a query once ``read_stamp`` read it)."""
    for processor in engines["django"].engine.template_context_processors:
        value = processor(request).get("unread_notifications")
        if value is not None:
            return value() if callable(value) else value
    return None


#: what a page's view renders: ``render_page(csrf_token)`` gives the response, until when
#: it holds (a Unix time; None: until the stamp changes) and what ``finish`` needs
Rendered = tuple[HttpResponse, float | None, Any]


def personal_page(
    request: HttpRequest,
    scope: str,
    stamp: Stamp | None,
    render_page: Callable[[str], Rendered],
    finish: Callable[[bytes, Any], bytes] | None = None,
) -> HttpResponse:
    """The page from the store, or ``render_page(csrf_token)`` rendered with the
    placeholder and stored. ``finish(content, extra)`` puts in what each visit mints
    afresh besides the CSRF token (signed links that hold the time of signing), from the
    ``extra`` ``render_page`` gave. ``stamp`` None or finding no row (no revision kept:
    SQLite; or nothing exact to key on) renders afresh with the visit's own token; so does
    a visit with a pending message."""
    token = get_token(request)  # the visit's own; sets the cookie as the tag would
    stamp = read_stamp(request, stamp) if stamp is not None else None
    if stamp is None or len(messages.get_messages(request)):
        response, _until, extra = render_page(token)
        if finish is not None and not response.streaming:
            response.content = finish(response.content, extra)
        return response
    where = f"{request.scheme}://{request.get_host()}{request.get_full_path()}"
    where = hashlib.blake2b(where.encode(), digest_size=16).hexdigest()
    key = (
        f"personal-page:{rendering_version()}:{scope}:{header_state(request)}:{stamp}:"
        f"{get_language()}:{where}"
    )
    stored = cache.get(key)
    if stored is not None and (stored[2] is None or time.time() < stored[2]):
        content, content_type, _until, extra = stored
    else:
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


def _with_token(content: bytes, token: str) -> bytes:
    return content.replace(csrf_placeholder().encode(), token.encode())
