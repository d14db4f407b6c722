"""A championship day on an open tournament (issue 36): check-in and the entry fee, and
the referee call from a table. Every write of the desk's check-in page, the venue's QR
code, the private result link and the table's page comes here, so the rules are the same
through every door:

- the organizers (the desk) check anyone in or out and mark the fee paid or not, at any
  time;
- a player checks in only themselves, only while check-in is open, and only with the
  venue's current token (the QR code at the venue: ``selectors.championship``), signed in
  or through their private result link;
- once check-in is open, a round is drawn among the checked-in players only
  (``open_tournaments.open_round_draw``); who is not checked in sits that round out, with
  no points (docs/decisions.md).

Each write locks the entry's (or table's) row and is idempotent: checking in twice keeps
the first time."""

from __future__ import annotations

import json

from django.db import transaction
from django.utils import timezone

from tournaments.actors import link_holder
from tournaments.models import Entry, Fixture, League, Result
from tournaments.permissions import is_organizer
from tournaments.selectors.championship import venue_token_valid
from tournaments.services.errors import NotAllowed, coded
from tournaments.services.guards import require_organizer
from tournaments.services.hand_results import HandResult, hand_result_fields
from tournaments.services.results import result_confirm, result_dispute, result_report


def _require_open_tournament(league: League) -> None:
    if league.event_kind != League.EventKind.OPEN:
        raise coded("checkin_not_open_tournament", league=league.name)


def checkin_open(*, league: League, by) -> League:
    """Open check-in (again): from now on only checked-in players are drawn; the venue's
    QR code gets a new token (an older poster stops working)."""
    require_organizer(by, league)
    _require_open_tournament(league)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        league.checkin_opened_at = timezone.now()
        league.save(update_fields=["checkin_opened_at"])
    return league


def checkin_close(*, league: League, by) -> League:
    """Close check-in: rounds are drawn among every playing entry again, and the venue's
    code stops working. Who checked in stays checked in."""
    require_organizer(by, league)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        league.checkin_opened_at = None
        league.save(update_fields=["checkin_opened_at"])
    return league


def _own_entry(by, entry: Entry) -> bool:
    if (holder := link_holder(by)) is not None:
        return holder.entry_id == entry.pk
    return bool(getattr(by, "is_authenticated", False)) and entry.player.user_id == by.pk


def _locked_entry(entry: Entry) -> Entry:
    return (
        Entry.objects.select_for_update(of=("self",))
        .select_related("league", "player")
        .get(pk=entry.pk)
    )


def entry_check_in(*, entry: Entry, by, venue_token: str | None = None, checked_in=True) -> Entry:
    """Check ``entry`` in (or, ``checked_in=False``, out). The desk (an organizer) does
    either at any time; the player themselves only checks in, only while check-in is open
    and with the venue's current token. Checking in twice keeps the first time."""
    league = entry.league
    _require_open_tournament(league)
    organizer = is_organizer(by, league) if getattr(by, "is_authenticated", False) else False
    if not organizer:
        if not _own_entry(by, entry):
            raise coded("checkin_not_yours", cls=NotAllowed)
        if not checked_in:
            raise NotAllowed(f"only the organizers of {league.name} check a player out")
    with transaction.atomic():
        entry = _locked_entry(entry)
        if not organizer:
            fresh = League.objects.get(pk=league.pk)
            if fresh.checkin_opened_at is None:
                raise coded("checkin_not_open", league=fresh.name)
            if not venue_token_valid(fresh, venue_token or ""):
                raise coded("checkin_bad_venue_code", field="token", cls=NotAllowed)
        if entry.state != Entry.State.ACCEPTED or entry.withdrawn_at is not None:
            raise NotAllowed(f"{entry.player.name} does not play in {league.name}")
        if checked_in and entry.checked_in_at is None:
            entry.checked_in_at = timezone.now()
            entry.save(update_fields=["checked_in_at"])
        elif not checked_in and entry.checked_in_at is not None:
            entry.checked_in_at = None
            entry.save(update_fields=["checked_in_at"])
    return entry


def entry_mark_paid(*, entry: Entry, by, paid: bool = True) -> Entry:
    """The desk marks the entry fee paid (or, ``paid=False``, not paid)."""
    require_organizer(by, entry.league)
    with transaction.atomic():
        entry = _locked_entry(entry)
        if paid and entry.paid_at is None:
            entry.paid_at = timezone.now()
            entry.save(update_fields=["paid_at"])
        elif not paid and entry.paid_at is not None:
            entry.paid_at = None
            entry.save(update_fields=["paid_at"])
    return entry


def sits_at(by, fixture: Fixture) -> bool:
    seats = fixture.seats.all()
    if (holder := link_holder(by)) is not None:
        return any(s.entry_id == holder.entry_id for s in seats)
    if not getattr(by, "is_authenticated", False):
        return False
    return any(s.entry.player.user_id == by.pk for s in seats)


def table_referee_call(*, fixture: Fixture, by, called: bool = True) -> Fixture:
    """A player at the table calls the referee (the desk sees the table flagged); the desk
    (or a player at the table) clears the call. Calling twice keeps the first time."""
    organizer = getattr(by, "is_authenticated", False) and is_organizer(by, fixture.league)
    if not organizer and not sits_at(by, fixture):
        raise coded("table_not_yours", table=fixture.number, cls=NotAllowed)
    with transaction.atomic():
        fixture = Fixture.objects.select_for_update(of=("self",), no_key=True).get(pk=fixture.pk)
        if called and fixture.referee_called_at is None:
            fixture.referee_called_at = timezone.now()
        elif not called:
            fixture.referee_called_at = None
        fixture.save(update_fields=["referee_called_at", "updated_at"])
    return fixture


def same_actor(result: Result, by) -> bool:
    if (holder := link_holder(by)) is not None:
        return result.submitted_via_id is not None and result.submitted_via.entry_id == (
            holder.entry_id
        )
    return result.submitted_by_id is not None and result.submitted_by_id == getattr(by, "pk", -1)


def _as_stored(value):
    return json.loads(json.dumps(value))


def table_result_enter(
    *, fixture: Fixture, user, winner=None, counted_pawns=None, reason: str = "", **typed
) -> Result:
    """A player at the table enters its placings (or count points when time ran out), from
    their phone. The same result entered again counts once, however the phones race (the
    table's row is locked first): typed again by the same player it changes nothing; typed
    by another player at the table it confirms the first entry; different placings from
    another player dispute it (the desk decides); the same player's different entry is
    refused while theirs waits (``result_report``)."""
    if not sits_at(user, fixture):
        raise coded("table_not_yours", table=fixture.number, cls=NotAllowed)
    with transaction.atomic():
        fixture = (
            Fixture.objects.select_for_update(of=("self",), no_key=True)
            .select_related("league")
            .get(pk=fixture.pk)
        )
        fields = hand_result_fields(
            fixture,
            HandResult(
                winner=winner.pk if winner is not None else None,
                counted_pawns=counted_pawns,
                **typed,
            ),
        )
        current = (
            fixture.results.filter(state__in=[Result.State.PENDING, Result.State.CONFIRMED])
            .select_related("submitted_via")
            .order_by("-pk")
            .first()
        )
        if current is not None and all(
            _as_stored(v) == _as_stored(getattr(current, k)) for k, v in fields.items()
        ):
            if current.state == Result.State.CONFIRMED or same_actor(current, user):
                return current  # entered twice: counts once
            return result_confirm(result=current, user=user)
        if (
            current is not None
            and current.state == Result.State.PENDING
            and not same_actor(current, user)
        ):
            # two players at the table disagree: the table is disputed, the desk decides
            names = dict(fixture.seats.values_list("entry_id", "entry__player__name"))
            typed_order = fields.get("placings") or []
            order = ", ".join(names.get(e, "?") for e in typed_order) or str(fields)
            return result_dispute(
                result=current,
                user=user,
                reason=f"another player at the table entered different placings: {order}",
            )
        return result_report(
            fixture=fixture,
            user=user,
            winner=winner,
            counted_pawns=counted_pawns,
            reason=reason,
            **typed,
        )
