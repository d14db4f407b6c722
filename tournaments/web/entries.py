"""A player's side of entries: their leagues and invitations, accepting an invitation (on
the page or through a signed link), declining, the preferred allied pair until seeding,
asking to join an open league, and withdrawing with its consequences shown first."""

from __future__ import annotations

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.reasons import WITHDREW
from tournaments.formats import get_format
from tournaments.models import Entry, PlayerClaim
from tournaments.permissions import entry_refusal, organize_refusal
from tournaments.selectors import leagues as league_selectors
from tournaments.services import entries as entry_services
from tournaments.services import leagues as league_services
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.guards import refusal_error
from tournaments.web.lookups import back_to, came_from, league_or_404, safe_next
from tournaments.web.organize_forms import ColoursForm
from tournaments.web.personal import Page, personal_page, stored_visit, unknown_query


def _status(exc: ServiceError) -> int:
    return 403 if isinstance(exc, NotAllowed) else 400


def _colours_form(entry: Entry, data=None) -> ColoursForm:
    fmt = get_format(entry.league.format)
    pair = list(entry.preferred_colours or [])
    return ColoursForm(
        data,
        board=entry.league.board,
        allied=fmt.allied,
        initial={"first": pair[0] if pair else "", "second": pair[1] if len(pair) > 1 else ""},
        prefix=f"e{entry.pk}",
    )


def _my_context(request, **extra) -> dict:
    entries = league_selectors.my_entries(request.user)
    rows = []
    for entry in entries:
        form = extra.pop(f"form_{entry.pk}", None) or _colours_form(entry)
        rows.append(
            {
                "entry": entry,
                "colours_form": form,
                "can_colours": entry_refusal(request.user, entry, "colours") is None,
                "can_withdraw": entry_refusal(request.user, entry, "withdraw") is None,
            }
        )
    return {
        "rows": rows,
        "organized": league_selectors.my_organized(request.user),
        "claims": PlayerClaim.objects.filter(user=request.user).select_related("player"),
        "refusal": organize_refusal(request.user),
        **extra,
    }


#: My leagues, stored per account under ``MY_LEAGUES_STAMP_SQL``
MY_LEAGUES = Page(
    "my-leagues",
    league_selectors.MY_LEAGUES_STAMP_SQL,
    partial(league_selectors.joined_stamp_text, "m"),
)


@require_GET
def my_leagues(request):
    """Stored per account (``personal.Page``) under ``MY_LEAGUES_STAMP_SQL``: the
    account's columns, addresses and claims, the revisions of its leagues (played, owned,
    organized); a visit that finds it stored is the session and one statement."""
    return (
        unknown_query(request, MY_LEAGUES)
        or stored_visit(request, MY_LEAGUES)
        or _my_leagues(request)
    )


@login_required
def _my_leagues(request):
    def page(csrf_token: str):
        context = {**_my_context(request), "csrf_token": csrf_token}
        return render(request, "tournaments/organize/my_leagues.html", context), None, None

    return personal_page(request, MY_LEAGUES, page)


def _my_entry(request, entry_id: int) -> Entry:
    entry = (
        Entry.objects.select_related("league", "player")
        .filter(pk=entry_id, player__user=request.user)
        .first()
    )
    if entry is None:
        raise Http404("no such entry of yours")
    return entry


def _my_failed(request, exc: ServiceError, **extra):
    return render(
        request,
        "tournaments/organize/my_leagues.html",
        _my_context(request, form_error=exc.localized(), **extra),
        status=_status(exc),
    )


@login_required
@require_POST
def entry_answer(request, entry_id: int):
    """Accept or decline an organizer's entry of you."""
    entry = _my_entry(request, entry_id)
    accept = request.POST.get("accept") == "1"
    try:
        if accept:
            entry_services.entry_accept(entry=entry, by=request.user)
        else:
            entry_services.entry_decline(entry=entry, by=request.user)
    except ServiceError as exc:
        return _my_failed(request, exc)
    if accept:
        messages.success(request, _("You play in %(league)s.") % {"league": entry.league.name})
    else:
        messages.success(request, _("You declined %(league)s.") % {"league": entry.league.name})
    return redirect(back_to(request, reverse("tournaments:my-leagues")))


@login_required
@require_POST
def entry_colours(request, entry_id: int):
    entry = _my_entry(request, entry_id)
    form = _colours_form(entry, request.POST)
    if not form.is_valid():
        return _my_failed(request, ServiceError(_("choose colours from the list")))
    try:
        entry_services.entry_set_colours(
            entry=entry, by=request.user, preferred_colours=form.colours()
        )
    except ServiceError as exc:
        form.add_error(None, exc.localized())
        return render(
            request,
            "tournaments/organize/my_leagues.html",
            _my_context(request, form_error=exc.localized(), **{f"form_{entry.pk}": form}),
            status=_status(exc),
        )
    messages.success(request, _("Your preferred colours are saved."))
    return redirect("tournaments:my-leagues")


@login_required
@require_http_methods(["GET", "POST"])
def entry_withdraw(request, entry_id: int):
    """GET: what withdrawing means (the games that would be forfeited); POST: withdraw.
    The player or the league's organizers."""
    entry = Entry.objects.select_related("league", "player").filter(pk=entry_id).first()
    if entry is None:
        raise Http404("no such entry")
    league_or_404(request, entry.league.slug)
    refusal = entry_refusal(request.user, entry, "withdraw")
    forbidden = bool(refusal and refusal.forbidden)
    if request.method != "POST":
        return _withdraw_page(request, entry, refusal, status=403 if forbidden else 200)
    if refusal is not None:
        error = refusal_error(refusal).localized()
        return _withdraw_page(
            request, entry, refusal, error=error, status=403 if forbidden else 400
        )
    try:
        count = league_services.entry_withdraw(
            entry=entry,
            by=request.user,
            reason=(request.POST.get("reason") or WITHDREW).strip()[:2000],
        )
    except ServiceError as exc:
        return _withdraw_page(request, entry, refusal, error=exc.localized(), status=_status(exc))
    messages.success(
        request,
        _("%(name)s withdrew; %(n)s game(s) were forfeited.")
        % {"name": entry.player.name, "n": count},
    )
    return redirect("tournaments:league", slug=entry.league.slug)


def _withdraw_page(request, entry: Entry, refusal, *, status: int, error: str | None = None):
    """What withdrawing ``entry`` would forfeit, with why it may not (``refusal``) or why it
    failed (``error``)."""
    return render(
        request,
        "tournaments/organize/withdraw.html",
        {
            "entry": entry,
            "league": entry.league,
            "games": league_selectors.withdrawal_forfeits(entry),
            "refusal": refusal_error(refusal).localized() if refusal else None,
            "form_error": error,
        },
        status=status,
    )


@require_http_methods(["GET", "POST"])
def invitation(request, token: str):
    """A signed invitation link: shows the invitation; signed in, accept it."""
    try:
        inv = entry_services.invitation_from_token(token)
    except ServiceError as exc:
        return render(
            request, "tournaments/organize/invitation.html", {"error": exc.localized()}, status=400
        )
    if request.method != "POST":
        return _invitation_page(request, inv)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        entry = entry_services.invitation_accept(
            invitation=inv, by=request.user, token_in_hand=True
        )
    except ServiceError as exc:
        return _invitation_page(request, inv, error=exc.localized(), status=_status(exc))
    messages.success(request, _("You play in %(league)s now.") % {"league": entry.league.name})
    return redirect("tournaments:league", slug=entry.league.slug)


def _invitation_page(request, inv, *, error: str | None = None, status: int = 200):
    """The invitation, with why it failed (``error``) and, signed in, why this account may
    not take it (an invitation mailed to another or an unconfirmed address)."""
    address = None
    if request.user.is_authenticated and inv.is_open:
        address = entry_services.invitation_address_refusal(inv, request.user, token_in_hand=True)
    return render(
        request,
        "tournaments/organize/invitation.html",
        {
            "invitation": inv,
            "league": inv.league,
            "form_error": error,
            "address_refusal": address,
            "can_confirm": bool(
                address and (request.user.email or "").strip().lower() == inv.email.lower()
            ),
        },
        status=status,
    )


@login_required
@require_POST
def join(request, slug: str):
    league = league_or_404(request, slug)
    try:
        entry_services.join_request(league=league, by=request.user)
    except ServiceError as exc:
        messages.error(request, exc.localized())
        return redirect(back_to(request, reverse("tournaments:league", args=[league.slug])))
    messages.success(request, _("You asked to join; an organizer will decide."))
    return redirect(back_to(request, reverse("tournaments:league", args=[league.slug])))


@login_required
@require_http_methods(["GET", "POST"])
def confirm_email(request, token: str):
    """The signed link that confirms the account's e-mail address (GET), and sending it
    (POST, token "send")."""

    if request.method == "POST":
        back = came_from(request)  # the page that offered the link; the mail returns there
        try:
            entry_services.email_confirmation_send(
                user=request.user, language=request.LANGUAGE_CODE, next_path=back
            )
        except ServiceError as exc:
            messages.error(request, exc.localized())
        else:
            messages.success(request, _("The confirmation link is on its way."))
        return redirect(back or "tournaments:my-leagues")
    try:
        entry_services.email_confirm(token=token, by=request.user)
    except ServiceError as exc:
        return render(
            request,
            "tournaments/organize/confirm_email.html",
            {"error": exc.localized()},
            status=_status(exc),
        )
    back = safe_next(request, "")  # h-trust (issue 34): back where the person came from
    if back:
        messages.success(request, _("Your e-mail address is confirmed."))
        return redirect(back)
    return render(request, "tournaments/organize/confirm_email.html", {"confirmed": True})
