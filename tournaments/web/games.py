"""A game's page: its result and history, the replay, and the forms to upload a log,
confirm, dispute or resolve (shown only to those whose action would be accepted:
``tournaments.permissions.result_actions``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.throttles import SubmissionThrottle, throttled_view
from games import views as game_views
from games.fair_dice import dice_check
from games.geometry import board_layout
from games.models import GameLog
from ratings.selectors import rated_leagues as rated_selectors
from ratings.selectors import ratings as rating_selectors
from tournaments.models import Fixture, Result
from tournaments.permissions import (
    CONFIRM,
    DISPUTE,
    ENTER,
    FORFEIT,
    RESOLVE,
    SEE_REJECTIONS,
    SUBMIT,
    VOID,
    ResultActions,
    analysis_retry_refusal,
    result_actions,
)
from tournaments.selectors import analyses as analysis_selectors
from tournaments.selectors import games as game_selectors
from tournaments.selectors import leagues as league_selectors
from tournaments.services import analyses as analysis_services
from tournaments.services import results as result_services
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.events import start_by_hand_refusal
from tournaments.web.caching import Revision, public_page
from tournaments.web.forms import DisputeForm, LogUploadForm, ResolveForm, log_upload_told
from tournaments.web.lookups import fixture_or_404, safe_next


def _result_of(fixture: Fixture, result_id: int) -> Result:
    for result in fixture.all_results:
        if result.pk == result_id:
            return result
    raise Http404("no such result")


def _can_retry_analysis(
    user, fixture: Fixture, actions: ResultActions, analysis: analysis_selectors.GameAnalysisView
) -> bool:
    """Whether the page offers "Analyse again": the shown analysis failed and the service
    would accept (organizers, analyses on, the counted log's analysis failed)."""
    if not actions.organizer or analysis is None or analysis.status != "failed":
        return False
    log, row = analysis_selectors.counted_log_analysis(fixture)
    return analysis_retry_refusal(user, fixture, row, counted_log=log is not None) is None


def _allowed(actions: ResultActions) -> dict[str, bool]:
    """What the visitor may do with the game's result (the page's buttons)."""
    return {
        "can_submit": actions.allows(SUBMIT),
        "can_confirm": actions.allows(CONFIRM),
        "can_dispute": actions.allows(DISPUTE),
        "can_resolve": actions.allows(RESOLVE),
        "can_enter": actions.allows(ENTER),
        "can_void": actions.allows(VOID),
        "can_forfeit": actions.allows(FORFEIT),
    }


def _log_context(result) -> dict:
    """The board of the shown result's log and, for a log played online, its dice checked
    against the seed it reveals."""
    if not (result and result.game_log):
        return {"layout": None, "dice": None}
    return {
        "layout": board_layout(result.game_log.board),
        "dice": dice_check(result.game_log.content),
    }


def _open_ties(fixture: Fixture, result) -> list:
    """The ties of a counted result still to be broken."""
    if result is not None and result.state == Result.State.CONFIRMED:
        return result_services.open_ties(fixture, result)
    return []


def _can_set_start(actions: ResultActions, fixture: Fixture) -> bool:
    """Whether the page offers an organizer to set the starting colour by hand."""
    return (
        actions.organizer
        and not fixture.starting_colour
        and fixture.status == Fixture.Status.SCHEDULED
        and start_by_hand_refusal(fixture) is None
    )


def _game_context(request, fixture: Fixture, **forms) -> dict:
    result = game_selectors.current_result(fixture)
    actions = result_actions(request.user, fixture, results=fixture.all_results)
    analysis = analysis_selectors.game_analysis(fixture, result)
    league_rating = rated_selectors.league_rating(fixture.league)  # h-trust: and the game's
    return {
        "league_rating": league_rating,
        "game_rating": rated_selectors.game_rating(fixture, result, league_rating),
        "league": fixture.league,
        "fixture": fixture,
        "seats": list(fixture.seats.all()),
        "entry_names": {s.entry_id: s.entry.player.name for s in fixture.seats.all()},
        "result": result,
        "history": fixture.all_results,
        "rejections": (
            game_selectors.fixture_rejections(fixture) if actions.allows(SEE_REJECTIONS) else []
        ),
        "is_organizer": actions.organizer,
        "seat": actions.seat,
        **_allowed(actions),
        "upload_form": forms.get("upload_form") or LogUploadForm(),
        "dispute_form": forms.get("dispute_form") or DisputeForm(),
        "resolve_form": forms.get("resolve_form") or ResolveForm(),
        "form_error": forms.get("form_error"),
        **_log_context(result),
        "open_ties": _open_ties(fixture, result),
        "prediction": rating_selectors.fixture_prediction(fixture),
        "analysis": analysis,
        "can_retry_analysis": _can_retry_analysis(request.user, fixture, actions, analysis),
        "can_set_start": _can_set_start(actions, fixture),
    }


def game_revision(request, pk: int, **kwargs) -> Revision | None:
    """The game page changes only with its league's content (its results, seats, names,
    log figures and analysis are rows the league's revision follows) and the ratings
    (the prediction, the rating changes): stored per the league's content stamp."""
    stamp = league_selectors.game_content_stamp(pk)
    if stamp is None or not stamp.is_public:
        return None
    return Revision(f"g{pk}-{stamp.etag}", stored=True)


@require_GET
@public_page(game_revision)
def game_detail(request, pk: int):
    fixture = fixture_or_404(request, pk)
    return render(request, "tournaments/game.html", _game_context(request, fixture))


def _service_error(request, fixture: Fixture, exc: ServiceError, **forms):
    context = _game_context(request, fixture, form_error=exc.localized(), **forms)
    upload = forms.get("upload_form")
    if exc.event is not None and upload is not None and upload.is_valid():
        log = upload.cleaned_data.get("log")
        # the standalone replay opens this log where it was refused (docs/pages.md)
        context["error_step"] = exc.event
        context["error_log"] = log.decode("utf-8", "replace") if isinstance(log, bytes) else log
    status = 403 if isinstance(exc, NotAllowed) else 400
    return render(request, "tournaments/game.html", context, status=status)


def _login_first(request, fixture: Fixture):
    return redirect_to_login(reverse("tournaments:game", args=[fixture.pk]))


@require_POST
@throttled_view([SubmissionThrottle])
def game_submit(request, pk: int):
    """Upload a log (file or pasted text) for this game."""
    fixture = fixture_or_404(request, pk)
    if not request.user.is_authenticated:
        return _login_first(request, fixture)
    form = LogUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        context = _game_context(request, fixture, upload_form=form)
        return render(request, "tournaments/game.html", context, status=400)
    try:
        upload = result_services.game_log_upload(
            fixture=fixture, content=form.cleaned_data["log"], by=request.user
        )
    except ServiceError as exc:
        return _service_error(request, fixture, exc, upload_form=form)
    log_upload_told(request, upload)
    return redirect("tournaments:game", pk=fixture.pk)


@require_POST
@throttled_view([SubmissionThrottle])
def result_confirm(request, pk: int, result_id: int):
    fixture = fixture_or_404(request, pk)
    if not request.user.is_authenticated:
        return _login_first(request, fixture)
    result = _result_of(fixture, result_id)
    try:
        result_services.result_confirm(result=result, by=request.user)
    except ServiceError as exc:
        return _service_error(request, fixture, exc)
    messages.success(request, _("You confirmed the result; it counts now."))
    return redirect(safe_next(request, reverse("tournaments:game", args=[fixture.pk])))


@require_POST
@throttled_view([SubmissionThrottle])
def result_dispute(request, pk: int, result_id: int):
    fixture = fixture_or_404(request, pk)
    if not request.user.is_authenticated:
        return _login_first(request, fixture)
    result = _result_of(fixture, result_id)
    form = DisputeForm(request.POST)
    if not form.is_valid():
        context = _game_context(request, fixture, dispute_form=form)
        return render(request, "tournaments/game.html", context, status=400)
    try:
        result_services.result_dispute(
            result=result, by=request.user, reason=form.cleaned_data["reason"]
        )
    except ServiceError as exc:
        return _service_error(request, fixture, exc, dispute_form=form)
    messages.success(request, _("You disputed the result; an organizer will decide."))
    return redirect("tournaments:game", pk=fixture.pk)


@require_POST
@throttled_view([SubmissionThrottle])
def result_resolve(request, pk: int, result_id: int):
    fixture = fixture_or_404(request, pk)
    if not request.user.is_authenticated:
        return _login_first(request, fixture)
    result = _result_of(fixture, result_id)
    form = ResolveForm(request.POST)
    if not form.is_valid():
        context = _game_context(request, fixture, resolve_form=form)
        return render(request, "tournaments/game.html", context, status=400)
    try:
        result_services.result_resolve(
            result=result,
            by=request.user,
            accept=form.cleaned_data["accept"],
            note=form.cleaned_data["note"],
        )
    except ServiceError as exc:
        return _service_error(request, fixture, exc, resolve_form=form)
    messages.success(request, _("The result is decided."))
    return redirect(safe_next(request, reverse("tournaments:game", args=[fixture.pk])))


@require_POST
@throttled_view([SubmissionThrottle])
def game_analysis_retry(request, pk: int):
    """An organizer has the game's failed move analysis run again (``analysis_retry``);
    back to the game page (or the results desk, by ``next``) with a message."""
    fixture = fixture_or_404(request, pk)
    if not request.user.is_authenticated:
        return _login_first(request, fixture)
    back = safe_next(request, reverse("tournaments:game", args=[fixture.pk]) + "#analysis")
    try:
        analysis_services.analysis_retry(fixture=fixture, by=request.user)
    except NotAllowed as exc:
        raise PermissionDenied(_(exc.localized())) from None
    except ServiceError as exc:  # the service's refusals are marked for translation
        messages.error(request, _(exc.localized()))
        return redirect(back)
    messages.success(
        request, _("The analysis is queued again; it appears here once a worker has run it.")
    )
    return redirect(back)


def _game_log_or_404(request, pk: int, log_id: int) -> tuple[Fixture, GameLog]:
    fixture = fixture_or_404(request, pk)
    try:
        return fixture, game_selectors.fixture_log(fixture, log_id)
    except GameLog.DoesNotExist:
        raise Http404("no such log") from None


@require_GET
def game_log_raw(request, pk: int, log_id: int) -> HttpResponse:
    """The log exactly as uploaded (application/json)."""
    _fixture, log = _game_log_or_404(request, pk, log_id)
    return game_views.log_response(request, log, filename=f"game-{pk}-{log.sha256[:10]}.json")


@require_GET
def game_replay(request, pk: int, log_id: int) -> HttpResponse:
    """The replay viewer's data for a log of this game (JSON)."""
    fixture, log = _game_log_or_404(request, pk, log_id)
    return game_views.replay_response(
        request,
        log,
        players=game_selectors.seat_players(fixture),
    )
