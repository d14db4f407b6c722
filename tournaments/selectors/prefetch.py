"""Prefetches shared by the selectors: a fixture's seats with their players, and its
confirmed results."""

from __future__ import annotations

from django.db.models import Prefetch

from tournaments.models import (
    Result,
    Seat,
)


def seats_prefetch() -> Prefetch:
    # the player's current rating rides along (a join, no extra query) for names on pages
    return Prefetch("seats", queryset=Seat.objects.select_related("entry__player__rating"))


def confirmed_prefetch() -> Prefetch:
    return Prefetch(
        "results",
        queryset=Result.objects.filter(state=Result.State.CONFIRMED)
        .select_related("winner__player")
        .defer("reason", "decision_note"),
        to_attr="confirmed_results",
    )
