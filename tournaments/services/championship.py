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
import re

from django.db import models, transaction
from django.utils import timezone

from core.reasons import DISAGREEMENT, note
from tournaments.actors import link_holder
from tournaments.algorithms import championship as rules
from tournaments.models import Entry, Fixture, League, OpenRound, Result, Seat
from tournaments.permissions import is_organizer
from tournaments.selectors.championship import venue_token_valid
from tournaments.services.errors import NotAllowed, coded
from tournaments.services.guards import require_organizer
from tournaments.services.hand_results import HandResult, hand_result_fields
from tournaments.services.results import (
    fixture_lock,
    result_confirm_locked,
    result_dispute_locked,
    result_report_locked,
)
from tournaments.services.standings import standings_invalidate


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


def _acts_as_desk(by, entry: Entry, checked_in: bool) -> bool:
    """True for the desk (an organizer); a player may only check themselves in."""
    league = entry.league
    if getattr(by, "is_authenticated", False) and is_organizer(by, league):
        return True
    if not _own_entry(by, entry):
        raise coded("checkin_not_yours", cls=NotAllowed)
    if not checked_in:
        raise coded("checkout_organizers_only", cls=NotAllowed, league=league.name)
    return False


def _require_venue(league: League, venue_token: str | None) -> None:
    """A player's own check-in: only while check-in is open, with the venue's token."""
    fresh = League.objects.get(pk=league.pk)
    if fresh.checkin_opened_at is None:
        raise coded("checkin_not_open", league=fresh.name)
    if not venue_token_valid(fresh, venue_token or ""):
        raise coded("checkin_bad_venue_code", field="token", cls=NotAllowed)


def _require_at_the_desk(entry: Entry) -> None:
    """Checked in are the playing entries and the waitlist (present on it, h-champ)."""
    present = entry.state in (Entry.State.ACCEPTED, Entry.State.WAITLISTED)
    if not present or entry.withdrawn_at:
        raise coded(
            "player_not_in_league",
            cls=NotAllowed,
            player=entry.player.name,
            league=entry.league.name,
        )


def entry_check_in(*, entry: Entry, by, venue_token: str | None = None, checked_in=True) -> Entry:
    """Check ``entry`` in (or, ``checked_in=False``, out). The desk (an organizer) does
    either at any time; the player themselves only checks in, only while check-in is open
    and with the venue's current token. Checking in twice keeps the first time."""
    _require_open_tournament(entry.league)
    desk = _acts_as_desk(by, entry, checked_in)
    with transaction.atomic():
        entry = _locked_entry(entry)
        if not desk:
            _require_venue(entry.league, venue_token)
        _require_at_the_desk(entry)
        if checked_in != (entry.checked_in_at is not None):
            entry.checked_in_at = timezone.now() if checked_in else None
            entry.save(update_fields=["checked_in_at"])
    if checked_in and entry_waitlist_check_in(entry):  # after the deadline: a free place
        entry.refresh_from_db()
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


def _current_version(versions: list[Result]) -> Result | None:
    """The table's newest pending or counting result version, or None."""
    wanted = (Result.State.PENDING, Result.State.CONFIRMED)
    return max((r for r in versions if r.state in wanted), key=lambda r: r.pk, default=None)


def _same_result(current: Result | None, fields: dict) -> bool:
    return current is not None and all(
        _as_stored(v) == _as_stored(getattr(current, k)) for k, v in fields.items()
    )


def _disagreement(fixture: Fixture, fields: dict) -> str:
    """Why the table is disputed: the other player's placings, by name."""
    names = {s.entry_id: s.entry.player.name for s in fixture.seats.all()}
    order = ", ".join(names.get(e, "?") for e in fields.get("placings") or [])
    return note(DISAGREEMENT, order=order or fields)


def table_result_enter(
    *, fixture: Fixture, by, winner=None, counted_pawns=None, reason: str = "", **typed
) -> Result:
    """A player at the table enters its placings (or count points when time ran out), from
    their phone. The same result entered again counts once, however the phones race (the
    table's row is locked first): typed again by the same player it changes nothing; typed
    by another player at the table it confirms the first entry; different placings from
    another player dispute it (the desk decides); the same player's different entry is
    refused while theirs waits (``result_report``)."""
    if not sits_at(by, fixture):
        raise coded("table_not_yours", table=fixture.number, cls=NotAllowed)
    with transaction.atomic():
        # one locked read of the table with its seats and result versions (read under
        # the lock): everything below decides on these, nothing is locked or read again
        fixture = fixture_lock(fixture.pk, by, table=True)
        versions = list(fixture.results.all())
        # what follows writes results: no one may read the versions from the cache again
        fixture._prefetched_objects_cache.pop("results", None)
        winner_pk = winner.pk if winner is not None else None
        hand = HandResult(winner=winner_pk, counted_pawns=counted_pawns, **typed)
        fields = hand_result_fields(fixture, hand)
        current = _current_version(versions)
        locked = {"fixture": fixture, "versions": versions, "by": by}
        if _same_result(current, fields):
            if current.state == Result.State.CONFIRMED or same_actor(current, by):
                return current  # entered twice: counts once
            return result_confirm_locked(result=current, **locked)
        if current and current.state == Result.State.PENDING and not same_actor(current, by):
            # two players at the table disagree: the table is disputed, the desk decides
            return result_dispute_locked(
                result=current, reason=_disagreement(fixture, fields), **locked
            )
        return result_report_locked(fields=fields, reason=reason, **locked)


# --- h-champ: capacity and the waitlist, late entries, the check-in deadline, teams -------
#
# The rules are plain functions in ``tournaments.algorithms.championship``; here they are
# applied under the league's row lock (``SELECT … FOR UPDATE``), so two entries, two
# withdrawals or a withdrawal and the deadline never both take the last place, and every
# move is a conditional UPDATE (``state='waitlisted'``) that a second run finds done.


def _lock_league(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)


def drawn_rounds(league: League) -> int:
    return league.open_rounds.filter(is_final=False).count()


def _joined_round(league: League) -> int | None:
    """The round a player entered (or promoted) now plays from: None before the first draw."""
    done = drawn_rounds(league)
    return done + 1 if done else None


def deadline_passed(league: League, now=None) -> bool:
    deadline = league.checkin_deadline
    return deadline is not None and (now or timezone.now()) >= deadline


def entry_admit(entry: Entry) -> Entry:
    """Called inside the transaction that made ``entry`` accepted (an organizer's entry, an
    approved request, an accepted invitation): in an open tournament it goes on the
    waitlist when the capacity is reached, and it is a late entry (playing from the next
    round) once rounds are drawn. Locks the league first, so concurrent entries queue."""
    league = entry.league
    if league.event_kind != League.EventKind.OPEN or entry.state != Entry.State.ACCEPTED:
        return entry
    league = _lock_league(league)
    joined = _joined_round(league)
    playing = league.entries.playing().exclude(pk=entry.pk).count()
    if rules.free_places(league.capacity, playing) == 0:
        Entry.objects.filter(pk=entry.pk, state=Entry.State.ACCEPTED).update(
            state=Entry.State.WAITLISTED, waitlisted_at=timezone.now(), accepted_at=None
        )
    elif joined is not None:
        Entry.objects.filter(pk=entry.pk).update(joined_round=joined)
    entry.refresh_from_db()
    return entry


def _promote(league: League, *, present_only: bool) -> list[int]:
    """Move the first waiting entries up into the free places (the league is locked)."""
    if league.capacity is None and not league.entries.filter(state=Entry.State.WAITLISTED):
        return []
    waiting = [
        rules.Waiting(pk, checked is not None)
        for pk, checked in league.entries.filter(
            state=Entry.State.WAITLISTED, withdrawn_at__isnull=True
        )
        .order_by("waitlisted_at", "pk")
        .values_list("pk", "checked_in_at")
    ]
    playing = league.entries.playing().count()
    moved = []
    now, joined = timezone.now(), _joined_round(league)
    for pk in rules.promotions(league.capacity, playing, waiting, present_only=present_only):
        done = Entry.objects.filter(
            pk=pk, state=Entry.State.WAITLISTED, withdrawn_at__isnull=True
        ).update(state=Entry.State.ACCEPTED, accepted_at=now, joined_round=joined)
        if done:
            moved.append(pk)
    return moved


def waitlist_promote(league: League) -> list[int]:
    """Fill the free places from the waitlist, in order (after the check-in deadline only
    with waiting players who are checked in). Returns the promoted entries' ids."""
    if league.event_kind != League.EventKind.OPEN:
        return []
    with transaction.atomic():
        league = _lock_league(league)
        return _promote(league, present_only=deadline_passed(league))


def checkin_deadline_apply(*, league: League, now=None) -> tuple[list[int], list[int]]:
    """At the check-in deadline: who was entered before it, is not checked in and has not
    played loses their place (withdrawn), and the waitlist's present players move up in
    order. Nothing before the deadline; applied again, it finds nothing more (entries made
    after the deadline are never removed by it). Run by the next draw and by the desk.
    Returns (released, promoted) entry ids."""
    _require_open_tournament(league)
    now = now or timezone.now()
    with transaction.atomic():
        league = _lock_league(league)
        if not deadline_passed(league, now):
            return [], []
        candidates = (
            league.entries.playing()
            .filter(
                models.Q(accepted_at__isnull=True)
                | models.Q(accepted_at__lte=league.checkin_deadline)
            )
            .annotate(played=models.Exists(Seat.objects.filter(entry=models.OuterRef("pk"))))
            .values_list("pk", "checked_in_at", "played")
        )
        release = rules.deadline_release(
            rules.Registered(pk, checked is not None, played) for pk, checked, played in candidates
        )
        released = []
        for pk in release:
            if Entry.objects.filter(
                pk=pk, withdrawn_at__isnull=True, checked_in_at__isnull=True
            ).update(withdrawn_at=now):
                released.append(pk)
        return released, _promote(league, present_only=True)


def entry_waitlist_check_in(entry: Entry) -> list[int]:
    """A waiting player checked in after the deadline takes a free place at once."""
    if entry.state != Entry.State.WAITLISTED or not deadline_passed(entry.league):
        return []
    return waitlist_promote(entry.league)


def league_set_registration(
    *, league: League, by, capacity: int | None, checkin_deadline, team_best: int = 0
) -> League:
    """The desk's registration settings: the capacity (None: no limit), the check-in
    deadline (None: none) and how many members' points count for a team (0: all). A
    larger capacity promotes from the waitlist at once."""
    require_organizer(by, league)
    _require_open_tournament(league)
    if capacity is not None and capacity < 2:
        raise coded("capacity_min", field="capacity")
    if team_best < 0:
        raise coded("team_min", field="team_best")
    with transaction.atomic():
        League.objects.filter(pk=league.pk).update(
            capacity=capacity, checkin_deadline=checkin_deadline, team_best=team_best
        )
        league = _lock_league(league)
        _promote(league, present_only=deadline_passed(league))
    return league


def entries_set_teams(*, league: League, by, text: str) -> int:
    """The desk pastes one line per player, ``name; team; category`` (a spreadsheet's
    columns; an empty field clears it). Every name must be a player of the event, else
    nothing changes. Returns the number of entries changed."""
    require_organizer(by, league)
    by_name = {
        casefold_name(name): pk
        for pk, name in league.entries.filter(
            state__in=[Entry.State.ACCEPTED, Entry.State.WAITLISTED]
        ).values_list("pk", "player__name")
    }
    changes: dict[int, tuple[str, str]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        fields = [f.strip() for f in re.split(r"[;\t]", line)] + ["", ""]
        name, team, category = fields[:3]
        pk = by_name.get(casefold_name(name))
        if pk is None:
            raise coded("team_line_unknown", line=number, name=name, field="text")
        changes[pk] = (team[:60], category[:30])
    with transaction.atomic():
        changed = 0
        for pk, (team, category) in changes.items():
            changed += (
                Entry.objects.filter(pk=pk)
                .exclude(team=team, category=category)
                .update(team=team, category=category)
            )
    if changed:
        standings_invalidate(league)
    return changed


def casefold_name(name: str) -> str:
    return " ".join(name.split()).casefold()


# --- h-champ: the round clock -------------------------------------------------------------
#
# The desk starts the newest round's clock with the event's time limit, pauses it and
# resumes it (``algorithms.championship`` computes each state); the state is stored on the
# round, so every phone, the desk and the projector show the same time left. Each write
# locks the round's row; pausing a paused clock or resuming a running one changes nothing.


def _clock_of(record: OpenRound) -> rules.RoundClock:
    return rules.RoundClock(ends_at=record.clock_ends_at, left_seconds=record.clock_left_seconds)


def _locked_round(league: League) -> OpenRound:
    record = OpenRound.objects.select_for_update().filter(league=league).order_by("-number").first()
    if record is None:
        raise coded("clock_no_round", league=league.name)
    return record


def _clock_change(league: League, by, change, now) -> OpenRound:
    require_organizer(by, league)
    _require_open_tournament(league)
    now = now or timezone.now()
    with transaction.atomic():
        record = _locked_round(league)
        before = _clock_of(record)
        after = change(league, before, now)
        if after != before:
            record.clock_ends_at, record.clock_left_seconds = after.ends_at, after.left_seconds
            record.clock_changed_at = now
            record.save(update_fields=["clock_ends_at", "clock_left_seconds", "clock_changed_at"])
    return record


def _start(league: League, clock: rules.RoundClock, now) -> rules.RoundClock:
    if not league.time_limit_minutes:
        raise coded("clock_no_time_limit", league=league.name)
    if clock.state != "idle":
        raise coded("clock_started")
    return rules.clock_start(league.time_limit_minutes, now)


def _started(clock: rules.RoundClock) -> rules.RoundClock:
    if clock.state == "idle":
        raise coded("clock_not_started")
    return clock


def round_clock_start(*, league: League, by, now=None) -> OpenRound:
    """Start the newest round's clock with the event's time limit (once per round)."""
    return _clock_change(league, by, _start, now)


def round_clock_pause(*, league: League, by, now=None) -> OpenRound:
    """Pause the running clock (a referee at a table): what is left is kept."""
    return _clock_change(league, by, lambda _l, c, t: rules.clock_pause(_started(c), t), now)


def round_clock_resume(*, league: League, by, now=None) -> OpenRound:
    """Resume the paused clock from what was left."""
    return _clock_change(league, by, lambda _l, c, t: rules.clock_resume(_started(c), t), now)
