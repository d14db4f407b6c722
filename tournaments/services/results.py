"""Submitting, confirming, disputing and correcting results.

The walk of a game log: ``game_log_submit`` → ``games`` validates it with the engine →
``fixture_log_mismatches`` checks it against the schedule → the derived result is saved in
the same transaction as the stored log → when it counts, ``counting.result_counted`` runs
the competition's consequences in order (series, starts, the event, a final table, the
standings: revision bumped now, recomputed by a Celery task on commit), then the registered
subscribers (ratings, analyses; ``tournaments/services/counting.py``). Who may do what is
``tournaments.permissions.result_actions``, the same answer the pages and the API show.

Public to the other result services (``tie_breaks``): ``fixture_lock`` (the fixture's row
lock every result write takes first) and ``result_version_create`` (a new result version,
superseding what it replaces and calling ``result_counted`` when it counts).

Who acts (``by`` everywhere here) is an account or the holder of an entry's private
result link (``tournaments.actors.LinkHolder``): the same checks answer for both, and what
a link holder records says so (``submitted_via``/``decided_via``).

Concurrency: every write locks the fixture row (``SELECT … FOR UPDATE``) and the database
allows one confirmed and one open result per fixture, so two racing submissions or
confirmations end with exactly one counted result.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, Prefetch
from django.utils import timezone

from games import engine
from games.engine.board import count_points
from games.services import CheckedLog, LogRejected, game_log_check, game_log_store
from games.storable import find_unstorable, storable

# counting registry (h-counting) replaces this: the one call up into the ratings app
from tournaments.actors import account, link_holder, via_link
from tournaments.algorithms import open_draw
from tournaments.algorithms.errors import AlgorithmError
from tournaments.formats import get_format
from tournaments.models import Entry, Fixture, RejectedSubmission, Result, ResultLink, Seat
from tournaments.permissions import (
    CLOSED_FIXTURE,
    CONFIRM,
    DISPUTE,
    ENTER,
    FORFEIT,
    RESOLVE,
    SUBMIT,
    VOID,
    ResultActions,
    fixture_closed,
    result_actions,
)
from tournaments.selectors.formats import game_tie_rolls
from tournaments.services.counting import result_counted
from tournaments.services.errors import NotAllowed, ServiceError, coded, coded_text, why_of
from tournaments.services.guards import require_action
from tournaments.services.hand_results import HandResult, hand_result_fields
from tournaments.services.log_check import fixture_log_mismatches, log_colour_names
from tournaments.services.notify import (
    DECISION_MADE,
    DISPUTE_OPENED,
    RESULT_AWAITING,
    done_on_commit,
    notify_on_commit,
)

OPEN = Result.OPEN_STATES
#: versions that no longer stand (a log they carry may be submitted again)
GONE = [Result.State.SUPERSEDED, Result.State.VOIDED, Result.State.REJECTED]


# --- deriving a result from a validated log ------------------------------------------------


def result_fields_from_log(fixture: Fixture, checked: CheckedLog) -> dict[str, Any]:
    """Winner, placings, counted pawns, completed colours, captures and game time of the
    fixture's players, derived from the engine's verdict on the log."""
    to_league = log_colour_names(checked.data, fixture.league.board)
    v = checked.verdict
    seats = list(fixture.seats.all())
    owner = {colour: seat.entry_id for seat in seats for colour in seat.colours}
    finished = [to_league.get(c, c) for c in v.get("placings") or []]
    colour_places = [owner[colour] for colour in finished]
    counted = _counted_pawns(
        seats, _by_league_colour(v.get("pawns_home"), to_league), fixture.game_format
    )
    both_finished = _players_finished(seats, owner, finished)
    winner = _log_winner(checked, seats, to_league)
    placings = _player_placings(seats, winner, colour_places, counted, both_finished)
    points: dict[str, int] = {}
    if not v.get("complete"):  # a time-limited open game: placed by count points
        placings, points = _placings_by_count_points(
            checked, seats, to_league, colour_places, game_tie_rolls(fixture)
        )
        winner = placings[0] if placings else None
    captures = _by_league_colour(v.get("captures"), to_league)
    return {
        "count_points": points,
        "winner_id": winner,
        "placings": placings,
        "colour_places": colour_places,
        "finished_colours": finished,
        "both_finished": both_finished,
        "counted_pawns": _by_entry(seats, lambda s: counted[s.entry_id]),
        "completed_colours": _by_entry(seats, lambda s: sum(c in finished for c in s.colours)),
        "captures": _by_entry(seats, lambda s: sum(captures.get(c, 0) for c in s.colours)),
        "game_time": checked.game_time,
    }


def _by_league_colour(per_colour: dict | None, to_league: dict[str, str]) -> dict[str, int]:
    """A verdict's per-colour numbers keyed by the league's colour names."""
    return {to_league.get(c, c): n for c, n in (per_colour or {}).items()}


def _by_entry(seats, value) -> dict[str, int]:
    """``value`` of each seat, keyed by its entry id as stored (a string)."""
    return {str(seat.entry_id): value(seat) for seat in seats}


def _counted_pawns(seats, home: dict[str, int], game_format: str) -> dict[int, int]:
    """Each player's counted pawns (tournament.md): pawns home of their best colour, or
    over both colours in the formats that count both."""
    total = sum if get_format(game_format).counted_pawns == "both-colours" else max
    return {s.entry_id: total(home.get(c, 0) for c in s.colours) for s in seats}


def _players_finished(seats, owner: dict[str, int], finished: list[str]) -> list[int]:
    """The players who finished all their colours, in the order their last one finished."""
    colours_left = {s.entry_id: len(s.colours) for s in seats}
    done = []
    for colour in finished:
        colours_left[owner[colour]] -= 1
        if colours_left[owner[colour]] == 0:
            done.append(owner[colour])
    return done


def _log_winner(checked: CheckedLog, seats, to_league: dict[str, str]) -> int | None:
    """The winning player's entry: the engine names them as the log does, so their colours
    are matched with the seats'."""
    name = checked.verdict.get("winner")
    if not name:
        return None
    colours = _log_player_colours(checked.data, name, to_league)
    return next((s.entry_id for s in seats if set(s.colours) == colours), None)


def _placings_by_count_points(checked: CheckedLog, seats, to_league, colour_places, tie_rolls):
    """tournament.md: a pawn on its start field counts 10, each further field +1, a pawn in
    the house 75, in the yard 0; higher places higher. Colours that finished keep their
    places first. A remaining tie goes to the die roll the organizer records for this game
    (``open_draw.place_unfinished_game``); until then the tied players keep the at-board
    order."""
    per_entry = _count_points_of_players(checked, seats, to_league)
    finished = list(dict.fromkeys(colour_places))
    try:
        placed = open_draw.place_unfinished_game(
            [s.entry_id for s in seats], per_entry, finished, tie_rolls
        )
    except AlgorithmError as exc:
        raise coded("count_points_unplaced", why=why_of(exc)) from None
    return list(placed.placings), {str(k): n for k, n in per_entry.items()}


def _count_points_of_players(checked: CheckedLog, seats, to_league) -> dict[int, int]:
    """Each player's count points over their colours, where the log's game stopped."""
    positions = engine.outcome(checked.data).positions
    board = checked.data.get("board", 4)
    by_colour = {to_league.get(c, c): count_points(p, board) for c, p in positions.items() if p}
    return {s.entry_id: sum(by_colour.get(c, 0) for c in s.colours) for s in seats}


def open_ties(fixture: Fixture, result: Result) -> list[list[int]]:
    """Players of a time-limited game still tied on count points without a decisive
    recorded die roll (the organizer records one: ``tie_breaks.game_tie_roll_record``)."""
    if not result.count_points:
        return []
    finished = list(dict.fromkeys(result.colour_places))
    points = {int(k): v for k, v in result.count_points.items()}
    players = [s.entry_id for s in fixture.seats.all()]
    try:
        placed = open_draw.place_unfinished_game(players, points, finished, game_tie_rolls(fixture))
    except AlgorithmError:
        return []
    return [list(t) for t in placed.open_ties]


def _log_player_colours(data: dict, name: str, to_league: dict[str, str]) -> set[str]:
    colours = (data.get("players") or {}).get(name) or [name]
    return {to_league.get(c, c) for c in colours}


def _player_placings(seats, winner, colour_places, counted, both_finished) -> list[int]:
    """Players in finishing order: the winner, then those who finished all their colours,
    then by the order their first colour was placed, then by counted pawns."""
    placed = [e for e in [winner, *both_finished, *colour_places] if e is not None]
    order = list(dict.fromkeys(placed))
    rest = sorted(
        (s for s in seats if s.entry_id not in order),
        key=lambda s: (-counted[s.entry_id], s.position),
    )
    return order + [s.entry_id for s in rest]


# --- helpers ---------------------------------------------------------------------------------


def fixture_lock(fixture_id: int, by=None, *, table: bool = False) -> Fixture:
    """The fixture, its row locked (``FOR NO KEY UPDATE``), with its league: the first
    step of every write to a game's results, inside the caller's transaction. A link
    holder's link is checked again under the lock (revoked since the page was opened:
    refused), in the same query.

    ``table=True`` (a phone's post at a championship table): its seats (with their
    players) and its result versions (with the link each was sent through) come along,
    read after the lock is held, so the caller decides on what no other writer of this
    game can change until it commits (``*_locked`` below: no second lock, no re-read)."""
    query = Fixture.objects.select_for_update(of=("self",), no_key=True).select_related("league")
    holder = link_holder(by)
    if holder is not None:
        query = query.annotate(
            link_live=Exists(ResultLink.objects.filter(pk=holder.link.pk, revoked_at__isnull=True))
        )
    if table:
        query = query.prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player")),
            Prefetch("results", queryset=Result.objects.select_related("submitted_via")),
        )
    try:
        fixture = query.get(pk=fixture_id)
    except Fixture.DoesNotExist:
        raise coded("game_unknown", id=fixture_id) from None
    if holder is not None and not fixture.link_live:
        raise coded("link_withdrawn", cls=NotAllowed)
    return fixture


def _unfinished_log_problems(league, data: dict) -> list:
    """Why a log that stops before the game is decided cannot be this game's result (coded
    texts): only an open tournament's time limit ends a game early (tournament.md:
    unfinished games are placed by count points), and a log whose times show it stopped
    before the limit is not the game at the limit."""
    if league.format != "open":
        return [coded_text("log_incomplete")]
    limit = league.time_limit_minutes
    if not limit:
        return [coded_text("log_no_time_limit", league=league.name)]
    last_t = _last_event_time(data)
    if last_t is None or last_t >= limit * 60:
        return []
    minutes, seconds = divmod(int(last_t), 60)
    return [coded_text("log_before_limit", at=f"{minutes}:{seconds:02d}", limit=limit)]


def _last_event_time(data: dict) -> float | None:
    """When the log's last event happened (seconds into the game), if the log says."""
    events = data.get("events") or []
    return events[-1].get("t") if events else None


def _record_rejection(fixture: Fixture, by, error: ServiceError, event=None, checked=None, raw=b""):
    """Keep a refused upload: its English message, and its code and parameters (shown in
    the reader's language)."""
    code, params = _storable_code(error)
    with transaction.atomic():
        RejectedSubmission.objects.create(
            fixture=fixture,
            submitted_by=account(by),
            submitted_via=via_link(by),
            sha256=checked.sha256 if checked else "",
            size=len(raw),
            event=event,
            error=storable(error.message)[:5000],
            error_code=code,
            error_params=params,
        )


def _storable_code(error: ServiceError) -> tuple[str, dict]:
    """The error's code and parameters as stored; none when the database cannot hold the
    parameters (a bad log's text may reach them: NUL, an unpaired surrogate —
    ``games.storable``) or they are too long (the English message is kept either way)."""
    try:
        text = json.dumps(error.params, ensure_ascii=False)
    except (TypeError, ValueError):
        return "", {}
    if len(text) > 20_000 or find_unstorable(error.params) is not None:
        return "", {}
    return error.code or "", error.params


def _require_open(fixture: Fixture) -> None:
    """A game that takes no result (``permissions.fixture_closed``) refuses one, coded."""
    if fixture_closed(fixture) is None:
        return
    if fixture.status in CLOSED_FIXTURE:
        raise coded("result_game_cancelled")
    raise coded("result_game_unseated")


def _decides(actions: ResultActions) -> bool:
    """An organizer who is not playing this game decides its result: what they submit
    counts at once (tournament.md: a reported result waits until "the opponent or an
    organizer confirms it")."""
    return actions.organizer and actions.seat is None


def _require_submitter(by, fixture: Fixture) -> ResultActions:
    """Before anything is read from the upload or the form: refuse a user who may not
    submit for this game at all, or a game that takes no result. The whole rule is
    checked again under the fixture's lock (``_submit_actions``)."""
    actions = result_actions(by, fixture)
    require_action(actions, SUBMIT, who_only=True)
    _require_open(fixture)
    return actions


def _submit_actions(by, fixture: Fixture, versions: list[Result] | None = None):
    """The submit rule, under the fixture's lock: who, then a game that takes a result,
    then what is recorded already. The user's actions, for deciding what counts."""
    actions = result_actions(by, fixture, results=versions)
    require_action(actions, SUBMIT, who_only=True)
    _require_open(fixture)
    require_action(actions, SUBMIT)
    return actions


def _require_decider(by, fixture: Fixture, action: str) -> None:
    """Only an organizer who is not playing this game (no one decides their own)."""
    require_action(result_actions(by, fixture), action, who_only=True)


def _require_log_unused_elsewhere(fixture: Fixture, sha256: str) -> None:
    """A game log records one game: the same log cannot be another game's result."""
    other = (
        Result.objects.filter(game_log__sha256=sha256)
        .exclude(fixture=fixture)
        .exclude(state__in=GONE)
        .select_related("fixture")
        .first()
    )
    if other is not None:
        raise _log_used(other)


def _log_used(other: Result) -> ServiceError:
    return coded("log_used", game=other.fixture.label or other.fixture_id, id=other.fixture_id)


def _standing_results_of_log(fixture: Fixture, sha256: str) -> tuple[Result | None, Result | None]:
    """The first standing (not gone) result of the log ``sha256`` at ``fixture`` and the
    first at another game, in one query (in the results' order, as ``.first()`` of each
    read them)."""
    rows = list(
        Result.objects.filter(game_log__sha256=sha256)
        .exclude(state__in=GONE)
        .select_related("fixture")
    )
    same = next((r for r in rows if r.fixture_id == fixture.pk), None)
    elsewhere = next((r for r in rows if r.fixture_id != fixture.pk), None)
    return same, elsewhere


# --- submitting ------------------------------------------------------------------------------


def game_log_submit(
    *, fixture: Fixture, content: str | bytes, by, played_online: bool = False
) -> Result:
    """A player at the board (or an organizer) submits the game's log; the result version
    it made, or the one an identical earlier upload made (see ``game_log_upload``)."""
    return game_log_upload(
        fixture=fixture, content=content, by=by, played_online=played_online
    ).result


@dataclass(frozen=True)
class Upload:
    result: Result
    created: bool
    """False when this very log was submitted before (the result is that submission's)"""


def game_log_upload(
    *,
    fixture: Fixture,
    content: str | bytes,
    by,
    played_online: bool = False,
    reason: str = "",
    submitter: ResultActions | None = None,
) -> Upload:
    """A player at the board (or an organizer) submits the game's log.

    ``played_online``: the log was recorded by the platform's live play (``live``), where
    the server rolled every die and both players were at the board, so it counts at once
    without the opponent's confirmation. Only live play passes it, with ``reason`` saying
    on the result when a player left and the computer played their colours on.

    Raises ``ServiceError`` naming what is wrong (the log breaks a rule, or it is not this
    game's log); a rejected log changes nothing but is kept as a ``RejectedSubmission``.
    Re-submitting an identical log returns the existing result with ``created`` False:
    of many identical concurrent uploads exactly one creates the result (the fixture's row
    lock orders them).

    ``submitter``: the user's actions on ``fixture`` when the caller checked already that
    they may submit (``result_actions``, ``require_action(…, SUBMIT, who_only=True)``), in
    this request: not asked again (issue 31, h-upload5: the API's POST asked who organizes
    the league three times).
    """
    if submitter is None:
        submitter = _require_submitter(by, fixture)
    else:
        _require_open(fixture)
    checked = _accepted_log(fixture, by, content)
    with transaction.atomic():
        # one locked read of the game with its seats (and their players) and its result
        # versions: the checks below, the result's fields, the ratings' places and the
        # notification all decide on these, nothing is read again (issue 31: an upload
        # read the seats five times and the versions four)
        fixture = fixture_lock(fixture.pk, by, table=True)
        versions = list(fixture.results.all())
        # what follows writes results: no one may read the versions from the cache again
        fixture._prefetched_objects_cache.pop("results", None)
        _require_open(fixture)
        actions = result_actions(by, fixture, results=versions, organizer=submitter.organizer)
        # the results of this log (its SHA-256) that stand, at this game and any other, in
        # one read: an identical re-upload is recognised, a log of another game refused
        same, elsewhere = _standing_results_of_log(fixture, checked.sha256)
        if same is not None:  # an identical re-upload: recognised, not duplicated
            return Upload(_upload_again(same, fixture, by, actions), created=False)
        if elsewhere is not None:
            raise _log_used(elsewhere)
        require_action(actions, SUBMIT)
        log, _ = game_log_store(checked, by=by)
        counts_now = _decides(actions) or played_online or not fixture.league.confirmation_required
        result = result_version_create(
            fixture,
            by,
            source=Result.Source.LOG,
            confirmed=counts_now,
            versions=versions,
            game_log=log,
            verified=True,
            reason=reason,
            **result_fields_from_log(fixture, checked),
        )
        return Upload(result, created=True)


def _accepted_log(fixture: Fixture, by, content: str | bytes) -> CheckedLog:
    """The log checked by the engine and against this game; a refused one is recorded
    (``RejectedSubmission``) and its coded error raised."""
    raw = content.encode("utf-8") if isinstance(content, str) else content
    try:
        checked = game_log_check(content)
    except LogRejected as exc:
        error = _log_rejected(exc)
        _record_rejection(fixture, by, error, exc.event, raw=raw)
        raise error from None
    if problems := _log_problems(fixture, checked):
        error = coded("log_mismatch", why=problems)
        _record_rejection(fixture, by, error, checked=checked, raw=raw)
        raise error
    return checked


def _log_rejected(exc: LogRejected) -> ServiceError:
    """The engine's refusal of a log; the text counts events from 1, as the replay does,
    ``event`` stays the index."""
    if exc.event is None:
        error = coded("log_rejected", why=exc.message)
    else:
        error = coded("log_rejected_at", n=exc.event + 1, why=exc.message)
    error.event = exc.event
    return error


def _log_problems(fixture: Fixture, checked: CheckedLog) -> list:
    """Why a valid log is not this game's result (coded texts): it differs from the
    schedule, another game has it, or it stops before the game is decided."""
    problems = fixture_log_mismatches(fixture, checked.data)
    try:
        _require_log_unused_elsewhere(fixture, checked.sha256)
    except ServiceError as exc:
        problems.append(coded_text(exc.code, **exc.params))
    if not checked.verdict.get("complete"):
        problems.extend(_unfinished_log_problems(fixture.league, checked.data))
    return problems


def _upload_again(existing: Result, fixture: Fixture, by, actions) -> Result:
    """The result an identical earlier upload made; an organizer who decides the game
    confirms it if it waits."""
    if _decides(actions) and existing.state == Result.State.PENDING:
        return _decide(existing, fixture, by, Result.State.CONFIRMED, "")
    return existing


def result_report(
    *,
    fixture: Fixture,
    by,
    winner: Entry | None = None,
    counted_pawns: dict[int, int] | None = None,
    reason: str = "",
    **typed: Any,
) -> Result:
    """An over-the-board game without a log: a player reports what the format records
    (``HandResult``: winner and counted pawns; 2T+ completed colours and game time; GP
    every colour's place; open placings or count points). The result is unverified and
    waits for the opponent or an organizer (``result_report_locked``)."""
    _require_submitter(by, fixture)
    fields = _manual_fields(fixture, winner, counted_pawns, typed)
    with transaction.atomic():
        fixture = fixture_lock(fixture.pk, by)
        return result_report_locked(fixture=fixture, by=by, fields=fields, reason=reason)


def result_report_locked(
    *,
    fixture: Fixture,
    versions: list[Result] | None = None,
    by,
    fields: dict,
    reason: str = "",
) -> Result:
    """The rule of a reported result, for a caller holding ``fixture``'s lock (``fixture_lock``;
    ``versions``: its result versions when read under it, with ``table=True``) and with
    ``fields`` made by ``hand_result_fields``. It waits for the opponent or an organizer;
    reported by an organizer who is not playing the game it counts at once."""
    actions = _submit_actions(by, fixture, versions)
    return result_version_create(
        fixture,
        by,
        source=Result.Source.REPORT,
        confirmed=_decides(actions),
        verified=False,
        versions=versions,
        reason=reason,
        **fields,
    )


def result_enter(
    *,
    fixture: Fixture,
    by,
    winner: Entry | None = None,
    counted_pawns=None,
    reason: str,
    **typed: Any,
) -> Result:
    """An organizer enters or corrects a result by hand (the fields of ``result_report``);
    it counts at once."""
    _require_decider(by, fixture, ENTER)
    if not reason.strip():
        raise coded("reason_manual", field="reason")
    fields = _manual_fields(fixture, winner, counted_pawns, typed)
    with transaction.atomic():
        fixture = fixture_lock(fixture.pk)
        require_action(result_actions(by, fixture), ENTER)
        return result_version_create(
            fixture,
            by,
            source=Result.Source.ORGANIZER,
            confirmed=True,
            verified=False,
            reason=reason,
            **fields,
        )


def forfeit_record(
    *, fixture: Fixture, by, loser: Entry, reason: str, own_withdrawal: bool = False
) -> Result:
    """An organizer records a forfeit: the other player(s) win, nothing else counts.
    ``own_withdrawal``: the loser withdrew themselves (``entry_withdraw`` checked that),
    so no organizer's decision is needed."""
    _require_forfeit_by(by, fixture, loser, own_withdrawal)
    others = _others_at_board(fixture, loser)
    with transaction.atomic():
        fixture = fixture_lock(fixture.pk)
        if not own_withdrawal:
            require_action(result_actions(by, fixture), FORFEIT)
        return result_version_create(
            fixture,
            by,
            source=Result.Source.FORFEIT,
            confirmed=True,
            verified=False,
            reason=reason,  # none typed: the result's source says it is a forfeit
            winner_id=others[0] if len(others) == 1 else None,
            placings=[*others, loser.pk],
            forfeit_loser=loser,
            status=Fixture.Status.FORFEITED,
        )


def _require_forfeit_by(by, fixture: Fixture, loser: Entry, own_withdrawal: bool) -> None:
    """An organizer who decides the game, or the loser withdrawing themselves."""
    if not own_withdrawal:
        _require_decider(by, fixture, FORFEIT)
    elif account(by) is None or loser.player.user_id != by.pk:
        raise coded("withdraw_self_only", cls=NotAllowed)


def _others_at_board(fixture: Fixture, loser: Entry) -> list[int]:
    """The entries at the game's board other than ``loser`` (who must be there)."""
    seated = [s.entry_id for s in fixture.seats.all()]
    if loser.pk not in seated:
        raise coded("loser_not_at_board", field="loser", player=loser.player.name)
    return [e for e in seated if e != loser.pk]


def _manual_fields(fixture: Fixture, winner: Entry | None, counted_pawns, typed) -> dict:
    unknown = set(typed) - set(HandResult.__dataclass_fields__)
    if unknown:
        raise TypeError(f"unknown result fields {sorted(unknown)}")
    return hand_result_fields(
        fixture,
        HandResult(
            winner=winner.pk if winner is not None else None,
            counted_pawns=counted_pawns,
            **typed,
        ),
    )


def result_version_create(
    fixture: Fixture, by, *, confirmed: bool, status=None, versions=None, **fields
) -> Result:
    """Store a new result version of ``fixture`` (locked by ``fixture_lock``). When it
    counts at once (``confirmed``) the previous confirmed version is superseded and
    ``result_counted`` runs; an open version of someone else is superseded too. ``fields``
    are the ``Result``'s (winner, placings, source, …); ``status`` the fixture's new status
    (default: confirmed or submitted). ``versions``: the fixture's result versions when
    the caller read them under the lock (nothing to supersede among them: no UPDATE)."""
    _supersede(fixture, versions, [Result.State.CONFIRMED, *OPEN] if confirmed else list(OPEN))
    result = _result_create(fixture, by, confirmed, fields)
    fixture.status = status or (Fixture.Status.CONFIRMED if confirmed else Fixture.Status.SUBMITTED)
    fixture.save(update_fields=["status", "updated_at"])
    if confirmed:
        result_counted(fixture)
    _notify_new_version(result, fixture)
    return result


def _supersede(fixture: Fixture, versions: list[Result] | None, states: list[str]) -> None:
    """The fixture's versions in ``states`` are superseded (no UPDATE when the versions
    read under the lock hold none)."""
    if versions is None or any(r.state in states for r in versions):
        fixture.results.filter(state__in=states).update(state=Result.State.SUPERSEDED)


def _result_create(fixture: Fixture, by, confirmed: bool, fields: dict) -> Result:
    """The new version, confirmed (decided by its submitter) or pending; a race with
    another confirmed or open version (the database allows one of each) is refused."""
    decided = {"decided_by": None, "decided_via": None, "decided_at": None}
    if confirmed:
        decided = {
            "decided_by": account(by),
            "decided_via": via_link(by),
            "decided_at": timezone.now(),
        }
    try:
        with transaction.atomic():
            return Result.objects.create(
                fixture=fixture,
                state=Result.State.CONFIRMED if confirmed else Result.State.PENDING,
                submitted_by=account(by),
                submitted_via=via_link(by),
                **decided,
                **fields,
            )
    except IntegrityError:
        raise coded("result_race") from None


def _notify_new_version(result: Result, fixture: Fixture) -> None:
    """A pending version waits for someone (notified); a counted one that no player
    submitted is an organizer's decision the players hear of."""
    if result.state != Result.State.CONFIRMED:
        notify_on_commit(RESULT_AWAITING, result.pk)
    elif not _by_player(result, fixture):
        notify_on_commit(DECISION_MADE, result.pk, Result.State.CONFIRMED)


def _by_player(result: Result, fixture: Fixture) -> bool:
    """Submitted by a player of the game (through a link, or their account)."""
    if result.submitted_via_id is not None:
        return True
    user_id = result.submitted_by_id
    if user_id is None:
        return False
    cached = getattr(fixture, "_prefetched_objects_cache", {}).get("seats")
    if cached is not None and all(
        Seat.entry.is_cached(s) and Entry.player.is_cached(s.entry) for s in cached
    ):
        # the seats read under the lock with their players (``fixture_lock(table=True)``)
        return any(s.entry.player.user_id == user_id for s in cached)
    return fixture.seats.filter(entry__player__user_id=user_id).exists()


# --- confirming and disputing ---------------------------------------------------------------


def _locked_result(result_id: int, by=None) -> tuple[Result, Fixture]:
    try:
        fixture_id = Result.objects.values_list("fixture_id", flat=True).get(pk=result_id)
    except Result.DoesNotExist:
        raise coded("result_unknown", id=result_id) from None
    fixture = fixture_lock(fixture_id, by)
    return Result.objects.select_related("fixture").get(pk=result_id), fixture


def result_confirm(*, result: Result, by) -> Result:
    """The opponent (or an organizer) confirms a pending result; it counts from now on
    (``result_confirm_locked``)."""
    with transaction.atomic():
        result, fixture = _locked_result(result.pk, by)
        return result_confirm_locked(result=result, fixture=fixture, by=by)


def result_confirm_locked(
    *, result: Result, fixture: Fixture, versions: list[Result] | None = None, by
) -> Result:
    """The rule of a confirmation, for a caller holding ``fixture``'s lock (``versions``:
    its result versions when read under it, ``result`` among them). Confirmed already (a
    double click): nothing to do."""
    actions = result_actions(by, fixture, result=result, results=versions)
    require_action(actions, CONFIRM, who_only=True)
    if result.state == Result.State.CONFIRMED:
        return result
    require_action(actions, CONFIRM)
    result = _decide(result, fixture, by, Result.State.CONFIRMED, "", versions)
    if actions.seat is None:  # an organizer decided it, not the opponent
        notify_on_commit(DECISION_MADE, result.pk, Result.State.CONFIRMED)
    done_on_commit(RESULT_AWAITING, result.pk)
    return result


def result_dispute(*, result: Result, by, reason: str) -> Result:
    """The opponent disputes a pending result; an organizer will resolve it
    (``result_dispute_locked``)."""
    with transaction.atomic():
        result, fixture = _locked_result(result.pk, by)
        return result_dispute_locked(result=result, fixture=fixture, by=by, reason=reason)


def result_dispute_locked(
    *, result: Result, fixture: Fixture, versions: list[Result] | None = None, by, reason: str
) -> Result:
    """The rule of a dispute, for a caller holding ``fixture``'s lock (``versions``: its
    result versions when read under it): a reason, and a pending result of the game."""
    if not reason or not reason.strip():
        raise coded("reason_dispute", field="reason")
    require_action(result_actions(by, fixture, result=result, results=versions), DISPUTE)
    result.state = Result.State.DISPUTED
    result.decision_note = reason.strip()
    result.decided_via = via_link(by)  # a dispute through a link says so
    result.save(update_fields=["state", "decision_note", "decided_via"])
    fixture.status = Fixture.Status.DISPUTED
    fixture.save(update_fields=["status", "updated_at"])
    notify_on_commit(DISPUTE_OPENED, result.pk)
    done_on_commit(RESULT_AWAITING, result.pk)
    return result


def result_resolve(*, result: Result, by, accept: bool, note: str) -> Result:
    """An organizer resolves a dispute (or decides a pending result): accept or reject."""
    with transaction.atomic():
        result, fixture = _locked_result(result.pk)
        require_action(result_actions(by, fixture, result=result), RESOLVE)
        state = Result.State.CONFIRMED if accept else Result.State.REJECTED
        result = _decide(result, fixture, by, state, note)
        notify_on_commit(DECISION_MADE, result.pk, state)
        done_on_commit(RESULT_AWAITING, result.pk)
        done_on_commit(DISPUTE_OPENED, result.pk)
        return result


def result_void(*, fixture: Fixture, by, reason: str) -> None:
    """An organizer voids the counted result: the game is open again."""
    _require_decider(by, fixture, VOID)
    if not reason.strip():
        raise coded("reason_void", field="reason")
    with transaction.atomic():
        fixture = fixture_lock(fixture.pk)
        voided = list(
            fixture.results.filter(state__in=[Result.State.CONFIRMED, *OPEN]).values_list(
                "pk", flat=True
            )
        )
        changed = fixture.results.filter(pk__in=voided).update(
            state=Result.State.VOIDED,
            decision_note=reason,
            decided_by=by,
            decided_at=timezone.now(),
        )
        if not changed:
            raise coded("void_nothing")
        fixture.status = Fixture.Status.SCHEDULED
        fixture.save(update_fields=["status", "updated_at"])
        result_counted(fixture)
        notify_on_commit(DECISION_MADE, max(voided), Result.State.VOIDED)


def _decide(result: Result, fixture: Fixture, by, state: str, note: str, versions=None) -> Result:
    """``versions``: the fixture's result versions read under its lock, when the caller
    has them (no confirmed one among them: nothing to supersede, no UPDATE)."""
    confirmed = state == Result.State.CONFIRMED
    if confirmed:
        _supersede(fixture, versions, [Result.State.CONFIRMED])
    result.state = state
    result.decided_by = account(by)
    result.decided_via = via_link(by)
    result.decided_at = timezone.now()
    result.decision_note = note or result.decision_note
    result.save(update_fields=["state", "decided_by", "decided_via", "decided_at", "decision_note"])
    fixture.status = _status_after_decision(result, fixture)
    fixture.save(update_fields=["status", "updated_at"])
    if confirmed:
        result_counted(fixture)
    return result


def _status_after_decision(result: Result, fixture: Fixture) -> str:
    """The game's status once ``result`` is decided: counted (forfeited, for a forfeit), or
    back to an earlier counted version, or open again."""
    if result.state == Result.State.CONFIRMED:
        forfeit = result.source == Result.Source.FORFEIT
        return Fixture.Status.FORFEITED if forfeit else Fixture.Status.CONFIRMED
    if fixture.results.filter(state=Result.State.CONFIRMED).exists():
        return Fixture.Status.CONFIRMED  # an earlier version still counts
    return Fixture.Status.SCHEDULED
