"""Responses for game logs: the raw log, the replay viewer's JSON, and a page that replays
any pasted log without storing it. ``games`` knows logs, not leagues: who may see a log is
decided by the caller (``tournaments.views``) before it calls these."""

from __future__ import annotations

import json
import secrets
from contextlib import contextmanager

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine import InvalidLog
from games.error_text import engine_error_text
from games.geometry import board_layout
from games.models import GameLog
from games.replay import replay_data, replay_json
from games.services import LogRejected, game_log_check


def log_response(request, log: GameLog, *, filename: str) -> HttpResponse:
    """The stored log, byte for byte as uploaded."""
    etag = quote_etag(log.sha256)
    response = get_conditional_response(request, etag=etag)
    if response is None:
        response = HttpResponse(log.content, content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["ETag"] = etag
    response["X-Content-Type-Options"] = "nosniff"
    return response


def replay_response(request, log: GameLog, *, players=None, colour_names=None) -> HttpResponse:
    """The replay viewer's JSON for a stored log (cached; 304 when the client has it)."""
    etag = quote_etag(f"{log.sha256}-{get_language()}")
    response = get_conditional_response(request, etag=etag)
    if response is None:
        try:
            text = replay_json(log.content, players=players, colour_names=colour_names)
        except InvalidLog as exc:  # stored before an engine change that now refuses it
            return JsonResponse({"error": str(exc)}, status=422)
        response = HttpResponse(text, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


def anonymous_replay_limit() -> int:
    """The largest log (bytes) a visitor who is not logged in may replay on ``/replay/``:
    bounds what one anonymous request costs (``REPLAY_ANONYMOUS_MAX_BYTES``)."""
    return int(getattr(settings, "REPLAY_ANONYMOUS_MAX_BYTES", 64 * 1024))


def replay_page_max_events() -> int:
    """The most events ``/replay/`` draws for anyone (``REPLAY_PAGE_MAX_EVENTS``): the
    validator checks the whole log (fast, and bounded by game-log.md's limits), but the
    replay's step list — the costly part, about 0.13 ms and 110 bytes of page an event —
    stops there, so one request costs at most about half a second whatever is pasted."""
    return max(1, int(getattr(settings, "REPLAY_PAGE_MAX_EVENTS", 3000)))


#: a pasted log up to this size is shown again in the form; a larger one is not echoed
#: (a 1.5 MB log once came back as 1.5 MB of page)
ECHO_MAX_BYTES = 256 * 1024


def _replay_before(raw, event: int | None):
    """The replay of a refused log's events before the offending one (the position where it
    was refused), and that step; ``(None, None)`` when the log cannot be read that far or
    the offending event lies beyond what the page draws (``replay_page_max_events``)."""
    if not event or event > replay_page_max_events():
        return None, None
    try:
        log = json.loads(raw)
        log["events"] = log["events"][:event]
        prefix = json.dumps(log)
        checked = game_log_check(prefix)
    except Exception:
        return None, None
    return replay_data(checked.text, cache=False), event


def _replay_shown(checked) -> tuple[dict, int]:
    """The replay data of an accepted log, cut at ``replay_page_max_events`` events, and how
    many events it shows."""
    cap = replay_page_max_events()
    events = checked.data.get("events") or []
    if len(events) <= cap:
        return replay_data(checked.text, cache=False), len(events)
    head = json.dumps({**checked.data, "events": events[:cap]})
    return replay_data(head, cache=False), cap


#: a replay's slot frees itself after this long, should its worker die holding it
REPLAY_SLOT_SECONDS = 30


@contextmanager
def replay_slot():
    """One of the ``REPLAY_CONCURRENT`` slots of the site for checking and drawing a pasted
    log (h-trust, issue 32 point 10): yields True while holding it, False when all are
    taken (the caller answers 503 at once). Slots are ``cache.add`` keys in the shared
    cache (atomic in Redis; per process on the in-memory fallback of an outage), each
    released by its holder and expiring after ``REPLAY_SLOT_SECONDS``."""
    limit = int(getattr(settings, "REPLAY_CONCURRENT", 1))
    if limit <= 0:
        yield True
        return
    token = secrets.token_hex(8)
    for number in range(limit):
        key = f"replay-slot:{number}"
        if cache.add(key, token, timeout=REPLAY_SLOT_SECONDS):
            try:
                yield True
            finally:
                if cache.get(key) == token:
                    cache.delete(key)
            return
    yield False


def replay_any(request):
    """Paste (or upload) any maedn-log/1 log and watch it; nothing is stored, nothing is
    cached (the page is this visitor's alone). Throttled per visitor where it is mounted
    (``tournaments/web/urls.py``)."""
    text = ""
    error = None
    if request.method == "POST":
        upload = request.FILES.get("file")
        text = request.POST.get("content", "")
        limit = None if request.user.is_authenticated else anonymous_replay_limit()
        size = upload.size if upload else len(text.encode("utf-8", "replace"))
        if limit is not None and size > limit:
            error = _("Logs larger than %(limit)s KB can be replayed after logging in.") % {
                "limit": f"{limit // 1024:,}"
            }
            text = ""  # not echoed back either: that is what costs
        else:
            with replay_slot() as free:
                if not free:
                    return _replay_busy(request)
                return _replay_posted(request, upload, text)
    return _replay_render(request, text, error)


def _replay_busy(request):
    response = render(
        request,
        "games/replay_any.html",
        {
            "text": "",
            "error": _("Many logs are being replayed right now; try again in a few seconds."),
        },
        status=503,
    )
    response["Retry-After"] = "5"
    return response


def _replay_render(request, text, error, **found):
    status = 400 if error else 200
    context = {
        "text": text,
        "error": error,
        "start_step": found.get("start_step"),
        "replay": found.get("data"),
        "layout": board_layout(found.get("board", 4)) if found.get("data") else None,
        "shown_events": found.get("shown"),
        "total_events": found.get("total"),
        "cut": found.get("shown") is not None
        and found.get("total") is not None
        and found["total"] > found["shown"],
        "not_echoed": found.get("not_echoed"),
    }
    return render(request, "games/replay_any.html", context, status=status)


def _replay_posted(request, upload, text):
    """A pasted or uploaded log checked and drawn (inside a replay slot)."""
    error = data = start_step = shown = total = not_echoed = None
    board = 4
    raw = upload.read() if upload else text
    try:
        checked = game_log_check(raw, storing=False)  # nothing is stored here
    except LogRejected as exc:
        # events are numbered from 1 on every page, as the replay counts them
        # the engine's coded error in the reader's language (games.error_text)
        where = _(" (event %(n)s)") % {"n": exc.event + 1} if exc.event is not None else ""
        error = f"{engine_error_text(exc.message)}{where}"
        data, start_step = _replay_before(raw, exc.event)
    else:
        text = checked.text
        board = checked.data.get("board", 4)
        data, shown = _replay_shown(checked)
        total = checked.verdict.get("events", shown)
    size = len(raw.encode("utf-8", "replace")) if isinstance(raw, str) else len(raw)
    if size > ECHO_MAX_BYTES:
        text, not_echoed = "", size
    return _replay_render(
        request,
        text,
        error,
        start_step=start_step,
        data=data,
        board=board,
        shown=shown,
        total=total,
        not_echoed=not_echoed,
    )
