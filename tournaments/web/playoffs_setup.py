"""The playoffs, for organizers: a preview of the bracket from the current table (seeds,
players, head starts and why), then drawing it (``playoffs_generate``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.services import playoffs as playoff_services
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.web.lookups import organized_league


@login_required
@require_http_methods(["GET", "POST"])
def playoffs_setup(request, slug: str):
    league = organized_league(request, slug)
    error, status = None, 200
    if request.method == "POST":
        try:
            playoff_services.playoffs_generate(league=league, by=request.user)
        except ServiceError as exc:
            error, status = exc.localized(), 403 if isinstance(exc, NotAllowed) else 400
        else:
            messages.success(request, _("The playoffs are drawn; the first games are scheduled."))
            return redirect("tournaments:playoffs", slug=league.slug)
    preview = None
    try:
        preview = playoff_services.playoffs_preview(league)
    except ServiceError as exc:
        error = error or exc.localized()
    return render(
        request,
        "tournaments/organize/playoffs_setup.html",
        {
            "league": league,
            "tab": "manage",
            "preview": preview,
            "drawn": league.series.exists(),
            "form_error": error,
        },
        status=status,
    )
