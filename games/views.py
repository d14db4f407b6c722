"""Responses for game logs: the raw log, the replay viewer's JSON, and a page that replays
any pasted log without storing it. ``games`` knows logs, not leagues: who may see a log is
decided by the caller (``tournaments.views``) before it calls these."""

from __future__ import annotations

import json

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import quote_etag
from django.utils.translation import get_language

from games.engine import InvalidLog
from games.geometry import board_layout
from games.models import GameLog
from games.replay import replay_json
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


def replay_any(request):
    """Paste (or upload) any maedn-log/1 log and watch it; nothing is stored."""
    text = ""
    error = None
    data = None
    board = 4
    if request.method == "POST":
        upload = request.FILES.get("file")
        text = request.POST.get("content", "")
        raw = upload.read() if upload else text
        try:
            checked = game_log_check(raw)
        except LogRejected as exc:
            where = f" (event {exc.event})" if exc.event is not None else ""
            error = f"{exc.message}{where}"
        else:
            text = checked.text
            board = checked.data.get("board", 4)
            data = json.loads(replay_json(checked.text))
    status = 400 if error else 200
    context = {
        "text": text,
        "error": error,
        "replay": data,
        "layout": board_layout(board) if data else None,
    }
    return render(request, "games/replay_any.html", context, status=status)
