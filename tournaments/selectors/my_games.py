"""A player's own games, as "My games" (/me/) and the signed-in home page show them: the
games still to play (date, opponents, colours, who starts, the live room), the results
waiting for them to confirm, their own results waiting for the opponent, disputes,
invitations and join requests, and the next deadlines. Reads only; the actions are the
game page's forms (the result services)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import F
from django.utils import timezone

from tournaments.models import Entry, Fixture, League, Player, Result, Seat
from tournaments.selectors.links import link_maker


@dataclass
class MyFixture:
    """One of the player's games with their side of it."""

    fixture: Fixture
    colours: list[str]
    opponents: list
    """the other seats (``Seat``, with ``entry.player``), in board order"""
    starts: bool
    """the player holds the starting colour"""
    game_url: str = ""
    league_url: str = ""


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
    """games to play whose deadline is still ahead, the nearest first (at most
    ``DEADLINES_SHOWN``)"""
    overdue: list[MyFixture] = field(default_factory=list)
    """games to play whose deadline has passed, the oldest first (at most
    ``DEADLINES_SHOWN``)"""
    changes_at: dt.datetime | None = None
    """the next deadline still ahead: the moment the page changes without any write (that
    game moves from the next deadlines to those past it); None: no such deadline"""

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
#: what "My games" and the home page's block show of a game, its open result and its
#: seats (tests/pages/test_my_games.py fails on a query per game if one is missing)
FIXTURE_COLUMNS = (
    "league_id",
    "number",
    "label",
    "scheduled_at",
    "deadline",
    "starting_colour",
    "start_depends_on_id",
    "status",
    "league__name",
    "league__slug",
    "start_depends_on__number",
)
RESULT_COLUMNS = (
    "fixture_id",
    "state",
    "source",
    "created_at",
    "winner_id",
    "submitted_by_id",
    "submitted_via_id",
    "submitted_by__username",
    "submitted_via__entry__player__name",
    "winner__player_id",
    "winner__player__name",
)
SEAT_COLUMNS = (
    "fixture_id",
    "position",
    "colours",
    "entry_id",
    "entry__player_id",
    "entry__player__name",
    "entry__player__slug",
    "entry__player__user_id",
)
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
    # Which games: the player's seats, as a subquery (``pk IN (…)``: no DISTINCT over wide
    # rows). Then the games with only the columns the pages show (a join of ten tables
    # with every column cost the planner more than the query itself), their open results
    # (a game has at most one: a partial unique index) and their seats: three small
    # queries, a bounded number whatever the count of games or leagues.
    mine = Seat.objects.filter(
        entry__player=player,
        entry__state=Entry.State.ACCEPTED,
        fixture__status__in=OPEN_FIXTURE,
        fixture__league__status__in=LIVE_LEAGUE,
    ).values("fixture_id")
    fixtures = list(
        Fixture.objects.filter(pk__in=mine)
        .select_related("league", "start_depends_on")
        .only(*FIXTURE_COLUMNS)
        .order_by(F("scheduled_at").asc(nulls_last=True), "league_id", "number", "pk")
    )
    by_pk = {f.pk: f for f in fixtures}
    open_results = _open_results(by_pk)
    seats = _seats_by_fixture(by_pk)
    links = _Links()
    for fixture in fixtures:
        item = _my_fixture(fixture, seats[fixture.pk], player, links)
        open_result = open_results.get(fixture.pk)
        if open_result is None:
            page.to_play.append(item)
            continue
        open_result.fixture = fixture  # the one read above (no query for result.fixture)
        open_result.my_fixture = item
        _file_open_result(page, open_result, user)
    _list_deadlines(page)
    _list_invitations(page, player)
    return page


def _open_results(by_pk) -> dict[int, Result]:
    """Game → its open result (at most one), with what the page shows (one query)."""
    return {
        r.fixture_id: r
        for r in Result.objects.filter(fixture_id__in=by_pk, state__in=Result.OPEN_STATES)
        .select_related("submitted_by", "submitted_via__entry__player", "winner__player")
        .only(*RESULT_COLUMNS)
    }


def _list_invitations(page: MyGames, player: Player) -> None:
    """The player's open invitations and their requests to join (one query)."""
    entries = list(
        Entry.objects.filter(player=player, state__in=(Entry.State.INVITED, Entry.State.REQUESTED))
        .select_related("league")
        .only("state", "player_id", "league__name", "league__slug")
    )
    page.invitations = [e for e in entries if e.state == Entry.State.INVITED]
    page.requests = [e for e in entries if e.state == Entry.State.REQUESTED]


def _seats_by_fixture(by_pk) -> dict[int, list[Seat]]:
    """The seats of the games, by game, in at-board order (one query)."""
    seats: dict[int, list[Seat]] = {pk: [] for pk in by_pk}
    for seat in (
        Seat.objects.filter(fixture_id__in=by_pk)
        .select_related("entry__player")
        .only(*SEAT_COLUMNS)
        .order_by("fixture_id", "position")
    ):
        seats[seat.fixture_id].append(seat)
    return seats


class _Links:
    """The page's links to games, leagues and players: each pattern reversed once
    (``link_maker``), not a ``{% url %}`` per game."""

    def __init__(self) -> None:
        self.game = link_maker("tournaments:game")
        self.league = link_maker("tournaments:league")
        self.player = link_maker("tournaments:player")


def _my_fixture(fixture: Fixture, at_board: list[Seat], player: Player, links: _Links) -> MyFixture:
    """A game as the player sees it: their colours, the opponents (each with
    ``player_url``), whether they start, and its links."""
    own = next(s for s in at_board if s.entry.player_id == player.pk)
    opponents = [s for s in at_board if s is not own]
    for seat in opponents:
        seat.player_url = links.player(seat.entry.player.slug)
    return MyFixture(
        fixture=fixture,
        colours=list(own.colours),
        opponents=opponents,
        starts=fixture.starting_colour in (own.colours or []),
        game_url=links.game(fixture.pk),
        league_url=links.league(fixture.league.slug),
    )


def _file_open_result(page: MyGames, open_result: Result, user) -> None:
    """An open result goes to the disputes, to those awaiting the opponent (the user's
    own), or to those for the player to confirm."""
    if open_result.state == Result.State.DISPUTED:
        page.disputes.append(open_result)
    elif user is not None and open_result.submitted_by_id == user.pk:
        page.awaiting_opponent.append(open_result)
    else:
        page.to_confirm.append(open_result)


def _list_deadlines(page: MyGames) -> None:
    """The games to play with a deadline, soonest first: those past it and the next ones."""
    with_deadline = sorted(
        (f for f in page.to_play if f.fixture.deadline), key=lambda f: f.fixture.deadline
    )
    now = timezone.now()
    overdue = [f for f in with_deadline if f.fixture.deadline < now]
    page.overdue = overdue[:DEADLINES_SHOWN]
    page.deadlines = with_deadline[len(overdue) :][:DEADLINES_SHOWN]
    page.changes_at = page.deadlines[0].fixture.deadline if page.deadlines else None


def player_fixtures_for_calendar(player: Player):
    """Every game of the player in any league (their own calendar feed: a signed link
    they handed to their calendar, so private leagues they play in are included)."""
    return Fixture.objects.filter(
        seats__entry__player=player, seats__entry__state=Entry.State.ACCEPTED
    ).distinct()
