# ruff: noqa: E501 (one msgid a line, as in the translation catalogue)
"""Engine messages in the reader's language: the validator's and the log reader's errors
carry a code and parameters (``games.engine.codes``); here each code's wording is marked
for translation and a coded message (or its stored ``{"code", "params"}``) is rendered in
the active language. The English is the engine's own (``test_error_codes`` checks that the
two catalogues agree); colour names are shown in the reader's language."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from django.utils import translation
from django.utils.translation import gettext, gettext_noop

from games.engine.codes import COLOUR_PARAMS, Coded, code_of
from games.replay import colour_label

#: the engine's codes → their English wording (``games.engine.codes.TEMPLATES``)
ENGINE_MESSAGES: dict[str, str] = {
    "not_json": gettext_noop("the log is not valid JSON: %(why)s"),
    "json_syntax": gettext_noop(
        "the log is not valid JSON: it breaks off at line %(line)s, column %(column)s"
    ),
    "malformed": gettext_noop('the log has no "%(field)s"'),
    "not_your_turn": gettext_noop("it is %(turn)s's turn, not %(name)s's"),
    "turn_ended": gettext_noop(
        "%(name)s rolled %(n)s, which ended its turn; it is %(turn)s's turn"
    ),
    "neutral_turn": gettext_noop(
        "%(name)s is the neutral colour and never takes a turn; it is %(turn)s's turn"
    ),
    "unused_turn": gettext_noop("%(name)s is not used in this game; it is %(turn)s's turn"),
    "finished_turn": gettext_noop(
        "%(name)s has finished and takes no more turns; it is %(turn)s's turn"
    ),
    "tries_used": gettext_noop(
        "%(name)s had already used its three tries for a 6; it is %(turn)s's turn"
    ),
    "rolls_again_six": gettext_noop("%(turn)s rolled a 6 and rolls again, not %(name)s"),
    "rolls_again_stuck": gettext_noop(
        "%(turn)s could not move and still has %(tries)s of its three tries for a 6, so %(turn)s rolls again, not %(name)s"
    ),
    "bad_die": gettext_noop("%(name)s rolled %(n)s, but a die shows a whole number from 1 to 6"),
    "game_over": gettext_noop(
        "the game was already over; %(who)s won, so no more rolls may follow"
    ),
    "game_over_no_winner": gettext_noop("the game was already over, so no more rolls may follow"),
    "illegal_move": gettext_noop(
        "%(name)s rolled %(die)s and moved %(move)s%(pawn)s, but %(why)s (allowed: %(allowed)s)"
    ),
    "illegal_move_none_legal": gettext_noop(
        "%(name)s rolled %(die)s and moved %(move)s%(pawn)s, but %(why)s; %(name)s had no legal move with that roll, so the roll is recorded without a move"
    ),
    "with_pawn": gettext_noop(" with a %(colour)s pawn"),
    "no_move_made": gettext_noop(
        "%(name)s rolled %(die)s and made no move, but a move was possible (%(allowed)s)"
    ),
    "why_no_pawn_in_yard": gettext_noop("%(colour)s has no pawn in the yard"),
    "why_leave_to_a": gettext_noop("a pawn leaving the yard goes onto field A (B→0)"),
    "why_leave_with_six": gettext_noop("a pawn leaves the yard only with a 6"),
    "why_own_on_a": gettext_noop("%(colour)s's own pawn stands on field A"),
    "why_barrier_on_a": gettext_noop("%(owner)s's barrier blocks field A"),
    "why_no_pawn_on_field": gettext_noop("%(colour)s has no pawn on field %(field)s"),
    "why_no_pawn_on_a": gettext_noop("%(colour)s has no pawn on field A (0)"),
    "why_no_pawn_in_house": gettext_noop("%(colour)s has no pawn on house field %(letter)s"),
    "why_barrier_blocks": gettext_noop(
        "the barrier of %(owner)s on field %(field)s blocks the way"
    ),
    "why_own_on_field": gettext_noop("%(colour)s's own pawn stands on field %(field)s"),
    "why_two_own": gettext_noop("two %(colour)s pawns already stand on field %(field)s"),
    "why_barrier_target": gettext_noop(
        "%(owner)s's barrier on field %(field)s can't be captured or landed on"
    ),
    "why_own_in_house": gettext_noop(
        "%(colour)s's own pawn stands on house field %(letter)s (%(field)s)"
    ),
    "why_jump_in_house": gettext_noop(
        "pawns may not jump over pawns in the house (%(colour)s's pawn on house field %(letter)s (%(field)s))"
    ),
    "why_forwards_only": gettext_noop("pawns move forwards only"),
    "why_house_not_back": gettext_noop("pawns in the house never move backwards"),
    "why_back_past_a": gettext_noop("a backward move may not reach or pass its own field A"),
    "why_back_must_capture": gettext_noop(
        "a backward move must capture, and field %(field)s holds no pawn to capture"
    ),
    "why_barrier_not_captured": gettext_noop(
        "%(owner)s's barrier on field %(field)s can't be captured"
    ),
    "why_barrier_blocks_back": gettext_noop("the barrier on field %(field)s blocks the way"),
    "why_past_house": gettext_noop(
        "a roll of %(die)s would take the pawn on %(field)s past the end of the house"
    ),
    "why_forwards_only_to": gettext_noop(
        "pawns move forwards only: a roll of %(die)s takes %(field)s to %(to)s"
    ),
    "why_one_field": gettext_noop(
        "a roll of %(die)s moves a pawn 1 field (%(field)s→%(to)s), not %(moved)s"
    ),
    "why_fields": gettext_noop(
        "a roll of %(die)s moves a pawn %(die)s fields (%(field)s→%(to)s), not %(moved)s"
    ),
    "why_must_enter": gettext_noop(
        "with a 6, %(colour)s must bring a pawn out of the yard onto field A (B→0)"
    ),
    "why_clear_a": gettext_noop(
        "while %(colour)s has pawns in the yard its pawn on field A must move off first"
    ),
    "why_must_capture": gettext_noop("a capture was possible, and capturing is compulsory"),
    "why_not_allowed": gettext_noop("the rules do not allow that move"),
    "fields_one": gettext_noop("1 field"),
    "fields_many": gettext_noop("%(n)s fields"),
    "log_utf16": gettext_noop(
        "the log is not UTF-8: it looks like UTF-16 (or UTF-32) text; save it as UTF-8 (game-log.md)"
    ),
    "log_not_utf8": gettext_noop("the log is not UTF-8 text (byte %(byte)s is invalid)"),
    "log_too_large": gettext_noop(
        "the log is %(size)s bytes; logs larger than %(limit)s are not accepted"
    ),
    "json_too_deep": gettext_noop("the log is not valid JSON: it is nested too deeply"),
    "json_bad_value": gettext_noop('the log is not valid JSON: "%(path)s" is %(what)s'),
    "duplicate_key": gettext_noop(
        'the log is malformed: a JSON object has the key "%(key)s" twice (the object\'s keys: %(keys)s); a key may appear once in an object, since JSON readers disagree on which value counts'
    ),
    "log_not_object": gettext_noop("a log is a JSON object, not %(what)s"),
    "no_format": gettext_noop('the log has no "format" (it should be "%(expected)s")'),
    "unknown_format": gettext_noop('unknown log format %(what)s (expected "%(expected)s")'),
    "bad_board": gettext_noop("board must be 4 or 6, not %(what)s"),
    "events_not_list": gettext_noop("events must be a list, not %(what)s"),
    "too_many_events": gettext_noop(
        "the log has %(n)s events; more than %(limit)s are not accepted"
    ),
    "unused_not_list": gettext_noop("unused must be a list of colours, not %(what)s"),
    "first_not_colour": gettext_noop("first must be a colour name, not %(what)s"),
    "t_earlier": gettext_noop(
        '%(name)s\'s event has "t": %(t)s, earlier than the "t" of an event before it (%(last)s); event times never go back'
    ),
    "t_too_late": gettext_noop(
        '%(name)s\'s event has "t": %(t)s, but "t" is at most %(limit)s seconds (about 115 days) since the game started; no game lasts longer'
    ),
    "t_not_seconds": gettext_noop(
        '%(name)s\'s event has "t": %(t)s, but "t" is a number of seconds from 0 to %(limit)s since the game started'
    ),
    "huff_not_due": gettext_noop(
        "%(name)s rolled %(die)s and moved %(move)s with a huff of %(huff)s, but %(why)s, so nobody is huffed"
    ),
    "huff_why_captured": gettext_noop("the move captured"),
    "huff_why_none_could": gettext_noop("no pawn of %(name)s could have captured"),
    "huff_missing": gettext_noop(
        "%(name)s rolled %(die)s and moved %(move)s without capturing, although it could have captured (%(capture)s); the huff is missing: the pawn that could have captured goes back to the yard (huff %(shown)s)"
    ),
    "huff_wrong_pawn": gettext_noop(
        "%(name)s rolled %(die)s and moved %(move)s with a huff of %(huff)s, but no pawn there could have captured (%(capture)s); the huff must name %(shown)s"
    ),
    "bad_start": gettext_noop(
        "the start of %(name)s's move is %(what)s, which is not a position (B for the yard, or 0–%(last)s)"
    ),
    "bad_target": gettext_noop(
        "the target of %(name)s's move is %(what)s, which is not a position (B for the yard, or 0–%(last)s)"
    ),
    "bad_huff": gettext_noop(
        "%(name)s's huff is %(what)s, which is not a position (B for the yard, or 0–%(last)s)"
    ),
    "move_syntax": gettext_noop(
        'a move is written [FROM, TO], e.g. [12, 16] or ["B", 0], not %(what)s'
    ),
    "move_to_yard": gettext_noop(
        "a move can't end in the yard (captured pawns go there by themselves)"
    ),
    "rules_option_colour": gettext_noop(
        "option %(option)s must be a colour name or null, not %(what)s"
    ),
    "rules_option_value": gettext_noop("option %(option)s must be %(allowed)s, not %(what)s"),
    "rules_unknown_preset": gettext_noop("unknown rules preset %(what)s (presets: %(presets)s)"),
    "rules_not_spec": gettext_noop(
        "rules must be a preset name or an object with a preset, not %(what)s"
    ),
    "rules_no_preset": gettext_noop('a rules object needs a "preset" (e.g. {"preset": "league"})'),
    "rules_preset_not_name": gettext_noop("preset must be a preset name, not %(what)s"),
    "rules_unknown_option": gettext_noop("unknown rules option %(what)s (options: %(options)s)"),
    "rules_unknown_variant": gettext_noop("unknown variant %(what)s (variants: %(variants)s)"),
}


def localize(
    code: str | None,
    params: Mapping[str, Any],
    *,
    fallback: str = "",
    catalogue: Mapping[str, str] | None = None,
    words: Collection[str] = (),
    colours: Collection[str] = COLOUR_PARAMS,
) -> str:
    """The message ``code`` with ``params`` in the active language; ``fallback`` (the
    English text) for an unknown code or a translation that lacks a parameter.

    A parameter that is itself a coded message (``{"code", "params"}``) is rendered the
    same way, a list of them joined with "; "; colour names (``COLOUR_PARAMS``) and the
    parameters named in ``words`` (words of ours) are translated."""
    messages = ENGINE_MESSAGES if catalogue is None else catalogue
    template = messages.get(code or "")
    if template is None:
        return fallback
    try:
        shown = {k: _param(k, v, messages, words, colours) for k, v in params.items()}
        return gettext(template) % shown
    except (KeyError, TypeError, ValueError):  # a translation missing a parameter
        return fallback or english(code, params, catalogue=messages)


def english(code: str | None, params: Mapping[str, Any], *, catalogue=None) -> str:
    """The English wording of a coded message (as the engine worded it)."""
    messages = ENGINE_MESSAGES if catalogue is None else catalogue
    with translation.override(None):
        shown = {k: _param(k, v, messages, (), (), plain=True) for k, v in params.items()}
        return messages[code or ""] % shown


def _param(key: str, value: Any, messages, words, colours, plain: bool = False) -> Any:
    """A message's parameter as shown: a nested coded message worded, a list joined, a
    colour or word parameter translated (unless ``plain``: English)."""
    if isinstance(value, Coded):
        code, params = code_of(value)
        value = {"code": code, "params": params}
    if isinstance(value, Mapping) and "code" in value:
        return _nested(value["code"], value.get("params") or {}, messages, words, colours, plain)
    if isinstance(value, list):
        return "; ".join(str(_param(key, v, messages, words, colours, plain)) for v in value)
    if plain or not isinstance(value, str):
        return value
    if key in colours:
        return colour_label(value)
    if key in words:
        return gettext(value)
    return value


def _nested(code: str, params: Mapping[str, Any], messages, words, colours, plain: bool) -> str:
    """A coded message inside another one's parameter, worded."""
    if plain:
        return english(code, params, catalogue=messages)
    return localize(
        code,
        params,
        catalogue=messages,
        words=words,
        colours=colours,
        fallback=english(code, params, catalogue=messages),
    )


def engine_error_text(message: str) -> str:
    """An engine message (a :class:`~games.engine.codes.Coded` one is translated) in the
    active language."""
    code, params = code_of(message)
    return localize(code, params, fallback=str(message)) if code else str(message)
