"""Turning a game log into what the replay viewer and the statistics need.

* :func:`board_layout` — where every field of board 4 or 6 is drawn (SVG coordinates):
  the track by absolute field, and per seat its yard, start field A and house. Board 4
  is the classic cross on an 11 × 11 grid; board 6 a ring of 48 fields with six houses
  pointing to the centre.
* :func:`replay_data` — the engine's :func:`~games.engine.validate.replay` steps as one
  JSON-ready dict: per event the colour, die, try, move, capture, huff, the pawns that
  changed and a sentence saying what happened (in the active language).
* :func:`log_stats` — per colour: rolls, sixes, captures made and suffered, huffs.

The engine does the rules; this module only reads its steps. Results are cached by the
log's SHA-256 (logs are immutable), so a busy game page replays a log once.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language, gettext, pgettext

from games.engine import Game, get_board, read_log, track_field
from games.engine import replay as engine_replay
from games.engine.board import DEFAULT_COLOURS, HOUSE_LETTERS

YARD = -1
CACHE_SECONDS = 60 * 60 * 24

#: A shape per seat, so pawns differ by more than their colour (colour-blind safe).
SHAPES = ("circle", "square", "triangle", "diamond", "pentagon", "hexagon")
#: A letter per default colour (black is K, as in CMYK, so it differs from blue).
SYMBOLS = {"red": "R", "black": "K", "yellow": "Y", "green": "G", "blue": "B", "white": "W"}


def shape_path(shape: str, r: float) -> str:
    """SVG path of a pawn shape of radius ``r`` centred on (0, 0)."""
    if shape == "circle":
        return f"M{-r:g} 0A{r:g} {r:g} 0 1 0 {r:g} 0A{r:g} {r:g} 0 1 0 {-r:g} 0Z"
    if shape == "square":
        a = round(r * 0.82, 2)
        return f"M{-a:g} {-a:g}H{a:g}V{a:g}H{-a:g}Z"
    corners = {"triangle": 3, "diamond": 4, "pentagon": 5, "hexagon": 6}[shape]
    scale = {"triangle": 1.15, "diamond": 1.1, "pentagon": 1.02, "hexagon": 1.0}[shape]
    points = []
    for k in range(corners):
        angle = -math.pi / 2 + 2 * math.pi * k / corners
        points.append(
            f"{round(r * scale * math.cos(angle), 2):g} {round(r * scale * math.sin(angle), 2):g}"
        )
    return "M" + "L".join(points) + "Z"


def colour_label(name: str) -> str:
    """The default colour names in the active language (other names as they are)."""
    labels = {
        "red": pgettext("colour", "red"),
        "black": pgettext("colour", "black"),
        "yellow": pgettext("colour", "yellow"),
        "green": pgettext("colour", "green"),
        "blue": pgettext("colour", "blue"),
        "white": pgettext("colour", "white"),
    }
    return labels.get(name, name)


# --- geometry ---------------------------------------------------------------------------------

CELL = 40  # board 4: one grid cell
# Seat 0's part of the board-4 cross (grid column, row); the other seats are the same turned
# by 90° clockwise around the centre cell (5, 5).
_CROSS_TRACK = ((0, 4), (1, 4), (2, 4), (3, 4), (4, 4), (4, 3), (4, 2), (4, 1), (4, 0), (5, 0))
_CROSS_HOUSE = ((1, 5), (2, 5), (3, 5), (4, 5))
_CROSS_YARD = ((0, 0), (1, 0), (0, 1), (1, 1))


def _turn(point: tuple[float, float], quarter_turns: int) -> tuple[float, float]:
    x, y = point[0] - 5, point[1] - 5
    for _ in range(quarter_turns % 4):
        x, y = -y, x
    return x + 5, y + 5


def _cell(point: tuple[float, float]) -> list[float]:
    return [round(CELL + CELL * point[0], 1), round(CELL + CELL * point[1], 1)]


def _cross_layout() -> dict[str, Any]:
    track: list[list[float]] = []
    seats = []
    for s in range(4):
        track.extend(_cell(_turn(p, s)) for p in _CROSS_TRACK)
        yard = [_turn(p, s) for p in _CROSS_YARD]
        x = sum(p[0] for p in yard) / 4
        y = sum(p[1] for p in yard) / 4
        label = (x, y + 1.65) if y < 5 else (x, y - 1.65)  # below a top yard, above a bottom one
        seats.append(
            {
                "house": [_cell(_turn(p, s)) for p in _CROSS_HOUSE],
                "yard": [_cell(p) for p in yard],
                "label": _cell(label),
            }
        )
    return {
        "size": 4,
        "x0": 0,
        "y0": 0,
        "width": 12 * CELL,
        "height": 12 * CELL,
        "r": 15,
        "track": track,
        "seats": seats,
    }


def _ring_layout() -> dict[str, Any]:
    centre, radius, step = 320.0, 232.0, 360 / 48
    first = 187.5  # seat 0's field A a little above the left end of the horizontal axis

    def at(angle: float, r: float) -> list[float]:
        a = math.radians(angle)
        return [round(centre + r * math.cos(a), 1), round(centre + r * math.sin(a), 1)]

    track = [at(first + a * step, radius) for a in range(48)]
    seats = []
    for s in range(6):
        start = first + 8 * s * step
        entry = start - step  # the field before A leads into the house
        yard_centre = at(start + 2.2 * step, radius + 52)
        yard = [
            [round(yard_centre[0] + dx, 1), round(yard_centre[1] + dy, 1)]
            for dx, dy in ((-13, -13), (13, -13), (-13, 13), (13, 13))
        ]
        seats.append(
            {
                "house": [at(entry, radius - 34 * k) for k in range(1, 5)],
                "yard": yard,
                "label": at(start + 5.6 * step, radius + 54),
            }
        )
    # wider than the ring: the names beside the yards on the left and right stay visible
    return {
        "size": 6,
        "x0": -90,
        "y0": 0,
        "width": 820,
        "height": 640,
        "r": 11.5,
        "track": track,
        "seats": seats,
    }


def board_layout(size: int) -> dict[str, Any]:
    """SVG coordinates of board ``size``: ``track[field]``, and per seat ``yard`` (4 spots),
    ``house`` (fields a–d), ``start`` (its field A), ``spots`` (relative position →
    point, 0 … T+3) and ``label`` (where its name goes)."""
    board = get_board(size)
    layout = _cross_layout() if board.size == 4 else _ring_layout()
    colours = DEFAULT_COLOURS[board.size]
    for s, seat in enumerate(layout["seats"]):
        track = [layout["track"][track_field(board, s, p)] for p in range(board.track_length)]
        seat["spots"] = track + seat["house"]
        seat["start"] = track[0]
        seat["seat"] = s
        seat["css"] = colours[s]
        seat["shape"] = SHAPES[s]
        seat["symbol"] = SYMBOLS[colours[s]]
        seat["path"] = shape_path(SHAPES[s], layout["r"] * 0.78)
    return layout


# --- words --------------------------------------------------------------------------------------


def position_words(pos: int | str, track_length: int) -> str:
    """A relative position in words: the yard, field A, field 17, house field b."""
    if pos == "B" or (isinstance(pos, int) and pos < 0):
        return gettext("the yard")
    if pos == 0:
        return gettext("field A")
    if pos >= track_length:
        return gettext("house field %(letter)s") % {"letter": HOUSE_LETTERS[pos - track_length]}
    return gettext("field %(number)s") % {"number": pos}


# --- replay -------------------------------------------------------------------------------------


def _pos(value: int | str) -> int:
    return YARD if value == "B" else int(value)


def _tries(tries_left: int, colour: str, last: tuple[str, int] | None) -> tuple[int, int]:
    """(try, of) of a roll made with ``tries_left`` rolls left in its roll opportunity.

    A stuck colour has three tries (rules.md §4): 3 left → try 1, 2 left → try 2, and 1
    left right after the same colour's try 2 → try 3. ``last`` is (colour, try) of the
    previous roll when it was a failed try of three, else None.
    """
    if tries_left >= 3:
        return 1, 3
    if tries_left == 2:
        return 2, 3
    if last == (colour, 2):
        return 3, 3
    return 1, 1


def _build(text: str) -> dict[str, Any]:
    setup, _events = read_log(text)
    board = setup.board
    T = board.track_length
    names = setup.colours
    seat_of = {name: s for s, name in enumerate(names)}
    game = Game(setup)
    start = [[_pos(p) for p in game.positions()[name]] for name in names]
    tries_left = game.tries_left
    last: tuple[str, int] | None = None
    steps = []
    current = [list(p) for p in start]
    placed = 0
    for step in engine_replay(text):
        attempt, of = _tries(tries_left, step.colour, last)
        last = (step.colour, attempt) if of == 3 and step.die != 6 else None
        move = None
        if step.move is not None:
            m = step.move
            move = {
                "seat": seat_of[m.pawn_colour],
                "from": _pos(m.from_),
                "to": m.to,
                "captures": None if m.captures is None else seat_of[m.captures],
                "huff": None if m.huff is None else _pos(m.huff),
            }
            if move["captures"] is not None:
                captured_field = track_field(board, move["seat"], m.to)
                move["captured_at"] = board.relative(move["captures"], captured_field)
        changed = {}
        for s, name in enumerate(names):
            now = [_pos(p) for p in step.positions[name]]
            if now != current[s]:
                changed[s] = now
                current[s] = now
        finished = [seat_of[c] for c in step.placings[placed:]]
        placed = len(step.placings)
        steps.append(
            {
                "seat": seat_of[step.colour],
                "die": step.die,
                "try": attempt,
                "of": of,
                "move": move,
                "pawns": changed,
                "finished": finished,
                "turn": None if step.turn is None else seat_of[step.turn],
                "over": step.over,
                "t": step.event.get("t") if isinstance(step.event, dict) else None,
            }
        )
        tries_left = step.tries_left
    owners = {s: player for player, seats in setup.players.items() for s in seats}
    return {
        "board": board.size,
        "track_length": T,
        "colours": list(names),
        "used": list(setup.used),
        "neutral": setup.neutral,
        "log_players": {str(s): owners.get(s) for s in range(len(names))},
        "start": start,
        "steps": steps,
        "complete": bool(steps and steps[-1]["over"]),
    }


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def stats_cache_key(sha256: str) -> str:
    """Cache key of :func:`log_stats` for the log with that SHA-256 (``GameLog.sha256``), so
    callers can look statistics up without loading the log's text."""
    return f"replay:stats:{sha256}"


def _cached(kind: str, text: str, build) -> Any:
    key = f"replay:{kind}:{_sha(text)}"
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, CACHE_SECONDS)
    return value


def replay_steps(text: str, *, cache: bool = True) -> dict[str, Any]:
    """The language-free replay of a log (cached by its hash unless ``cache`` is off: a
    pasted log nobody else will ask for). Raises the engine's ``InvalidLog`` for a log that
    is not valid."""
    if not cache:
        return _build(text)
    return _cached("steps", text, lambda: _build(text))


def _step_text(step: dict[str, Any], data: dict[str, Any], labels: Sequence[str]) -> str:
    T = data["track_length"]
    colour = labels[step["seat"]]
    parts = []
    if step["of"] == 3:
        parts.append(
            gettext("%(colour)s rolls %(die)s (try %(try)s of 3)")
            % {"colour": colour, "die": step["die"], "try": step["try"]}
        )
    else:
        parts.append(gettext("%(colour)s rolls %(die)s") % {"colour": colour, "die": step["die"]})
    move = step["move"]
    if move is None:
        parts.append(gettext("no move"))
    else:
        pawn = labels[move["seat"]]
        if move["from"] == YARD:
            text = gettext("brings a %(pawn)s pawn onto field A") % {"pawn": pawn}
        else:
            text = gettext("moves a %(pawn)s pawn from %(from)s to %(to)s") % {
                "pawn": pawn,
                "from": position_words(move["from"], T),
                "to": position_words(move["to"], T),
            }
        parts.append(text)
        if move["captures"] is not None:
            parts.append(
                gettext("captures a %(colour)s pawn (back to its yard)")
                % {"colour": labels[move["captures"]]}
            )
        if move["huff"] is not None:
            parts.append(
                gettext("huffed: the %(colour)s pawn on %(pos)s goes back to the yard")
                % {"colour": colour, "pos": position_words(move["huff"], T)}
            )
    for seat in step["finished"]:
        parts.append(gettext("%(colour)s is home") % {"colour": labels[seat]})
    if step["over"]:
        parts.append(gettext("the game is over"))
    elif step["die"] == 6:
        parts.append(gettext("a 6: %(colour)s rolls again") % {"colour": colour})
    return " · ".join(parts)


def replay_data(
    text: str,
    *,
    players: Mapping[int, str] | None = None,
    colour_names: Sequence[str] | None = None,
    cache: bool = True,
) -> dict[str, Any]:
    """Everything the replay viewer needs, JSON-ready, sentences in the active language.

    ``players`` maps seat → the player's display name (default: the log's names);
    ``colour_names`` the league's colour name of each seat (default: the board's
    colours, so a log that renamed them still shows in the league's words).
    Raises the engine's ``InvalidLog`` for a log that is not valid.
    """
    data = replay_steps(text, cache=cache)
    size = data["board"]
    defaults = DEFAULT_COLOURS[size]
    labels = [colour_label(c) for c in (colour_names or defaults)]
    seats = []
    layout = board_layout(size)
    for s, spec in enumerate(layout["seats"]):
        log_player = data["log_players"].get(str(s))
        player = (players or {}).get(s) or log_player
        if player == data["colours"][s]:
            player = None  # a colour that is its own player has no player name
        seats.append(
            {
                "seat": s,
                "css": spec["css"],
                "label": labels[s],
                "log_colour": data["colours"][s],
                "shape": spec["shape"],
                "symbol": spec["symbol"],
                "player": player,
                "used": s in data["used"],
                "neutral": s == data["neutral"],
            }
        )
    steps = []
    for i, step in enumerate(data["steps"]):
        steps.append({**step, "n": i + 1, "text": _step_text(step, data, labels)})
    return {
        "board": size,
        "track_length": data["track_length"],
        "complete": data["complete"],
        "language": get_language(),
        "seats": seats,
        "start": data["start"],
        "steps": steps,
    }


def replay_json(text: str, *, cache: bool = True, **kwargs: Any) -> str:
    """:func:`replay_data` as JSON text, cached per log, language and names (unless
    ``cache`` is off)."""
    if not cache:
        return json.dumps(replay_data(text, cache=False, **kwargs), separators=(",", ":"))
    extra = json.dumps(
        [get_language(), sorted((kwargs.get("players") or {}).items()), kwargs.get("colour_names")]
    )
    key = hashlib.sha256(extra.encode("utf-8")).hexdigest()[:16]
    return _cached(
        f"json:{key}", text, lambda: json.dumps(replay_data(text, **kwargs), separators=(",", ":"))
    )


# --- statistics ---------------------------------------------------------------------------------


def log_stats(text: str) -> dict[int, dict[str, int]]:
    """Per seat (int): ``rolls``, ``sixes``, ``moves``, ``captures`` (made on its turns),
    ``captured`` (its pawns sent back by others), ``huffed``. Cached by the log's hash."""

    def build() -> dict[int, dict[str, int]]:
        data = replay_steps(text)
        stats = {
            s: {"rolls": 0, "sixes": 0, "moves": 0, "captures": 0, "captured": 0, "huffed": 0}
            for s in data["used"]
        }
        for step in data["steps"]:
            row = stats[step["seat"]]
            row["rolls"] += 1
            row["sixes"] += step["die"] == 6
            move = step["move"]
            if move is None:
                continue
            row["moves"] += 1
            if move["captures"] is not None:
                row["captures"] += 1
                stats[move["captures"]]["captured"] += 1
            if move["huff"] is not None:
                row["huffed"] += 1
        return stats

    raw = _cached("stats", text, build)
    return {int(k): v for k, v in raw.items()}
