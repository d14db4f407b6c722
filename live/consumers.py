"""The WebSocket consumer of a room: thin — it joins the room's group, sends the whole state
on connect, hands every request to a service and relays the room's broadcasts.

Bounded per connection (docs/live.md, "Limits per connection"): a frame larger than
LIVE_MAX_FRAME_BYTES, JSON nested deeper than LIVE_MAX_JSON_DEPTH, or more messages than
LIVE_MESSAGES_PER_SECOND (with a burst of LIVE_MESSAGE_BURST) closes the connection with
its own close code. Bad input never kills ``receive()``: anything a service or the server
cannot carry out is answered with a refusal, and the connection stays. While a seated
player's connection is open, its server marks their seats alive every heartbeat.
"""

from __future__ import annotations

import asyncio
import logging
import time
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

from live import services
from live.models import Room
from live.signals import remember_server_loop
from tournaments.services.errors import ServiceError

log = logging.getLogger(__name__)

#: close codes (4000–4999 are the application's; chosen to read like HTTP statuses)
CLOSE_NOT_FOUND = 4404  # no such room, or not one this visitor may see
CLOSE_TOO_LARGE = 4413  # a frame over LIVE_MAX_FRAME_BYTES
CLOSE_TOO_DEEP = 4400  # JSON nested deeper than LIVE_MAX_JSON_DEPTH
CLOSE_TOO_MANY = 4429  # more messages than LIVE_MESSAGES_PER_SECOND allows


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


def _state(room: Room) -> dict[str, Any]:
    """The whole state and the whole log so far, with who moved (a reconnecting page
    resumes exactly and still says "time ran out")."""
    state = services.room_state(room)
    state["events"] = services.room_events_with_movers(room)
    return state


def _state_of(room_id: int) -> dict[str, Any]:
    return _state(Room.objects.get(pk=room_id))


def _connect(token: str, user) -> tuple[Room, dict[str, Any]] | None:
    """What a connect costs: the room read once, the user's seats marked connected (one
    UPDATE, for a signed-in user only), the state and log read. Nothing is scheduled."""
    room = services.room_visible(token, user)
    if room is None:
        return None
    services.seat_connected(room_id=room.pk, user=user)
    return room, _state(room)


class RoomConsumer(AsyncJsonWebsocketConsumer):
    """One connection to one room: a seated player or a spectator."""

    room_id: int | None = None
    heartbeat: asyncio.Task | None = None

    async def connect(self) -> None:
        remember_server_loop()
        self.language = connection_language(self.scope)
        self.token = self.scope["url_route"]["kwargs"]["token"]
        self.user = self.scope.get("user")
        self.limits = services.live_setting
        self.allowance = float(self.limits("MESSAGE_BURST"))
        self.checked_at = time.monotonic()
        found = await database_sync_to_async(_connect)(self.token, self.user)
        if found is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        room, state = found
        self.room_id = room.pk
        self.group = room.group
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_json(state)
        if getattr(self.user, "is_authenticated", False):
            self.heartbeat = asyncio.ensure_future(self._beat())

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
                    room_id=self.room_id, user=self.user
                )
            except Exception:  # the database is away: the next beat tries again
                log.warning("live: heartbeat of room %s failed", self.room_id, exc_info=True)

    async def disconnect(self, code: int) -> None:
        if self.heartbeat is not None:
            self.heartbeat.cancel()
        if self.room_id is None:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if not getattr(self.user, "is_authenticated", False):
            return  # a spectator without an account holds no seat
        await database_sync_to_async(services.seat_disconnected)(
            room_id=self.room_id, user=self.user
        )

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
        if self.room_id is None:
            return
        if self._over_rate():
            await self.close(code=CLOSE_TOO_MANY)
            return
        size = len(text_data.encode()) if text_data is not None else len(bytes_data or b"")
        if size > self.limits("MAX_FRAME_BYTES"):
            await self.close(code=CLOSE_TOO_LARGE)
            return
        if text_data is None:
            await self._refuse(_n("a message is a JSON text frame"))
            return
        if json_depth_over(text_data, self.limits("MAX_JSON_DEPTH")):
            await self.close(code=CLOSE_TOO_DEEP)
            return
        try:
            content = await self.decode_json(text_data)
        except (ValueError, RecursionError):
            await self._refuse(_n("a message is a JSON object with a type"))
            return
        try:
            await self.receive_json(content)
        except Exception:  # a bug or an outage (database, broker): refused, connection kept
            log.exception("live: a message to room %s failed", self.room_id)
            await self._refuse(_n("the server could not carry that out; try again"), content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self._refuse(_n("a message is a JSON object with a type"))
            return
        kind = content.get("type")
        if kind == "ping":
            at = content.get("at")
            await self.send_json(
                {"type": "pong", "at": at if isinstance(at, int | float) else None}
            )
            return
        if kind == "state":
            await self.send_json(await database_sync_to_async(_state_of)(self.room_id))
            return
        if content.get("room") != self.token:
            await self._refuse(_n("that message is for another room"), content)
            return
        try:
            await database_sync_to_async(self._handle)(kind, content)
        except ServiceError as exc:  # live play's Refused and the services' own refusals
            await self._refuse(exc, content)

    def _handle(self, kind: Any, content: dict[str, Any]) -> None:
        room = Room.objects.get(pk=self.room_id)
        if kind == "move":
            services.move_play(
                room_id=self.room_id,
                user=self.user,
                move_number=content.get("move_number"),
                choice=content.get("move"),
            )
        elif kind == "take":
            services.seat_take(room=room, user=self.user, colour=content.get("colour"))
            services.seat_connected(room_id=self.room_id, user=self.user)
        elif kind == "leave":
            services.seat_leave(room=room, user=self.user)
        elif kind == "start":
            services.room_start(room=room, user=self.user)
        else:
            raise services.Refused(_n("unknown message type %(kind)s"), kind=repr(str(kind)[:40]))

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

    async def room_state(self, event: dict[str, Any]) -> None:
        await self.send_json(event["state"])
