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


#: ``is_organizer`` as SQL, for a statement that reads the account as ``u`` (``auth_user``)
#: and the league as ``l``: staff, its owner, or one of its organizers. The stored signed-in
#: pages check it in the one statement of a visit (``tournaments.web.personal``); a test
#: holds it to ``is_organizer`` (tests/pages/test_signed_in_visit.py)
IS_ORGANIZER_SQL = (
    "(u.is_staff OR l.owner_id = u.id OR EXISTS (SELECT 1 FROM tournaments_league_organizers o"
    " WHERE o.league_id = l.id AND o.user_id = u.id))"
)

#: what the organizer is to the league (staff, owner, co-organizer) as SQL, the same
#: aliases: part of a stored page's key (the page differs: the owner's actions)
ORGANIZER_ROLE_SQL = "(CASE WHEN u.is_staff THEN 's' WHEN l.owner_id = u.id THEN 'o' ELSE 'c' END)"


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
        return Refusal("enter_no_creator", forbidden=True, player=player.name)
    return Refusal("enter_other_creator", forbidden=True, player=player.name)


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
        return Refusal("league_log_in", forbidden=True)
    if user.is_staff:
        return None
    if getattr(settings, "ORGANIZERS_MUST_BE_VERIFIED", False) and not email_confirmed(user):
        return Refusal("organize_confirm_email", forbidden=True)
    return None


def entry_refusal(user, entry: Entry, action: str) -> Refusal | None:
    """Why ``user`` may not act on their own entry (``accept``, ``decline``, ``colours``,
    ``withdraw``), or None. ``withdraw`` is also the organizers'."""
    if not _authenticated(user):
        return Refusal("log_in_first", forbidden=True)
    own = entry.player.user_id == user.pk
    if action == "withdraw":
        return _withdraw_refusal(user, entry, own)
    if not own:
        return Refusal("entry_player_only", forbidden=True, player=entry.player.name)
    rule = _OWN_ENTRY_RULES.get(action)
    return rule(entry) if rule else None


def _answer_refusal(entry: Entry) -> Refusal | None:
    """An invitation is accepted or declined once."""
    if entry.state != Entry.State.INVITED:
        return Refusal("invitation_answered")
    return None


def _withdraw_refusal(user, entry: Entry, own: bool) -> Refusal | None:
    """The player or the organizers withdraw an accepted (or waiting) entry, once, before
    the league has finished."""
    if not (own or is_organizer(user, entry.league)):
        return Refusal("withdraw_player_or_organizers", forbidden=True)
    if entry.state not in (Entry.State.ACCEPTED, Entry.State.WAITLISTED):  # h-champ
        return Refusal("withdraw_not_accepted", player=entry.player.name)
    if entry.withdrawn_at:
        return Refusal("withdraw_already", player=entry.player.name)
    if entry.league.status == League.Status.FINISHED:
        return Refusal("withdraw_finished", league=entry.league.name)
    return None


def _colours_refusal(entry: Entry) -> Refusal | None:
    """A player changes their entry's colours until they withdraw or the schedule exists."""
    if entry.withdrawn_at:
        return Refusal("colours_withdrawn")
    if entry.league.cycles.exists():
        return Refusal("colours_fixed")
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
        return Refusal("organizers_only", forbidden=True, league=entry.league.name)
    if revoking:
        return None
    if entry.player.user_id is not None:
        return Refusal("link_has_account", player=entry.player.name)
    # a waiting player gets theirs with everybody's slips, and checks in with it (h-champ)
    if entry.state not in (Entry.State.ACCEPTED, Entry.State.WAITLISTED):
        return Refusal("link_not_accepted", player=entry.player.name)
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


class Refusal:
    """Why an action is refused: a **code** of ``tournaments.services.errors.MESSAGES`` and
    its parameters; ``forbidden`` when it is not this user's to do (HTTP 403), otherwise
    the game's state does not allow it now (HTTP 400). ``guards.refusal_error`` makes it
    the error the services raise (``NotAllowed`` or ``ServiceError`` with the code: the
    API's ``reason``), worded in the reader's language where it is shown."""

    __slots__ = ("code", "forbidden", "params")

    def __init__(self, code: str, *, forbidden: bool = False, **params):
        self.code = code
        self.forbidden = forbidden
        self.params = params

    def __repr__(self) -> str:
        return f"Refusal({self.code!r}, forbidden={self.forbidden}, **{self.params!r})"


#: a result's state as a refusal names it (the parameter ``result_state``, translated
#: where shown: one of ``tournaments.services.errors.WORDS``)
RESULT_STATE_WORDS = {
    "pending": gettext_noop("awaiting confirmation"),
    "disputed": gettext_noop("disputed"),
    "confirmed": gettext_noop("confirmed"),
    "superseded": gettext_noop("superseded"),
    "rejected": gettext_noop("rejected by the organizer"),
    "voided": gettext_noop("voided"),
    "missing": gettext_noop("missing"),
}


def _state_word(state: str) -> str:
    """A result's state as a refusal names it (translated where shown)."""
    return RESULT_STATE_WORDS.get(state, state)


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
    organizer: bool | None = None,
) -> ResultActions:
    """Which result actions ``user`` has on ``fixture``.

    ``result`` is the version that confirm, dispute and resolve act on (default: the open
    one, if any); ``results`` are the fixture's versions when the caller has them already
    (else they are read); ``organizer`` whether ``user`` organizes the fixture's league
    when the caller asked that already in this request (else it is read). An organizer who
    plays in the game acts as a player in it: no one decides their own game.
    """
    facts = _GameFacts.of(user, fixture, result, results, organizer)
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
    def of(cls, user, fixture: Fixture, result, results, organizer=None) -> _GameFacts:
        seat = seat_of(user, fixture)
        if organizer is None:
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
        return Refusal("result_at_game_only", forbidden=True)
    if refusal := fixture_closed(f.fixture):
        return refusal
    if f.decides:
        return None
    if f.counted:
        return Refusal("result_confirmed_already")
    if f.open_result is not None:
        return Refusal("result_awaiting_already")
    return None


def _decision_refusal(f: _GameFacts) -> Refusal | None:
    """Entering a result or a forfeit: an organizer not playing, at a game that takes one."""
    return f.decider or fixture_closed(f.fixture)


def _void_refusal(f: _GameFacts) -> Refusal | None:
    if f.decider:
        return f.decider
    if not f.counted and f.open_result is None:
        return Refusal("void_nothing")
    return None


def _resolve_refusal(f: _GameFacts) -> Refusal | None:
    if f.decider:
        return f.decider
    if f.target is None:
        return Refusal("resolve_missing")
    if f.target.state not in Result.OPEN_STATES:
        return Refusal("resolve_closed", result_state=_state_word(f.target.state))
    return None


def _confirm_refusal(f: _GameFacts) -> Refusal | None:
    """The opponent, or an organizer not playing; never the submitter."""
    if not (f.plays or f.decides):
        return Refusal("confirm_who", forbidden=True)
    if f.submitted_it():
        return Refusal("confirm_own", forbidden=True)
    return _confirmable_refusal(f.target, f.decides)


def _confirmable_refusal(target: Result | None, decides: bool) -> Refusal | None:
    """A result is confirmed while pending (a disputed one: by an organizer deciding)."""
    if target is None:
        return Refusal("confirm_nothing")
    if target.state == Result.State.DISPUTED and not decides:
        return Refusal("confirm_disputed")
    if target.state != Result.State.PENDING:
        return Refusal("confirm_not_pending", result_state=_state_word(target.state))
    return None


def _dispute_refusal(f: _GameFacts) -> Refusal | None:
    """The players at the board (and organizers), of a pending result someone else sent."""
    if not f.at_game:
        return Refusal("dispute_who", forbidden=True)
    if f.target is None or f.target.state != Result.State.PENDING:
        state = f.target.state if f.target is not None else "missing"
        return Refusal("dispute_not_pending", result_state=_state_word(state))
    if f.submitted_it():
        return Refusal("dispute_own", forbidden=True)
    return None


def _see_rejections_refusal(f: _GameFacts) -> Refusal | None:
    if not f.at_game:
        return Refusal("rejections_who", forbidden=True)
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
        return Refusal("result_game_cancelled")
    if not fixture.seats.all():
        return Refusal("result_game_unseated")
    return None


def _decider_refusal(organizer: bool, plays: bool, league: League) -> Refusal | None:
    if not organizer:
        return Refusal("organizers_only", forbidden=True, league=league.name)
    if plays:
        return Refusal("decide_own_game", forbidden=True)
    return None


def analysis_retry_refusal(
    user, fixture: Fixture, analysis: GameAnalysis | None, *, counted_log: bool
) -> Refusal | None:
    """Why ``user`` may not have the failed move analysis of this game run again, or None.
    ``analysis`` is the counted log's analysis under the current key (``counted_log``: the
    game has a counted result with a log). The league's organizers and staff may, also an
    organizer who plays in the game (it decides nothing about the result)."""
    if not is_organizer(user, fixture.league):
        return Refusal("analysis_retry_organizers", forbidden=True)
    blocker = _retry_blocker(analysis, counted_log)
    return Refusal(blocker) if blocker else None


def _retry_blocker(analysis: GameAnalysis | None, counted_log: bool) -> str | None:
    """Why no analysis can be run again (its refusal's code): only a failed analysis of a
    counted log is, while analyses are switched on."""
    if not getattr(settings, "ANALYSIS_ENABLED", False):
        return "analysis_retry_disabled"
    if not counted_log:
        return "analysis_retry_no_log"
    if analysis is None:
        return "analysis_retry_missing"
    return _ANALYSIS_STATUS_REFUSALS.get(analysis.status)


#: an analysis in this status is not run again (a failed one is): its refusal's code
_ANALYSIS_STATUS_REFUSALS = {
    GameAnalysis.Status.QUEUED: "analysis_retry_queued",
    GameAnalysis.Status.RUNNING: "analysis_retry_running",
    GameAnalysis.Status.DONE: "analysis_retry_done",
    GameAnalysis.Status.SKIPPED: "analysis_retry_skipped",
}
