"""Creating a league on the site: a format template to start from, then every setting of
``league_create`` (rules preset with its option table, overrides, DRRs, playoffs,
tie-break precedence, points, confirmation, privacy, registration)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.throttles import LeagueCreateThrottle, throttled_view
from tournaments.permissions import organize_refusal
from tournaments.services import leagues as league_services
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.league_settings import TEMPLATES
from tournaments.web.lookups import organized_league
from tournaments.web.organize_forms import LeagueForm, LeagueSettingsForm, preset_table


@login_required
@require_http_methods(["GET", "POST"])
@throttled_view([LeagueCreateThrottle])
def league_create(request):
    refusal = organize_refusal(request.user)
    template = TEMPLATES.get(request.GET.get("template", ""))
    if request.method != "POST":
        form = LeagueForm(initial=LeagueForm.initial_for(template))
        return _create_page(request, form, template, refusal)
    form = LeagueForm(request.POST)
    if not form.is_valid():
        return _create_page(request, form, template, refusal, status=400)
    try:
        league = league_services.league_create(owner=request.user, **form.service_kwargs())
    except ServiceError as exc:
        form.add_service_error(exc)
        return _create_page(request, form, template, refusal, status=_status(exc))
    messages.success(
        request,
        _("%(name)s was created. Now enter or invite the players.") % {"name": league.name},
    )
    return redirect("tournaments:manage", slug=league.slug)


def _status(exc: ServiceError) -> int:
    return 403 if isinstance(exc, NotAllowed) else 400


def _create_page(request, form, template, refusal, *, status: int = 200):
    """The form, with the presets' option table; 403 while the account may not organize
    (``refusal`` says why and how)."""
    presets, options = preset_table()
    return render(
        request,
        "tournaments/organize/league_create.html",
        {
            "form": form,
            "templates": TEMPLATES.values(),
            "template": template,
            "presets": presets,
            "options": options,
            "refusal": refusal,
        },
        status=403 if refusal else status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def league_settings(request, slug: str):
    """An existing league's settings, through ``league_update``: the same form and the
    same specifications as creating it, with what is fixed by now shown but disabled."""
    league = organized_league(request, slug)
    form = LeagueSettingsForm(request.POST or None, league=league)
    if request.method != "POST":
        return _settings_page(request, league, form)
    if not form.is_valid():
        return _settings_page(request, league, form, status=400)
    try:
        league_services.league_update(league=league, by=request.user, **form.update_kwargs())
    except ServiceError as exc:
        form.add_service_error(exc)
        return _settings_page(request, league, form, status=_status(exc))
    messages.success(request, _("The settings are saved."))
    return redirect("tournaments:manage", slug=league.slug)


def _settings_page(request, league, form, *, status: int = 200):
    presets, options = preset_table()
    return render(
        request,
        "tournaments/organize/league_settings.html",
        {"form": form, "league": league, "presets": presets, "options": options, "tab": "manage"},
        status=status,
    )
