"""Who is told of which event, and what: one function per kind of notification.

Each takes the event's object id and stamp (``tournaments/services/notify.py`` names
them) and returns the users to tell and the message, worded in the active language
(``services.notify_event`` calls it once per language its recipients read), or no one
when the event no longer holds (its object gone, a result confirmed before the task
ran). ``KINDS`` maps each ``Kind`` to its function; a kind without one is a bug.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.reasons import reason_text
from notifications.models import Kind
from tournaments.models import Entry, Fixture, League, Player, PlayerClaim, Result, ResultLink
from tournaments.permissions import may_vouch_for


@dataclass(frozen=True)
class Message:
    kind: str
    subject: str
    body: str
    path: str  # a path on this site


#: the users to tell and the message; ([], None): nobody, the event no longer holds
Recipients = tuple[list, "Message | None"]


# --- recipients and wording shared by the kinds ---------------------------------------------


def _players(fixture: Fixture) -> list:
    users = []
    for seat in fixture.seats.select_related("entry__player__user"):
        user = seat.entry.player.user
        if user is not None and user.is_active:
            users.append(user)
    return users


def _organizers(league: League) -> list:
    users = {league.owner_id: league.owner}
    users.update({u.pk: u for u in league.organizers.all()})
    return [u for u in users.values() if u.is_active]


def _entrants(league: League) -> list:
    return [
        e.player.user
        for e in league.entries.playing().select_related("player__user")
        if e.player.user is not None and e.player.user.is_active
    ]


def _game_name(fixture: Fixture) -> str:
    names = " – ".join(s.entry.player.name for s in fixture.seats.select_related("entry__player"))
    label = fixture.label or str(fixture.number)
    return _("game %(label)s (%(names)s) in %(league)s") % {
        "label": label,
        "names": names,
        "league": fixture.league.name,
    }


def _when(moment) -> str:
    """A date and time in the site's time zone, in the active language's format, with the
    zone's name (the reader may live elsewhere): "Sun 7 Dec 2026, 19:00 CET"."""
    if moment is None:
        return ""
    local = timezone.localtime(moment)
    return f"{date_format(local, 'D j M Y, H:i')} {local.tzname()}"


def _sentence(text: str) -> str:
    """A mail's sentence starts with a capital ("game G1 …" → "Game G1 …")."""
    return text[:1].upper() + text[1:]


def _result(object_id: int) -> Result | None:
    return (
        Result.objects.select_related(
            "fixture__league__owner", "submitted_by", "decided_by", "submitted_via__entry__player"
        )
        .filter(pk=object_id)
        .first()
    )


# --- one function per kind: (recipients, message), or ([], None) when the event no longer
# holds (its object gone, or answered before the task ran) ---------------------------------


def result_awaiting(object_id: int, stamp: str) -> Recipients:
    """A result is pending: its opponent(s) are asked to confirm it."""
    result = _result(object_id)
    if result is None or result.state != Result.State.PENDING:
        return [], None
    fixture = result.fixture
    users = [u for u in _players(fixture) if u.pk != result.submitted_by_id]
    if result.submitted_via is not None:  # an account-less player's private result link
        who = result.submitted_via.entry.player.name
    else:
        who = result.submitted_by.get_username() if result.submitted_by else _("someone")
    return users, Message(
        Kind.RESULT_AWAITING,
        _("Please confirm the result of %(game)s") % {"game": _game_name(fixture)},
        _(
            "%(who)s submitted the result of %(game)s. It counts once you confirm it; if it "
            "is wrong, dispute it and an organizer decides."
        )
        % {"who": who, "game": _game_name(fixture)},
        reverse("tournaments:game", args=[fixture.pk]),
    )


def dispute_opened(object_id: int, stamp: str) -> Recipients:
    """A result was disputed: the organizers who may decide it."""
    result = _result(object_id)
    if result is None:
        return [], None
    fixture = result.fixture
    seated = {u.pk for u in _players(fixture)}
    organizers = _organizers(fixture.league)
    # those who may decide it; when every organizer plays in the game, all of them
    users = [u for u in organizers if u.pk not in seated] or organizers
    return users, Message(
        Kind.DISPUTE_OPENED,
        _("A result was disputed: %(game)s") % {"game": _game_name(fixture)},
        _("The result of %(game)s was disputed: “%(why)s”. Decide it on the results desk.")
        % {"game": _game_name(fixture), "why": reason_text(result.decision_note)},
        reverse("tournaments:desk", args=[fixture.league.slug]),
    )


def decision_made(object_id: int, stamp: str) -> Recipients:
    """A result was decided (``stamp``: its new state): the game's other players."""
    result = _result(object_id)
    if result is None:
        return [], None
    fixture = result.fixture
    users = [u for u in _players(fixture) if u.pk != result.decided_by_id]
    how = {
        Result.State.CONFIRMED: _("counts"),
        Result.State.REJECTED: _("was rejected"),
        Result.State.VOIDED: _("was voided; the game is open again"),
    }.get(stamp, stamp)
    why = reason_text(result.decision_note or result.reason)  # a service's: translated
    own_upload = (
        result.submitted_by_id is not None
        and result.submitted_by_id == result.decided_by_id
        and stamp == Result.State.CONFIRMED
    )
    if own_upload:  # an organizer submitted (or entered) it: nobody else decided
        body = _("%(who)s, an organizer, submitted the result of %(game)s: it counts.") % {
            "who": result.submitted_by.get_username(),
            "game": _game_name(fixture),
        }
    else:
        body = _("An organizer decided the result of %(game)s: it %(how)s.") % {
            "game": _game_name(fixture),
            "how": how,
        }
    if why:
        body += " " + _("Reason: %(why)s") % {"why": why}
    return users, Message(
        Kind.DECISION_MADE,
        _("Decision on %(game)s") % {"game": _game_name(fixture)},
        body,
        reverse("tournaments:game", args=[fixture.pk]),
    )


def schedule_changed(object_id: int, stamp: str) -> Recipients:
    """A league's schedule changed or a DRR was seeded (``stamp``: what): its entrants."""
    league = League.objects.filter(pk=object_id).select_related("owner").first()
    if league is None:
        return [], None
    seeded = "-seeded" in stamp
    return _entrants(league), Message(
        Kind.SCHEDULE_CHANGED,
        (
            _("A new double round-robin of %(league)s is seeded")
            if seeded
            else _("The schedule of %(league)s changed")
        )
        % {"league": league.name},
        _("See your games and their dates on the schedule of %(league)s.")
        % {"league": league.name},
        reverse("tournaments:schedule", args=[league.slug]),
    )


def _scheduled_fixture(object_id: int) -> Fixture | None:
    """The game a reminder is about, while it still waits for its result."""
    fixture = Fixture.objects.select_related("league__owner").filter(pk=object_id).first()
    if fixture is None or fixture.status != Fixture.Status.SCHEDULED:
        return None
    return fixture


def _reminder(kind: str, fixture: Fixture, users: list, subject: str, body: str) -> Recipients:
    game = _game_name(fixture)
    values = {"game": game, "when": _when(fixture.scheduled_at), "due": _when(fixture.deadline)}
    return users, Message(
        kind,
        subject % {"game": game},
        _sentence(body % values),
        reverse("tournaments:game", args=[fixture.pk]),
    )


def deadline_near(object_id: int, stamp: str) -> Recipients:
    """A game is due within 48 hours (periodic sweep; ``stamp``: its time): its players."""
    fixture = _scheduled_fixture(object_id)
    if fixture is None:
        return [], None
    if fixture.deadline:
        body = _(
            "%(game)s is scheduled for %(when)s; its result is due by %(due)s. "
            "Play it and submit the log in time."
        )
    else:
        body = _("%(game)s is scheduled for %(when)s. Play it and submit the log in time.")
    subject = _("Within 48 hours: %(game)s")
    return _reminder(Kind.DEADLINE_NEAR, fixture, _players(fixture), subject, body)


def game_overdue(object_id: int, stamp: str) -> Recipients:
    """A game's time passed without a result (periodic sweep): its players and the
    league's organizers."""
    fixture = _scheduled_fixture(object_id)
    if fixture is None:
        return [], None
    users = _players(fixture)
    seen = {u.pk for u in users}
    users += [u for u in _organizers(fixture.league) if u.pk not in seen]
    if fixture.deadline:
        body = _("The result of %(game)s was due by %(due)s and is still missing.")
    else:
        body = _("%(game)s was scheduled for %(when)s and has no result yet.")
    return _reminder(Kind.GAME_OVERDUE, fixture, users, _("Overdue: %(game)s"), body)


def standings_failed(object_id: int, stamp: str) -> Recipients:
    """A league's standings could not be computed: its organizers (nobody once repaired)."""
    league = League.objects.filter(pk=object_id).select_related("owner").first()
    failure = getattr(league, "standings_failure", None) if league else None
    if league is None or failure is None:
        return [], None  # repaired before the task ran
    return _organizers(league), Message(
        Kind.STANDINGS_FAILED,
        _("The standings of %(league)s could not be computed") % {"league": league.name},
        _(
            "Counting the results of %(league)s (revision %(revision)s) failed, so its "
            "table shows the last one that could be computed. Reason: %(why)s"
        )
        % {"league": league.name, "revision": failure.revision, "why": failure.error},
        reverse("tournaments:standings", args=[league.slug]),
    )


def _entry(object_id: int, state: str) -> Entry | None:
    """The entry, while it is still in ``state`` (not answered or withdrawn meanwhile)."""
    entry = (
        Entry.objects.select_related("league__owner", "player__user").filter(pk=object_id).first()
    )
    return entry if entry is not None and entry.state == state else None


def entry_invited(object_id: int, stamp: str) -> Recipients:
    """An organizer entered an account holder's player: they are asked to accept."""
    entry = _entry(object_id, Entry.State.INVITED)
    if entry is None:
        return [], None  # answered (or withdrawn) before the task ran
    league, player = entry.league, entry.player
    user = player.user
    return ([user] if user and user.is_active else []), Message(
        Kind.ENTRY_INVITED,
        _("You are invited to play in %(league)s") % {"league": league.name},
        _(
            "The organizers of %(league)s entered you (%(player)s). You take part "
            "once you accept: accept or decline on your leagues page."
        )
        % {"league": league.name, "player": player.name},
        reverse("tournaments:my-leagues"),
    )


def join_requested(object_id: int, stamp: str) -> Recipients:
    """A player asks to join a league: its organizers."""
    entry = _entry(object_id, Entry.State.REQUESTED)
    if entry is None:
        return [], None  # answered (or withdrawn) before the task ran
    league, player = entry.league, entry.player
    return _organizers(league), Message(
        Kind.JOIN_REQUESTED,
        _("%(player)s asks to join %(league)s") % {"player": player.name, "league": league.name},
        _("%(player)s asks to join %(league)s. Approve or refuse on the league's players page.")
        % {"player": player.name, "league": league.name},
        reverse("tournaments:manage", args=[league.slug]),
    )


def join_decided(object_id: int, stamp: str) -> Recipients:
    """A request to join a league was decided (``stamp``: "user id:approved|refused"):
    the user who asked."""
    league = League.objects.filter(pk=object_id).first()
    user_id, _sep, decision = stamp.partition(":")
    user = get_user_model().objects.filter(pk=user_id or 0, is_active=True).first()
    if league is None or user is None:
        return [], None
    approved = decision == "approved"
    return [user], Message(
        Kind.JOIN_DECIDED,
        (
            _("You play in %(league)s")
            if approved
            else _("Your request to join %(league)s was refused")
        )
        % {"league": league.name},
        (
            _("An organizer approved your request: you play in %(league)s.")
            if approved
            else _("An organizer refused your request to join %(league)s.")
        )
        % {"league": league.name},
        reverse("tournaments:league", args=[league.slug]),
    )


def _claim(object_id: int) -> PlayerClaim | None:
    return (
        PlayerClaim.objects.select_related("player__created_by", "user")
        .filter(pk=object_id)
        .first()
    )


def claim_opened(object_id: int, stamp: str) -> Recipients:
    """An account claims a player created without one: who may vouch for that player."""
    claim = _claim(object_id)
    if claim is None or claim.state != PlayerClaim.State.OPEN:
        return [], None
    player = claim.player
    entries = list(player.entries.select_related("league__owner"))
    users = _vouchers(player, entries)
    league = next((e.league for e in entries if users), None)
    return users, Message(
        Kind.CLAIM_OPENED,
        _("%(user)s says they are %(player)s")
        % {"user": claim.user.get_username(), "player": player.name},
        _(
            "%(user)s signed up and says they are %(player)s, a player you entered without "
            "an account. Approve or refuse the claim on the league's players page."
        )
        % {"user": claim.user.get_username(), "player": player.name},
        reverse("tournaments:manage", args=[league.slug]) if league else "",
    )


def _vouchers(player: Player, entries: list[Entry]) -> list:
    """Who may vouch for ``player``: the organizers of its leagues and its creator."""
    candidates = {u.pk: u for e in entries for u in _organizers(e.league)}
    if player.created_by is not None:
        candidates[player.created_by.pk] = player.created_by
    return [u for u in candidates.values() if u.is_active and may_vouch_for(u, player)]


def claim_decided(object_id: int, stamp: str) -> Recipients:
    """A claim was decided: the account that claimed."""
    claim = _claim(object_id)
    if claim is None or claim.state == PlayerClaim.State.OPEN or not claim.user.is_active:
        return [], None
    player = claim.player
    approved = claim.state == PlayerClaim.State.APPROVED
    return [claim.user], Message(
        Kind.CLAIM_DECIDED,
        (_("You are %(player)s now") if approved else _("Your claim to be %(player)s was refused"))
        % {"player": player.name},
        (
            _("An organizer confirmed that you are %(player)s: its games and results are yours.")
            if approved
            else _("An organizer refused your claim to be %(player)s.")
        )
        % {"player": player.name},
        reverse("tournaments:player", args=[player.slug])
        if approved
        else reverse("tournaments:my-leagues"),
    )


def invitation_declined(object_id: int, stamp: str) -> Recipients:
    """A player declined an invitation (``stamp``: "player id:entry id", the entry gone):
    the league's organizers."""
    league = League.objects.filter(pk=object_id).select_related("owner").first()
    player = Player.objects.filter(pk=stamp.partition(":")[0] or 0).first()
    if league is None or player is None:
        return [], None
    return _organizers(league), Message(
        Kind.INVITATION_DECLINED,
        _("%(player)s declined to play in %(league)s")
        % {"player": player.name, "league": league.name},
        _(
            "%(player)s declined your invitation to %(league)s: their entry is removed. "
            "Seed the league without them, or enter another player."
        )
        % {"player": player.name, "league": league.name},
        reverse("tournaments:manage", args=[league.slug]),
    )


def result_link_revoked(object_id: int, stamp: str) -> Recipients:
    """A player's private result link stopped because an account became the player: the
    league's organizers hear of it (the manage page no longer lists it)."""
    link = (
        ResultLink.objects.select_related("entry__league__owner", "entry__player__user")
        .filter(pk=object_id, revoked_at__isnull=False)
        .first()
    )
    if link is None or link.entry.player.user is None:
        return [], None
    league, player = link.entry.league, link.entry.player
    values = {
        "player": player.name,
        "league": league.name,
        "user": player.user.get_username(),
    }
    return _organizers(league), Message(
        Kind.RESULT_LINK_REVOKED,
        _("The private result link of %(player)s in %(league)s stopped working") % values,
        _(
            "%(player)s has an account now (%(user)s), so the private result link you made "
            "for them in %(league)s no longer works: they report their games after logging "
            "in. If you printed the link on score sheets, they no longer report through it."
        )
        % values,
        reverse("tournaments:manage", args=[league.slug]),
    )


KINDS: dict[str, Callable[[int, str], Recipients]] = {
    Kind.RESULT_AWAITING: result_awaiting,
    Kind.DISPUTE_OPENED: dispute_opened,
    Kind.DECISION_MADE: decision_made,
    Kind.SCHEDULE_CHANGED: schedule_changed,
    Kind.DEADLINE_NEAR: deadline_near,
    Kind.GAME_OVERDUE: game_overdue,
    Kind.STANDINGS_FAILED: standings_failed,
    Kind.ENTRY_INVITED: entry_invited,
    Kind.JOIN_REQUESTED: join_requested,
    Kind.JOIN_DECIDED: join_decided,
    Kind.CLAIM_OPENED: claim_opened,
    Kind.CLAIM_DECIDED: claim_decided,
    Kind.RESULT_LINK_REVOKED: result_link_revoked,
    Kind.INVITATION_DECLINED: invitation_declined,
}


def event_recipients(kind: str, object_id: int, stamp: str = "") -> Recipients:
    """The users to tell of this event and what to tell them (no one when the object is
    gone, or the event no longer holds: a result confirmed before the task ran)."""
    try:
        recipients = KINDS[kind]
    except KeyError:
        raise ValueError(f"unknown notification kind {kind!r}") from None
    return recipients(object_id, stamp)
