"""Who may do what, as data: one answer used by the pages, the API and the services alike.

``result_actions(user, fixture)`` says which result actions a user has on a game and, for
each refused one, why (``Refusal``): the page shows only the buttons that would work, the
API and the services refuse with the same message. Nothing here writes or raises; the
services turn a refusal into an error (``tournaments.services.guards``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.conf import settings
from django.utils.translation import gettext_noop

from games.models import GameAnalysis
from tournaments.actors import link_holder
from tournaments.models import ConfirmedEmail, Entry, Fixture, League, Result, Seat

#: result actions on a game
SUBMIT = "submit"  # upload a log or report an over-the-board result
CONFIRM = "confirm"  # confirm a pending result (the opponent, an organizer)
DISPUTE = "dispute"  # dispute a pending result
RESOLVE = "resolve"  # decide an open result (organizers not playing in the game)
ENTER = "enter"  # enter or correct the result by hand (organizers not playing)
FORFEIT = "forfeit"  # record a forfeit (organizers not playing)
VOID = "void"  # void the result (organizers not playing)
SEE_REJECTIONS = "see_rejections"  # see the rejected uploads (players at the board, organizers)

RESULT_ACTIONS = (SUBMIT, CONFIRM, DISPUTE, RESOLVE, ENTER, FORFEIT, VOID, SEE_REJECTIONS)

#: a game that takes no result
CLOSED_FIXTURE = (Fixture.Status.CANCELLED,)


def _authenticated(user) -> bool:
    return bool(getattr(user, "is_authenticated", False))


def is_organizer(user, league: League) -> bool:
    if not _authenticated(user):
        return False
    if user.is_staff or league.owner_id == user.pk:
        return True
    return league.organizers.filter(pk=user.pk).exists()


def may_vouch_for(user, player) -> bool:
    """Whether ``user`` may say which account a player without one is (approve a claim,
    invite someone to become the player): staff, or the recorded creator of the player.
    A player with no recorded creator (its creator's account is gone, or it came from an
    import) is staff's alone: entering a player in one's league gives no right to hand
    its history and rating to an account."""
    if not _authenticated(user):
        return False
    return bool(
        user.is_staff or (player.created_by_id is not None and player.created_by_id == user.pk)
    )


def may_sanction(user) -> bool:
    """Whether ``user`` may decide which leagues are rated (docs/ratings.md, "Rated
    leagues"): staff, or a rating officer (the permission ``tournaments.sanction_league``,
    granted to the group "Rating officers")."""
    if not _authenticated(user):
        return False
    return bool(user.is_staff or user.has_perm("tournaments.sanction_league"))


def may_share(user, player) -> bool:
    """Whether ``user`` may mark a player without an account as shared (other organizers
    may then enter it) or stop sharing it: its creator or staff."""
    return player.user_id is None and may_vouch_for(user, player)


def enter_refusal(user, player) -> Refusal | None:
    """Why ``user`` (an organizer) may not enter ``player`` in a league, or None. A player
    with an account is only invited (they accept or decline): always allowed. A player
    without one cannot say no, so only its creator may enter it, or staff, or any
    organizer once the creator or staff marked it as shared."""
    if player.user_id is not None:
        return None
    if may_vouch_for(user, player) or player.shared:
        return None
    if player.created_by_id is None:
        return Refusal(
            f"{player.name} has no account and no recorded creator: only staff may enter "
            "them, or share the player with other organizers",
            True,
        )
    return Refusal(
        f"{player.name} has no account and was created by another organizer: only they "
        "(or staff) may enter them, unless they share the player with other organizers",
        True,
    )


def organizes_any_league(user) -> bool:
    """Staff, or the owner or co-organizer of at least one league."""
    if not _authenticated(user):
        return False
    if user.is_staff:
        return True
    return (
        League.objects.filter(owner=user).exists()
        or League.organizers.through.objects.filter(user=user).exists()
    )


def email_confirmed(user) -> bool:
    """The account's current e-mail address has been confirmed through a signed link."""
    if not _authenticated(user) or not user.email:
        return False
    return ConfirmedEmail.objects.filter(user=user, email__iexact=user.email).exists()


def organize_refusal(user) -> Refusal | None:
    """Why ``user`` may not create a league, or None: anyone signed in, unless the setting
    ``ORGANIZERS_MUST_BE_VERIFIED`` asks for a confirmed e-mail address (staff always may)."""
    if not _authenticated(user):
        return Refusal("log in to create a league", True)
    if user.is_staff:
        return None
    if getattr(settings, "ORGANIZERS_MUST_BE_VERIFIED", False) and not email_confirmed(user):
        return Refusal(
            "confirm your e-mail address before you organize a league "
            "(your account page sends the confirmation link)",
            True,
        )
    return None


def entry_refusal(user, entry: Entry, action: str) -> Refusal | None:
    """Why ``user`` may not act on their own entry (``accept``, ``decline``, ``colours``,
    ``withdraw``), or None. ``withdraw`` is also the organizers'."""
    if not _authenticated(user):
        return Refusal("log in first", True)
    own = entry.player.user_id == user.pk
    if action == "withdraw":
        return _withdraw_refusal(user, entry, own)
    if not own:
        return Refusal(f"only {entry.player.name} may do this", True)
    rule = _OWN_ENTRY_RULES.get(action)
    return rule(entry) if rule else None


def _answer_refusal(entry: Entry) -> Refusal | None:
    """An invitation is accepted or declined once."""
    if entry.state != Entry.State.INVITED:
        return Refusal("this invitation has been answered already")
    return None


def _withdraw_refusal(user, entry: Entry, own: bool) -> Refusal | None:
    """The player or the organizers withdraw an accepted (or waiting) entry, once, before
    the league has finished."""
    if not (own or is_organizer(user, entry.league)):
        return Refusal("only the player or the league's organizers may withdraw an entry", True)
    if entry.state not in (Entry.State.ACCEPTED, Entry.State.WAITLISTED):  # h-champ
        return Refusal(f"{entry.player.name} has not accepted yet; remove the entry instead")
    if entry.withdrawn_at:
        return Refusal(f"{entry.player.name} has already withdrawn")
    if entry.league.status == League.Status.FINISHED:
        return Refusal(f"{entry.league.name} has finished; its results stand as played")
    return None


def _colours_refusal(entry: Entry) -> Refusal | None:
    """A player changes their entry's colours until they withdraw or the schedule exists."""
    if entry.withdrawn_at:
        return Refusal("you have withdrawn from this league")
    if entry.league.cycles.exists():
        return Refusal("the schedule has been generated; the colours of each game are fixed now")
    return None


#: what else the player's own actions on their entry ask (beyond being theirs)
_OWN_ENTRY_RULES = {
    "accept": _answer_refusal,
    "decline": _answer_refusal,
    "colours": _colours_refusal,
}


def result_link_refusal(user, entry: Entry, *, revoking: bool = False) -> Refusal | None:
    """Why ``user`` may not make (or rotate, or with ``revoking`` withdraw) the private
    result link of ``entry``, or None: the league's organizers and staff only, for an
    accepted entry of a player without an account (one with an account signs in)."""
    if not is_organizer(user, entry.league):
        return Refusal(f"only the organizers of {entry.league.name} may do this", True)
    if revoking:
        return None
    if entry.player.user_id is not None:
        return Refusal(
            f"{entry.player.name} has an account and reports their games signed in; private "
            "result links are for players without an account"
        )
    # a waiting player gets theirs with everybody's slips, and checks in with it (h-champ)
    if entry.state not in (Entry.State.ACCEPTED, Entry.State.WAITLISTED):
        return Refusal(
            f"{entry.player.name} has not accepted the entry; a result link is for a player "
            "taking part"
        )
    return None


def can_view(user, league: League) -> bool:
    """Public leagues, and private ones the user organizes or plays in. The same rule as a
    query is ``tournaments.selectors.visibility.visible_leagues``."""
    return (
        league.is_public
        or is_organizer(user, league)
        or (_authenticated(user) and league.entries.filter(player__user=user).exists())
    )


def seat_of(user, fixture: Fixture) -> Seat | None:
    """The seat the user holds at this fixture's board, if any. ``user`` may be the holder
    of a private result link (``tournaments.actors.LinkHolder``): its entry's seat, only at
    a game of the link's own league."""
    if holder := link_holder(user):
        return _link_seat(holder, fixture)
    if not _authenticated(user):
        return None
    return next((s for s in fixture.seats.all() if s.entry.player.user_id == user.pk), None)


def _link_seat(holder, fixture: Fixture) -> Seat | None:
    """The seat of a result link's entry, at a game of its own league while not revoked."""
    if holder.link.revoked_at is not None or fixture.league_id != holder.league_id:
        return None
    return next((s for s in fixture.seats.all() if s.entry_id == holder.entry_id), None)


def submitted_by_actor(user, result: Result | None, seat: Seat | None) -> bool:
    """Whether ``result`` was sent by the same person as ``user`` (the two-person rule):
    the same account, or the same seat's player, whether either of them used the entry's
    private result link or an account."""
    if result is None:
        return False
    if _authenticated(user) and result.submitted_by_id == user.pk:
        return True
    return seat is not None and _sent_for_seat(result, seat)


def _sent_for_seat(result: Result, seat: Seat) -> bool:
    """``result`` was sent through the seat's private result link, or by its player's
    account."""
    if result.submitted_via_id is not None and result.submitted_via.entry_id == seat.entry_id:
        return True
    player_user = seat.entry.player.user_id
    return result.submitted_by_id is not None and result.submitted_by_id == player_user


@dataclass(frozen=True)
class Refusal:
    """Why an action is refused: ``forbidden`` when it is not this user's to do (HTTP 403),
    otherwise the game's state does not allow it now (HTTP 400)."""

    message: str
    forbidden: bool = False


@dataclass(frozen=True)
class ResultActions:
    """The answer of :func:`result_actions`: allowed actions, and a refusal for the rest."""

    refusals: dict[str, Refusal] = field(default_factory=dict)
    organizer: bool = False
    seat: Seat | None = None

    def allows(self, action: str) -> bool:
        return action not in self.refusals

    def refusal(self, action: str) -> Refusal | None:
        return self.refusals.get(action)

    @property
    def allowed(self) -> frozenset[str]:
        return frozenset(a for a in RESULT_ACTIONS if a not in self.refusals)


def result_actions(
    user,
    fixture: Fixture,
    *,
    result: Result | None = None,
    results: Iterable[Result] | None = None,
) -> ResultActions:
    """Which result actions ``user`` has on ``fixture``.

    ``result`` is the version that confirm, dispute and resolve act on (default: the open
    one, if any); ``results`` are the fixture's versions when the caller has them already
    (else they are read). An organizer who plays in the game acts as a player in it: no one
    decides their own game.
    """
    facts = _GameFacts.of(user, fixture, result, results)
    refusals = {}
    for action, rule in _RESULT_RULES:
        if refusal := rule(facts):
            refusals[action] = refusal
    return ResultActions(refusals=refusals, organizer=facts.organizer, seat=facts.seat)


@dataclass(frozen=True)
class _GameFacts:
    """What the result rules ask about one user and one game, read once."""

    user: object
    fixture: Fixture
    seat: Seat | None
    organizer: bool
    counted: bool
    open_result: Result | None
    target: Result | None
    decider: Refusal | None

    @classmethod
    def of(cls, user, fixture: Fixture, result, results) -> _GameFacts:
        seat = seat_of(user, fixture)
        organizer = is_organizer(user, fixture.league)
        versions = list(fixture.results.all() if results is None else results)
        open_result = next((r for r in versions if r.state in Result.OPEN_STATES), None)
        return cls(
            user=user,
            fixture=fixture,
            seat=seat,
            organizer=organizer,
            counted=any(r.state == Result.State.CONFIRMED for r in versions),
            open_result=open_result,
            target=result if result is not None else open_result,
            decider=_decider_refusal(organizer, seat is not None, fixture.league),
        )

    @property
    def plays(self) -> bool:
        return self.seat is not None

    @property
    def decides(self) -> bool:
        """An organizer not playing in the game decides its result."""
        return self.organizer and not self.plays

    @property
    def at_game(self) -> bool:
        """A player at the board or an organizer."""
        return self.plays or self.organizer

    def submitted_it(self) -> bool:
        return submitted_by_actor(self.user, self.target, self.seat)


def _submit_refusal(f: _GameFacts) -> Refusal | None:
    """Players at the board, or organizers; players only while nothing is recorded."""
    if not f.at_game:
        return Refusal("only the players at this game's board or its organizers may do this", True)
    if refusal := fixture_closed(f.fixture):
        return refusal
    if f.decides:
        return None
    if f.counted:
        return Refusal("this game already has a confirmed result; ask an organizer to correct it")
    if f.open_result is not None:
        return Refusal(
            "a result for this game is already awaiting confirmation; confirm or dispute it instead"
        )
    return None


def _decision_refusal(f: _GameFacts) -> Refusal | None:
    """Entering a result or a forfeit: an organizer not playing, at a game that takes one."""
    return f.decider or fixture_closed(f.fixture)


def _void_refusal(f: _GameFacts) -> Refusal | None:
    if f.decider:
        return f.decider
    if not f.counted and f.open_result is None:
        return Refusal("this game has no result to void")
    return None


def _resolve_refusal(f: _GameFacts) -> Refusal | None:
    if f.decider:
        return f.decider
    if f.target is None:
        return Refusal("this result is missing; nothing to resolve")
    if f.target.state not in Result.OPEN_STATES:
        return Refusal(f"this result is {f.target.get_state_display()}; nothing to resolve")
    return None


def _confirm_refusal(f: _GameFacts) -> Refusal | None:
    """The opponent, or an organizer not playing; never the submitter."""
    if not (f.plays or f.decides):
        return Refusal("only the opponent or an organizer may confirm this result", True)
    if f.submitted_it():
        return Refusal("you submitted this result; your opponent must confirm it", True)
    return _confirmable_refusal(f.target, f.decides)


def _confirmable_refusal(target: Result | None, decides: bool) -> Refusal | None:
    """A result is confirmed while pending (a disputed one: by an organizer deciding)."""
    if target is None:
        return Refusal("this game has no result awaiting confirmation")
    if target.state == Result.State.DISPUTED and not decides:
        return Refusal("this result is disputed; an organizer resolves it")
    if target.state != Result.State.PENDING:
        return Refusal(f"this result is {target.get_state_display()}, not pending")
    return None


def _dispute_refusal(f: _GameFacts) -> Refusal | None:
    """The players at the board (and organizers), of a pending result someone else sent."""
    if not f.at_game:
        return Refusal("only the players at this game's board may dispute its result", True)
    if f.target is None or f.target.state != Result.State.PENDING:
        state = f.target.state if f.target is not None else "missing"
        return Refusal(f"only a pending result can be disputed; this one is {state}")
    if f.submitted_it():
        return Refusal(
            "you submitted this result yourself; if it is wrong, ask an organizer to void it",
            True,
        )
    return None


def _see_rejections_refusal(f: _GameFacts) -> Refusal | None:
    if not f.at_game:
        return Refusal("only the players at this game's board and its organizers see this", True)
    return None


#: each result action's rule, in the order the refusals are listed
_RESULT_RULES = (
    (SUBMIT, _submit_refusal),
    (ENTER, _decision_refusal),
    (FORFEIT, _decision_refusal),
    (VOID, _void_refusal),
    (RESOLVE, _resolve_refusal),
    (CONFIRM, _confirm_refusal),
    (DISPUTE, _dispute_refusal),
    (SEE_REJECTIONS, _see_rejections_refusal),
)


def fixture_closed(fixture: Fixture) -> Refusal | None:
    if fixture.status in CLOSED_FIXTURE:
        return Refusal("this game was cancelled; no result can be submitted")
    if not fixture.seats.all():
        return Refusal("this game has no players yet")
    return None


def _decider_refusal(organizer: bool, plays: bool, league: League) -> Refusal | None:
    if not organizer:
        return Refusal(f"only the organizers of {league.name} may do this", True)
    if plays:
        return Refusal("you play in this game: another organizer must decide its result", True)
    return None


#: why a move analysis cannot be run again, worded once (English for the API; the pages
#: translate them: each is marked for translation here)
ANALYSIS_RETRY_REFUSALS = {
    "organizers": gettext_noop("only the league's organizers may have a game analysed again"),
    "disabled": gettext_noop("move analyses are switched off on this site"),
    "no_log": gettext_noop("this game has no counted log, so there is no analysis to run again"),
    "missing": gettext_noop(
        "this game's log has no analysis under the current settings yet; "
        "the periodic catch-up queues one"
    ),
    GameAnalysis.Status.QUEUED: gettext_noop(
        "the analysis of this game is queued already; a worker runs it soon"
    ),
    GameAnalysis.Status.RUNNING: gettext_noop("the analysis of this game is running now"),
    GameAnalysis.Status.DONE: gettext_noop(
        "the analysis of this game is done; there is nothing to run again"
    ),
    GameAnalysis.Status.SKIPPED: gettext_noop(
        "the analysis of this game was skipped while its log did not count; "
        "the periodic catch-up queues it again"
    ),
}


def analysis_retry_refusal(
    user, fixture: Fixture, analysis: GameAnalysis | None, *, counted_log: bool
) -> Refusal | None:
    """Why ``user`` may not have the failed move analysis of this game run again, or None.
    ``analysis`` is the counted log's analysis under the current key (``counted_log``: the
    game has a counted result with a log). The league's organizers and staff may, also an
    organizer who plays in the game (it decides nothing about the result)."""
    if not is_organizer(user, fixture.league):
        return Refusal(ANALYSIS_RETRY_REFUSALS["organizers"], True)
    blocker = _retry_blocker(analysis, counted_log)
    return Refusal(ANALYSIS_RETRY_REFUSALS[blocker]) if blocker else None


def _retry_blocker(analysis: GameAnalysis | None, counted_log: bool) -> str | None:
    """Why no analysis can be run again (a key of ``ANALYSIS_RETRY_REFUSALS``): only a
    failed analysis of a counted log is, while analyses are switched on."""
    if not getattr(settings, "ANALYSIS_ENABLED", False):
        return "disabled"
    if not counted_log:
        return "no_log"
    if analysis is None:
        return "missing"
    if analysis.status != GameAnalysis.Status.FAILED:
        return analysis.status
    return None
