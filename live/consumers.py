"""The WebSocket consumer of a room: thin — it joins the room's group, sends the whole state
on connect, hands every request to a service and relays the room's broadcasts.

Bounded per connection (docs/live.md, "Limits per connection"): a frame larger than
LIVE_MAX_FRAME_BYTES, JSON nested deeper than LIVE_MAX_JSON_DEPTH, or more messages than
LIVE_MESSAGES_PER_SECOND (with a burst of LIVE_MESSAGE_BURST) closes the connection with
its own close code. Bad input never kills ``receive()``: anything a service or the server
cannot carry out is answered with a refusal, and the connection stays. While a seated
player's connection is open, its server marks their seats alive every heartbeat.

The connection's lifetime owns what it started: however it ends — closed by the client, by
a limit, by an exception in a handler, or cancelled by the server (Daphne kills an
application that has not finished 10 s after its socket closed) — its heartbeat stops and
its seats are released (``seat_disconnected``: the grace period starts), exactly once.

A ``state`` request costs the same whatever the game's length: it is the room's current
position with its version (``move_number``, ``seats_version``), served from the room's
latest state this process has sent or read (no database read per request); the events a
page lacks it asks for with ``{"type": "events", "since": n}``, and a connection is sent
each event at most once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections import OrderedDict
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _n

from core.errors import ServiceError
from live import services
from live.dispatch import remember_server_loop
from live.errors import expected, log_failure
from live.models import Room

log = logging.getLogger(__name__)

#: close codes (4000–4999 are the application's; chosen to read like HTTP statuses)
CLOSE_NOT_FOUND = 4404  # no such room, or not one this visitor may see
CLOSE_TOO_LARGE = 4413  # a frame over LIVE_MAX_FRAME_BYTES
CLOSE_TOO_DEEP = 4400  # JSON nested deeper than LIVE_MAX_JSON_DEPTH
CLOSE_TOO_MANY = 4429  # more messages than LIVE_MESSAGES_PER_SECOND allows
CLOSE_UNAVAILABLE = 4503  # the channel layer (Redis) is away: the page reconnects


def json_depth_over(text: str, limit: int) -> bool:
    """Whether the JSON text nests arrays and objects deeper than ``limit`` (read before
    parsing: a parser recursing 2,000 levels deep is what must not happen). Brackets in
    strings do not count."""
    if text.count("[") + text.count("{") <= limit:
        return False  # cannot be deeper than the brackets it has
    depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def connection_language(scope: dict[str, Any]) -> str:
    """The language of a connection's refusals: the page's own (the room page opens its
    socket with ``?lang=`` the language it was served in), else the language cookie, else
    the site's default. Only the site's languages are taken."""
    asked = parse_qs((scope.get("query_string") or b"").decode("latin-1")).get("lang", [""])[0]
    cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME, "")
    for code in (asked, cookie):
        if code:
            try:
                return translation.get_supported_language_variant(code[:20])
            except LookupError:
                continue
    return settings.LANGUAGE_CODE


def _state_of(room_id: int) -> dict[str, Any]:
    return services.room_state(Room.objects.get(pk=room_id))


def _still_current(
    room_id: int, state: dict[str, Any] | str, version: tuple[int, int] | None = None
) -> dict[str, Any] | str:
    """``state`` (a state, or a kept state's text of ``version``) if the room has not
    changed since it was read, else the room's state now: checked once the connection
    hears the room's broadcasts, so a change made between the first read and the
    subscription (a seat taken, a move) is never lost (one query)."""
    now = Room.objects.filter(pk=room_id).values_list("move_number", "seats_version").first()
    if version is None:
        version = _version(state)  # type: ignore[arg-type]
    if now is None or tuple(now) == version:
        return state
    return _state_of(room_id)


def _connect(token: str, user) -> tuple[Room, dict[str, Any] | str] | None:
    """What a connect costs, whatever the game's length: the room read once (with its
    seats), the user's seats marked connected (one UPDATE, for a signed-in user only), the
    state — the room's kept text when it is of the version just read and fresh (issue 33:
    a burst of connects to one room builds it once), else built. No events: the page asks
    for the ones it lacks. Nothing is scheduled."""
    room = services.room_visible(token, user)
    if room is None:
        return None
    services.seat_connected(room_id=room.pk, by=user)
    kept = kept_state_text(room.pk, (room.move_number, room.seats_version))
    return room, kept if kept is not None else services.room_state(room)


# --- the room's latest state, per process ------------------------------------------------------
#
# Every broadcast of a room passes through each of its consumers in this process; the newest
# (by move number, then seats version) is kept here as the text sent, with when it was taken.
# A ``state`` request is answered from it; only when it is older than LIVE_STATE_CACHE_SECONDS
# (a room where nothing happened, or a lost broadcast) is the room read again — once, however
# many requests are waiting for it.

_ROOMS_KEPT = 10_000
_latest: OrderedDict[int, tuple[float, tuple[int, int], Any, str]] = OrderedDict()
_reading: dict[int, asyncio.Future] = {}


def _version(state: dict[str, Any]) -> tuple[int, int]:
    return (int(state.get("move_number") or 0), int(state.get("seats_version") or 0))


def kept_state_text(room_id: int, version: tuple[int, int]) -> str | None:
    """The room's kept state text if it is of ``version`` and fresh, else None."""
    kept = _latest.get(room_id)
    fresh = float(services.live_setting("STATE_CACHE_SECONDS"))
    if kept is None or kept[1] != version or time.monotonic() - kept[0] >= fresh:
        return None
    return kept[3]


def same_state(a: str | None, b: str) -> bool:
    """Whether two state texts say the same (``applied_at``, when it was built, aside):
    a ``state`` request answered with what the connection was sent last gets "unchanged"."""
    if a is None:
        return False
    if a is b:
        return True
    # "applied_at" is the state's last key (json_view.room_state): what follows is its value
    cut_a, cut_b = a.rfind('"applied_at"'), b.rfind('"applied_at"')
    return cut_a == cut_b > 0 and a[:cut_a] == b[:cut_b]


def remember_state(room_id: int, state: dict[str, Any], text: str | None = None) -> str:
    """Keep ``state`` as the room's latest unless a newer one is kept; the text to send."""
    version, made = _version(state), state.get("applied_at")
    kept = _latest.get(room_id)
    if kept is not None and kept[1] == version and kept[2] == made:
        return kept[3]  # the same broadcast, for another connection: made into text once
    if kept is not None and kept[1] > version:
        return text or json.dumps(state)
    text = text or json.dumps(state)
    _latest[room_id] = (time.monotonic(), version, made, text)
    _latest.move_to_end(room_id)
    while len(_latest) > _ROOMS_KEPT:
        _latest.popitem(last=False)
    return text


async def latest_state_text(room_id: int) -> str:
    """The room's state as text: the kept one while fresh, else read (one read at a time
    per room in this process)."""
    kept = _latest.get(room_id)
    fresh = float(services.live_setting("STATE_CACHE_SECONDS"))
    if kept is not None and time.monotonic() - kept[0] < fresh:
        return kept[3]
    pending = _reading.get(room_id)
    if pending is None:
        pending = asyncio.ensure_future(database_sync_to_async(_state_of)(room_id))
        _reading[room_id] = pending
        pending.add_done_callback(lambda _f: _reading.pop(room_id, None))
    state = await asyncio.shield(pending)
    return remember_state(room_id, state)


# --- the room's events, per process ------------------------------------------------------------
#
# An event never changes once written, so the events pages ask for are kept here as text, per
# room (the rooms asked about last): a burst of connects to one room, each page asking for the
# events it lacks, reads them once (issue 33: a connect of the abusing address used to read
# and send a 400-roll game's events from the database every time).

_EVENT_ROOMS_KEPT = 128
_events_kept: OrderedDict[int, list[str]] = OrderedDict()
_events_reading: dict[int, asyncio.Future] = {}


def _known_events(room_id: int) -> int | None:
    """How many events the room has, by its fresh kept state (None: not known here)."""
    kept = _latest.get(room_id)
    fresh = float(services.live_setting("STATE_CACHE_SECONDS"))
    if kept is None or time.monotonic() - kept[0] >= fresh:
        return None
    return kept[1][0]


async def events_texts(room_id: int, since: int, limit: int) -> list[str]:
    """At most ``limit`` events of the room from number ``since`` on, each as JSON text with
    who moved: from the kept ones, reading only those not kept yet (one read at a time per
    room in this process)."""
    for _ in range(3):
        texts = _events_kept.get(room_id) or []
        have = len(texts)
        known = _known_events(room_id)
        if since + limit <= have or (known is not None and known <= have):
            if room_id in _events_kept:
                _events_kept.move_to_end(room_id)
            return texts[since : since + limit]
        if since > have:  # far ahead of what is kept: just those, not kept
            break
        pending = _events_reading.get(room_id)
        mine = pending is None
        if mine:
            pending = _events_read(room_id, have, since + limit - have)
        rows = await asyncio.shield(pending)
        if mine and len(rows) < since + limit - have:  # all there is, now kept
            texts = _events_kept.get(room_id) or []
            if len(texts) >= have + len(rows):
                return texts[since : since + limit]
        # another request's read (or a full one): look at what is kept now
    return await database_sync_to_async(services.room_event_texts_since)(room_id, since, limit)


def _events_read(room_id: int, have: int, count: int) -> asyncio.Future:
    """Read ``count`` events of the room after the ``have`` kept (the one read of the room
    under way); kept when it ends, if still contiguous with what is kept."""
    pending = asyncio.ensure_future(
        database_sync_to_async(services.room_event_texts_since)(room_id, have, count)
    )
    _events_reading[room_id] = pending
    pending.add_done_callback(functools.partial(_events_read_done, room_id, have))
    return pending


def _events_read_done(room_id: int, have: int, future: asyncio.Future) -> None:
    _events_reading.pop(room_id, None)
    if future.cancelled() or future.exception() is not None:
        return
    kept = _events_kept.get(room_id) or []
    if len(kept) != have:  # no longer contiguous with what is kept
        return
    _events_kept[room_id] = kept + future.result()
    _events_kept.move_to_end(room_id)
    while len(_events_kept) > _EVENT_ROOMS_KEPT:
        _events_kept.popitem(last=False)


#: set when the server counts every frame against its address's budget itself (Daphne:
#: config/daphne_limits.py, which drops a read over it before the consumer is woken)
ADDRESS_COUNTED_BY_SERVER = False

#: every address's message budget in this process: [allowance, checked at]
_address_budget: OrderedDict[str, list[float]] = OrderedDict()


def _address_allowance(address: str) -> tuple[list[float], float, float]:
    """The address's bucket refilled to now, with its rate and burst."""
    rate = float(services.live_setting("MESSAGES_PER_ADDRESS"))
    burst = float(services.live_setting("ADDRESS_BURST"))
    now = time.monotonic()
    budget = _address_budget.get(address)
    if budget is None:
        budget = _address_budget[address] = [burst, now]
        while len(_address_budget) > _ROOMS_KEPT:
            _address_budget.popitem(last=False)
    budget[0] = min(burst, budget[0] + (now - budget[1]) * rate)
    budget[1] = now
    return budget, rate, burst


def address_over(address: str | None, cost: float = 1.0) -> bool:
    """A token bucket per client address, shared by its connections to this process:
    LIVE_MESSAGES_PER_ADDRESS a second with a burst of LIVE_ADDRESS_BURST, each message
    costing one. A school behind one address sends a few messages a minute per page; one
    address opening every socket nginx allows and sending each one's own limit is held to
    this instead."""
    if not address or float(services.live_setting("MESSAGES_PER_ADDRESS")) <= 0:
        return False
    budget, _rate, _burst = _address_allowance(address)
    if budget[0] < cost:
        return True
    budget[0] -= cost
    return False


def address_charge(address: str | None, cost: float = 1.0) -> float:
    """Charge ``cost`` to the address's budget whatever is left — into debt, down to
    LIVE_ADDRESS_MAX_PAUSE seconds of its rate — and return what is left (below zero: the
    address is over its budget for ``-left / rate`` seconds). Every frame Daphne parses
    costs the same whether it is answered or dropped (``config/daphne_limits.py``)."""
    if not address or float(services.live_setting("MESSAGES_PER_ADDRESS")) <= 0:
        return float("inf")
    budget, rate, _burst = _address_allowance(address)
    floor = -rate * float(services.live_setting("ADDRESS_MAX_PAUSE"))
    budget[0] = max(floor, budget[0] - cost)
    return budget[0]


def address_connect_wait(address: str | None) -> tuple[float, bool]:
    """How long a new connection of ``address`` waits before it is served, in seconds, and
    whether it is served then (else it is closed with 4429 after waiting
    LIVE_ADDRESS_CONNECT_WAIT: a refused client that reconnects at once is held, not
    answered at once). A connect costs LIVE_ADDRESS_CONNECT_COST messages of the address's
    budget — it reads the room and builds its state, and the page then asks for its events
    — and takes them in advance: the budget goes below zero, so the address's reads are
    dropped and its next connects wait until it has refilled. A burst of connects from one
    address is spread out."""
    if not address or float(services.live_setting("MESSAGES_PER_ADDRESS")) <= 0:
        return 0.0, True
    cost = float(services.live_setting("ADDRESS_CONNECT_COST"))
    most = float(services.live_setting("ADDRESS_CONNECT_WAIT"))
    budget, rate, _burst = _address_allowance(address)
    wait = max(0.0, (cost - budget[0]) / rate)
    if wait > most:
        return most, False
    budget[0] -= cost
    return wait, True


# --- the messages that change a room: a service each, run in a thread ---------------------------


def _move(room: Room, user, content: dict[str, Any]) -> None:
    services.move_play(
        room_id=room.pk,
        by=user,
        move_number=content.get("move_number"),
        choice=content.get("move"),
    )


def _take(room: Room, user, content: dict[str, Any]) -> None:
    services.seat_take(room=room, by=user, colour=content.get("colour"))
    services.seat_connected(room_id=room.pk, by=user)


def _leave(room: Room, user, content: dict[str, Any]) -> None:
    services.seat_leave(room=room, by=user)


def _start(room: Room, user, content: dict[str, Any]) -> None:
    services.room_start(room=room, by=user)


#: the messages that change a room: ``type`` → its service (refused, not dropped, over an
#: address's budget)
CHANGES = {"move": _move, "take": _take, "leave": _leave, "start": _start}


def _type_of(content: Any) -> str | None:
    """A message's ``type`` (None for anything but a JSON object with a text type)."""
    kind = content.get("type") if isinstance(content, dict) else None
    return kind if isinstance(kind, str) else None


#: what ``RoomConsumer._content`` returns for a frame it answered itself
_HANDLED = object()

#: releases under way (a task must be referenced until it is done)
_releasing: set[asyncio.Task] = set()


class RoomConsumer(AsyncJsonWebsocketConsumer):
    """One connection to one room: a seated player or a spectator."""

    room_id: int | None = None
    heartbeat: asyncio.Task | None = None
    ended = False  # closed by this server (a limit): further frames are not handled
    released = False
    events_sent = 0  # the events before this number were sent in answers to `events`
    sent_state: str | None = None  # the state text this connection was sent last

    async def __call__(self, scope, receive, send) -> None:
        """The connection's whole life: whatever ends it (a close, an exception in a
        handler, the server cancelling it), its heartbeat stops and its seats are let go."""
        try:
            await super().__call__(scope, receive, send)
        except Exception as exc:
            if not expected(exc):
                raise
            # Redis away before the connection was set up (the channel layer's own
            # subscription): one line, and the page is told to come back
            log_failure(log, exc, "live: a connection could not be set up")
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
        finally:
            await self._let_go()

    async def connect(self) -> None:
        remember_server_loop()
        self.language = connection_language(self.scope)
        self.token = self.scope["url_route"]["kwargs"]["token"]
        self.user = self.scope.get("user")
        self.limits = services.live_setting
        self.allowance = float(self.limits("MESSAGE_BURST"))
        self.checked_at = time.monotonic()
        client = self.scope.get("client")  # the real address behind nginx (--proxy-headers)
        self.address = client[0] if client else None
        wait, served = address_connect_wait(self.address)
        if wait:
            await asyncio.sleep(wait)
        if not served:  # the address's budget is spent for longer than a connect waits
            self.ended = True
            await self.close(code=CLOSE_TOO_MANY)
            return
        found = await database_sync_to_async(_connect)(self.token, self.user)
        if found is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        room, state = found
        self.room_id = room.pk
        self.group = room.group
        if getattr(self.user, "is_authenticated", False):
            self.heartbeat = asyncio.ensure_future(self._beat())
        try:
            await self.channel_layer.group_add(self.group, self.channel_name)
        except Exception as exc:  # Redis away: the page reconnects (its seats are let go)
            log_failure(log, exc, "live: a connection to room %s could not subscribe", self.room_id)
            self.ended = True
            await self.close(code=CLOSE_UNAVAILABLE)
            return
        # subscribed: what changes from now on reaches this connection as a broadcast; what
        # changed since the room was read is caught here
        state = await database_sync_to_async(_still_current)(
            self.room_id, state, (room.move_number, room.seats_version)
        )
        await self.accept()
        if not isinstance(state, str):
            state = remember_state(self.room_id, state)
        await self._send_state(state)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """As channels' own, without its thread hop per message to close the thread's old
        database connections: every broadcast to every spectator paid it. This consumer's
        database work runs in ``database_sync_to_async``, which does that itself."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        """As channels' own (this consumer has no ``groups``), without its thread hop."""
        await self.disconnect(message["code"])
        raise StopConsumer()

    async def _beat(self) -> None:
        """Mark this user's seats alive every LIVE_HEARTBEAT_SECONDS while connected."""
        every = float(self.limits("HEARTBEAT_SECONDS"))
        while True:
            await asyncio.sleep(every)
            try:
                await database_sync_to_async(services.seat_heartbeat)(
                    room_id=self.room_id, by=self.user
                )
            except Exception as exc:  # the database is away: the next beat tries again
                log_failure(log, exc, "live: heartbeat of room %s failed", self.room_id)

    async def disconnect(self, code: int) -> None:
        await self._let_go()

    async def _let_go(self) -> None:
        """Once per connection: the heartbeat stops, the group is left and a signed-in
        user's seats are released. Runs to its end even when the server cancels the
        connection meanwhile (it is a task of its own)."""
        if self.released:
            return
        self.released = True
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        if self.room_id is None:
            return
        task = asyncio.ensure_future(self._release())
        _releasing.add(task)
        task.add_done_callback(_releasing.discard)
        # cancelled again while it runs: the release goes on by itself
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.shield(task)

    async def _release(self) -> None:
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except Exception as exc:
            log_failure(log, exc, "live: leaving the group of room %s failed", self.room_id)
        if not getattr(self.user, "is_authenticated", False):
            return  # a spectator without an account holds no seat
        try:
            await database_sync_to_async(services.seat_disconnected)(
                room_id=self.room_id, by=self.user
            )
        except Exception as exc:  # the database away: the sweep hands the seats over
            log_failure(log, exc, "live: releasing the seats in room %s failed", self.room_id)

    async def _end(self, code: int) -> None:
        """Close the connection for a limit; nothing it sent afterwards is handled."""
        self.ended = True
        await self.close(code=code)

    def _over_rate(self) -> bool:
        """A token bucket: LIVE_MESSAGES_PER_SECOND, at most LIVE_MESSAGE_BURST at once."""
        now = time.monotonic()
        rate, burst = float(self.limits("MESSAGES_PER_SECOND")), float(self.limits("MESSAGE_BURST"))
        self.allowance = min(burst, self.allowance + (now - self.checked_at) * rate)
        self.checked_at = now
        if self.allowance < 1:
            return True
        self.allowance -= 1
        return False

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kw):
        """Every frame: counted, its size and nesting checked before it is parsed; then
        handled. Nothing a client sends makes this raise."""
        if self.room_id is None or self.ended:
            return
        content = await self._content(text_data, bytes_data)
        if content is _HANDLED:
            return
        if not ADDRESS_COUNTED_BY_SERVER and address_over(self.address):
            # the address's budget is spent: a read is dropped, a change refused
            if _type_of(content) in CHANGES:
                await self._refuse(
                    _n("too many messages from your network just now; try again"), content
                )
            return
        try:
            await self.receive_json(content)
        except Exception as exc:  # a bug or an outage (database, broker): refused, line kept
            log_failure(log, exc, "live: a message to room %s failed", self.room_id)
            await self._refuse(_n("the server could not carry that out; try again"), content)

    async def _content(self, text_data: str | None, bytes_data: bytes | None) -> Any:
        """The frame's JSON, its rate, size and nesting checked before it is parsed;
        ``_HANDLED`` when the frame was refused or closed the connection instead."""
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        close = self._frame_over(text_data, size)
        if close is not None:
            await self._end(close)
            return _HANDLED
        if text_data is None:
            await self._refuse(_n("a message is a JSON text frame"))
            return _HANDLED
        try:
            return await self.decode_json(text_data)
        except (ValueError, RecursionError):
            await self._refuse(_n("a message is a JSON object with a type"))
            return _HANDLED

    def _frame_over(self, text_data: str | None, size: int) -> int | None:
        """The close code of a frame over this connection's rate, the frame size or the
        nesting depth; None for a frame within them."""
        if self._over_rate():
            return CLOSE_TOO_MANY
        if size > self.limits("MAX_FRAME_BYTES"):
            return CLOSE_TOO_LARGE
        if text_data is not None and json_depth_over(text_data, self.limits("MAX_JSON_DEPTH")):
            return CLOSE_TOO_DEEP
        return None

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """A message: a read (``READS``: answered here, from what this process keeps) or a
        change of this room (``CHANGES``: a service, in a thread)."""
        if not isinstance(content, dict):
            await self._refuse(_n("a message is a JSON object with a type"))
            return
        read = self.READS.get(_type_of(content))
        if read is not None:
            await read(self, content)
            return
        if content.get("room") != self.token:
            await self._refuse(_n("that message is for another room"), content)
            return
        try:
            await database_sync_to_async(self._handle)(content)
        except ServiceError as exc:  # live play's Refused and the services' own refusals
            await self._refuse(exc, content)

    def _handle(self, content: dict[str, Any]) -> None:
        room = Room.objects.get(pk=self.room_id)
        change = CHANGES.get(_type_of(content))
        if change is None:
            kind = content.get("type")
            raise services.Refused(_n("unknown message type %(kind)s"), kind=repr(str(kind)[:40]))
        change(room, self.user, content)

    async def _ping(self, content: dict[str, Any]) -> None:
        at = content.get("at")
        await self.send_json({"type": "pong", "at": at if isinstance(at, int | float) else None})

    async def _state(self, content: dict[str, Any]) -> None:
        """The position and its version, from the room's latest state."""
        text = await latest_state_text(self.room_id)
        if same_state(self.sent_state, text):
            # what this connection was sent last: a tiny answer, not the state again
            await self.send(text_data=self._unchanged(text))
        else:
            await self._send_state(text)

    async def _events_asked(self, content: dict[str, Any]) -> None:
        await self._events(content.get("since"))

    #: the messages that read: ``type`` → handler
    READS = {"ping": _ping, "state": _state, "events": _events_asked}

    async def _refuse(self, reason: str | ServiceError, content: Any = None) -> None:
        """Answer with a refusal in the connection's language (``reason``: a service's
        refusal, or one of the consumer's own texts, marked for translation)."""
        with translation.override(self.language):
            text = reason.localized() if isinstance(reason, ServiceError) else gettext(reason)
        answer: dict[str, Any] = {"type": "refused", "error": text}
        if isinstance(content, dict) and "move_number" in content:
            number = content.get("move_number")
            answer["move_number"] = number if isinstance(number, int) else None
        await self.send_json(answer)

    def _unchanged(self, text: str) -> str:
        """The answer to a ``state`` request when the state is the one this connection was
        sent last: its version only (about 60 bytes instead of the whole state)."""
        kept = _latest.get(self.room_id)
        if kept is not None and kept[3] is text:
            number, seats = kept[1]
        else:
            number, seats = _version(json.loads(text))
        return f'{{"type": "unchanged", "move_number": {number}, "seats_version": {seats}}}'

    async def _events(self, since: Any) -> None:
        """The events from ``since`` on (at most LIVE_EVENTS_PER_MESSAGE; ``more`` says
        whether to ask again), each with who moved. An answer starts where this
        connection's last answer ended, at the earliest: a page keeps every event it was
        answered, so it never needs one twice, and asking again costs nothing."""
        if isinstance(since, bool) or not isinstance(since, int) or since < 0:
            await self._refuse(_n("say from which event on (since: a number)"))
            return
        since = max(since, self.events_sent)
        limit = int(self.limits("EVENTS_PER_MESSAGE"))
        events = await events_texts(self.room_id, since, limit)
        self.events_sent = since + len(events)
        more = "true" if len(events) == limit else "false"
        await self.send(
            text_data=f'{{"type": "events", "since": {since}, "events": [{", ".join(events)}], '
            f'"more": {more}}}'
        )

    async def _send_state(self, text: str) -> None:
        self.sent_state = text
        await self.send(text_data=text)

    async def room_state(self, event: dict[str, Any]) -> None:
        if self.ended:
            return
        await self._send_state(remember_state(self.room_id, event["state"]))
