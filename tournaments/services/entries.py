"""Consent to take part: invitations (by e-mail or signed link), answering them, join
requests, claims of players created without an account, and a player's own preferred pair.

A player with an account appears in a league only after accepting (``Entry.State``);
only accepted entries are seeded, ranked and shown with results.
"""

from __future__ import annotations

import logging
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.models import (
    ConfirmedEmail,
    Entry,
    Invitation,
    League,
    MailSent,
    Player,
    PlayerClaim,
)
from tournaments.permissions import Refusal, email_confirmed, entry_refusal, may_vouch_for
from tournaments.services.championship import entry_admit
from tournaments.services.errors import NotAllowed, coded
from tournaments.services.guards import require_no_refusal, require_organizer
from tournaments.services.leagues import entries_open_error
from tournaments.services.mail_limits import address_lock, mail_allowance_check, mail_record
from tournaments.services.notify import (
    CLAIM_DECIDED,
    CLAIM_OPENED,
    ENTRY_INVITED,
    INVITATION_DECLINED,
    JOIN_DECIDED,
    JOIN_REQUESTED,
    done_on_commit,
    notify_on_commit,
)
from tournaments.services.players import (
    accountless_limit_check,
    check_pair,
    fitting_pair,
    player_create,
    player_name_check,
    player_name_clash,
    player_names_distinguish,
)
from tournaments.services.result_links import result_links_revoke_for_player
from tournaments.services.text import single_line

logger = logging.getLogger(__name__)

INVITATION_SALT = "tournaments.invitation"
#: an invitation link is valid this long (seconds)
INVITATION_MAX_AGE = 60 * 60 * 24 * 60


def invitation_token(invitation: Invitation) -> str:
    return signing.dumps({"i": invitation.pk}, salt=INVITATION_SALT, compress=True)


def invitation_from_token(token: str) -> Invitation:
    """The invitation a signed link names; ServiceError when it is forged, expired,
    revoked or used."""
    try:
        data = signing.loads(token, salt=INVITATION_SALT, max_age=INVITATION_MAX_AGE)
    except signing.SignatureExpired:
        raise coded("invitation_expired") from None
    except signing.BadSignature:
        raise coded("invitation_invalid") from None
    invitation = (
        Invitation.objects.select_related("league", "entry__player")
        .filter(pk=data.get("i"))
        .first()
    )
    if invitation is None or invitation.revoked_at:
        raise coded("invitation_withdrawn")
    return invitation


def invitation_create(
    *,
    league: League,
    by,
    email: str = "",
    name: str = "",
    player: Player | None = None,
    language: str = "",
) -> Invitation:
    """Invite someone: by e-mail (a mail with the signed link is sent on commit) or as a
    link the organizer hands out. ``player`` (a player without an account, entered now if
    not yet) or ``name`` (a player created on acceptance) says who they will be; with
    neither, the accepting account's own player is entered.

    The mail's link is built from ``SITE_URL`` like every notification's, and the mail is
    in ``invitation_language(email, language)`` (``language``: the organizer's page's)."""
    require_organizer(by, league)
    if error := entries_open_error(league):
        raise error
    email = _checked_email(email)
    name = single_line(name, field="name", what="the player's name")
    if player is not None:
        _check_invited_player(by, player)
    if name:  # the name of the account's player if it has none: checked in its scope
        name = _checked_invitation_name(name, by)
    with transaction.atomic():
        if email:
            mail_allowance_check(kind=MailSent.Kind.INVITATION, sender=by, recipient=email)
        entry = None
        if player is not None:
            entry = _league_entry(league, player, accepted_at=timezone.now())
        invitation = Invitation.objects.create(
            league=league, entry=entry, name=name, email=email, created_by=by
        )
        if email:
            _mail_invitation(invitation, by, language)
    return invitation


def _checked_email(email: str) -> str:
    """The address stripped, refused when it is not one ("" stays: no mail)."""
    email = (email or "").strip()
    if not email:
        return ""
    try:
        validate_email(email)
    except ValidationError:
        raise coded("email_invalid", field="email", email=repr(email)) from None
    return email


def _check_invited_player(by, player: Player) -> None:
    """A player invited to become someone's is one without an account that ``by`` may
    vouch for, and without rated games (staff hands those over)."""
    if player.user_id:
        raise coded("invite_has_account", field="player", player=player.name)
    if not may_vouch_for(by, player):
        raise coded("invite_not_yours", field="player", cls=NotAllowed, player=player.name)
    if rated_player_refusal(by, player):
        raise coded("player_rated", field="player", cls=NotAllowed, player=player.name)


def _checked_invitation_name(name: str, by) -> str:
    """The name of the player to create: not one of ``by``'s players without an account."""
    clash = player_name_clash(name, organizer=by)
    if clash is not None and clash.user_id is None:
        raise coded("invite_name_taken", field="name", player=clash.name)
    return player_name_check(name, what="the player's name")


def _league_entry(league: League, player: Player, **fields) -> Entry:
    """The player's entry in the league, created (with ``fields``) if there is none."""
    entry = Entry.objects.filter(league=league, player=player).first()
    if entry is None:
        entry = Entry.objects.create(
            league=league,
            player=player,
            preferred_colours=fitting_pair(league, player.preferred_colours),
            **fields,
        )
    return entry


def _mail_invitation(invitation: Invitation, by, language: str) -> None:
    """Count the mail against ``by``'s allowance and send it once the invitation is
    committed."""
    email = invitation.email
    mail_record(kind=MailSent.Kind.INVITATION, sender=by, recipient=email)
    subject, body = invitation_mail(invitation, language=invitation_language(email, language))
    transaction.on_commit(lambda: _send_invitation(subject, body, email, invitation.pk))


def site_url(path: str) -> str:
    """``path`` on the configured site (``SITE_URL``), as every e-mail links."""
    return settings.SITE_URL.rstrip("/") + path


def invitation_language(email: str, sender_language: str = "") -> str:
    """The language of the invitation mailed to ``email``: the one chosen by the account
    that has confirmed this address (else by the one account with it); without an account
    or a choice, ``sender_language``, the language of the page the organizer sends it from
    (they likely know whom they invite); else the site's default."""
    chosen = _languages_chosen(email)
    if len(chosen) == 1 and chosen[0] in dict(settings.LANGUAGES):
        return chosen[0]
    if sender_language in dict(settings.LANGUAGES):
        return sender_language
    return settings.LANGUAGE_CODE


def _languages_chosen(email: str) -> list[str]:
    """The languages chosen by the accounts that confirmed ``email`` (else by those with
    it): up to two, to tell one from many."""
    users = get_user_model().objects.filter(email__iexact=email)
    confirmed = users.filter(confirmed_email__email__iexact=email)
    owners = confirmed if confirmed.exists() else users
    languages = owners.values_list("account_settings__language", flat=True)[:2]
    return [language for language in languages if language]


def invitation_mail(invitation: Invitation, *, language: str) -> tuple[str, str]:
    """The subject and body of the mail of ``invitation``, in ``language``."""
    url = site_url(reverse("tournaments:invitation", args=[invitation_token(invitation)]))
    league = invitation.league
    who = invitation.created_by.get_username() if invitation.created_by_id else ""
    with translation.override(language):
        subject = _("Invitation to %(league)s") % {"league": league.name}
        lines = [
            _("%(who)s invites you to play in %(league)s.") % {"who": who, "league": league.name}
        ]
        if invitation.entry_id:
            lines.append(_("You will play as %(name)s.") % {"name": invitation.entry.player.name})
        elif invitation.name:
            lines.append(_("You will play as %(name)s.") % {"name": invitation.name})
        lines.append(_("Accept or decline here: %(url)s") % {"url": url})
        lines.append(
            _("Only an account with the confirmed address %(email)s can accept it.")
            % {"email": invitation.email}
        )
    return " ".join(subject.split()), "\n\n".join(lines) + "\n"  # the subject: one line


def _send_invitation(subject: str, body: str, email: str, invitation_id: int) -> None:
    """Send an invitation mail after commit; a failing mail server is logged (the
    invitation and its link on the manage page stay), never a 500 after the fact."""
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [email])
    except Exception:  # any backend error: the organizer still has the link
        logger.exception("the mail of invitation %s to %s failed", invitation_id, email)


def invitation_revoke(*, invitation: Invitation, by) -> None:
    require_organizer(by, invitation.league)
    if not invitation.is_open:
        raise coded("invitation_used")
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])


def invitation_address_refusal(
    invitation: Invitation, user, *, token_in_hand: bool = False
) -> Refusal | None:
    """Why ``user`` may not accept ``invitation`` because of its address, or None.

    An invitation mailed to an address is that address's, not the link's holder's: only
    an account whose confirmed e-mail address is the invitation's may accept it. An
    account with that address not yet confirmed confirms it first (the invitation page
    sends the link); the same link handed to anyone else is refused. Invitations made
    as a link to hand out (no address) are bearer links by design."""
    if not invitation.email:
        return None
    if not _same_address(user, invitation):
        return Refusal("invitation_other_address", forbidden=True)
    # the invitation's token was mailed to this address: it proves the mailbox as the
    # confirmation link would (issue 34: no second mail), unless another account has
    # the address confirmed already
    if email_confirmed(user) or (token_in_hand and not _confirmed_by_anyone(invitation.email)):
        return None
    return Refusal("invitation_confirm_address", forbidden=True, email=invitation.email)


def _same_address(user, invitation: Invitation) -> bool:
    return (user.email or "").strip().lower() == invitation.email.lower()


def _confirmed_by_anyone(email: str) -> bool:
    return ConfirmedEmail.objects.filter(email__iexact=email).exists()


def invitation_accept(*, invitation: Invitation, by, token_in_hand: bool = False) -> Entry:
    """Accept an invitation: the account becomes the invited entry's player (one created
    without an account), or its own player (created when it has none, under the
    invitation's name) is entered and accepted. ``token_in_hand``: accepted through the
    mailed link (its token), which proves the mailbox: an account with the invited
    address accepts without confirming it by a second mail, and the address counts as
    confirmed from then on."""
    _require_signed_in(by, "invitation_log_in")
    require_no_refusal(invitation_address_refusal(invitation, by, token_in_hand=token_in_hand))
    with transaction.atomic():
        if token_in_hand and invitation.email and not email_confirmed(by):
            address_lock(by.email)
            ConfirmedEmail.objects.update_or_create(user=by, defaults={"email": by.email})
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if not invitation.is_open:
            raise coded("invitation_used")
        own = Player.objects.filter(user=by).first()
        if invitation.entry_id:
            entry = _become_invited_player(invitation, by, own)
        else:
            entry = _enter_own_player(invitation, by, own)
        _record_acceptance(invitation, entry, by)
        return entry


def _require_signed_in(by, code: str) -> None:
    """Refused (``code``: what to do) unless an account acts."""
    if not getattr(by, "is_authenticated", False):
        raise coded(code, cls=NotAllowed)


def _become_invited_player(invitation: Invitation, by, own: Player | None) -> Entry:
    """The account becomes the invited entry's player (no other account's, and not
    another player than its own); a player that changes hands stops reporting through
    its private result links."""
    entry = Entry.objects.select_related("player").get(pk=invitation.entry_id)
    player = Player.objects.select_for_update().get(pk=entry.player_id)
    if player.user_id and player.user_id != by.pk:
        raise coded("player_other_account", player=player.name)
    if own and own.pk != player.pk:
        raise coded("invitation_other_player", own=own.name, player=player.name)
    changed = player.user_id != by.pk
    player.user = by
    player.save(update_fields=["user"])
    if changed:  # the account reports from now on: the private link stops
        result_links_revoke_for_player(player=player, by=by)
        player_names_distinguish(player.name)
    return entry


def _enter_own_player(invitation: Invitation, by, own: Player | None) -> Entry:
    """The account's own player (created under the invitation's name if it has none),
    entered in the invitation's league while entries are open."""
    league = invitation.league
    if error := entries_open_error(league):
        raise error
    player = own or player_create(name=invitation.name or by.get_username(), user=by)
    return _league_entry(league, player)


def _record_acceptance(invitation: Invitation, entry: Entry, by) -> None:
    entry.state = Entry.State.ACCEPTED
    entry.accepted_at = timezone.now()
    entry.save(update_fields=["state", "accepted_at"])
    invitation.accepted_by, invitation.accepted_at = by, timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    if invitation.entry_id is None:
        invitation.entry = entry
        invitation.save(update_fields=["entry"])


def _admit(entry: Entry) -> Entry:
    """An open tournament's capacity and late entries (h-champ)."""

    return entry_admit(entry)


def entry_accept(*, entry: Entry, by) -> Entry:
    """The player accepts an organizer's entry of them (an invitation)."""
    require_no_refusal(entry_refusal(by, entry, "accept"))
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.state != Entry.State.INVITED:
            raise coded("invitation_answered")
        entry.state, entry.accepted_at = Entry.State.ACCEPTED, timezone.now()
        entry.save(update_fields=["state", "accepted_at"])
        done_on_commit(ENTRY_INVITED, entry.pk)
        return _admit(entry)


def entry_decline(*, entry: Entry, by) -> None:
    """The player declines: the entry goes (nothing of it was ever shown with results)."""
    require_no_refusal(entry_refusal(by, entry, "decline"))
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.state != Entry.State.INVITED or entry.seats.exists():
            raise coded("invitation_answered")
        done_on_commit(ENTRY_INVITED, entry.pk)
        # the organizers are told (they waited for the answer to seed the league)
        notify_on_commit(INVITATION_DECLINED, entry.league_id, f"{entry.player_id}:{entry.pk}")
        entry.delete()


def entry_set_colours(*, entry: Entry, by, preferred_colours) -> Entry:
    """The player's preferred allied pair in this league, until the schedule exists."""
    require_no_refusal(entry_refusal(by, entry, "colours"))
    colours = check_pair(entry.league, preferred_colours)
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.league.cycles.exists():
            raise coded("colours_fixed")
        entry.preferred_colours = colours
        entry.save(update_fields=["preferred_colours"])
        return entry


def join_request(*, league: League, by, preferred_colours=None) -> Entry:
    """Ask to join a league whose registration is open; an organizer approves."""
    _require_signed_in(by, "join_log_in")
    if not league.registration_open:
        raise coded("join_invitation_only", league=league.name)
    if error := entries_open_error(league):
        raise error
    player = Player.objects.filter(user=by).first()
    if player is None:
        raise coded("join_no_profile")
    colours = check_pair(league, preferred_colours or player.preferred_colours)
    return _join_request_create(league, player, colours)


def _join_request_create(league: League, player: Player, colours) -> Entry:
    """The request (its organizers are told); refused when the player is entered
    already."""
    try:
        with transaction.atomic():
            entry = Entry.objects.create(
                league=league,
                player=player,
                preferred_colours=colours,
                state=Entry.State.REQUESTED,
            )
            notify_on_commit(JOIN_REQUESTED, entry.pk)
            return entry
    except IntegrityError:
        raise coded("join_entered", player=player.name, league=league.name) from None


def join_decide(*, entry: Entry, by, approve: bool) -> Entry | None:
    """An organizer approves (the entry is accepted: the player asked) or refuses (the
    request goes) a join request."""
    require_organizer(by, entry.league)
    with transaction.atomic():
        entry = Entry.objects.select_for_update().select_related("league").get(pk=entry.pk)
        if entry.state != Entry.State.REQUESTED:
            raise coded("join_decided")
        done_on_commit(JOIN_REQUESTED, entry.pk)
        _tell_join_decision(entry, approve)
        if not approve:
            entry.delete()
            return None
        if error := entries_open_error(entry.league):
            raise error
        entry.state, entry.accepted_at = Entry.State.ACCEPTED, timezone.now()
        entry.save(update_fields=["state", "accepted_at"])
        return _admit(entry)


def _tell_join_decision(entry: Entry, approve: bool) -> None:
    """The player with an account hears the organizer's answer."""
    if user_id := entry.player.user_id:
        decision = "approved" if approve else "refused"
        notify_on_commit(JOIN_DECIDED, entry.league_id, f"{user_id}:{decision}")


def rated_player_refusal(by, player: Player) -> Refusal | None:
    """Why ``by`` may not hand ``player`` (without an account) to an account, or None: a
    player with rated games is staff's to hand over (docs/ratings.md, "Rated leagues"): a
    rating is other people's number, so a farmed rating cannot pass to a sock account on
    its creator's word."""
    if getattr(by, "is_staff", False) or not player.rating_changes.exists():
        return None
    return Refusal("player_rated", forbidden=True, player=player.name)


def claim_create(*, player: Player, by) -> PlayerClaim:
    """``by`` (an account without a player) asks to become ``player`` (created by an
    organizer without an account)."""
    _require_signed_in(by, "claim_log_in")
    if player.user_id:
        raise coded("claim_player_taken", field="name", player=player.name)
    if Player.objects.filter(user=by).exists():
        raise coded("claim_has_profile")
    try:
        with transaction.atomic():
            claim = PlayerClaim.objects.create(player=player, user=by)
            notify_on_commit(CLAIM_OPENED, claim.pk)
            return claim
    except IntegrityError:
        raise coded("claim_asked", player=player.name) from None


def claim_decide(*, claim: PlayerClaim, by, approve: bool) -> PlayerClaim:
    """Whoever may vouch for the player (``permissions.may_vouch_for``: the organizer who
    created them, or staff) approves: the account becomes the player, with its history
    and rating, or refuses. Organizers who merely entered the player may not: a player
    with no recorded creator is staff's to hand over."""
    if not may_vouch_for(by, claim.player):
        raise coded(
            "claim_creator_decides" if claim.player.created_by_id else "claim_staff_decides",
            cls=NotAllowed,
            player=claim.player.name,
        )
    with transaction.atomic():
        claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
        if claim.state != PlayerClaim.State.OPEN:
            raise coded("claim_decided")
        player = Player.objects.select_for_update().get(pk=claim.player_id)
        if approve:
            _hand_player_to_claimant(claim, player, by)
        claim.state = PlayerClaim.State.APPROVED if approve else PlayerClaim.State.REFUSED
        claim.decided_by, claim.decided_at = by, timezone.now()
        claim.save(update_fields=["state", "decided_by", "decided_at"])
        done_on_commit(CLAIM_OPENED, claim.pk)
        notify_on_commit(CLAIM_DECIDED, claim.pk, claim.state)
        return claim


def _hand_player_to_claimant(claim: PlayerClaim, player: Player, by) -> None:
    """The claiming account becomes ``player`` (no rated games unless staff decides, no
    account yet on either side); the player's other open claims are refused."""
    if rated_player_refusal(by, player):
        raise coded("player_rated_claim_waits", cls=NotAllowed, player=player.name)
    if player.user_id:
        raise coded("claim_player_taken", player=player.name)
    if Player.objects.filter(user=claim.user).exists():
        raise coded("claim_user_has_profile", user=claim.user.get_username())
    player.user = claim.user
    player.save(update_fields=["user"])
    player_names_distinguish(player.name)  # now told apart by the user name
    # the account reports from now on: the private result links stop at once
    result_links_revoke_for_player(player=player, by=by)
    # the account holder asked to be this player: their entries stand as accepted
    PlayerClaim.objects.filter(player=player, state=PlayerClaim.State.OPEN).exclude(
        pk=claim.pk
    ).update(state=PlayerClaim.State.REFUSED, decided_by=by, decided_at=timezone.now())


def accountless_player_create(*, league: League, by, name: str) -> Entry:
    """An organizer creates a player without an account and enters them (limited per
    organizer: ``ACCOUNTLESS_PLAYERS_PER_ORGANIZER``)."""
    require_organizer(by, league)
    if error := entries_open_error(league):
        raise error
    accountless_limit_check(by)
    with transaction.atomic():
        player = player_create(name=name, created_by=by)
        entry = Entry.objects.create(league=league, player=player, accepted_at=timezone.now())
        return _admit(entry)


# --- confirming an e-mail address (ORGANIZERS_MUST_BE_VERIFIED) ---------------------------

EMAIL_SALT = "tournaments.confirm-email"


def email_confirmation_token(user) -> str:
    return signing.dumps({"u": user.pk, "e": user.email}, salt=EMAIL_SALT, compress=True)


def email_confirmation_send(
    *, user, link_for=None, language: str = "", next_path: str = ""
) -> None:
    """Mail the account a signed link that confirms its e-mail address: on the configured
    site (``SITE_URL``, like every mail; ``link_for(token)`` overrides it), in the account's
    language (else ``language``, the page's, else the site's default). ``next_path``: the
    page (a path on this site, checked by the view) the link returns to once confirmed."""
    if not user.email:
        raise coded("email_none", field="email")
    with transaction.atomic():
        mail_allowance_check(kind=MailSent.Kind.CONFIRMATION, sender=user, recipient=user.email)
        mail_record(kind=MailSent.Kind.CONFIRMATION, sender=user, recipient=user.email)
    url = _confirmation_url(email_confirmation_token(user), link_for, next_path)
    with translation.override(_account_language(user, language)):
        subject = _("Confirm your e-mail address")
        body = _("Open this link to confirm %(email)s: %(url)s") % {"email": user.email, "url": url}
    send_mail(subject, body + "\n", settings.DEFAULT_FROM_EMAIL, [user.email], fail_silently=False)


def _confirmation_url(token: str, link_for, next_path: str) -> str:
    """The link confirming the address (``link_for(token)``, else on ``SITE_URL``), with
    the page to return to."""
    if link_for:
        url = link_for(token)
    else:
        url = site_url(reverse("tournaments:confirm-email", args=[token]))
    if next_path.startswith("/") and not next_path.startswith("//"):  # h-trust: way back
        url += "?" + urlencode({"next": next_path})
    return url


def _account_language(user, fallback: str) -> str:
    """The account's chosen language, else ``fallback`` (the page's), else the site's."""
    chosen = getattr(getattr(user, "account_settings", None), "language", "")
    wanted = chosen or fallback
    return wanted if wanted in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def email_confirm(*, token: str, by):
    """Confirm the address the signed link names, for the account it names (which must
    be the signed-in one, and still have that address). An address is confirmed for one
    account at a time: one mailbox makes one verified organizer, and an invitation
    mailed to it has one possible taker."""

    try:
        data = signing.loads(token, salt=EMAIL_SALT, max_age=60 * 60 * 24 * 7)
    except signing.BadSignature:
        raise coded("confirm_link_invalid") from None
    _require_link_of(by, data)
    with transaction.atomic():
        address_lock(by.email)  # two accounts confirming one address at once: one wins
        taken = ConfirmedEmail.objects.filter(email__iexact=by.email).exclude(user=by)
        if taken.exists():
            raise coded("confirm_email_taken", field="email", email=by.email)
        ConfirmedEmail.objects.update_or_create(user=by, defaults={"email": by.email})


def _require_link_of(by, data: dict) -> None:
    """The signed-in account is the one the link names, and still has its address."""
    if not getattr(by, "is_authenticated", False) or data.get("u") != by.pk:
        raise coded("confirm_log_in", cls=NotAllowed)
    if (data.get("e") or "").lower() != (by.email or "").lower():
        raise coded("confirm_email_changed")
