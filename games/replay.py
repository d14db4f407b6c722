"""The replay read model: a game log turned into what the replay viewer shows, step by step.

* :func:`replay_steps` — the engine's replay (:func:`games.engine.replay_log`) as one
  language-free, JSON-ready dict: the start position and, per event, the colour, die, try,
  move, capture, huff, the pawns that changed, who finished and who rolls next. Cached by
  the log's SHA-256 (logs are immutable), so a busy game page replays a log once.
* :func:`replay_data` / :func:`replay_json` — what the viewer (``static/js/replay.js``)
  reads, with a sentence per step in the active language; nothing it does not read.

The engine does the rules (it knows each roll's try and each captured pawn); this module
only reads its steps. The board's drawing is :mod:`games.geometry`, the log statistics
:mod:`games.stats`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import get_language, gettext, pgettext

from games.engine import YARD, replay_log
from games.engine.board import DEFAULT_COLOURS, HOUSE_LETTERS, YARD_NAME
from games.engine.rules import STUCK_TRIES
from games.geometry import SYMBOLS
from games.logcache import cached


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


# --- words --------------------------------------------------------------------------------------


def position_words(pos: int | str, track_length: int) -> str:
    """A relative position in words: the yard, field A, field 17, house field b."""
    if pos == YARD_NAME or (isinstance(pos, int) and pos < 0):
        return gettext("the yard")
    if pos == 0:
        return gettext("field A")
    if pos >= track_length:
        return gettext("house field %(letter)s") % {"letter": HOUSE_LETTERS[pos - track_length]}
    return gettext("field %(number)s") % {"number": pos}


# --- the read model -----------------------------------------------------------------------------


def _pos(value: int | str) -> int:
    return YARD if value == YARD_NAME else int(value)


def _build(text: str) -> dict[str, Any]:
    setup, start_game, engine_steps = replay_log(text)  # the log is parsed once
    names = setup.colours
    seat_of = {name: s for s, name in enumerate(names)}
    start = [[_pos(p) for p in start_game.positions()[name]] for name in names]
    steps = []
    current = [list(p) for p in start]
    placed = 0
    for step in engine_steps:
        move = None
        if step.move is not None:
            m = step.move
            move = {
                "seat": seat_of[m.pawn_colour],
                "from": _pos(m.from_),
                "to": m.to,
                "captures": None if step.captured is None else seat_of[step.captured[0]],
                "huff": None if m.huff is None else _pos(m.huff),
            }
        changed = {}
        for s, name in enumerate(names):
            now = [_pos(p) for p in step.positions[name]]
            if now != current[s]:
                changed[s] = now
                current[s] = now
        finished = [seat_of[c] for c in step.placings[placed:]]
        placed = len(step.placings)
        attempt, of = step.attempt
        steps.append(
            {
                "seat": seat_of[step.colour],
                "die": step.die,
                "try": [attempt, of],
                "move": move,
                "pawns": changed,
                "finished": finished,
                "turn": None if step.turn is None else seat_of[step.turn],
                "over": step.over,
            }
        )
    owners = {s: player for player, seats in setup.players.items() for s in seats}
    return {
        "board": setup.board.size,
        "track_length": setup.board.track_length,
        "colours": list(names),
        "used": list(setup.used),
        "neutral": setup.neutral,
        "log_players": {str(s): owners.get(s) for s in range(len(names))},
        "start": start,
        "steps": steps,
        "complete": bool(steps and steps[-1]["over"]),
    }


def replay_steps(text: str, *, cache: bool = True) -> dict[str, Any]:
    """The language-free replay of a log (cached by its hash unless ``cache`` is off: a
    pasted log nobody else will ask for). Raises the engine's ``InvalidLog`` for a log that
    is not valid."""
    if not cache:
        return _build(text)
    return cached("steps", text, lambda: _build(text))


def _step_text(step: dict[str, Any], data: dict[str, Any], labels: Sequence[str]) -> str:
    T = data["track_length"]
    colour = labels[step["seat"]]
    parts = []
    attempt, of = step["try"]
    if of == STUCK_TRIES:
        parts.append(
            gettext("%(colour)s rolls %(die)s (try %(try)s of 3)")
            % {"colour": colour, "die": step["die"], "try": attempt}
        )
    else:
        parts.append(gettext("%(colour)s rolls %(die)s") % {"colour": colour, "die": step["die"]})
    move = step["move"]
    if move is None:
        parts.append(gettext("no move"))
    else:
        parts += _move_text(move, colour, labels, T)
    for seat in step["finished"]:
        parts.append(gettext("%(colour)s is home") % {"colour": labels[seat]})
    if step["over"]:
        parts.append(gettext("the game is over"))
    elif step["die"] == 6:
        parts.append(gettext("a 6: %(colour)s rolls again") % {"colour": colour})
    return " · ".join(parts)


def _move_text(move: dict[str, Any], colour: str, labels: Sequence[str], T: int) -> list[str]:
    """The sentences of a move made by ``colour``: the move, a capture, a huff."""
    pawn = labels[move["seat"]]
    if move["from"] == YARD:
        parts = [gettext("brings a %(pawn)s pawn onto field A") % {"pawn": pawn}]
    else:
        parts = [
            gettext("moves a %(pawn)s pawn from %(from)s to %(to)s")
            % {
                "pawn": pawn,
                "from": position_words(move["from"], T),
                "to": position_words(move["to"], T),
            }
        ]
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
    return parts


def replay_data(
    text: str,
    *,
    players: Mapping[int, str] | None = None,
    colour_names: Sequence[str] | None = None,
    cache: bool = True,
) -> dict[str, Any]:
    """What the replay viewer reads, JSON-ready, sentences in the active language.

    ``track_length``, ``start`` (per seat its pawn positions, ``-1`` = yard), ``seats``
    (``seat``, ``css``, ``label``, ``symbol``, ``player``, ``used``, ``neutral``) and per
    event ``seat``, ``die``, ``try`` (``[try, of]`` for a stuck colour's tries, absent
    otherwise), ``move`` (``seat``, ``from``, ``to``, ``captures`` — the captured seat —,
    ``huff``), ``pawns`` (the seats whose pawns changed → their positions), ``turn`` and
    ``text``. ``players`` maps seat → the player's display name (default: the log's
    names); ``colour_names`` the league's colour name of each seat (default: the board's
    colours, so a log that renamed them still shows in the league's words). Raises the
    engine's ``InvalidLog`` for a log that is not valid.
    """
    data = replay_steps(text, cache=cache)
    size = data["board"]
    defaults = DEFAULT_COLOURS[size]
    labels = [colour_label(c) for c in (colour_names or defaults)]
    seats = [
        {
            "seat": s,
            "css": css,
            "label": labels[s],
            "symbol": SYMBOLS[css],
            "player": _seat_player(data, players or {}, s),
            "used": s in data["used"],
            "neutral": s == data["neutral"],
        }
        for s, css in enumerate(defaults)
    ]
    steps = []
    for step in data["steps"]:
        shown = {
            "seat": step["seat"],
            "die": step["die"],
            "move": step["move"],
            "pawns": step["pawns"],
            "turn": step["turn"],
            "text": _step_text(step, data, labels),
        }
        if step["try"][1] > 1:
            shown["try"] = step["try"]
        steps.append(shown)
    return {
        "track_length": data["track_length"],
        "start": data["start"],
        "seats": seats,
        "steps": steps,
    }


def _seat_player(data: dict[str, Any], players: Mapping[int, str], s: int) -> str | None:
    """The player name shown at seat ``s`` (none for a colour that is its own player)."""
    player = players.get(s) or data["log_players"].get(str(s))
    return None if player == data["colours"][s] else player


def replay_json(text: str, *, cache: bool = True, **kwargs: Any) -> str:
    """:func:`replay_data` as JSON text, cached per log, language and names (unless
    ``cache`` is off)."""
    if not cache:
        return json.dumps(replay_data(text, cache=False, **kwargs), separators=(",", ":"))
    extra = json.dumps(
        [get_language(), sorted((kwargs.get("players") or {}).items()), kwargs.get("colour_names")]
    )
    key = hashlib.sha256(extra.encode("utf-8")).hexdigest()[:16]
    return cached(
        f"json:{key}", text, lambda: json.dumps(replay_data(text, **kwargs), separators=(",", ":"))
    )
