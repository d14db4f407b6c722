"""Rooms, their seats and their event log: the truth of a game played on the platform."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_token() -> str:
    return secrets.token_urlsafe(9)


def new_dice_seed() -> bytes:
    """A room's secret dice seed (games/engine/dice.py): 32 bytes from the operating
    system's randomness."""
    return secrets.token_bytes(32)


def online_rules() -> str:
    return "online"


class Room(models.Model):
    """A game played live. ``move_number`` is the number of events applied so far; every
    event is claimed with a conditional update on it (``UPDATE … WHERE move_number = n``),
    so two processes, or a late timer, can never apply one turn twice. ``die`` is the roll
    the server made for the colour on turn (answered by event number ``move_number``):
    roll i is ``games.engine.dice.die(dice_seed, i)``, the stream of the room's secret
    ``dice_seed``, whose SHA-256 the room publishes from the start and whose value only
    the finished room's log reveals (docs/live.md, "Provably fair dice").
    ``seats_version`` changes with every change of who plays a seat (taken, left, handed to
    the computer); the claim also checks it (``AND seats_version = v``), so a move decided
    on seats that have changed since it read them is never applied."""

    class Mode(models.TextChoices):
        ONLINE = "online", "online (turn timer)"
        COMPUTER = "computer", "against the computer"
        TABLE = "table", "around the table (one device)"

    class Status(models.TextChoices):
        WAITING = "waiting", "waiting for players"
        PLAYING = "playing", "playing"
        FINISHED = "finished", "finished"
        ABANDONED = "abandoned", "abandoned"

    token = models.CharField(max_length=20, unique=True, default=new_token)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    host_address = models.CharField(
        max_length=64, blank=True, help_text="the client address that opened the room (limits)"
    )
    board = models.PositiveSmallIntegerField(default=4)
    rules = models.JSONField(default=online_rules, help_text="a preset name or rules object")
    variant = models.CharField(max_length=20, blank=True, help_text="games/engine/variants.py")
    mode = models.CharField(max_length=10, choices=Mode.choices, default=Mode.ONLINE)
    turn_seconds = models.PositiveSmallIntegerField(null=True, blank=True)
    is_public = models.BooleanField(default=True)
    fixture = models.ForeignKey(
        "tournaments.Fixture",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="live_rooms",
    )
    colours = models.JSONField(default=list, help_text="the board's colour names")
    players = models.JSONField(default=dict, help_text="the log's players (league rooms)")
    first = models.CharField(max_length=20)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    move_number = models.PositiveIntegerField(default=0)
    seats_version = models.PositiveIntegerField(
        default=0,
        help_text="bumped by every change of who plays a seat; the claim checks it",
    )
    die = models.PositiveSmallIntegerField(null=True, blank=True)
    dice_seed = models.BinaryField(
        max_length=32,
        null=True,
        default=new_dice_seed,
        editable=False,
        help_text="secret until the game is over: every roll is derived from it "
        "(empty: a room opened before provably fair dice, rolled from `secrets`)",
    )
    turn_deadline = models.DateTimeField(null=True, blank=True)
    rolled_at = models.DateTimeField(
        null=True, blank=True, help_text="when the die on turn was rolled (the sweep's clock)"
    )
    timer_owner = models.CharField(
        max_length=100,
        blank=True,
        default="",
        help_text="the timer owner (a server, `TimerOwner`) whose timer holds the next step; "
        "empty: none (a live owner adopts the room)",
    )
    snapshot = models.JSONField(
        null=True,
        blank=True,
        help_text="the game after `move_number` events (engine snapshot) and the last `t`",
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    winner = models.CharField(max_length=100, blank=True)
    end_reason = models.CharField(max_length=60, blank=True)
    game_log = models.ForeignKey(
        "games.GameLog", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    result_note = models.TextField(blank=True, help_text="what the results service answered")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["is_public", "status"])]

    def __str__(self) -> str:
        return f"room {self.token} ({self.status})"

    @property
    def group(self) -> str:
        """The channel-layer group of everyone watching this room."""
        return f"room.{self.pk}"


class Seat(models.Model):
    """One colour at a room's board: a person (``user``, or a name around the table) or the
    computer (``strength``). ``original`` is who sat here first (or was reserved by a
    league game): they may take the seat back while the computer holds it."""

    class Kind(models.TextChoices):
        HUMAN = "human", "person"
        COMPUTER = "computer", "computer"

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    colour = models.CharField(max_length=20)
    index = models.PositiveSmallIntegerField(help_text="seat on the board, clockwise")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.COMPUTER)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    name = models.CharField(max_length=100, blank=True, help_text="around the table")
    strength = models.CharField(max_length=20, default="heuristic")
    original = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reserved = models.BooleanField(default=False, help_text="only `original` may take it")
    connections = models.IntegerField(default=0)
    disconnected_at = models.DateTimeField(null=True, blank=True)
    seen_at = models.DateTimeField(
        null=True, blank=True, help_text="the last heartbeat of a connection of this seat's user"
    )

    class Meta:
        ordering = ["room", "index"]
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="live_seat_unique_index"),
        ]

    def __str__(self) -> str:
        return f"{self.colour} in {self.room_id}"


class RoomEvent(models.Model):
    """Event number ``number`` of a room's ``maedn-log/1`` log, exactly as written (with
    ``t``). Unique per room and number: a second write of one turn fails."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()
    data = models.JSONField()
    by = models.CharField(max_length=12, help_text="player, computer, auto, timeout")

    class Meta:
        ordering = ["room", "number"]
        constraints = [
            models.UniqueConstraint(fields=["room", "number"], name="live_event_unique_number"),
        ]

    def __str__(self) -> str:
        return f"event {self.number} of room {self.room_id}"


class TimerOwner(models.Model):
    """A process whose timer runs rooms' steps (an ASGI server with ``LIVE_STEPS=process``
    and a broker) and its lease: it renews ``until`` every LIVE_OWNER_SECONDS to now +
    LIVE_SWEEP_AFTER, and its database session holds its advisory lock. A room whose
    ``timer_owner`` is not alive (no lease, or no session holding its lock: the process
    died) is adopted by a live owner (docs/live.md, "Issue 33, item 4")."""

    name = models.CharField(max_length=100, primary_key=True)
    until = models.DateTimeField(help_text="the lease: alive until then unless renewed")

    def __str__(self) -> str:
        return f"timer owner {self.name} until {self.until:%H:%M:%S}"
