"""The ratings in the admin: the rating officers' decisions, read-only (issue 32). A decision
is written only by ``ratings.services.rated_leagues.league_rating_decide``."""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse

from ratings.models import LeagueRatingDecision
from ratings.services.rated_leagues import league_rating_decide
from tournaments.admin import ReadOnlyAdmin
from tournaments.services.errors import ServiceError


@admin.register(LeagueRatingDecision)
class LeagueRatingDecisionAdmin(ReadOnlyAdmin):
    """Every request for a rating and every rating officer's decision, read-only, with
    filters. A decision is written only by ``league_rating_decide`` (it replays the
    league's games into or out of the ratings): from the officers' queue
    (``/rating-requests/``, which asks for the reason a refusal or a withdrawal needs), or
    here by the action that approves open requests through that service."""

    list_display = [
        "league",
        "state",
        "league_rated",
        "requested_by",
        "requested_at",
        "note",
        "decided_by",
        "decided_at",
        "reason",
    ]
    list_filter = ["state", "league__rated", "decided_at", "requested_at"]
    list_select_related = ["league", "requested_by", "decided_by"]
    search_fields = [
        "league__name",
        "league__slug",
        "requested_by__username",
        "decided_by__username",
        "reason",
        "note",
    ]
    date_hierarchy = "requested_at"
    actions = ["approve"]

    @admin.display(description="league rated now", boolean=True)
    def league_rated(self, obj) -> bool:
        return obj.league.rated

    def changelist_view(self, request, extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "subtitle": "refuse or withdraw (with a reason) on "
            + reverse("tournaments:rating-requests"),
        }
        return super().changelist_view(request, extra_context)

    @admin.action(description="Approve the selected open requests (rates their leagues)")
    def approve(self, request, queryset):
        done = 0
        for decision in queryset.filter(state=LeagueRatingDecision.State.REQUESTED).select_related(
            "league"
        ):
            try:
                league_rating_decide(
                    league=decision.league,
                    by=request.user,
                    rated=True,
                    reason="approved in the admin",
                )
                done += 1
            except ServiceError as exc:
                self.message_user(request, f"{decision.league}: {exc.message}", level="error")
        self.message_user(request, f"{done} league(s) rated")
