"""Opening and starting rooms: a casual room, a league game's room, the host's start."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop as _n

from games.engine import Game, RulesError, RuleSet
from games.engine.board import DEFAULT_COLOURS
from games.engine.variants import get_variant, variant_rules
from live import computer
from live.models import Room, Seat
from live.services import timers
from live.services.state import Refused, live_setting, locked_room, new_game, refuse_if_over, roll
from tournaments.models import Fixture
from tournaments.permissions import SUBMIT, result_actions
from tournaments.services.guards import require_action


def _check_rules(rules: Any, board: int, variant: str) -> None:
    """Refuse rules or a variant the engine cannot play on ``board`` (coded: the names the
    person chose; the engine's own English reason stays the refusal's cause, for logs)."""
    try:
        v = get_variant(variant)
    except (RulesError, ValueError) as exc:
        raise Refused(
            _n("these rules cannot be played: there is no variant %(variant)s"),
            field="variant",
            variant=repr(variant),
        ) from exc
    try:
        spec = variant_rules(rules, v)
        RuleSet.from_spec(spec)
        Game.new(spec, board)
    except (RulesError, ValueError) as exc:
        raise Refused(
            _n("these rules cannot be played on board %(board)s: %(rules)s"),
            field="rules",
            board=board,
            rules=repr(rules.get("preset", rules) if isinstance(rules, dict) else rules),
        ) from exc


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
    address: str = "",
) -> Room:
    """A new room with every seat played by the computer of ``strength`` until someone
    takes it. Online rooms have a turn timer (``turn_seconds``, default 60 s); rooms
    against the computer and around the table have none. Around the table (``names``:
    the people at the device, one seat each in order) the host moves for everyone.

    Bounded: one account hosts at most LIVE_ROOMS_PER_ACCOUNT open rooms, one client
    ``address`` at most LIVE_ROOMS_PER_ADDRESS (``open_rooms_limit``)."""
    if not getattr(host, "is_authenticated", False):
        raise Refused(_n("log in to open a room"))
    _check_settings(board, mode, strength)
    _check_rules(rules, board, variant)
    colours = list(DEFAULT_COLOURS[board])
    first = _first_colour(first, colours, board)
    seconds = _turn_seconds(mode, turn_seconds)
    names = _table_names(mode, names, len(colours))
    address = (address or "")[:64]  # as stored, so the limit counts what it compares
    with transaction.atomic():
        open_rooms_limit(host, address)
        room = Room.objects.create(
            host=host,
            host_address=address,
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
            _new_seat(room, i, colour, strength, names, host).save()
    return room


def _check_settings(board: int, mode: str, strength: str) -> None:
    if board not in (4, 6):
        raise Refused(_n("the board must be 4 or 6"), field="board")
    if mode not in Room.Mode.values:
        raise Refused(_n("unknown mode %(mode)s"), field="mode", mode=repr(mode))
    if strength not in computer.STRENGTHS:
        raise Refused(
            _n("unknown computer strength %(strength)s"), field="strength", strength=repr(strength)
        )


def _first_colour(first: str | None, colours: list[str], board: int) -> str:
    """The colour that starts: ``first``, else the board's first."""
    first = first or colours[0]
    if first not in colours:
        raise Refused(
            _n("%(first)s is not a colour of board %(board)s"),
            field="first",
            first=repr(first),
            board=board,
        )
    return first


def _turn_seconds(mode: str, asked: int | None) -> int | None:
    """An online room's turn timer (LIVE_TURN_SECONDS unless asked); the others have none."""
    if mode != Room.Mode.ONLINE:
        return None
    seconds = asked or live_setting("TURN_SECONDS")
    if not 1 <= seconds <= 600:
        raise Refused(_n("the turn timer must be 1 to 600 seconds"), field="turn_seconds")
    return seconds


def _table_names(mode: str, names: list[str] | None, seats: int) -> list[str]:
    """The people at the device, one a seat (around the table: 1 to every seat)."""
    names = [n.strip() for n in (names or []) if n and n.strip()]
    if mode == Room.Mode.TABLE and not 1 <= len(names) <= seats:
        raise Refused(_n("name 1 to %(n)s people at the table"), field="names", n=seats)
    return names


def _new_seat(room: Room, i: int, colour: str, strength: str, names: list[str], host) -> Seat:
    """Seat ``i``: a person's at the table, the host's first one against the computer,
    else the computer's."""
    seat = Seat(room=room, colour=colour, index=i, strength=strength)
    if room.mode == Room.Mode.TABLE and i < len(names):
        seat.kind, seat.name = Seat.Kind.HUMAN, names[i][:100]
    elif room.mode == Room.Mode.COMPUTER and i == 0:
        seat.kind, seat.user, seat.original = Seat.Kind.HUMAN, host, host
    return seat


#: a room opened longer ago than this no longer counts against its host's limit
ROOMS_WINDOW = timedelta(hours=24)


def open_rooms_limit(host, address: str) -> None:
    """Refuse a new casual room when ``host`` already has LIVE_ROOMS_PER_ACCOUNT open
    (waiting or playing, opened in the last 24 hours; league games do not count), or the
    client ``address`` LIVE_ROOMS_PER_ADDRESS. Called in the creating transaction, which
    it serialises with every other room creation of the same host (a ``FOR NO KEY
    UPDATE`` lock on the host's row) and of the same address (:func:`address_lock`): two
    requests at once, even from two accounts at one address, cannot both take the last
    place."""
    get_user_model().objects.select_for_update(no_key=True).filter(pk=host.pk).first()
    if address:
        address_lock(address)
    recent = Room.objects.filter(
        status__in=[Room.Status.WAITING, Room.Status.PLAYING],
        fixture__isnull=True,
        created_at__gte=timezone.now() - ROOMS_WINDOW,
    )
    per_account = live_setting("ROOMS_PER_ACCOUNT")
    if recent.filter(host=host).count() >= per_account:
        raise Refused(
            _n(
                "you have %(n)s open rooms already: finish one of them (or wait a day) "
                "before opening another"
            ),
            field="rooms",
            n=per_account,
        )
    per_address = live_setting("ROOMS_PER_ADDRESS")
    if address and recent.filter(host_address=address).count() >= per_address:
        raise Refused(
            _n(
                "%(n)s rooms are open from your address already: finish one of them "
                "before opening another"
            ),
            field="rooms",
            n=per_address,
        )


def address_lock(address: str) -> None:
    """Serialise room creations from one client address until the transaction ends
    (PostgreSQL: a transaction-level advisory lock on the address's hash, in a key space of
    its own; SQLite has one writer at a time anyway). There is no row to lock: the address
    has none, and the count it guards is of rows not yet written."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(hashtext(%s))", [f"live-room-address:{address}"]
            )


def fixture_room_create(*, fixture: Fixture, by, turn_seconds: int | None = None) -> Room:
    """An online room for a scheduled league game: the league's rules and board, the
    fixture's starting colour, each colour reserved for the player who holds it. It starts
    when every player has taken their seats; its log counts as the game's result at once."""
    # the results' own refusal (a coded error where they are coded), as every service's
    require_action(result_actions(by, fixture), SUBMIT)
    if not fixture.starting_colour:
        raise Refused(
            _n(
                "this game's starting colour is decided by an earlier game; open the room once "
                "that game's result counts"
            )
        )
    league = fixture.league
    seats = list(fixture.seats.select_related("entry__player__user"))
    holder: dict[str, Any] = {}
    players: dict[str, list[str]] = {}
    for s in seats:
        player = s.entry.player
        if player.user_id is None:
            raise Refused(
                _n("%(player)s has no account, so cannot play online"), player=player.name
            )
        players[player.name] = list(s.colours)
        for colour in s.colours:
            holder[colour] = player.user
    colours = list(DEFAULT_COLOURS[league.board])
    with transaction.atomic():
        # under the game's row lock: two requests at once open one room
        locked = Fixture.objects.select_for_update(no_key=True).get(pk=fixture.pk)
        if locked.status != Fixture.Status.SCHEDULED:
            raise Refused(_n("this game already has a result"))
        if locked.live_rooms.filter(status__in=[Room.Status.WAITING, Room.Status.PLAYING]).exists():
            raise Refused(_n("this game already has an open room"))
        room = Room.objects.create(
            host=by,
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


def room_start(*, room: Room, by) -> Room:
    """The host starts the game: every seat nobody took is played by the computer."""
    with transaction.atomic():
        room = locked_room(room.pk)
        if room.host_id != getattr(by, "pk", None):
            raise Refused(_n("only the host starts the game"))
        refuse_if_over(room)
        if room.status != Room.Status.WAITING:
            raise Refused(_n("the game has started already"))
        if room.fixture_id:
            raise Refused(_n("a league game starts when every player has taken their seats"))
        start(room)
        timers.broadcast_on_commit(room.pk)
    return room


def start(room: Room) -> None:
    """Roll the first die and schedule the first step (inside the caller's transaction)."""
    now = timezone.now()
    room.status = Room.Status.PLAYING
    room.started_at = now
    room.die = roll(room, 0)
    room.turn_deadline = now + timedelta(seconds=room.turn_seconds) if room.turn_seconds else None
    room.rolled_at = now
    room.save(update_fields=["status", "started_at", "die", "turn_deadline", "rolled_at"])
    timers.schedule_step_on_commit(room.pk, 0, timers.pause_for(room, new_game(room)))
