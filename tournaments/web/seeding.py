"""Seeding and the schedule, for organizers: seed the next DRR (the platform draws the die
rolls reproducibly, or the organizer types a real die's rolls), set round dates and
deadlines, reorder G4–G6 of a three-player DRR after a preview, reschedule one game."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.algorithms import recurrence
from tournaments.algorithms.errors import AlgorithmError
from tournaments.models import Cycle, Entry
from tournaments.permissions import is_organizer
from tournaments.selectors import schedule as schedule_selectors
from tournaments.services import schedule as schedule_services
from tournaments.services.errors import NotAllowed, ServiceError, from_algorithm
from tournaments.services.events import fixture_start_record
from tournaments.web.lookups import fixture_or_404, organized_league
from tournaments.web.organize_forms import DatesForm, LateOrderForm, RecurrenceForm, SeedForm


def _status(exc: ServiceError) -> int:
    return 403 if isinstance(exc, NotAllowed) else 400


def _seed_context(league, **extra) -> dict:
    cycles = list(league.cycles.order_by("number"))
    blocks = [b for b in schedule_selectors.schedule(league) if b.title_kind == "cycle"]
    return {
        "league": league,
        "tab": "manage",
        "cycles": cycles,
        "blocks": blocks,
        "next_number": len(cycles) + 1,
        "can_seed": len(cycles) < league.drr_count and league.event_kind == league.EventKind.LEAGUE,
        "players": list(
            league.entries.filter(state=Entry.State.ACCEPTED, withdrawn_at__isnull=True)
            .select_related("player")
            .order_by("player__name")
        ),
        "waiting": schedule_services.unaccepted_entries(league),
        "seed_form": extra.pop("seed_form", None) or SeedForm(),
        "dates_form": DatesForm(),
        "recurrence_form": extra.pop("recurrence_form", None) or RecurrenceForm(),
        "time_zone": settings.TIME_ZONE,
        "late_form": LateOrderForm(),
        **extra,
    }


@login_required
@require_http_methods(["GET", "POST"])
def seed(request, slug: str):
    league = organized_league(request, slug)
    if request.method == "GET":
        return render(request, "tournaments/organize/seed.html", _seed_context(league))
    form = SeedForm(request.POST)
    if not form.is_valid():
        return render(
            request,
            "tournaments/organize/seed.html",
            _seed_context(league, seed_form=form),
            status=400,
        )
    data = form.cleaned_data
    try:
        if data["method"] == "rolls":
            cycle = schedule_services.cycle_create(
                league=league, by=request.user, rolls=data["rolls_list"]
            )
        else:
            cycle = schedule_services.cycle_create(
                league=league, by=request.user, seed=data.get("seed")
            )
    except ServiceError as exc:
        form.add_error("rolls" if exc.field == "rolls" else None, exc.localized())
        return render(
            request,
            "tournaments/organize/seed.html",
            _seed_context(league, seed_form=form),
            status=_status(exc),
        )
    messages.success(
        request,
        _("DRR %(n)s is seeded and scheduled: %(games)s games.")
        % {"n": cycle.number, "games": cycle.fixtures.count()},
    )
    return redirect("tournaments:seed", slug=league.slug)


def _cycle(league, number: int) -> Cycle:
    cycle = league.cycles.filter(number=number).first()
    if cycle is None:
        raise Http404("no such DRR")
    return cycle


@login_required
@require_POST
def round_dates(request, slug: str, number: int, round_number: int):
    league = organized_league(request, slug)
    cycle = _cycle(league, number)
    form = DatesForm(request.POST)
    if not form.is_valid():
        return render(
            request,
            "tournaments/organize/seed.html",
            _seed_context(league, form_error=_("Enter dates as YYYY-MM-DD HH:MM.")),
            status=400,
        )
    try:
        n = schedule_services.round_dates_set(
            cycle=cycle, by=request.user, round_number=round_number, **form.cleaned_data
        )
    except ServiceError as exc:
        return render(
            request,
            "tournaments/organize/seed.html",
            _seed_context(league, form_error=exc.localized()),
            status=_status(exc),
        )
    messages.success(
        request,
        _("Round %(r)s of DRR %(n)s: %(games)s game(s) dated.")
        % {"r": round_number, "n": number, "games": n},
    )
    return redirect("tournaments:seed", slug=league.slug)


@login_required
@require_http_methods(["GET", "POST"])
def late_order(request, slug: str, number: int):
    """GET ?late_order=6,4,5 shows the DRR in that order; POST makes it so."""
    league = organized_league(request, slug)
    cycle = _cycle(league, number)
    form = LateOrderForm(request.POST if request.method == "POST" else request.GET or None)
    if not form.is_bound:
        return _late_order_page(request, league, cycle, form)
    if not form.is_valid():
        return _late_order_page(request, league, cycle, form, status=400)
    preview = None
    try:
        preview = schedule_services.late_order_preview(cycle, form.order())
        if request.method == "POST":
            schedule_services.cycle_reorder_late_games(
                cycle=cycle, by=request.user, late_order=form.order()
            )
            messages.success(request, _("G4–G6 are reordered."))
            return redirect("tournaments:schedule", slug=league.slug)
    except ServiceError as exc:
        return _late_order_page(
            request, league, cycle, form, preview, error=exc.localized(), status=_status(exc)
        )
    return _late_order_page(request, league, cycle, form, preview)


def _late_order_page(
    request, league, cycle, form, preview=None, *, error: str | None = None, status: int = 200
):
    """The DRR's late games in their current order and, for an order typed, in that one."""
    current = None
    if cycle.seeds.count() == 3:
        current = schedule_services.late_order_preview(cycle, list(cycle.late_order or [4, 5, 6]))
    return render(
        request,
        "tournaments/organize/late_order.html",
        {
            "league": league,
            "cycle": cycle,
            "form": form,
            "preview": preview,
            "current": current,
            "form_error": error,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def game_reschedule(request, pk: int):
    fixture = fixture_or_404(request, pk)
    if not is_organizer(request.user, fixture.league):
        raise PermissionDenied("only the league's organizers may reschedule a game")
    form = DatesForm(
        request.POST or None,
        initial={"scheduled_at": fixture.scheduled_at, "deadline": fixture.deadline},
    )
    if request.method != "POST":
        return _reschedule_page(request, fixture, form)
    if not form.is_valid():
        return _reschedule_page(request, fixture, form, status=400)
    try:
        schedule_services.fixture_reschedule(fixture=fixture, by=request.user, **form.cleaned_data)
    except ServiceError as exc:
        error = _error_at_field(form, exc)
        return _reschedule_page(request, fixture, form, error=error, status=_status(exc))
    messages.success(request, _("The game is rescheduled."))
    return redirect("tournaments:game", pk=fixture.pk)


def _error_at_field(form, exc: ServiceError) -> str | None:
    """The service's refusal next to the field it names (None then), else for the page."""
    if exc.field in form.fields:
        form.add_error(exc.field, exc.localized())
        return None
    return exc.localized()


def _reschedule_page(request, fixture, form, *, error: str | None = None, status: int = 200):
    return render(
        request,
        "tournaments/organize/reschedule.html",
        {"fixture": fixture, "league": fixture.league, "form": form, "form_error": error},
        status=status,
    )


@login_required
@require_POST
def game_start(request, pk: int):
    """An organizer sets a game's starting colour by hand, with a reason, where the rule
    cannot decide (the game that decides it has no finishing order: a forfeit, a result
    without a log). ``events.fixture_start_record`` refuses once the game has a result."""

    fixture = fixture_or_404(request, pk)
    if not is_organizer(request.user, fixture.league):
        raise PermissionDenied("only the league's organizers set a starting colour")
    try:
        fixture_start_record(
            fixture=fixture,
            by=request.user,
            colour=request.POST.get("colour", ""),
            reason=request.POST.get("reason", ""),
        )
    except ServiceError as exc:
        messages.error(request, exc.localized())
    else:
        messages.success(request, _("The starting colour is set."))
    return redirect("tournaments:game", pk=fixture.pk)


@login_required
@require_POST
def drr_dates(request, slug: str, number: int):
    """Date every round of a DRR in one step (``schedule.cycle_dates_recur``): "Preview"
    shows the dates, "Set the dates" stores them; each round stays editable below."""
    league = organized_league(request, slug)
    cycle = _cycle(league, number)
    form = RecurrenceForm(request.POST)
    if not form.is_valid():
        context = _seed_context(league, recurrence_form=form, recurrence_cycle=cycle.number)
        return render(request, "tournaments/organize/seed.html", context, status=400)
    data = form.cleaned_data
    if "apply" not in request.POST:
        rounds = sorted(set(cycle.fixtures.values_list("round", flat=True)))
        try:
            preview = recurrence.round_dates(
                data["first"],
                len(rounds),
                every_days=data["every_days"],
                due_hours=data.get("due_hours"),
                zone=settings.TIME_ZONE,
            )
        except AlgorithmError as exc:
            form.add_error(None, from_algorithm(exc).localized())
            preview = None
        context = _seed_context(
            league, recurrence_form=form, recurrence_cycle=cycle.number, preview=preview
        )
        return render(request, "tournaments/organize/seed.html", context)
    try:
        n = schedule_services.cycle_dates_recur(
            cycle=cycle,
            by=request.user,
            first=data["first"],
            every_days=data["every_days"],
            due_hours=data.get("due_hours"),
        )
    except ServiceError as exc:
        form.add_error(None, exc.localized())
        context = _seed_context(league, recurrence_form=form, recurrence_cycle=cycle.number)
        return render(request, "tournaments/organize/seed.html", context, status=_status(exc))
    messages.success(request, _("DRR %(n)s: %(games)s game(s) dated.") % {"n": number, "games": n})
    return redirect("tournaments:seed", slug=league.slug)
