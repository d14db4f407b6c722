"""A flood of ``/replay/`` posts is refused before its body is read (h-trust, issue 32
point 10): while every ``REPLAY_CONCURRENT`` slot of the site is taken
(``games.views.replay_slot``), a POST to the replay page is answered 503 with
``Retry-After`` at once — before the CSRF check parses a 1.5 MB multipart body, so a
refusal costs a web worker almost nothing and a visitor's page is not queued behind them.
The view still takes its slot atomically (a post that passes here while the last slot is
taken meanwhile is refused there)."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _


def replay_slots_full() -> bool:
    limit = int(getattr(settings, "REPLAY_CONCURRENT", 1))
    if limit <= 0:
        return False
    taken = cache.get_many([f"replay-slot:{number}" for number in range(limit)])
    return len(taken) >= limit


def replay_busy_response() -> HttpResponse:
    response = HttpResponse(
        _("Many logs are being replayed right now; try again in a few seconds.") + "\n",
        status=503,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = "5"
    return response


class ReplayBusyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.path = None

    def __call__(self, request):
        if request.method == "POST":
            if self.path is None:
                self.path = reverse("tournaments:games:replay")
            if request.path_info == self.path and replay_slots_full():
                return replay_busy_response()
        return self.get_response(request)
