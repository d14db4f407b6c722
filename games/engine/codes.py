"""Error codes of the validator and the log reader: each message has a **code** and
**parameters**, so a site can show it in its reader's language instead of rewriting the
English sentence.

A coded message is a :class:`Coded`: a ``str`` (the English text, exactly what the
engine always said) that also carries ``code`` and ``params``. A parameter may itself be a
coded message (the reason inside "… moved 12→15, but <reason>"). Nothing here runs while a
valid log is checked: messages are made only when an event is refused.

``TEMPLATES`` holds the English wording (``%(name)s`` placeholders); the site's
translation catalogue has a msgid for each (``games/error_text.py`` lists them). The
colour names in ``COLOUR_PARAMS`` are the log's colour names (a site may show them in its
language).
"""

from __future__ import annotations

from typing import Any

TEMPLATES: dict[str, str] = {
    # the log as a whole
    "not_json": "the log is not valid JSON: %(why)s",
    "json_syntax": "the log is not valid JSON: it breaks off at line %(line)s, column %(column)s",
    "malformed": 'the log has no "%(field)s"',
    # whose turn it is
    "not_your_turn": "it is %(turn)s's turn, not %(name)s's",
    "turn_ended": "%(name)s rolled %(n)s, which ended its turn; it is %(turn)s's turn",
    "neutral_turn": "%(name)s is the neutral colour and never takes a turn; it is %(turn)s's turn",
    "unused_turn": "%(name)s is not used in this game; it is %(turn)s's turn",
    "finished_turn": "%(name)s has finished and takes no more turns; it is %(turn)s's turn",
    "tries_used": "%(name)s had already used its three tries for a 6; it is %(turn)s's turn",
    "rolls_again_six": "%(turn)s rolled a 6 and rolls again, not %(name)s",
    "rolls_again_stuck": (
        "%(turn)s could not move and still has %(tries)s of its three tries for a 6, so "
        "%(turn)s rolls again, not %(name)s"
    ),
    "bad_die": "%(name)s rolled %(n)s, but a die shows a whole number from 1 to 6",
    "game_over": "the game was already over; %(who)s won, so no more rolls may follow",
    "game_over_no_winner": "the game was already over, so no more rolls may follow",
    # the move
    "illegal_move": "%(name)s rolled %(die)s and moved %(move)s%(pawn)s, but %(why)s "
    "(allowed: %(allowed)s)",
    "illegal_move_none_legal": (
        "%(name)s rolled %(die)s and moved %(move)s%(pawn)s, but %(why)s; %(name)s had no "
        "legal move with that roll, so the roll is recorded without a move"
    ),
    "with_pawn": " with a %(colour)s pawn",
    "no_move_made": "%(name)s rolled %(die)s and made no move, but a move was possible "
    "(%(allowed)s)",
    # why a move is not legal (the %(why)s above)
    "why_no_pawn_in_yard": "%(colour)s has no pawn in the yard",
    "why_leave_to_a": "a pawn leaving the yard goes onto field A (B→0)",
    "why_leave_with_six": "a pawn leaves the yard only with a 6",
    "why_own_on_a": "%(colour)s's own pawn stands on field A",
    "why_barrier_on_a": "%(owner)s's barrier blocks field A",
    "why_no_pawn_on_field": "%(colour)s has no pawn on field %(field)s",
    "why_no_pawn_on_a": "%(colour)s has no pawn on field A (0)",
    "why_no_pawn_in_house": "%(colour)s has no pawn on house field %(letter)s",
    "why_barrier_blocks": "the barrier of %(owner)s on field %(field)s blocks the way",
    "why_own_on_field": "%(colour)s's own pawn stands on field %(field)s",
    "why_two_own": "two %(colour)s pawns already stand on field %(field)s",
    "why_barrier_target": "%(owner)s's barrier on field %(field)s can't be captured or landed on",
    "why_own_in_house": "%(colour)s's own pawn stands on house field %(letter)s (%(field)s)",
    "why_jump_in_house": (
        "pawns may not jump over pawns in the house (%(colour)s's pawn on house field "
        "%(letter)s (%(field)s))"
    ),
    "why_forwards_only": "pawns move forwards only",
    "why_house_not_back": "pawns in the house never move backwards",
    "why_back_past_a": "a backward move may not reach or pass its own field A",
    "why_back_must_capture": (
        "a backward move must capture, and field %(field)s holds no pawn to capture"
    ),
    "why_barrier_not_captured": "%(owner)s's barrier on field %(field)s can't be captured",
    "why_barrier_blocks_back": "the barrier on field %(field)s blocks the way",
    "why_past_house": (
        "a roll of %(die)s would take the pawn on %(field)s past the end of the house"
    ),
    "why_forwards_only_to": "pawns move forwards only: a roll of %(die)s takes %(field)s to %(to)s",
    "why_one_field": "a roll of %(die)s moves a pawn 1 field (%(field)s→%(to)s), not %(moved)s",
    "why_fields": (
        "a roll of %(die)s moves a pawn %(die)s fields (%(field)s→%(to)s), not %(moved)s"
    ),
    "why_must_enter": "with a 6, %(colour)s must bring a pawn out of the yard onto field A (B→0)",
    "why_clear_a": (
        "while %(colour)s has pawns in the yard its pawn on field A must move off first"
    ),
    "why_must_capture": "a capture was possible, and capturing is compulsory",
    "why_not_allowed": "the rules do not allow that move",
    "fields_one": "1 field",
    "fields_many": "%(n)s fields",
    # the log as a whole: its bytes, its JSON, its header; "t" and huffs (issue 25)
    "log_utf16": (
        "the log is not UTF-8: it looks like UTF-16 (or UTF-32) text; save it as UTF-8 "
        "(game-log.md)"
    ),
    "log_not_utf8": "the log is not UTF-8 text (byte %(byte)s is invalid)",
    "log_too_large": "the log is %(size)s bytes; logs larger than %(limit)s are not accepted",
    "json_too_deep": "the log is not valid JSON: it is nested too deeply",
    "json_bad_value": 'the log is not valid JSON: "%(path)s" is %(what)s',
    "duplicate_key": (
        'the log is malformed: a JSON object has the key "%(key)s" twice (the object\'s '
        "keys: %(keys)s); a key may appear once in an object, since JSON readers "
        "disagree on which value counts"
    ),
    "log_not_object": "a log is a JSON object, not %(what)s",
    "no_format": 'the log has no "format" (it should be "%(expected)s")',
    "unknown_format": 'unknown log format %(what)s (expected "%(expected)s")',
    "bad_board": "board must be 4 or 6, not %(what)s",
    "events_not_list": "events must be a list, not %(what)s",
    "too_many_events": "the log has %(n)s events; more than %(limit)s are not accepted",
    "unused_not_list": "unused must be a list of colours, not %(what)s",
    "first_not_colour": "first must be a colour name, not %(what)s",
    "t_earlier": (
        '%(name)s\'s event has "t": %(t)s, earlier than the "t" of an event before it '
        "(%(last)s); event times never go back"
    ),
    "t_too_late": (
        '%(name)s\'s event has "t": %(t)s, but "t" is at most %(limit)s seconds (about '
        "115 days) since the game started; no game lasts longer"
    ),
    "t_not_seconds": (
        '%(name)s\'s event has "t": %(t)s, but "t" is a number of seconds from 0 to '
        "%(limit)s since the game started"
    ),
    "huff_not_due": (
        "%(name)s rolled %(die)s and moved %(move)s with a huff of %(huff)s, but "
        "%(why)s, so nobody is huffed"
    ),
    "huff_why_captured": "the move captured",
    "huff_why_none_could": "no pawn of %(name)s could have captured",
    "huff_missing": (
        "%(name)s rolled %(die)s and moved %(move)s without capturing, although it "
        "could have captured (%(capture)s); the huff is missing: the pawn that could "
        "have captured goes back to the yard (huff %(shown)s)"
    ),
    "huff_wrong_pawn": (
        "%(name)s rolled %(die)s and moved %(move)s with a huff of %(huff)s, but no "
        "pawn there could have captured (%(capture)s); the huff must name %(shown)s"
    ),
    "bad_start": (
        "the start of %(name)s's move is %(what)s, which is not a position (B for the "
        "yard, or 0–%(last)s)"
    ),
    "bad_target": (
        "the target of %(name)s's move is %(what)s, which is not a position (B for the "
        "yard, or 0–%(last)s)"
    ),
    "bad_huff": (
        "%(name)s's huff is %(what)s, which is not a position (B for the yard, or 0–%(last)s)"
    ),
    "move_syntax": 'a move is written [FROM, TO], e.g. [12, 16] or ["B", 0], not %(what)s',
    "move_to_yard": "a move can't end in the yard (captured pawns go there by themselves)",
    # a rules object (a log's "rules", a league's rules): its preset, options, variant
    "rules_option_colour": "option %(option)s must be a colour name or null, not %(what)s",
    "rules_option_value": "option %(option)s must be %(allowed)s, not %(what)s",
    "rules_unknown_preset": "unknown rules preset %(what)s (presets: %(presets)s)",
    "rules_not_spec": "rules must be a preset name or an object with a preset, not %(what)s",
    "rules_no_preset": 'a rules object needs a "preset" (e.g. {"preset": "league"})',
    "rules_preset_not_name": "preset must be a preset name, not %(what)s",
    "rules_unknown_option": "unknown rules option %(what)s (options: %(options)s)",
    "rules_unknown_variant": "unknown variant %(what)s (variants: %(variants)s)",
}

#: parameters whose values are colour names of the log
COLOUR_PARAMS = frozenset({"name", "turn", "who", "colour", "owner"})


class Coded(str):
    """An engine message: its English text, with ``code`` and ``params``."""

    code: str
    params: dict[str, Any]

    def data(self) -> dict[str, Any]:
        """``{"code", "params"}`` as JSON data (nested coded parameters included)."""
        return {"code": self.code, "params": {k: as_data(v) for k, v in self.params.items()}}


def coded(code: str, **params: Any) -> Coded:
    """The message ``code`` with ``params``, worded in English."""
    text = Coded(TEMPLATES[code] % params)
    text.code = code
    text.params = params
    return text


def as_data(value: Any) -> Any:
    """A parameter as JSON data: a coded message as ``{"code", "params"}``."""
    return value.data() if isinstance(value, Coded) else value


def code_of(message: object) -> tuple[str | None, dict[str, Any]]:
    """(code, params as JSON data) of a message, or (None, {}) for an uncoded one."""
    if isinstance(message, Coded):
        data = message.data()
        return data["code"], data["params"]
    return None, {}
