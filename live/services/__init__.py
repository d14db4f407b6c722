"""Every write of live play, and the reads the pages and the consumer share, split the way
lichess splits a round — one concept a module:

- ``state``: the room's seats, rules and engine game after the events so far; ``Refused``
- ``json_view``: the state message everyone receives and the room's ``maedn-log/1`` log
- ``timers``: broadcasts after a commit, the next step scheduled (computer, pause, timer)
- ``rooms``: opening a room (casual or a league game's) and starting it
- ``seats``: taking, leaving and taking back seats; connections and the grace period
- ``moves``: a player's move, the server's step and ``apply`` (the claim on the move number)
- ``sweep``: rooms whose step was lost move again
- ``finish``: the log stored or counted, a league game's no-show

The server is the only authority. It rolls the die (``secrets``) for the colour on turn
when the previous event is applied, and applies a move only if the engine lists it among
the legal moves for that roll. Each event is claimed with a conditional update on the
room's ``move_number`` (``UPDATE … WHERE move_number = n``) in the same transaction that
writes the event row (unique per room and number): two server processes, a late or a
duplicated timer can never apply one turn twice.
"""

from live.services.finish import fixture_no_show, room_finish
from live.services.json_view import (
    LOG_FORMAT,
    room_dice_check,
    room_event_texts_since,
    room_events_since,
    room_events_with_movers,
    room_log,
    room_log_text,
    room_state,
    seat_name,
)
from live.services.moves import move_play, room_step
from live.services.rooms import fixture_room_create, room_create, room_start
from live.services.seats import (
    seat_connected,
    seat_disconnected,
    seat_grace_expire,
    seat_heartbeat,
    seat_leave,
    seat_take,
)
from live.services.state import (
    Refused,
    live_setting,
    room_game,
    room_rules,
    room_seats,
    room_visible,
)
from live.services.sweep import rooms_sweep, seats_sweep

__all__ = [
    "LOG_FORMAT",
    "Refused",
    "fixture_no_show",
    "fixture_room_create",
    "live_setting",
    "move_play",
    "room_create",
    "room_dice_check",
    "room_event_texts_since",
    "room_events_since",
    "room_events_with_movers",
    "room_finish",
    "room_game",
    "room_log",
    "room_log_text",
    "room_rules",
    "room_seats",
    "room_start",
    "room_state",
    "room_step",
    "room_visible",
    "rooms_sweep",
    "seat_connected",
    "seat_disconnected",
    "seat_grace_expire",
    "seat_heartbeat",
    "seat_leave",
    "seat_name",
    "seat_take",
    "seats_sweep",
]
