"""Board geometry for the SVG board: where every field of board 4 or 6 is drawn, and the
pawns' shapes and letters (so pawns differ by more than their colour).

Board 4 is the classic cross on an 11 × 11 grid; board 6 a ring of 48 fields with six
houses pointing to the centre. Used by the replay viewer's template and the template tags.
"""

from __future__ import annotations

import math
from typing import Any

from games.engine import BOARDS, get_board, track_field
from games.engine.board import DEFAULT_COLOURS, HOUSE_FIELDS, PAWNS_PER_COLOUR

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
    for s in range(BOARDS[4].seats):
        track.extend(_cell(_turn(p, s)) for p in _CROSS_TRACK)
        yard = [_turn(p, s) for p in _CROSS_YARD]
        x = sum(p[0] for p in yard) / PAWNS_PER_COLOUR
        y = sum(p[1] for p in yard) / PAWNS_PER_COLOUR
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
    ring = BOARDS[6]
    centre, radius, step = 320.0, 232.0, 360 / ring.track_length
    first = 187.5  # seat 0's field A a little above the left end of the horizontal axis

    def at(angle: float, r: float) -> list[float]:
        a = math.radians(angle)
        return [round(centre + r * math.cos(a), 1), round(centre + r * math.sin(a), 1)]

    track = [at(first + a * step, radius) for a in range(ring.track_length)]
    seats = []
    for s in range(ring.seats):
        start = first + ring.start_field(s) * step
        entry = start - step  # the field before A leads into the house
        yard_centre = at(start + 2.2 * step, radius + 52)
        yard = [
            [round(yard_centre[0] + dx, 1), round(yard_centre[1] + dy, 1)]
            for dx, dy in ((-13, -13), (13, -13), (-13, 13), (13, 13))
        ]
        seats.append(
            {
                "house": [at(entry, radius - 34 * k) for k in range(1, HOUSE_FIELDS + 1)],
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
