"""Rated leagues (docs/ratings.md, "Rated leagues"): an organizer asks for a rating, a rating
officer (staff or the permission ``tournaments.sanction_league``) approves or refuses it with
a reason, or withdraws it. A change of a league's rating re-decides its counted games and
replays the ratings from the earliest of them on commit (the update task's replay)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from ratings.models import LeagueRatingDecision
from ratings.services.ratings import every_league_rated, rating_game_counted
from tournaments.models import Fixture, League, Result
from tournaments.permissions import may_sanction
from tournaments.services.errors import NotAllowed, coded
from tournaments.services.guards import require_organizer

NOTE_MAX = REASON_MAX = 500


def league_rating_request(*, league: League, by, note: str = "") -> LeagueRatingDecision:
    """An organizer of ``league`` asks a rating officer to rate it."""
    require_organizer(by, league)
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise coded("rating_note_long", field="note", length=len(note), most=NOTE_MAX)
    if every_league_rated():
        raise coded("rating_all_rated")
    if league.rated:
        raise coded("rating_rated_already", league=league.name)
    try:
        with transaction.atomic():
            return LeagueRatingDecision.objects.create(
                league=league, requested_by=by, requested_at=timezone.now(), note=note
            )
    except IntegrityError:
        raise coded("rating_requested", league=league.name) from None


def _rerate(league: League) -> int:
    """Re-decide every counted game of ``league`` (its rated games become pending where their
    places change) and queue the replay on commit. The fixtures are locked first, in id
    order, as every result write does (docs/ratings.md, "Lock order")."""
    counted = Result.objects.filter(fixture=OuterRef("pk"), state=Result.State.CONFIRMED)
    fixture_ids = list(
        Fixture.objects.filter(Exists(counted), league=league)
        .select_for_update(no_key=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for fixture_id in fixture_ids:
        rating_game_counted(fixture_id)
    return len(fixture_ids)


def _checked_reason(reason: str, rated: bool) -> str:
    """The officer's reason, stripped: at most REASON_MAX characters, required to unrate."""
    reason = (reason or "").strip()
    if len(reason) > REASON_MAX:
        raise coded("rating_reason_long", field="reason", length=len(reason), most=REASON_MAX)
    if not rated and not reason:
        raise coded("rating_reason_missing", field="reason")
    return reason


def _decision_state(rated: bool, requested: bool) -> str:
    """Approved; else a request refused, or a rating withdrawn."""
    state = LeagueRatingDecision.State
    if rated:
        return state.APPROVED
    return state.REFUSED if requested else state.REVOKED


def league_rating_decide(
    *, league: League, by, rated: bool, reason: str = ""
) -> LeagueRatingDecision:
    """A rating officer rates ``league`` (approving its open request, or directly) or not
    (refusing the open request, or withdrawing the rating), with a reason: recorded with who
    and when. The league's counted games join or leave the ratings on commit."""
    if not may_sanction(by):
        raise coded("rating_officers_only", cls=NotAllowed)
    reason = _checked_reason(reason, rated)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        open_request = (
            LeagueRatingDecision.objects.select_for_update()
            .filter(league=league, state=LeagueRatingDecision.State.REQUESTED)
            .first()
        )
        if rated == league.rated and open_request is None:
            raise coded(
                "rating_rated_already" if rated else "rating_unrated_already", league=league.name
            )
        decision = open_request or LeagueRatingDecision(league=league)
        decision.state = _decision_state(rated, open_request is not None)
        decision.decided_by, decision.decided_at, decision.reason = by, timezone.now(), reason
        decision.save()
        if league.rated != rated:
            league.rated = rated
            league.save(update_fields=["rated"])
            _rerate(league)
        return decision
