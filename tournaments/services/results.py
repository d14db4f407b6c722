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

Who acts (``user`` everywhere here) is an account or the holder of an entry's private
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
    CONFIRM,
    DISPUTE,
    ENTER,
    FORFEIT,
    RESOLVE,
    SUBMIT,
    VOID,
    fixture_closed,
    result_actions,
)
from tournaments.selectors.formats import game_tie_rolls
from tournaments.services.counting import result_counted
from tournaments.services.errors import NotAllowed, ServiceError, coded, coded_text, from_algorithm
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


# --- deriving a result from a validated log ------------------------------------------------


def result_fields_from_log(fixture: Fixture, checked: CheckedLog) -> dict[str, Any]:
    """Winner, placings, counted pawns, completed colours, captures and game time of the
    fixture's players, derived from the engine's verdict on the log."""
    league = fixture.league
    fmt = get_format(fixture.game_format)
    to_league = log_colour_names(checked.data, league.board)
    v = checked.verdict
    seats = list(fixture.seats.all())
    owner = {colour: seat.entry_id for seat in seats for colour in seat.colours}
    home = {to_league.get(c, c): n for c, n in (v.get("pawns_home") or {}).items()}
    caps = {to_league.get(c, c): n for c, n in (v.get("captures") or {}).items()}
    colour_places = [owner[to_league.get(c, c)] for c in v.get("placings") or []]
    finished = [to_league.get(c, c) for c in v.get("placings") or []]

    counted, completed, captures, both_finished = {}, {}, {}, []
    for seat in seats:
        pawns = [home.get(c, 0) for c in seat.colours]
        counted[seat.entry_id] = sum(pawns) if fmt.counted_pawns == "both-colours" else max(pawns)
        completed[seat.entry_id] = sum(1 for c in seat.colours if c in finished)
        captures[seat.entry_id] = sum(caps.get(c, 0) for c in seat.colours)
    done: dict[int, int] = {}
    for colour in finished:
        entry = owner[colour]
        done[entry] = done.get(entry, 0) + 1
        seat_colours = next(s.colours for s in seats if s.entry_id == entry)
        if done[entry] == len(seat_colours):
            both_finished.append(entry)

    winner = None
    if v.get("winner"):  # the engine names the winning player as the log does: match colours
        winner_colours = _log_player_colours(checked.data, v["winner"], to_league)
        holders = [s for s in seats if set(s.colours) == winner_colours]
        winner = holders[0].entry_id if holders else None
    placings = _player_placings(seats, winner, colour_places, counted, both_finished)
    points: dict[str, int] = {}
    if not v.get("complete"):  # a time-limited open game: placed by count points
        placings, points = _placings_by_count_points(
            checked, seats, to_league, colour_places, game_tie_rolls(fixture)
        )
        winner = placings[0] if placings else None
    return {
        "count_points": points,
        "winner_id": winner,
        "placings": placings,
        "colour_places": colour_places,
        "finished_colours": finished,
        "both_finished": both_finished,
        "counted_pawns": {str(k): n for k, n in counted.items()},
        "completed_colours": {str(k): n for k, n in completed.items()},
        "captures": {str(k): n for k, n in captures.items()},
        "game_time": checked.game_time,
    }


def _placings_by_count_points(checked: CheckedLog, seats, to_league, colour_places, tie_rolls):
    """tournament.md: a pawn on its start field counts 10, each further field +1, a pawn in
    the house 75, in the yard 0; higher places higher. Colours that finished keep their
    places first. A remaining tie goes to the die roll the organizer records for this game
    (``open_draw.place_unfinished_game``); until then the tied players keep the at-board
    order."""
    positions = engine.outcome(checked.data).positions
    board = checked.data.get("board", 4)
    by_colour = {to_league.get(c, c): count_points(p, board) for c, p in positions.items() if p}
    per_entry = {s.entry_id: sum(by_colour.get(c, 0) for c in s.colours) for s in seats}
    finished = list(dict.fromkeys(colour_places))
    try:
        placed = open_draw.place_unfinished_game(
            [s.entry_id for s in seats], per_entry, finished, tie_rolls
        )
    except AlgorithmError as exc:
        raise from_algorithm(exc, within="count points") from None
    return list(placed.placings), {str(k): n for k, n in per_entry.items()}


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
    order: list[int] = []
    for entry in [winner, *both_finished, *colour_places]:
        if entry is not None and entry not in order:
            order.append(entry)
    rest = sorted(
        (s for s in seats if s.entry_id not in order),
        key=lambda s: (-counted[s.entry_id], s.position),
    )
    return order + [s.entry_id for s in rest]


# --- helpers ---------------------------------------------------------------------------------


def fixture_lock(fixture_id: int, user=None, *, table: bool = False) -> Fixture:
    """The fixture, its row locked (``FOR NO KEY UPDATE``), with its league: the first
    step of every write to a game's results, inside the caller's transaction. A link
    holder's link is checked again under the lock (revoked since the page was opened:
    refused), in the same query.

    ``table=True`` (a phone's post at a championship table): its seats (with their
    players) and its result versions (with the link each was sent through) come along,
    read after the lock is held, so the caller decides on what no other writer of this
    game can change until it commits (``*_locked`` below: no second lock, no re-read)."""
    query = Fixture.objects.select_for_update(of=("self",), no_key=True).select_related("league")
    holder = link_holder(user)
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


def _unfinished_log_problems(league, data: dict) -> list[str]:
    """Why a log that stops before the game is decided cannot be this game's result: only
    an open tournament's time limit ends a game early (tournament.md: unfinished games are
    placed by count points), and a log whose times show it stopped before the limit is not
    the game at the limit."""
    complete_please = "upload the complete log of the game"
    if league.format != "open":
        return [coded_text("log_incomplete")]
    limit = league.time_limit_minutes
    if not limit:
        return [
            f"the log ends before the game is decided, and {league.name} has no time limit; "
            + complete_please
        ]
    events = data.get("events") or []
    last_t = events[-1].get("t") if events else None
    if last_t is not None and last_t < limit * 60:
        minutes, seconds = divmod(int(last_t), 60)
        return [
            f"the log ends at {minutes}:{seconds:02d}, before the {limit}-minute time limit; "
            f"{complete_please}, or its log up to the limit"
        ]
    return []


def _record_rejection(
    fixture: Fixture, user, error: ServiceError, event=None, checked=None, raw=b""
):
    """Keep a refused upload: its English message, and its code and parameters (shown in
    the reader's language)."""
    params = _storable_params(error.params)
    with transaction.atomic():
        RejectedSubmission.objects.create(
            fixture=fixture,
            submitted_by=account(user),
            submitted_via=via_link(user),
            sha256=checked.sha256 if checked else "",
            size=len(raw),
            event=event,
            error=storable(error.message)[:5000],
            error_code=(error.code or "") if params is not None else "",
            error_params=params if params is not None else {},
        )


def _storable_params(params: dict) -> dict | None:
    """The parameters as stored, or None when the database cannot hold them (a bad log's
    text may reach them: NUL, an unpaired surrogate — ``games.storable``) or they are too
    long."""
    try:
        text = json.dumps(params, ensure_ascii=False)
    except (TypeError, ValueError):
        return None
    if len(text) > 20_000 or find_unstorable(params) is not None:
        return None
    return params


def _submitter_decides(user, fixture: Fixture) -> bool:
    """Refuse a user who may not submit for this game at all, or a game that takes no
    result; True for an organizer who is not playing it (their submission counts at once,
    and replaces what is there). The rest of the rule is checked under the fixture's lock."""
    actions = result_actions(user, fixture)
    require_action(actions, SUBMIT, who_only=True)
    if refusal := fixture_closed(fixture):
        raise ServiceError(refusal.message)
    return actions.organizer and actions.seat is None


def _require_decider(user, fixture: Fixture, action: str) -> None:
    """Only an organizer who is not playing this game (no one decides their own)."""
    require_action(result_actions(user, fixture), action, who_only=True)


def _require_log_unused_elsewhere(fixture: Fixture, sha256: str) -> None:
    """A game log records one game: the same log cannot be another game's result."""
    other = (
        Result.objects.filter(game_log__sha256=sha256)
        .exclude(fixture=fixture)
        .exclude(state__in=[Result.State.SUPERSEDED, Result.State.VOIDED, Result.State.REJECTED])
        .select_related("fixture")
        .first()
    )
    if other is not None:
        raise coded("log_used", game=other.fixture.label or other.fixture_id, id=other.fixture_id)


# --- submitting ------------------------------------------------------------------------------


def game_log_submit(
    *, fixture: Fixture, content: str | bytes, user, played_online: bool = False
) -> Result:
    """A player at the board (or an organizer) submits the game's log; the result version
    it made, or the one an identical earlier upload made (see ``game_log_upload``)."""
    return game_log_upload(
        fixture=fixture, content=content, user=user, played_online=played_online
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
    user,
    played_online: bool = False,
    reason: str = "",
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
    """
    organizer = _submitter_decides(user, fixture)
    raw = content.encode("utf-8") if isinstance(content, str) else content
    try:
        checked = game_log_check(content)
    except LogRejected as exc:
        # the text counts events from 1, as the replay does; ``event`` stays the index
        error = (
            coded("log_rejected_at", n=exc.event + 1, why=exc.message)
            if exc.event is not None
            else coded("log_rejected", why=exc.message)
        )
        error.event = exc.event
        _record_rejection(fixture, user, error, exc.event, raw=raw)
        raise error from None
    problems = fixture_log_mismatches(fixture, checked.data)
    try:
        _require_log_unused_elsewhere(fixture, checked.sha256)
    except ServiceError as exc:
        problems.append(coded_text(exc.code, **exc.params) if exc.code else exc.message)
    if not checked.verdict.get("complete"):
        problems.extend(_unfinished_log_problems(fixture.league, checked.data))
    if problems:
        error = coded("log_mismatch", why=problems)
        _record_rejection(fixture, user, error, checked=checked, raw=raw)
        raise error

    with transaction.atomic():
        fixture = fixture_lock(fixture.pk, user)
        if refusal := fixture_closed(fixture):
            raise ServiceError(refusal.message)
        same = fixture.results.filter(game_log__sha256=checked.sha256).exclude(
            state__in=[Result.State.SUPERSEDED, Result.State.VOIDED, Result.State.REJECTED]
        )
        if existing := same.first():  # an identical re-upload: recognised, not duplicated
            if organizer and existing.state == Result.State.PENDING:
                existing = _decide(existing, fixture, user, Result.State.CONFIRMED, "")
            return Upload(existing, created=False)
        _require_log_unused_elsewhere(fixture, checked.sha256)
        require_action(result_actions(user, fixture), SUBMIT)
        log, _ = game_log_store(checked, user=user)
        fields = result_fields_from_log(fixture, checked)
        counts_now = organizer or played_online or not fixture.league.confirmation_required
        result = result_version_create(
            fixture,
            user,
            source=Result.Source.LOG,
            confirmed=counts_now,
            game_log=log,
            verified=True,
            reason=reason,
            **fields,
        )
        return Upload(result, created=True)


def result_report(
    *,
    fixture: Fixture,
    user,
    winner: Entry | None = None,
    counted_pawns: dict[int, int] | None = None,
    reason: str = "",
    **typed: Any,
) -> Result:
    """An over-the-board game without a log: a player reports what the format records
    (``HandResult``: winner and counted pawns; 2T+ completed colours and game time; GP
    every colour's place; open placings or count points). The result is unverified and
    waits for the opponent or an organizer."""
    organizer = _submitter_decides(user, fixture)
    fields = _manual_fields(fixture, winner, counted_pawns, typed)
    with transaction.atomic():
        fixture = fixture_lock(fixture.pk, user)
        require_action(result_actions(user, fixture), SUBMIT)
        return result_version_create(
            fixture,
            user,
            source=Result.Source.REPORT,
            confirmed=organizer,
            verified=False,
            reason=reason,
            **fields,
        )


def result_report_locked(
    *, fixture: Fixture, versions: list[Result], user, fields: dict, reason: str = ""
) -> Result:
    """``result_report`` for a caller holding ``fixture``'s lock (``fixture_lock(…,
    table=True)``) and its ``versions`` read under it, with ``fields`` made by
    ``hand_result_fields``: the same rules, without locking or reading again."""
    actions = result_actions(user, fixture, results=versions)
    require_action(actions, SUBMIT, who_only=True)
    if refusal := fixture_closed(fixture):
        raise ServiceError(refusal.message)
    require_action(actions, SUBMIT)
    return result_version_create(
        fixture,
        user,
        source=Result.Source.REPORT,
        confirmed=actions.organizer and actions.seat is None,
        verified=False,
        versions=versions,
        reason=reason,
        **fields,
    )


def result_enter(
    *,
    fixture: Fixture,
    user,
    winner: Entry | None = None,
    counted_pawns=None,
    reason: str,
    **typed: Any,
) -> Result:
    """An organizer enters or corrects a result by hand (the fields of ``result_report``);
    it counts at once."""
    _require_decider(user, fixture, ENTER)
    if not reason.strip():
        raise coded("reason_manual", field="reason")
    fields = _manual_fields(fixture, winner, counted_pawns, typed)
    with transaction.atomic():
        fixture = fixture_lock(fixture.pk)
        require_action(result_actions(user, fixture), ENTER)
        return result_version_create(
            fixture,
            user,
            source=Result.Source.ORGANIZER,
            confirmed=True,
            verified=False,
            reason=reason,
            **fields,
        )


def forfeit_record(
    *, fixture: Fixture, user, loser: Entry, reason: str, own_withdrawal: bool = False
) -> Result:
    """An organizer records a forfeit: the other player(s) win, nothing else counts.
    ``own_withdrawal``: the loser withdrew themselves (``entry_withdraw`` checked that),
    so no organizer's decision is needed."""
    if not own_withdrawal:
        _require_decider(user, fixture, FORFEIT)
    elif account(user) is None or loser.player.user_id != user.pk:
        raise coded("withdraw_self_only", cls=NotAllowed)
    seats = list(fixture.seats.all())
    if loser.pk not in {s.entry_id for s in seats}:
        raise coded("loser_not_at_board", field="loser", player=loser.player.name)
    others = [s.entry_id for s in seats if s.entry_id != loser.pk]
    with transaction.atomic():
        fixture = fixture_lock(fixture.pk)
        if not own_withdrawal:
            require_action(result_actions(user, fixture), FORFEIT)
        return result_version_create(
            fixture,
            user,
            source=Result.Source.FORFEIT,
            confirmed=True,
            verified=False,
            reason=reason or "forfeit",
            winner_id=others[0] if len(others) == 1 else None,
            placings=[*others, loser.pk],
            forfeit_loser=loser,
            status=Fixture.Status.FORFEITED,
        )


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
    fixture: Fixture, user, *, confirmed: bool, status=None, versions=None, **fields
) -> Result:
    """Store a new result version of ``fixture`` (locked by ``fixture_lock``). When it
    counts at once (``confirmed``) the previous confirmed version is superseded and
    ``result_counted`` runs; an open version of someone else is superseded too. ``fields``
    are the ``Result``'s (winner, placings, source, …); ``status`` the fixture's new status
    (default: confirmed or submitted). ``versions``: the fixture's result versions when
    the caller read them under the lock (nothing to supersede among them: no UPDATE)."""
    now = timezone.now()
    replaced = [Result.State.CONFIRMED, *OPEN] if confirmed else list(OPEN)
    if versions is None or any(r.state in replaced for r in versions):
        fixture.results.filter(state__in=replaced).update(state=Result.State.SUPERSEDED)
    try:
        with transaction.atomic():
            result = Result.objects.create(
                fixture=fixture,
                state=Result.State.CONFIRMED if confirmed else Result.State.PENDING,
                submitted_by=account(user),
                submitted_via=via_link(user),
                decided_by=account(user) if confirmed else None,
                decided_via=via_link(user) if confirmed else None,
                decided_at=now if confirmed else None,
                **fields,
            )
    except IntegrityError:
        raise coded("result_race") from None
    fixture.status = status or (Fixture.Status.CONFIRMED if confirmed else Fixture.Status.SUBMITTED)
    fixture.save(update_fields=["status", "updated_at"])
    if confirmed:
        result_counted(fixture)
        by_player = result.submitted_via_id is not None or (
            result.submitted_by_id is not None and _plays(result.submitted_by_id, fixture)
        )
        if not by_player:
            notify_on_commit(DECISION_MADE, result.pk, Result.State.CONFIRMED)
    else:
        notify_on_commit(RESULT_AWAITING, result.pk)
    return result


def _plays(user_id: int, fixture: Fixture) -> bool:
    return fixture.seats.filter(entry__player__user_id=user_id).exists()


# --- confirming and disputing ---------------------------------------------------------------


def _locked_result(result_id: int, user=None) -> tuple[Result, Fixture]:
    try:
        fixture_id = Result.objects.values_list("fixture_id", flat=True).get(pk=result_id)
    except Result.DoesNotExist:
        raise coded("result_unknown", id=result_id) from None
    fixture = fixture_lock(fixture_id, user)
    return Result.objects.select_related("fixture").get(pk=result_id), fixture


def result_confirm(*, result: Result, user) -> Result:
    """The opponent (or an organizer) confirms a pending result; it counts from now on."""
    with transaction.atomic():
        result, fixture = _locked_result(result.pk, user)
        return _confirm(result, fixture, user, result_actions(user, fixture, result=result))


def result_confirm_locked(
    *, result: Result, fixture: Fixture, versions: list[Result], user
) -> Result:
    """``result_confirm`` for a caller holding ``fixture``'s lock with its ``versions``
    (``result`` among them) read under it: the same rules, without locking again."""
    actions = result_actions(user, fixture, result=result, results=versions)
    return _confirm(result, fixture, user, actions, versions)


def _confirm(result: Result, fixture: Fixture, user, actions, versions=None) -> Result:
    require_action(actions, CONFIRM, who_only=True)
    if result.state == Result.State.CONFIRMED:
        return result  # confirmed already (e.g. a double click): nothing to do
    require_action(actions, CONFIRM)
    result = _decide(result, fixture, user, Result.State.CONFIRMED, "", versions)
    if actions.seat is None:  # an organizer decided it, not the opponent
        notify_on_commit(DECISION_MADE, result.pk, Result.State.CONFIRMED)
    done_on_commit(RESULT_AWAITING, result.pk)
    return result


def result_dispute(*, result: Result, user, reason: str) -> Result:
    """The opponent disputes a pending result; an organizer will resolve it."""
    if not reason or not reason.strip():
        raise coded("reason_dispute", field="reason")
    with transaction.atomic():
        result, fixture = _locked_result(result.pk, user)
        return _dispute(result, fixture, user, reason, result_actions(user, fixture, result=result))


def result_dispute_locked(
    *, result: Result, fixture: Fixture, versions: list[Result], user, reason: str
) -> Result:
    """``result_dispute`` for a caller holding ``fixture``'s lock with its ``versions``
    read under it: the same rules, without locking again."""
    if not reason or not reason.strip():
        raise coded("reason_dispute", field="reason")
    actions = result_actions(user, fixture, result=result, results=versions)
    return _dispute(result, fixture, user, reason, actions)


def _dispute(result: Result, fixture: Fixture, user, reason: str, actions) -> Result:
    require_action(actions, DISPUTE)
    result.state = Result.State.DISPUTED
    result.decision_note = reason.strip()
    result.decided_via = via_link(user)  # a dispute through a link says so
    result.save(update_fields=["state", "decision_note", "decided_via"])
    fixture.status = Fixture.Status.DISPUTED
    fixture.save(update_fields=["status", "updated_at"])
    notify_on_commit(DISPUTE_OPENED, result.pk)
    done_on_commit(RESULT_AWAITING, result.pk)
    return result


def result_resolve(*, result: Result, user, accept: bool, note: str) -> Result:
    """An organizer resolves a dispute (or decides a pending result): accept or reject."""
    with transaction.atomic():
        result, fixture = _locked_result(result.pk)
        require_action(result_actions(user, fixture, result=result), RESOLVE)
        state = Result.State.CONFIRMED if accept else Result.State.REJECTED
        result = _decide(result, fixture, user, state, note)
        notify_on_commit(DECISION_MADE, result.pk, state)
        done_on_commit(RESULT_AWAITING, result.pk)
        done_on_commit(DISPUTE_OPENED, result.pk)
        return result


def result_void(*, fixture: Fixture, user, reason: str) -> None:
    """An organizer voids the counted result: the game is open again."""
    _require_decider(user, fixture, VOID)
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
            decided_by=user,
            decided_at=timezone.now(),
        )
        if not changed:
            raise coded("void_nothing")
        fixture.status = Fixture.Status.SCHEDULED
        fixture.save(update_fields=["status", "updated_at"])
        result_counted(fixture)
        notify_on_commit(DECISION_MADE, max(voided), Result.State.VOIDED)


def _decide(result: Result, fixture: Fixture, user, state: str, note: str, versions=None) -> Result:
    """``versions``: the fixture's result versions read under its lock, when the caller
    has them (no confirmed one among them: nothing to supersede, no UPDATE)."""
    counted = versions is None or any(r.state == Result.State.CONFIRMED for r in versions)
    if state == Result.State.CONFIRMED and counted:
        fixture.results.filter(state=Result.State.CONFIRMED).update(state=Result.State.SUPERSEDED)
    result.state = state
    result.decided_by = account(user)
    result.decided_via = via_link(user)
    result.decided_at = timezone.now()
    if note:
        result.decision_note = note
    result.save(update_fields=["state", "decided_by", "decided_via", "decided_at", "decision_note"])
    if state == Result.State.CONFIRMED:
        fixture.status = (
            Fixture.Status.FORFEITED
            if result.source == Result.Source.FORFEIT
            else Fixture.Status.CONFIRMED
        )
    elif fixture.results.filter(state=Result.State.CONFIRMED).exists():
        fixture.status = Fixture.Status.CONFIRMED  # an earlier version still counts
    else:
        fixture.status = Fixture.Status.SCHEDULED
    fixture.save(update_fields=["status", "updated_at"])
    if state == Result.State.CONFIRMED:
        result_counted(fixture)
    return result
