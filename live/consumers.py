"""The WebSocket consumer of a room: thin — it joins the room's group, sends the whole state
on connect, hands every request to a service and relays the room's broadcasts."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from live import services
from live.models import Room
from live.signals import remember_server_loop
from tournaments.services.errors import ServiceError


def _state(room_id: int) -> dict[str, Any]:
    """The whole state and the whole log so far, with who moved (a reconnecting page
    resumes exactly and still says "time ran out")."""
    room = Room.objects.get(pk=room_id)
    state = services.room_state(room)
    state["events"] = services.room_events_with_movers(room)
    return state


class RoomConsumer(AsyncJsonWebsocketConsumer):
    """One connection to one room: a seated player or a spectator."""

    room_id: int | None = None

    async def connect(self) -> None:
        remember_server_loop()
        self.token = self.scope["url_route"]["kwargs"]["token"]
        self.user = self.scope.get("user")
        room = await database_sync_to_async(services.room_visible)(self.token, self.user)
        if room is None:
            await self.close(code=4404)
            return
        self.room_id = room.pk
        self.group = room.group
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await database_sync_to_async(services.seat_connected)(room_id=room.pk, user=self.user)
        await database_sync_to_async(services.room_resume)(room_id=room.pk)
        await self.send_json(await database_sync_to_async(_state)(room.pk))

    async def disconnect(self, code: int) -> None:
        if self.room_id is None:
            return
        await self.channel_layer.group_discard(self.group, self.channel_name)
        await database_sync_to_async(services.seat_disconnected)(
            room_id=self.room_id, user=self.user
        )

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None, **kw):
        """A frame that is not JSON text is refused like any other bad message."""
        if text_data is None:
            await self._refuse("a message is a JSON text frame")
            return
        try:
            content = await self.decode_json(text_data)
        except ValueError:
            await self._refuse("a message is a JSON object with a type")
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self._refuse("a message is a JSON object with a type")
            return
        kind = content.get("type")
        if kind == "ping":
            await self.send_json({"type": "pong", "at": content.get("at")})
            return
        if kind == "state":
            await self.send_json(await database_sync_to_async(_state)(self.room_id))
            return
        if content.get("room") != self.token:
            await self._refuse("that message is for another room", content)
            return
        try:
            await database_sync_to_async(self._handle)(kind, content)
        except ServiceError as exc:  # live play's Refused and the services' own refusals
            await self._refuse(exc.message, content)

    def _handle(self, kind: str, content: dict[str, Any]) -> None:
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
            raise services.Refused(f"unknown message type {kind!r}")

    async def _refuse(self, message: str, content: Any = None) -> None:
        answer = {"type": "refused", "error": message}
        if isinstance(content, dict) and "move_number" in content:
            answer["move_number"] = content.get("move_number")
        await self.send_json(answer)

    async def room_state(self, event: dict[str, Any]) -> None:
        await self.send_json(event["state"])
