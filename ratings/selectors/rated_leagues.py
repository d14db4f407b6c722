"""Whether a league is rated, and why (docs/ratings.md, "Rated leagues"): the same words on
the create, manage, league and game pages and in the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import Prefetch, QuerySet
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from ratings.models import LeagueRatingDecision, RatingGame
from ratings.services import ratings as rules
from tournaments.models import League, Result
from tournaments.permissions import email_confirmed


@dataclass(frozen=True)
class RatingStatus:
    rated: bool
    why: str
    requested: bool = False  # a request waits for a rating officer


def every_league_rated() -> bool:
    return getattr(settings, "RATED_LEAGUES", "sanctioned") == "all"


def new_league_rating() -> RatingStatus:
    """What the create page says: a new league starts unrated unless every league is."""
    if every_league_rated():
        return RatingStatus(True, _("Every league on this site is rated."))
    return RatingStatus(
        False,
        _(
            "A new league is unrated: its games move ratings and world rankings only once a "
            "rating officer sanctions it. Ask for a rating on the league's manage page."
        ),
    )


def _when(decision: LeagueRatingDecision) -> str:
    return date_format(decision.decided_at, "DATE_FORMAT") if decision.decided_at else ""


def rating_decisions_prefetch() -> Prefetch:
    """For a list of leagues: their decisions, newest first, in one query."""
    return Prefetch(
        "rating_decisions",
        queryset=LeagueRatingDecision.objects.select_related("decided_by").order_by("-id"),
    )


def league_rating(league: League) -> RatingStatus:
    """Rated or not, and why, from the league's latest decision (one query, none when
    :func:`rating_decisions_prefetch` was applied)."""
    if every_league_rated():
        return _club_rating(league.owner)
    last = _latest_decision(league)
    if league.rated:
        if last is None or last.state != LeagueRatingDecision.State.APPROVED:
            return RatingStatus(True, _("Rated: sanctioned by a rating officer."))
        return RatingStatus(
            True, _("Rated: sanctioned by %(who)s on %(when)s. %(reason)s") % _decided(last)
        )
    return _unrated(last)


def _club_rating(owner) -> RatingStatus:
    """A club install: every league, under the issue-22 rule of a verified owner."""
    if not (owner.is_staff or email_confirmed(owner)):
        return RatingStatus(
            False, _("Unrated: the league's owner has not confirmed an e-mail address.")
        )
    return RatingStatus(True, _("Every league on this site is rated."))


def _latest_decision(league: League) -> LeagueRatingDecision | None:
    """The league's latest rating decision (read with it when it was prefetched)."""
    if "rating_decisions" in getattr(league, "_prefetched_objects_cache", {}):
        decisions = list(league.rating_decisions.all())
        return decisions[0] if decisions else None
    return (
        LeagueRatingDecision.objects.filter(league=league)
        .select_related("decided_by")
        .order_by("-id")
        .first()
    )


def _decided(last: LeagueRatingDecision) -> dict[str, str]:
    """Who decided, when, and why (staff: a decision without its officer's account)."""
    who = (last.decided_by.get_username() if last.decided_by else "") or _("staff")
    return {"who": who, "when": _when(last), "reason": last.reason}


def _unrated(last: LeagueRatingDecision | None) -> RatingStatus:
    """A league not rated, by its latest decision: none, requested, refused, withdrawn."""
    if last is None:
        return RatingStatus(
            False,
            _("Unrated: the league is not sanctioned by a rating officer (none was asked yet)."),
        )
    if last.state == LeagueRatingDecision.State.REQUESTED:
        return RatingStatus(
            False,
            _("Unrated: a rating was requested; a rating officer has not decided yet."),
            requested=True,
        )
    if last.state == LeagueRatingDecision.State.REFUSED:
        text = _("Unrated: a rating was refused by %(who)s on %(when)s. %(reason)s")
    else:
        text = _("Unrated: the rating was withdrawn by %(who)s on %(when)s. %(reason)s")
    return RatingStatus(False, text % _decided(last))


def rating_requests_open() -> QuerySet[LeagueRatingDecision]:
    """The rating officers' queue: open requests, oldest first, with their league."""
    return (
        LeagueRatingDecision.objects.filter(state=LeagueRatingDecision.State.REQUESTED)
        .select_related("league__owner", "requested_by")
        .order_by("requested_at", "id")
    )


def rating_decisions_recent(limit: int = 50) -> list[LeagueRatingDecision]:
    return list(
        LeagueRatingDecision.objects.exclude(state=LeagueRatingDecision.State.REQUESTED)
        .select_related("league", "decided_by", "requested_by")
        .order_by("-decided_at", "-id")[:limit]
    )


# --- h-trust: one game's own reason (issue 32) -------------------------------------------


def game_rating(fixture, result=None, league_status: RatingStatus | None = None) -> RatingStatus:
    """Whether *this game* is rated, and why (the game page): its rated game's places or
    the reason it was skipped (``services.ratings``: the league's sanction, a hand result
    with a player without an account, a forfeit, no information, a void), or, before its
    result counts, what will happen to it. One query (``league_status`` saves another)."""

    rated_game = (
        RatingGame.objects.filter(fixture=fixture)
        .only("pk", "places", "skip_reason", "applied")
        .first()
    )
    if rated_game is None or (rated_game.places is None and not rated_game.skip_reason):
        counted = result is not None and result.state == Result.State.CONFIRMED
        status = league_status or league_rating(fixture.league)
        if not status.rated:
            return RatingStatus(False, _("This game will not be rated: its league is unrated."))
        if counted:
            return RatingStatus(False, _("This game is not rated."))
        return RatingStatus(True, _("This game will be rated once its result counts."))
    if rated_game.places is not None:
        if rated_game.applied:
            return RatingStatus(
                True,
                _("This game is rated: its result moved the players' ratings (rated game %(n)s).")
                % {"n": rated_game.pk},
            )
        return RatingStatus(True, _("This game is rated: the next ratings update takes it in."))
    reasons = {
        rules.NOT_SANCTIONED: _(
            "This game is unrated: its league is not sanctioned by a rating officer."
        ),
        rules.UNVERIFIED_ORGANIZER: _(
            "This game is unrated: the league's owner has not confirmed an e-mail address."
        ),
        rules.HAND_RESULT_WITHOUT_ACCOUNTS: _(
            "This game is unrated: its result was entered without a validated log and a "
            "player at the board has no account, so only the organizer vouches for it."
        ),
        rules.VOIDED: _("This game is unrated: its result was voided."),
        "forfeit": _("This game is unrated: a forfeit is not a game played."),
        "nothing separates the players": _(
            "This game is unrated: nothing separates the players (nobody finished and "
            "their counts are equal)."
        ),
    }
    why = reasons.get(rated_game.skip_reason) or _("This game is unrated: %(reason)s.") % {
        "reason": rated_game.skip_reason
    }
    return RatingStatus(False, why)
