"""Player ratings kept in step with the counted results: which games are rated, the
incremental update the Celery task runs, and the full recompute.

The walk (docs/ratings.md): a result counts → ``rating_game_counted`` (inside the result's
transaction) records the fixture's rating places under its **rating sequence** and, on
commit, queues ``tournaments.update_ratings`` by name → the task runs ``ratings_update``:
it locks the one ``RatingState`` row and applies *every* pending game in sequence order, so
concurrent commits land in order and a retried or duplicated task finds nothing to do.
A correction or void of a game already rated sets ``needs_recompute``: the next update
rebuilds every rating from scratch (``ratings_recompute``, also ``manage.py
ratings_recompute``), which gives the incremental figures bit for bit.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from tournaments.algorithms.ratings import (
    FINISHED_COUNT_POINTS,
    RatedGame,
    Rating,
    RatingError,
    display_rating,
    finishing_places,
    rate_game,
)
from tournaments.formats import get_format
from tournaments.models import (
    Fixture,
    PlayerRating,
    RatingChange,
    RatingGame,
    RatingState,
    Result,
    Seat,
)
from tournaments.permissions import email_confirmed
from tournaments.ratings_config import PLATFORM_RATINGS
from tournaments.services.broker import task_send

logger = logging.getLogger(__name__)

#: the Celery task (``tournaments/tasks.py``), named rather than imported
UPDATE_TASK = "tournaments.update_ratings"
STATE_ID = 1
#: ``skip_reason`` of a rated game whose result was voided (removed by the next recompute)
VOIDED = "voided"


# --- which games are rated, and how ----------------------------------------------------------


#: ``skip_reason`` of the trust rules (docs/ratings.md, "Which games are rated")
UNVERIFIED_ORGANIZER = "the league's owner has no confirmed e-mail address"
HAND_RESULT_WITHOUT_ACCOUNTS = "a result without a validated log, with a player without an account"


def rating_refusal(
    result: Result, seats: list[Seat], verified_owners: dict[int, bool] | None = None
) -> str:
    """Why a counted result is not rated for trust reasons, or "" (docs/ratings.md):

    1. the league's **owner is verified**: staff, or an account with a confirmed e-mail
       address (a throwaway account cannot make a league whose games move ratings);
    2. a result **without an engine-validated log** (an organizer's hand entry, an
       over-the-board report) is rated only when every player at the board holds an
       account: each of them accepted the entry, is told of the result and may dispute
       it. A hand result with a player without an account is nobody's word but the
       organizer's.

    (Who may be seated at all is the entry rules': an account holder only after
    accepting, a player without an account only by its creator or when shared.)
    """
    owner = result.fixture.league.owner
    verified = None if verified_owners is None else verified_owners.get(owner.pk)
    if verified is None:
        verified = owner.is_staff or email_confirmed(owner)
        if verified_owners is not None:
            verified_owners[owner.pk] = verified
    if not verified:
        return UNVERIFIED_ORGANIZER
    if not result.verified and any(s.entry.player.user_id is None for s in seats):
        return HAND_RESULT_WITHOUT_ACCOUNTS
    return ""


def rated_places(
    result: Result, seats: list[Seat], verified_owners: dict[int, bool] | None = None
) -> tuple[list[list[int]] | None, str]:
    """The rating places of a counted result, or ``None`` and why it is not rated: the
    trust rules (:func:`rating_refusal`) first, then the result itself
    (:func:`result_places`)."""
    if reason := rating_refusal(result, seats, verified_owners):
        return None, reason
    return result_places(result, seats)


def result_places(result: Result, seats: list[Seat]) -> tuple[list[list[int]] | None, str]:
    """A counted result as rating places ``[[player_id, place], …]`` in seat order, or
    ``None`` and the reason it is not rated (a forfeit, a result without information).

    The mapping of docs/ratings.md: finished = winner, players who finished all colours,
    then the order their first colour was placed; the others by counted pawns, or by count
    points in a time-limited game (whose "winner" counts only if they really finished).
    """
    if result.forfeit_loser_id is not None or result.source == Result.Source.FORFEIT:
        return None, "forfeit"
    seats = sorted(seats, key=lambda s: s.position)
    to_player = {s.entry_id: s.entry.player_id for s in seats}
    players = [to_player[s.entry_id] for s in seats]

    def mapped(entries) -> list[int]:
        return [to_player[e] for e in entries if e in to_player]

    both = list(result.both_finished or [])
    colour_places = list(result.colour_places or [])
    if result.count_points:
        winner = [result.winner_id] if result.winner_id in both else []
        finished = mapped([*winner, *both, *colour_places])
        scores = {to_player[int(k)]: v for k, v in result.count_points.items()}
        fmt = get_format(result.fixture.league.format)
        finished_score = FINISHED_COUNT_POINTS * fmt.colours_per_player
    else:
        winner = [result.winner_id] if result.winner_id is not None else []
        finished = mapped([*winner, *both, *colour_places])
        scores = {to_player[int(k)]: v for k, v in (result.counted_pawns or {}).items()}
        finished_score = None
    scores = {p: v for p, v in scores.items() if p in players} or None
    try:
        places = finishing_places(players, finished, scores, finished_score=finished_score)
    except RatingError as exc:
        return None, str(exc)[:100]
    if places is None:
        return None, "nothing separates the players"
    return [[p, place] for p, place in places], ""


def _state_locked() -> RatingState:
    try:
        with transaction.atomic():
            RatingState.objects.get_or_create(pk=STATE_ID)
    except IntegrityError:  # created at the same moment by another transaction
        pass
    return RatingState.objects.select_for_update().get(pk=STATE_ID)


def rating_game_counted(fixture: Fixture | int) -> RatingGame | None:
    """The counted result of ``fixture`` changed (confirmed, corrected, voided): bring its
    rated game in line, inside the caller's transaction, and update the ratings on commit.

    The entry point for every place that makes a result count (leagues, open tournaments;
    live rooms that create a fixture's result call it too). A game seen for the first time
    gets the next rating sequence; a correction keeps its sequence; a change to a game
    already rated, or a void of one, makes it pending again below what was applied, which
    the next update answers with a full recompute. (The rating state row is never locked
    here: the task locks it first and the rated games second, this the other way round
    would deadlock.)
    """
    fixture_id = fixture if isinstance(fixture, int) else fixture.pk
    result = (
        Result.objects.filter(fixture_id=fixture_id, state=Result.State.CONFIRMED)
        .select_related("fixture__league__owner")
        .first()
    )
    game = RatingGame.objects.select_for_update().filter(fixture_id=fixture_id).first()
    if result is None:
        if game is not None and game.applied and game.places is not None:
            # a void of a rated game: keep the row, unrated and pending, so the next update
            # sees a pending game at or below what it applied and recomputes
            game.places, game.skip_reason, game.applied = None, VOIDED, False
            game.save(update_fields=["places", "skip_reason", "applied"])
        elif game is not None:
            game.delete()
            game = None
    else:
        seats = list(Seat.objects.filter(fixture_id=fixture_id).select_related("entry__player"))
        places, reason = rated_places(result, seats)
        if game is None:
            game = RatingGame.objects.create(
                fixture_id=fixture_id,
                result=result,
                places=places,
                skip_reason=reason,
                played_at=result.decided_at or timezone.now(),
            )
        elif game.result_id != result.pk or game.places != places:
            if game.places != places:
                game.applied = False  # rated with other places: pending again → recompute
            game.result, game.places, game.skip_reason = result, places, reason
            game.save(update_fields=["result", "places", "skip_reason", "applied"])
    transaction.on_commit(ratings_enqueue)
    return game


def ratings_enqueue() -> None:
    """Send the update task; a broker outage must not fail a submission (the periodic
    catch-up runs the update anyway)."""
    task_send(UPDATE_TASK)


# --- the update ------------------------------------------------------------------------------


def _rated(game: RatingGame) -> RatedGame:
    return RatedGame(game.pk, tuple((int(p), int(place)) for p, place in game.places))


def _apply(games: list[RatingGame], ratings: dict[int, PlayerRating]) -> list[RatingChange]:
    """Rate ``games`` in order on top of ``ratings`` (changed in place); the history rows."""
    changes: list[RatingChange] = []
    current = {p: Rating(r.mu, r.sigma) for p, r in ratings.items()}
    for game in games:
        update = rate_game(current, _rated(game), PLATFORM_RATINGS)
        current.update(update.after)
        for c in update.changes:
            row = ratings.get(c.player)
            if row is None:
                row = ratings[c.player] = PlayerRating(player_id=c.player, games=0)
            row.mu, row.sigma = c.after.mu, c.after.sigma
            row.display = display_rating(c.after, PLATFORM_RATINGS)
            row.games += 1
            row.last_played_at = game.played_at
            changes.append(
                RatingChange(
                    player_id=c.player,
                    game=game,
                    fixture_id=game.fixture_id,
                    sequence=game.pk,
                    place=c.place,
                    mu_before=c.before.mu,
                    sigma_before=c.before.sigma,
                    mu_after=c.after.mu,
                    sigma_after=c.after.sigma,
                    display_before=display_rating(c.before, PLATFORM_RATINGS),
                    display_after=row.display,
                    win_probability=c.win_probability,
                    played_at=game.played_at,
                )
            )
    return changes


def _save(ratings: dict[int, PlayerRating], changes: list[RatingChange]) -> None:
    existing = [r for r in ratings.values() if r.pk]
    fresh = [r for r in ratings.values() if not r.pk]
    fields = ["mu", "sigma", "display", "games", "last_played_at"]
    PlayerRating.objects.bulk_update(existing, fields, batch_size=500)
    PlayerRating.objects.bulk_create(fresh, batch_size=500)
    RatingChange.objects.bulk_create(changes, batch_size=1000)


def ratings_update() -> dict[str, Any]:
    """Apply every pending rated game, in sequence order, under the rating state's lock.

    Idempotent: a game is applied once (its ``applied`` flag and the unique history row
    per game and player), so a retried or duplicated task changes nothing. A pending game
    older than one already applied (its transaction committed late), or a correction of a
    rated game, makes this a full recompute, so the figures never depend on commit order.
    """
    with transaction.atomic():
        state = _state_locked()
        # the rated games are locked too: a correction committed meanwhile waits, then makes
        # its game pending again (never lost under an "applied" written from stale places)
        pending = list(RatingGame.objects.select_for_update().filter(applied=False).order_by("pk"))
        if state.needs_recompute or (pending and pending[0].pk <= state.applied_through):
            return _recompute_locked(state, resync=False)
        if not pending:
            return {"status": "up to date", "applied": 0, "through": state.applied_through}
        rated = [g for g in pending if g.places is not None]
        players = {int(p) for g in rated for p, _ in g.places}
        ratings = {r.player_id: r for r in PlayerRating.objects.filter(player_id__in=players)}
        changes = _apply(rated, ratings)
        _save({p: r for p, r in ratings.items() if p in players}, changes)
        RatingGame.objects.filter(pk__in=[g.pk for g in pending]).update(applied=True)
        state.applied_through = pending[-1].pk
        state.games_rated += len(rated)
        state.save(update_fields=["applied_through", "games_rated", "updated_at"])
        return {"status": "updated", "applied": len(rated), "through": state.applied_through}


def ratings_recompute(*, resync: bool = True) -> dict[str, Any]:
    """Rebuild every rating and the whole history from scratch, in sequence order.

    With ``resync`` the rated games are first brought in line with the counted results
    (games whose result counts but has no rating sequence yet get one, in the order their
    results were decided; games no longer counted are dropped; places recomputed).
    """
    with transaction.atomic():
        state = _state_locked()
        return _recompute_locked(state, resync=resync)


def _resync() -> None:
    counted = (
        Result.objects.filter(state=Result.State.CONFIRMED)
        .select_related("fixture__league__owner")
        .order_by("decided_at", "pk")
    )
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.select_related("entry__player").order_by("fixture_id", "position"):
        seats[seat.fixture_id].append(seat)
    games = {g.fixture_id: g for g in RatingGame.objects.all()}
    counted_fixtures = set()
    verified_owners: dict[int, bool] = {}  # one look-up per league owner
    for result in counted:
        counted_fixtures.add(result.fixture_id)
        places, reason = rated_places(result, seats[result.fixture_id], verified_owners)
        game = games.get(result.fixture_id)
        if game is None:
            RatingGame.objects.create(
                fixture_id=result.fixture_id,
                result=result,
                places=places,
                skip_reason=reason,
                played_at=result.decided_at or result.created_at,
            )
        elif (game.result_id, game.places, game.skip_reason) != (result.pk, places, reason):
            game.result, game.places, game.skip_reason = result, places, reason
            game.save(update_fields=["result", "places", "skip_reason"])
    RatingGame.objects.exclude(fixture_id__in=counted_fixtures).delete()


def _recompute_locked(state: RatingState, *, resync: bool) -> dict[str, Any]:
    list(RatingGame.objects.select_for_update().values_list("pk", flat=True))  # lock them all
    if resync:
        _resync()
    RatingGame.objects.filter(places__isnull=True, skip_reason=VOIDED).delete()
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    games = list(RatingGame.objects.select_for_update().order_by("pk"))
    rated = [g for g in games if g.places is not None]
    ratings: dict[int, PlayerRating] = {}
    changes = _apply(rated, ratings)
    _save(ratings, changes)
    RatingGame.objects.filter(pk__in=[g.pk for g in games], applied=False).update(applied=True)
    state.applied_through = max((g.pk for g in games), default=state.applied_through)
    state.games_rated = len(rated)
    state.needs_recompute = False
    state.recomputed_at = timezone.now()
    state.save()
    return {
        "status": "recomputed",
        "applied": len(rated),
        "players": len(ratings),
        "through": state.applied_through,
    }
