"""The organizer's page of a league: who is in (accepted, invited, asking to join), what to
do next (seed, playoffs, finish), and the forms to enter players, invite them by e-mail or
link, decide join requests and claims, and add co-organizers."""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.algorithms.errors import AlgorithmError
from tournaments.algorithms.recurrence import round_dates
from tournaments.models import Entry, Invitation, Player, PlayerClaim, ResultLink
from tournaments.permissions import may_vouch_for
from tournaments.selectors import leagues as league_selectors
from tournaments.selectors.next_step import next_step
from tournaments.services import entries as entry_services
from tournaments.services import leagues as league_services
from tournaments.services import schedule as schedule_services
from tournaments.services.entries import invitation_token
from tournaments.services.errors import NotAllowed, ServiceError, coded, from_algorithm
from tournaments.services.players import organizer_scope
from tournaments.services.result_links import result_link_token
from tournaments.web.lookups import organized_league
from tournaments.web.organize_forms import (
    AddPlayerForm,
    InviteForm,
    NewPlayerForm,
    OrganizerForm,
    RecurrenceForm,
)
from tournaments.web.personal import Page, personal_page, stored_visit, unknown_query


def _open_invitations(request, league, links: bool = True) -> list[dict]:
    """The invitations not yet accepted nor revoked, each with the link to hand out (with
    ``links`` False: a placeholder in place of its signed token, ``_invitation_links``)."""
    return [
        {
            "invitation": inv,
            "url": request.build_absolute_uri(
                reverse(
                    "tournaments:invitation",
                    args=[invitation_token(inv) if links else _invitation_link_placeholder(inv.pk)],
                )
            ),
        }
        for inv in Invitation.objects.filter(
            league=league, accepted_at__isnull=True, revoked_at__isnull=True
        ).select_related("entry__player")
    ]


def _claims_to_decide(user, league) -> list[PlayerClaim]:
    """The open claims on the league's players this organizer may decide
    (``permissions.may_vouch_for``)."""
    return [
        claim
        for claim in PlayerClaim.objects.filter(
            state=PlayerClaim.State.OPEN, player__entries__league=league
        )
        .select_related("player", "user")
        .distinct()
        if may_vouch_for(user, claim.player)
    ]


def _result_links(request, league, entries: list[Entry]) -> list[dict]:
    """The accepted players without an account, who report through a private link: each
    with their live link and its address (None: no link yet)."""
    live_links = {
        link.entry_id: link
        for link in ResultLink.objects.filter(entry__league=league, revoked_at__isnull=True)
    }

    def address(link: ResultLink | None) -> str | None:
        if link is None:
            return None
        return request.build_absolute_uri(
            reverse("tournaments:result-link", args=[result_link_token(link)])
        )

    return [
        {"entry": e, "link": live_links.get(e.pk), "url": address(live_links.get(e.pk))}
        for e in entries
        if e.state == Entry.State.ACCEPTED and e.player.user_id is None
    ]


def _entries_by_state(entries: list[Entry]) -> dict[str, list[Entry]]:
    """The page's three lists of entries: accepted, invited, asking to join."""
    return {
        "accepted": [e for e in entries if e.state == Entry.State.ACCEPTED],
        "invited": [e for e in entries if e.state == Entry.State.INVITED],
        "requested": [e for e in entries if e.state == Entry.State.REQUESTED],
    }


def _entries_closed(league) -> str | None:
    """Why no one can be entered now (shown instead of the forms), or None."""
    error = league_services.entries_open_error(league)
    return error.localized() if error else None


def _forms_context(forms: dict) -> dict:
    """The page's forms: the ones given (bound, with their errors) or blank ones."""
    return {
        "dates_form": forms.pop("dates_form", None) or RecurrenceForm(auto_id="dates_%s"),
        "dates_preview": forms.pop("dates_preview", None),
        "add_form": forms.get("add_form") or AddPlayerForm(auto_id="add_%s"),
        "new_form": forms.get("new_form") or NewPlayerForm(auto_id="new_%s"),
        "invite_form": forms.get("invite_form") or InviteForm(),
        "organizer_form": forms.get("organizer_form") or OrganizerForm(),
        "form_error": forms.get("form_error"),
    }


def _manage_context(request, league, invitation_links: bool = True, **forms) -> dict:
    entries = list(league.entries.select_related("player__user").order_by("player__name"))
    invitations = _open_invitations(request, league, invitation_links)
    claims = _claims_to_decide(request.user, league)
    organizers = list(league.organizers.all())
    cycles = league.cycles.count()
    result_links = _result_links(request, league, entries)
    return {
        "league": league,
        "tab": "manage",
        **_entries_by_state(entries),
        "invitations": invitations,
        "claims": claims,
        "result_links": result_links,
        "organizers": organizers,
        "is_owner": request.user.is_staff or league.owner_id == request.user.pk,
        "league_has_games": league.fixtures.exists() or league.cycles.exists(),
        "entries_closed": _entries_closed(league),
        "cycles": cycles,
        "can_seed": cycles < league.drr_count and league.event_kind == league.EventKind.LEAGUE,
        "next_step": next_step(league),
        "date_groups": len(schedule_services.league_date_groups(league)),
        "time_zone": settings.TIME_ZONE,
        "has_series": league.series.exists(),
        **_forms_context(forms),
    }


def _render(request, league, status=200, **forms):
    return render(
        request,
        "tournaments/organize/manage.html",
        _manage_context(request, league, **forms),
        status=status,
    )


def _failed(request, league, exc: ServiceError, form=None, name: str | None = None):
    """Show the service's refusal next to the form that caused it; nothing was saved."""
    status = 403 if isinstance(exc, NotAllowed) else 400
    if form is not None and name:
        field = exc.field if exc.field in form.fields else None
        form.add_error(field, exc.localized())
        return _render(request, league, status, **{name: form})
    return _render(request, league, status, form_error=exc.localized())


def _invitation_link_placeholder(pk: int) -> str:
    """What a stored manage page holds in place of an invitation's signed token (derived
    from the secret key, as ``csrf_placeholder``, and not containing it)."""
    secret = salted_hmac("tournaments.manage.invitation", "placeholder").hexdigest()[:32]
    return f"invitation-{secret}-{pk}-"


def _invitation_links(content: bytes, invitations: list[int]) -> bytes:
    """The open invitations' links signed for this visit (a link holds the time it was
    signed: valid ``INVITATION_MAX_AGE`` from the moment it is shown, as before)."""
    for pk in invitations:
        token = invitation_token(Invitation(pk=pk))
        content = content.replace(_invitation_link_placeholder(pk).encode(), token.encode())
    return content


#: a league's manage page, stored per organizer under ``MANAGE_STAMP_SQL``
MANAGE = Page(
    "manage",
    league_selectors.MANAGE_STAMP_SQL,
    partial(league_selectors.joined_stamp_text, "o"),
    league=True,
    finish=_invitation_links,
)


@require_GET
def manage(request, slug: str):
    """Stored per organizer (``personal.Page``) under ``MANAGE_STAMP_SQL``: the league's
    revision, its invitations, the claims on its players and its result links; a visit
    that finds it stored is the session and one statement (the organizer's rights
    checked in it, every visit)."""
    return (
        unknown_query(request, MANAGE)
        or stored_visit(request, MANAGE, slug)
        or _manage(request, slug)
    )


@login_required
def _manage(request, slug: str):
    league = organized_league(request, slug)

    def page(csrf_token: str):
        context = _manage_context(request, league, invitation_links=False)
        context["csrf_token"] = csrf_token
        invitations = [row["invitation"].pk for row in context["invitations"]]
        return render(request, "tournaments/organize/manage.html", context), None, invitations

    return personal_page(request, MANAGE, page, slug)


def _player_named(name: str, organizer=None) -> Player:
    """The player an organizer typed (h-trust, issue 34: names repeat across organizers):
    the one player of that name among the organizer's (``organizer_scope``), else the one
    whose address (slug) it is, else the one of that name on the site; several answer with
    their names told apart and their addresses."""

    text = name.strip()
    named = Player.objects.filter(name__iexact=text).select_related("user", "created_by")
    if organizer is not None:
        mine = list(named.filter(organizer_scope(organizer)).order_by("pk")[:2])
        if len(mine) == 1:
            return mine[0]
    by_slug = Player.objects.filter(slug=text).first()
    if by_slug is not None:
        return by_slug
    found = list(named.order_by("pk")[:6])
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        choices = ", ".join(f"{p.label} [{p.slug}]" for p in found)
        raise coded(
            "player_name_ambiguous", field="player", name=text, count=len(found), choices=choices
        )
    raise ServiceError(f"there is no player called {text}", field="player")


@login_required
@require_POST
def entry_add(request, slug: str):
    league = organized_league(request, slug)
    form = AddPlayerForm(request.POST, auto_id="add_%s")  # ids unique on the page
    if not form.is_valid():
        return _render(request, league, 400, add_form=form)
    try:
        player = _player_named(form.cleaned_data["player"], request.user)
        entry = league_services.entry_add(league=league, player=player, by=request.user)
    except ServiceError as exc:
        return _failed(request, league, exc, form, "add_form")
    if entry.state == Entry.State.INVITED:
        messages.success(
            request,
            _("%(name)s has an account: they are invited and take part once they accept.")
            % {"name": player.name},
        )
    else:
        messages.success(request, _("%(name)s is entered.") % {"name": player.name})
    return redirect("tournaments:manage", slug=league.slug)


@login_required
@require_POST
def player_new(request, slug: str):
    league = organized_league(request, slug)
    form = NewPlayerForm(request.POST, auto_id="new_%s")
    if not form.is_valid():
        return _render(request, league, 400, new_form=form)
    try:
        entry = entry_services.accountless_player_create(
            league=league, by=request.user, name=form.cleaned_data["name"]
        )
    except ServiceError as exc:
        return _failed(request, league, exc, form, "new_form")
    messages.success(request, _("%(name)s is entered.") % {"name": entry.player.name})
    return redirect("tournaments:manage", slug=league.slug)


@login_required
@require_POST
def invite(request, slug: str):
    league = organized_league(request, slug)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _render(request, league, 400, invite_form=form)
    data = form.cleaned_data
    try:
        player = _player_named(data["player"], request.user) if data.get("player") else None
        invitation = entry_services.invitation_create(
            league=league,
            by=request.user,
            email=data.get("email", ""),
            name=data.get("name", ""),
            player=player,
            language=request.LANGUAGE_CODE,
        )
    except ServiceError as exc:
        return _failed(request, league, exc, form, "invite_form")
    if invitation.email:
        messages.success(
            request, _("The invitation was sent to %(email)s.") % {"email": invitation.email}
        )
    else:
        messages.success(request, _("The invitation link is ready: hand it out (below)."))
    return redirect("tournaments:manage", slug=league.slug)


@login_required
@require_POST
def invitation_revoke(request, slug: str, invitation_id: int):
    league = organized_league(request, slug)
    invitation = Invitation.objects.filter(pk=invitation_id, league=league).first()
    try:
        if invitation is None:
            raise ServiceError("no such invitation")
        entry_services.invitation_revoke(invitation=invitation, by=request.user)
    except ServiceError as exc:
        return _failed(request, league, exc)
    messages.success(request, _("The invitation was withdrawn."))
    return redirect("tournaments:manage", slug=league.slug)


@login_required
@require_POST
def entry_remove(request, slug: str, entry_id: int):
    league = organized_league(request, slug)
    entry = league.entries.select_related("player").filter(pk=entry_id).first()
    try:
        if entry is None:
            raise ServiceError("no such entry")
        league_services.entry_remove(entry=entry, by=request.user)
    except ServiceError as exc:
        return _failed(request, league, exc)
    messages.success(request, _("%(name)s is no longer entered.") % {"name": entry.player.name})
    return redirect("tournaments:manage", slug=league.slug)


@login_required
@require_POST
def join_decide(request, slug: str, entry_id: int):
    league = organized_league(request, slug)
    entry = league.entries.select_related("player").filter(pk=entry_id).first()
    approve = request.POST.get("approve") == "1"
    try:
        if entry is None:
            raise ServiceError("no such request")
        entry_services.join_decide(entry=entry, by=request.user, approve=approve)
    except ServiceError as exc:
        return _failed(request, league, exc)
    messages.success(
        request,
        (_("%(name)s is entered.") if approve else _("The request of %(name)s was refused."))
        % {"name": entry.player.name},
    )
    return redirect("tournaments:manage", slug=league.slug)


@login_required
@require_POST
def claim_decide(request, slug: str, claim_id: int):
    league = organized_league(request, slug)
    claim = PlayerClaim.objects.filter(pk=claim_id).select_related("player", "user").first()
    approve = request.POST.get("approve") == "1"
    try:
        if claim is None:
            raise ServiceError("no such claim")
        entry_services.claim_decide(claim=claim, by=request.user, approve=approve)
    except ServiceError as exc:
        return _failed(request, league, exc)
    messages.success(
        request,
        (_("%(user)s is now %(name)s.") if approve else _("The claim of %(user)s was refused."))
        % {"user": claim.user.get_username(), "name": claim.player.name},
    )
    return redirect("tournaments:manage", slug=league.slug)


@login_required
@require_POST
def organizer_add(request, slug: str):
    league = organized_league(request, slug)
    form = OrganizerForm(request.POST)
    if not form.is_valid():
        return _render(request, league, 400, organizer_form=form)
    user = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
    try:
        league_services.league_add_organizer(league=league, user=user, by=request.user)
    except ServiceError as exc:
        return _failed(request, league, exc, form, "organizer_form")
    messages.success(
        request, _("%(user)s organizes this league now.") % {"user": user.get_username()}
    )
    return redirect("tournaments:manage", slug=league.slug)


@login_required
@require_POST
def league_delete(request, slug: str):
    """The owner deletes a league without games (a draft, a duplicate); confirmed by a tick."""
    league = organized_league(request, slug)
    if request.POST.get("confirm") != "1":
        messages.error(request, _("Tick the box to confirm that the league is deleted."))
        return redirect("tournaments:manage", slug=league.slug)
    name = league.name
    try:
        league_services.league_delete(league=league, by=request.user)
    except ServiceError as exc:
        return _failed(request, league, exc)
    messages.success(request, _("%(league)s is deleted.") % {"league": name})
    return redirect("tournaments:my-leagues")


@login_required
@require_POST
def league_archive(request, slug: str):
    """Archive a finished league: private, out of the lists and the search."""
    league = organized_league(request, slug)
    try:
        league_services.league_archive(league=league, by=request.user)
    except ServiceError as exc:
        return _failed(request, league, exc)
    messages.success(request, _("The league is archived: only its organizers and players see it."))
    return redirect("tournaments:manage", slug=league.slug)


@login_required
@require_POST
def league_finish(request, slug: str):
    league = organized_league(request, slug)
    try:
        league_services.league_finish(league=league, by=request.user)
    except ServiceError as exc:
        return _failed(request, league, exc)
    messages.success(request, _("The season is over."))
    return redirect("tournaments:league", slug=league.slug)


@login_required
@require_POST
def league_open(request, slug: str):
    """Registration open / by invitation only, and public / private, at any time."""
    league = organized_league(request, slug)
    try:
        league_services.league_update(
            league=league,
            by=request.user,
            registration_open=request.POST.get("registration_open") == "1",
            is_public=request.POST.get("is_public") == "1",
        )
    except ServiceError as exc:
        return _failed(request, league, exc)
    messages.success(request, _("Saved."))
    return redirect("tournaments:manage", slug=league.slug)


@login_required
@require_POST
def league_dates(request, slug: str):
    """Date the games outside the DRRs in one step (``schedule.league_dates_recur``):
    "Preview" shows each group of games with its date, "Set the dates" stores them."""

    league = organized_league(request, slug)
    form = RecurrenceForm(request.POST, auto_id="dates_%s")  # ids unique on the page
    if not form.is_valid():
        return _render(request, league, 400, dates_form=form)
    data = form.cleaned_data
    if "apply" not in request.POST:
        groups = schedule_services.league_date_groups(league)
        preview = []
        try:
            if groups:
                dates = round_dates(
                    data["first"],
                    len(groups),
                    every_days=data["every_days"],
                    due_hours=data.get("due_hours"),
                    zone=settings.TIME_ZONE,
                )
                preview = [
                    {"label": label, "scheduled_at": d.scheduled_at, "deadline": d.deadline}
                    for (label, _games), d in zip(groups, dates, strict=True)
                ]
        except AlgorithmError as exc:
            form.add_error(None, from_algorithm(exc).localized())
        return _render(request, league, dates_form=form, dates_preview=preview)
    try:
        n = schedule_services.league_dates_recur(
            league=league,
            by=request.user,
            first=data["first"],
            every_days=data["every_days"],
            due_hours=data.get("due_hours"),
        )
    except ServiceError as exc:
        return _failed(request, league, exc, form, "dates_form")
    messages.success(request, _("%(games)s game(s) dated.") % {"games": n})
    return redirect("tournaments:manage", slug=league.slug)
