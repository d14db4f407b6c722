"""A player's own games, as "My games" (/me/) and the signed-in home page show them: the
games still to play (date, opponents, colours, who starts, the live room), the results
waiting for them to confirm, their own results waiting for the opponent, disputes,
invitations and join requests, and the next deadlines. Reads only; the actions are the
game page's forms (the result services)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import F, FilteredRelation, Q

from tournaments.models import Entry, Fixture, League, Player, Result
from tournaments.selectors.prefetch import seats_prefetch


@dataclass
class MyFixture:
    """One of the player's games with their side of it."""

    fixture: Fixture
    colours: list[str]
    opponents: list
    """the other seats (``Seat``, with ``entry.player``), in board order"""
    starts: bool
    """the player holds the starting colour"""


@dataclass
class MyGames:
    player: Player | None
    to_play: list[MyFixture] = field(default_factory=list)
    to_confirm: list[Result] = field(default_factory=list)
    """open results on the player's games submitted by someone else: theirs to confirm
    or dispute"""
    awaiting_opponent: list[Result] = field(default_factory=list)
    """results the player's account submitted, waiting for the opponent"""
    disputes: list[Result] = field(default_factory=list)
    invitations: list[Entry] = field(default_factory=list)
    requests: list[Entry] = field(default_factory=list)
    deadlines: list[MyFixture] = field(default_factory=list)
    """games to play with a deadline, the nearest first (at most ``DEADLINES_SHOWN``)"""

    @property
    def needs_me(self) -> int:
        """How many things wait for the player: results to confirm and invitations."""
        return len(self.to_confirm) + len(self.invitations)

    @property
    def empty(self) -> bool:
        return not (
            self.to_play
            or self.to_confirm
            or self.awaiting_opponent
            or self.disputes
            or self.invitations
            or self.requests
        )


DEADLINES_SHOWN = 5
OPEN_FIXTURE = (Fixture.Status.SCHEDULED, Fixture.Status.SUBMITTED, Fixture.Status.DISPUTED)
LIVE_LEAGUE = (League.Status.REGISTRATION, League.Status.RUNNING, League.Status.PLAYOFFS)


def player_of(user) -> Player | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Player.objects.filter(user=user).first()


def my_games(user) -> MyGames:
    """What waits for the signed-in user's player (none: an empty page)."""
    return player_games(player_of(user), user=user)


def player_games(player: Player | None, *, user=None) -> MyGames:
    """The games and open results of ``player`` (in leagues still running), a bounded
    number of queries whatever their count. ``user`` (the account acting, if any) tells
    the player's own submissions from the opponents'."""
    page = MyGames(player=player)
    if player is None:
        return page
    # a game has at most one open result (a partial unique index): it rides along in the
    # games' own query (a filtered LEFT JOIN), one query for the games, one for their seats
    fixtures = list(
        Fixture.objects.filter(
            seats__entry__player=player,
            seats__entry__state=Entry.State.ACCEPTED,
            status__in=OPEN_FIXTURE,
            league__status__in=LIVE_LEAGUE,
        )
        .annotate(
            open_result=FilteredRelation(
                "results", condition=Q(results__state__in=Result.OPEN_STATES)
            )
        )
        .select_related(
            "league", "cycle", "series", "open_result__submitted_by", "open_result__winner__player"
        )
        .prefetch_related(seats_prefetch())
        .distinct()
        .order_by(F("scheduled_at").asc(nulls_last=True), "league_id", "number", "pk")
    )
    for fixture in fixtures:
        seats = list(fixture.seats.all())
        mine = next(s for s in seats if s.entry.player_id == player.pk)
        item = MyFixture(
            fixture=fixture,
            colours=list(mine.colours),
            opponents=[s for s in seats if s is not mine],
            starts=fixture.starting_colour in (mine.colours or []),
        )
        open_result = getattr(fixture, "open_result", None)  # unset when none matched
        if open_result is None:
            page.to_play.append(item)
            continue
        open_result.my_fixture = item
        if open_result.state == Result.State.DISPUTED:
            page.disputes.append(open_result)
        elif user is not None and open_result.submitted_by_id == user.pk:
            page.awaiting_opponent.append(open_result)
        else:
            page.to_confirm.append(open_result)
    with_deadline = [f for f in page.to_play if f.fixture.deadline]
    with_deadline.sort(key=lambda f: f.fixture.deadline)
    page.deadlines = with_deadline[:DEADLINES_SHOWN]
    entries = list(
        Entry.objects.filter(
            player=player, state__in=(Entry.State.INVITED, Entry.State.REQUESTED)
        ).select_related("league")
    )
    page.invitations = [e for e in entries if e.state == Entry.State.INVITED]
    page.requests = [e for e in entries if e.state == Entry.State.REQUESTED]
    return page


def player_fixtures_for_calendar(player: Player):
    """Every game of the player in any league (their own calendar feed: a signed link
    they handed to their calendar, so private leagues they play in are included)."""
    return Fixture.objects.filter(
        seats__entry__player=player, seats__entry__state=Entry.State.ACCEPTED
    ).distinct()
