"""Every write of live play: rooms, seats, moves, timers, the end of a game.

The server is the only authority. It rolls the die (``secrets``) for the colour on turn
when the previous event is applied, and applies a move only if the engine lists it among
the legal moves for that roll. Each event is claimed with a conditional update on the
room's ``move_number`` (``UPDATE … WHERE move_number = n``) in the same transaction that
writes the event row (unique per room and number): two server processes, a late or a
duplicated timer can never apply one turn twice. The engine state is rebuilt from the
stored events (cached per process by move number); nothing lives only in memory.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import OrderedDict
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from games.engine import Game, IllegalMove, Move, RulesError, RuleSet
from games.engine.board import DEFAULT_COLOURS
from games.engine.variants import get_variant, variant_rules
from games.services import LogRejected, game_log_check, game_log_store
from live import computer
from live.models import Room, RoomEvent, Seat
from live.signals import group_send, later
from tournaments.models import Fixture
from tournaments.permissions import SUBMIT, can_view, is_organizer, result_actions
from tournaments.services.analyses import analysis_for_log
from tournaments.services.errors import ServiceError

LOG_FORMAT = "maedn-log/1"


class Refused(ServiceError):
    """A request live play does not carry out; nothing changed."""


def live_setting(name: str) -> Any:
    return settings.LIVE[name]


def roll() -> int:
    """The server's die: 1–6 from the operating system's randomness."""
    return secrets.randbelow(6) + 1


# --- the engine state, rebuilt from the log ---------------------------------------------------

#: room → (number of events, the engine game after them, ``t`` of the last one)
_games: OrderedDict[int, tuple[int, Game, float]] = OrderedDict()
_games_lock = threading.Lock()
_CACHE_ROOMS = 4000


def room_seats(room: Room) -> list[Seat]:
    """The room's seats (with their users), read once per room object."""
    seats = getattr(room, "_seat_list", None)
    if seats is None:
        seats = list(room.seats.select_related("user", "original").order_by("index"))
        room._seat_list = seats
    return seats


def _seat_of(room: Room, colour: str | None) -> Seat | None:
    return next((s for s in room_seats(room) if s.colour == colour), None)


def room_rules(room: Room) -> str | dict[str, Any]:
    """The rules of the room's log: its rules with its variant's options laid over them."""
    return variant_rules(room.rules, room.variant or None)


def _new_game(room: Room) -> Game:
    """The engine game of the room; a variant room's game ends by its variant's condition."""
    return Game.new(
        room.rules,
        room.board,
        first=room.first,
        players=room.players or None,
        variant=room.variant or None,
    )


def room_game(room: Room) -> Game:
    """The engine game after the room's ``move_number`` events (a copy: change it freely)."""
    with _games_lock:
        cached = _games.get(room.pk)
        if cached is not None and cached[0] == room.move_number:
            _games.move_to_end(room.pk)
            return cached[1].copy()
    game = _new_game(room)
    events = list(
        RoomEvent.objects.filter(room=room, number__lt=room.move_number)
        .order_by("number")
        .values_list("data", flat=True)
    )
    if len(events) != room.move_number:
        raise Refused("the room's log is being written; try again")
    game.push_events(events)
    _cache(room.pk, room.move_number, game, float(events[-1].get("t") or 0) if events else 0.0)
    return game.copy()


def _last_t(room_id: int, number: int) -> float | None:
    """``t`` of the room's event ``number - 1`` if the cache holds the game after it."""
    with _games_lock:
        cached = _games.get(room_id)
    return cached[2] if cached is not None and cached[0] == number else None


def _cache(room_id: int, number: int, game: Game, t: float) -> None:
    with _games_lock:
        _games[room_id] = (number, game.copy(), t)
        _games.move_to_end(room_id)
        while len(_games) > _CACHE_ROOMS:
            _games.popitem(last=False)


def room_visible(token: str, user) -> Room | None:
    """The room of ``token`` as ``user`` may see it, or None: a league game's room only
    for those who may see its league (a private league's game is not found by others, as
    its pages are not); other rooms by whoever has the link. Pages and the WebSocket
    both ask this."""
    room = Room.objects.select_related("fixture__league").filter(token=token).first()
    if room is not None and room.fixture_id and not can_view(user, room.fixture.league):
        return None
    return room


def room_events_with_movers(room: Room) -> list[dict[str, Any]]:
    """The events so far, each with who moved (``by``: player, computer, auto, timeout)."""
    rows = (
        RoomEvent.objects.filter(room=room, number__lt=room.move_number)
        .order_by("number")
        .values_list("data", "by")
    )
    return [{**data, "by": by} for data, by in rows]


def room_log(room: Room) -> dict[str, Any]:
    """The room's ``maedn-log/1`` log so far (complete once the game is over)."""
    events = list(
        RoomEvent.objects.filter(room=room).order_by("number").values_list("data", flat=True)
    )
    log: dict[str, Any] = {
        "format": LOG_FORMAT,
        "board": room.board,
        "rules": room_rules(room),
        "first": room.first,
    }
    if room.players:
        log["players"] = room.players
    meta: dict[str, Any] = {
        "generator": "maedn-league live play",
        "room": room.token,
        "mode": room.mode,
        "seats": {s.colour: _seat_name(s) for s in room_seats(room)},
    }
    if room.started_at:
        meta["started"] = room.started_at.isoformat()
    if room.variant:
        meta["variant"] = room.variant
    if room.end_reason:
        meta["ended"] = {"reason": room.end_reason, "winner": room.winner}
    if room.fixture_id:
        meta["fixture"] = room.fixture_id
    log["meta"] = meta
    log["events"] = events
    return log


def room_log_text(room: Room) -> str:
    return json.dumps(room_log(room), ensure_ascii=False, separators=(",", ":"))


# --- what everyone sees --------------------------------------------------------------------


def _seat_name(seat: Seat) -> str:
    if seat.kind == Seat.Kind.COMPUTER:
        return f"computer ({seat.strength})"
    if seat.user_id:
        return seat.user.get_username()
    return seat.name or seat.colour


def _pos(p: int | str) -> int:
    return -1 if p == "B" else int(p)


def room_state(room: Room, game: Game | None = None, last: dict | None = None) -> dict[str, Any]:
    """The whole state of the room as one JSON-ready message (what a client needs to draw
    it, after a reconnect too)."""
    if game is None:
        game = room_game(room) if room.status != Room.Status.WAITING else _new_game(room)
    seats = room_seats(room)
    positions = game.positions()
    legal: list[list[Any]] = []
    if room.status == Room.Status.PLAYING and room.die:
        legal = [[m.from_, m.to, m.pawn_colour, m.captures] for m in game.legal_moves(room.die)]
    return {
        "type": "state",
        "room": room.token,
        "status": room.status,
        "mode": room.mode,
        "board": room.board,
        "variant": room.variant,
        "fixture": room.fixture_id,
        "players_reserved": bool(room.fixture_id),
        "move_number": room.move_number,
        "die": room.die,
        "turn": game.turn if room.status == Room.Status.PLAYING else None,
        "tries_left": game.tries_left,
        "legal": legal,
        "positions": [[_pos(p) for p in positions[s.colour]] for s in seats],
        "home": game.pawns_home(),
        "seats": [
            {
                "colour": s.colour,
                "index": s.index,
                "kind": s.kind,
                "name": _seat_name(s),
                "user": s.user_id,
                "original": s.original.get_username() if s.original_id else None,
                "reserved": s.reserved,
                "strength": s.strength,
            }
            for s in seats
        ],
        "deadline": room.turn_deadline.timestamp() if room.turn_deadline else None,
        "turn_seconds": room.turn_seconds,
        "last": last,
        "winner": room.winner or None,
        "end_reason": room.end_reason or None,
        "placings": game.placing_colours(),
        "log_url": reverse("live:log", args=[room.token])
        if room.status == Room.Status.FINISHED
        else None,
        "replay_url": reverse("live:replay", args=[room.token])
        if room.status == Room.Status.FINISHED
        else None,
        "applied_at": time.time(),
    }


def _broadcast(room_id: int, last: dict | None = None) -> None:
    room = Room.objects.get(pk=room_id)
    group_send(room.group, {"type": "room.state", "state": room_state(room, last=last)})


def _broadcast_on_commit(room_id: int, last: dict | None = None) -> None:
    transaction.on_commit(lambda: _broadcast(room_id, last))


# --- creating rooms ------------------------------------------------------------------------


def _check_rules(rules: Any, board: int, variant: str) -> None:
    try:
        v = get_variant(variant)
        spec = variant_rules(rules, v)
        RuleSet.from_spec(spec)
        Game.new(spec, board)
    except (RulesError, ValueError) as exc:
        raise Refused(f"these rules cannot be played: {exc}") from None


def room_create(
    *,
    host,
    board: int = 4,
    rules: str | dict[str, Any] = "online",
    mode: str = Room.Mode.ONLINE,
    turn_seconds: int | None = None,
    is_public: bool = True,
    variant: str = "",
    strength: str = "heuristic",
    first: str | None = None,
    names: list[str] | None = None,
) -> Room:
    """A new room with every seat played by the computer of ``strength`` until someone
    takes it. Online rooms have a turn timer (``turn_seconds``, default 60 s); rooms
    against the computer and around the table have none. Around the table (``names``:
    the people at the device, one seat each in order) the host moves for everyone."""
    if not getattr(host, "is_authenticated", False):
        raise Refused("log in to open a room")
    if board not in (4, 6):
        raise Refused("the board must be 4 or 6", field="board")
    if mode not in Room.Mode.values:
        raise Refused(f"unknown mode {mode!r}", field="mode")
    if strength not in computer.STRENGTHS:
        raise Refused(f"unknown computer strength {strength!r}", field="strength")
    _check_rules(rules, board, variant)
    colours = list(DEFAULT_COLOURS[board])
    first = first or colours[0]
    if first not in colours:
        raise Refused(f"{first!r} is not a colour of board {board}", field="first")
    if mode == Room.Mode.ONLINE:
        seconds = turn_seconds or live_setting("TURN_SECONDS")
        if not 1 <= seconds <= 600:
            raise Refused("the turn timer must be 1 to 600 seconds", field="turn_seconds")
    else:
        seconds = None
    names = [n.strip() for n in (names or []) if n and n.strip()]
    if mode == Room.Mode.TABLE and not 1 <= len(names) <= len(colours):
        raise Refused(f"name 1 to {len(colours)} people at the table", field="names")
    with transaction.atomic():
        room = Room.objects.create(
            host=host,
            board=board,
            rules=rules,
            variant=variant,
            mode=mode,
            turn_seconds=seconds,
            is_public=is_public,
            colours=colours,
            first=first,
        )
        for i, colour in enumerate(colours):
            seat = Seat(room=room, colour=colour, index=i, strength=strength)
            if mode == Room.Mode.TABLE and i < len(names):
                seat.kind, seat.name = Seat.Kind.HUMAN, names[i][:100]
            elif mode == Room.Mode.COMPUTER and i == 0:
                seat.kind, seat.user, seat.original = Seat.Kind.HUMAN, host, host
            seat.save()
    return room


def fixture_room_create(*, fixture: Fixture, user, turn_seconds: int | None = None) -> Room:
    """An online room for a scheduled league game: the league's rules and board, the
    fixture's starting colour, each colour reserved for the player who holds it. It starts
    when every player has taken their seats; its log counts as the game's result at once."""
    actions = result_actions(user, fixture)
    if not actions.allows(SUBMIT):
        refusal = actions.refusal(SUBMIT)
        raise Refused(refusal.message if refusal else "you may not open a room for this game")
    if not fixture.starting_colour:
        raise Refused(
            "this game's starting colour is decided by an earlier game; open the room once "
            "that game's result counts"
        )
    league = fixture.league
    seats = list(fixture.seats.select_related("entry__player__user"))
    holder: dict[str, Any] = {}
    players: dict[str, list[str]] = {}
    for s in seats:
        player = s.entry.player
        if player.user_id is None:
            raise Refused(f"{player.name} has no account, so cannot play online")
        players[player.name] = list(s.colours)
        for colour in s.colours:
            holder[colour] = player.user
    colours = list(DEFAULT_COLOURS[league.board])
    with transaction.atomic():
        # under the game's row lock: two requests at once open one room
        locked = Fixture.objects.select_for_update(no_key=True).get(pk=fixture.pk)
        if locked.status != Fixture.Status.SCHEDULED:
            raise Refused("this game already has a result")
        if locked.live_rooms.filter(status__in=[Room.Status.WAITING, Room.Status.PLAYING]).exists():
            raise Refused("this game already has an open room")
        room = Room.objects.create(
            host=user,
            board=league.board,
            rules=league.rules_spec,
            mode=Room.Mode.ONLINE,
            turn_seconds=turn_seconds or live_setting("TURN_SECONDS"),
            is_public=league.is_public,
            fixture=fixture,
            colours=colours,
            players=players,
            first=fixture.starting_colour,
        )
        for i, colour in enumerate(colours):
            owner = holder.get(colour)
            Seat.objects.create(
                room=room, colour=colour, index=i, original=owner, reserved=owner is not None
            )
    return room


# --- seats -----------------------------------------------------------------------------------


def _locked_room(room_id: int) -> Room:
    try:
        return Room.objects.select_for_update().get(pk=room_id)
    except Room.DoesNotExist:
        raise Refused(f"there is no room {room_id}") from None


def seat_take(*, room: Room, user, colour: str) -> list[Seat]:
    """``user`` takes the seat of ``colour`` from the computer (anyone may take a computer
    seat; a reserved one only its player, who takes all their colours at once). The
    original player takes their seat back the same way."""
    if not getattr(user, "is_authenticated", False):
        raise Refused("log in to take a seat")
    if not isinstance(colour, str):
        raise Refused("say which seat: a colour name", field="colour")
    with transaction.atomic():
        room = _locked_room(room.pk)
        if room.status in (Room.Status.FINISHED, Room.Status.ABANDONED):
            raise Refused("the game is over")
        if room.mode == Room.Mode.TABLE:
            raise Refused("around the table the host plays every seat")
        seats = {s.colour: s for s in room.seats.select_for_update()}
        seat = seats.get(colour)
        if seat is None:
            raise Refused(f"there is no {colour!r} seat in this room", field="colour")
        if seat.kind == Seat.Kind.HUMAN:
            if seat.user_id == user.pk:
                return [seat]
            raise Refused(f"the {colour} seat is taken")
        if seat.reserved and seat.original_id != user.pk:
            raise Refused(f"the {colour} seat is reserved for {seat.original} in this league game")
        if seat.reserved:
            taking = [s for s in seats.values() if s.reserved and s.original_id == user.pk]
        else:
            if any(s.user_id == user.pk for s in seats.values()):
                raise Refused("you already play a colour in this room")
            taking = [seat]
        for s in taking:
            s.kind, s.user = Seat.Kind.HUMAN, user
            s.original = s.original or user
            s.disconnected_at = None
            s.save(update_fields=["kind", "user", "original", "disconnected_at"])
        start = (
            room.status == Room.Status.WAITING
            and room.fixture_id
            and all(s.kind == Seat.Kind.HUMAN for s in seats.values() if s.reserved)
        )
        if start:
            _start(room)
        elif room.status == Room.Status.PLAYING:
            _schedule_step_on_commit(room.pk, room.move_number, 0)
        _broadcast_on_commit(room.pk)
    return taking


def _to_computer(seats: list[Seat]) -> None:
    for s in seats:
        s.kind, s.user, s.connections, s.disconnected_at = Seat.Kind.COMPUTER, None, 0, None
        s.save(update_fields=["kind", "user", "connections", "disconnected_at"])


def seat_leave(*, room: Room, user) -> int:
    """``user`` leaves: the computer plays their colours on, pawns where they stand. The
    number of seats handed over."""
    with transaction.atomic():
        room = _locked_room(room.pk)
        seats = list(room.seats.select_for_update().filter(user=user, kind=Seat.Kind.HUMAN))
        _to_computer(seats)
        if seats and room.status == Room.Status.PLAYING:
            _schedule_step_on_commit(room.pk, room.move_number, 0)
        if seats:
            _broadcast_on_commit(room.pk)
    return len(seats)


def seat_connected(*, room_id: int, user) -> None:
    """A connection of ``user`` opened: their seats are held again."""
    if not getattr(user, "is_authenticated", False):
        return
    Seat.objects.filter(room_id=room_id, user=user, kind=Seat.Kind.HUMAN).update(
        connections=F("connections") + 1, disconnected_at=None
    )


def seat_disconnected(*, room_id: int, user) -> None:
    """A connection closed; when it was the last, the computer takes the seats over after
    the grace period unless the player is back by then."""
    if not getattr(user, "is_authenticated", False):
        return
    now = timezone.now()
    with transaction.atomic():
        seats = list(
            Seat.objects.select_for_update().filter(
                room_id=room_id, user=user, kind=Seat.Kind.HUMAN
            )
        )
        gone = []
        for s in seats:
            s.connections = max(0, s.connections - 1)
            if s.connections == 0:
                s.disconnected_at = now
                gone.append(s)
            s.save(update_fields=["connections", "disconnected_at"])
    if gone:
        later(
            "live.seat_grace",
            [room_id, user.pk, now.isoformat()],
            live_setting("GRACE_SECONDS"),
        )


def seat_grace_expire(*, room_id: int, user_id: int, since: str) -> int:
    """The grace period of a dropped connection ran out: hand the seats to the computer if
    the player has not come back (the same disconnection, still no connection)."""
    with transaction.atomic():
        room = _locked_room(room_id)
        seats = [
            s
            for s in room.seats.select_for_update().filter(
                user_id=user_id, kind=Seat.Kind.HUMAN, connections=0
            )
            if s.disconnected_at and s.disconnected_at.isoformat() == since
        ]
        if room.status not in (Room.Status.WAITING, Room.Status.PLAYING):
            return 0
        _to_computer(seats)
        if seats and room.status == Room.Status.PLAYING:
            _schedule_step_on_commit(room.pk, room.move_number, 0)
        if seats:
            _broadcast_on_commit(room.pk)
    return len(seats)


# --- playing -------------------------------------------------------------------------------


def room_resume(*, room_id: int) -> None:
    """Make sure the roll on turn has its step scheduled (a client connected). A process
    that died took its in-process timers with it; the reconnecting clients bring them back.
    A second step for the same roll is harmless (the claim on the move number)."""
    room = Room.objects.filter(pk=room_id, status=Room.Status.PLAYING).first()
    if room is None:
        return
    delay = _pause_for(room, room_game(room))
    if delay >= 0:
        later("live.room_step", [room.pk, room.move_number], delay)


def rooms_sweep(*, older_than: float | None = None, limit: int = 500) -> int:
    """Step every playing room whose roll has waited longer than it should (``older_than``
    seconds past its pause or its turn timer; LIVE_SWEEP_AFTER): the step's timer died with
    a process or its message was lost. The beat task runs it; a step that is not due does
    nothing, and a second step for one roll is refused by the claim. Returns how many
    rooms moved.

    A room with a turn timer is always due once the timer has run out (whoever is on
    turn), so all of those are stepped. A room without one (against the computer, around
    the table) may simply be waiting for a person who is thinking — or gone — forever, so
    only the ``limit`` most recently rolled of those are looked at: a room that stalled
    just now is never crowded out by rooms abandoned long ago."""
    slack = timedelta(seconds=live_setting("SWEEP_AFTER") if older_than is None else older_than)
    late = timezone.now() - slack
    playing = Room.objects.filter(status=Room.Status.PLAYING, rolled_at__lt=late)
    timed_out = playing.filter(turn_deadline__lt=late).values_list("pk", "move_number")
    untimed = (
        playing.filter(turn_deadline__isnull=True)
        .order_by("-rolled_at")
        .values_list("pk", "move_number")[:limit]
    )
    moved = 0
    for room_id, number in [*timed_out.iterator(), *untimed]:
        if room_step(room_id=room_id, move_number=number) is not None:
            moved += 1
    return moved


def room_start(*, room: Room, user) -> Room:
    """The host starts the game: every seat nobody took is played by the computer."""
    with transaction.atomic():
        room = _locked_room(room.pk)
        if room.host_id != getattr(user, "pk", None):
            raise Refused("only the host starts the game")
        if room.status != Room.Status.WAITING:
            raise Refused("the game has started already")
        if room.fixture_id:
            raise Refused("a league game starts when every player has taken their seats")
        _start(room)
        _broadcast_on_commit(room.pk)
    return room


def _start(room: Room) -> None:
    now = timezone.now()
    room.status = Room.Status.PLAYING
    room.started_at = now
    room.die = roll()
    room.turn_deadline = now + timedelta(seconds=room.turn_seconds) if room.turn_seconds else None
    room.rolled_at = now
    room.save(update_fields=["status", "started_at", "die", "turn_deadline", "rolled_at"])
    _schedule_step_on_commit(room.pk, 0, _pause_for(room, _new_game(room)))


def _pause_for(room: Room, game: Game) -> float:
    """How long the server waits before its step for the colour on turn: the computer's
    pause, the short pause of an automatic move, or the turn timer."""
    seat = _seat_of(room, game.turn)
    if seat is None or seat.kind == Seat.Kind.COMPUTER:
        return live_setting("COMPUTER_PAUSE")
    if len(game.legal_moves(room.die)) <= 1:
        return live_setting("AUTO_PAUSE")
    if room.turn_deadline:
        return max(0.0, (room.turn_deadline - timezone.now()).total_seconds())
    return -1  # a person decides, no timer: nothing to schedule


def _schedule_step_on_commit(room_id: int, number: int, delay: float) -> None:
    if delay < 0:
        return
    transaction.on_commit(lambda: later("live.room_step", [room_id, number], delay))


def _parse_choice(choice: Any) -> tuple[Any, int, str | None]:
    if not isinstance(choice, list | tuple) or len(choice) not in (2, 3):
        raise Refused('a move is [from, to] (from: "B" or a field)', field="move")
    frm, to = choice[0], choice[1]
    if isinstance(frm, bool) or isinstance(to, bool) or not isinstance(to, int):
        raise Refused('a move is [from, to] (from: "B" or a field)', field="move")
    if frm != "B" and not isinstance(frm, int):
        raise Refused('a move is [from, to] (from: "B" or a field)', field="move")
    pawn = choice[2] if len(choice) == 3 else None
    return frm, to, pawn if isinstance(pawn, str) else None


def move_play(*, room_id: int, user, move_number: Any, choice: Any) -> dict[str, Any]:
    """``user`` answers the roll of event ``move_number`` with the move ``choice``
    (``[from, to]``, optionally ``[from, to, pawn_colour]``). Refused, changing nothing:
    a stale or replayed number, a seat not on turn or not this user's, an illegal move."""
    if isinstance(move_number, bool) or not isinstance(move_number, int):
        raise Refused("say which roll you answer (move_number)", field="move_number")
    frm, to, pawn = _parse_choice(choice)
    room = Room.objects.filter(pk=room_id).first()
    if room is None:
        raise Refused(f"there is no room {room_id}")
    if room.status != Room.Status.PLAYING:
        raise Refused("the game is not being played")
    if move_number != room.move_number:
        raise Refused(
            f"that answers roll {move_number}, but the game is at roll {room.move_number}"
        )
    game = room_game(room)
    seat = _seat_of(room, game.turn)
    allowed = (
        seat is not None
        and seat.kind == Seat.Kind.HUMAN
        and getattr(user, "is_authenticated", False)
        and (
            (room.mode == Room.Mode.TABLE and room.host_id == getattr(user, "pk", None))
            or (seat.user_id is not None and seat.user_id == getattr(user, "pk", None))
        )
    )
    if not allowed:
        raise Refused(f"it is {game.turn}'s turn, not yours")
    legal = game.legal_moves(room.die)
    wanted = [
        m
        for m in legal
        if m.from_ == frm and m.to == to and (pawn is None or m.pawn_colour == pawn)
    ]
    if not wanted:
        shown = ", ".join(str(m) for m in legal) or "none (the roll is spent)"
        raise Refused(f"{frm}→{to} is not a legal move with a {room.die}; legal: {shown}")
    return _apply(room, game, wanted[0], by="player")


def room_step(*, room_id: int, move_number: int) -> dict[str, Any] | None:
    """The server's step for roll ``move_number`` (a Celery task or an in-process timer):
    the computer's move, the only move (or none) after the pause, or the computer's choice
    when the turn timer ran out. Nothing when the roll is answered already (a late or a
    second timer) or a person still has time."""
    room = Room.objects.filter(pk=room_id).first()
    if room is None or room.status != Room.Status.PLAYING or room.move_number != move_number:
        return None
    game = room_game(room)
    seat = _seat_of(room, game.turn)
    legal = game.legal_moves(room.die)
    if seat is None or seat.kind == Seat.Kind.COMPUTER:
        by, strength = "computer", seat.strength if seat else "heuristic"
    elif len(legal) <= 1:
        by, strength = "auto", "heuristic"
    elif room.turn_deadline and timezone.now() >= room.turn_deadline - timedelta(milliseconds=20):
        by, strength = "timeout", "heuristic"
    else:
        if room.turn_deadline:  # woken early (a seat changed hands): wait for the deadline
            _schedule_step_on_commit(room.pk, move_number, _pause_for(room, game))
        return None
    move = computer.choose(game, room.die, legal, strength) if legal else None
    try:
        return _apply(room, game, move, by=by)
    except Refused:
        return None  # someone else applied this roll first


def _apply(room: Room, game: Game, move: Move | None, *, by: str) -> dict[str, Any]:
    """Apply the roll ``room.die`` with ``move`` as event ``room.move_number``, claimed
    with the conditional update; roll the next die; end the game when it is over."""
    number, die = room.move_number, room.die
    huff = computer.choose_huff(game, die, move) if move is not None else None
    roller = game.turn
    try:
        played = game.push(die, move, huff)
    except IllegalMove as exc:
        raise Refused(str(exc)) from None
    now = timezone.now()
    previous_t = _last_t(room.pk, number) if number else 0
    if previous_t is None:
        previous_t = (
            RoomEvent.objects.filter(room=room, number=number - 1)
            .values_list("data__t", flat=True)
            .first()
        )
    t = round(max((now - room.started_at).total_seconds(), float(previous_t or 0)), 3)
    event: dict[str, Any] = (
        played.event(die) if played is not None else {"colour": roller, "die": die}
    )
    event["t"] = t
    over = game.is_over()  # by the rules' end, or by the room's variant
    fields: dict[str, Any] = {"move_number": number + 1}
    if over:
        fields.update(
            status=Room.Status.FINISHED,
            die=None,
            turn_deadline=None,
            finished_at=now,
            winner=game.winner or "",  # a player (both-colours: who finishes both)
            end_reason=game.ended_by or "finished",
        )
    else:
        fields.update(
            die=roll(),
            rolled_at=now,
            turn_deadline=now + timedelta(seconds=room.turn_seconds) if room.turn_seconds else None,
        )
    with transaction.atomic():
        claimed = Room.objects.filter(
            pk=room.pk, move_number=number, status=Room.Status.PLAYING
        ).update(**fields)
        if not claimed:
            raise Refused(f"roll {number} has been answered already")
        RoomEvent.objects.create(room=room, number=number, data=event, by=by)
        for k, v in fields.items():
            setattr(room, k, v)
        _cache(room.pk, number + 1, game, t)
        if over:
            transaction.on_commit(lambda: later("live.room_finish", [room.pk], 0))
        else:
            _schedule_step_on_commit(room.pk, number + 1, _pause_for(room, game))
        last = {**event, "number": number, "by": by}
        transaction.on_commit(
            lambda: group_send(
                room.group, {"type": "room.state", "state": room_state(room, game, last)}
            )
        )
    return last


# --- the end -------------------------------------------------------------------------------


def room_finish(*, room_id: int) -> None:
    """A finished room's log is stored (its replay), and a league game's log goes through
    the results service, counting at once (both players were there)."""
    room = Room.objects.select_related("fixture__league", "host").get(pk=room_id)
    if room.status != Room.Status.FINISHED or room.game_log_id:
        return
    text = room_log_text(room)
    note = ""
    log = None
    if room.fixture_id:
        from tournaments.services.results import game_log_upload

        try:
            upload = game_log_upload(
                fixture=room.fixture, content=text, user=room.host, played_online=True
            )
            log = upload.result.game_log
            note = f"counted as result {upload.result.pk}"
        except ServiceError as exc:
            note = f"the results service refused the log: {exc.message}"
    if log is None:
        try:
            with transaction.atomic():
                log, _ = game_log_store(game_log_check(text), user=room.host)
                analysis_for_log(log)  # a friendly game's analysis too (sent on commit)
        except LogRejected as exc:  # cannot happen: every event was checked by the engine
            note = f"{note} the log did not validate: {exc.message}".strip()
    Room.objects.filter(pk=room.pk, game_log__isnull=True).update(game_log=log, result_note=note)
    _broadcast(room.pk)


def fixture_no_show(*, room: Room, user, absent) -> Any:
    """An organizer records a player who never came to a league game's room as the
    league's forfeit: ``forfeit_record`` (the others win); the room is abandoned."""
    from tournaments.services.results import forfeit_record

    room = Room.objects.select_related("fixture__league").get(pk=room.pk)
    if room.fixture_id is None:
        raise Refused("this room is not a league game")
    if not is_organizer(user, room.fixture.league):
        raise Refused("only an organizer records a no-show")
    with transaction.atomic():  # the room's lock: nobody sits down (and starts it) meanwhile
        room = (
            Room.objects.select_for_update(of=("self",)).select_related("fixture").get(pk=room.pk)
        )
        if room.status != Room.Status.WAITING:
            raise Refused("the game has started: it is played to the end by the computer")
        if room.seats.filter(original=absent.player.user, kind=Seat.Kind.HUMAN).exists():
            raise Refused(f"{absent.player.name} is here")
        result = forfeit_record(
            fixture=room.fixture, user=user, loser=absent, reason="did not come to the online game"
        )
        Room.objects.filter(pk=room.pk, status=Room.Status.WAITING).update(
            status=Room.Status.ABANDONED, end_reason="no-show", result_note=f"forfeit {result.pk}"
        )
        _broadcast_on_commit(room.pk)
    return result
