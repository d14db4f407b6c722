"""The engine explains a rule set in English sentences (``games.engine.rules.explain``);
these are the same sentences marked for translation, so the rules read in German too.

A sentence the engine words differently one day is shown as the engine wrote it (English)
until its translation is added here and in ``locale/``.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

SENTENCES = [
    gettext_noop("Preset league: XMädn basic rules (league, 2T, 3T)."),
    gettext_noop(
        "Preset league-2t+: XMädn double-threat plus (2T+): a player must finish both colours."
    ),
    gettext_noop(
        "Preset league-3t+: XMädn triple-threat plus (3T+): a player must finish both colours."
    ),
    gettext_noop("Preset league-gp: XMädn Grand Prix: play on until every place is decided."),
    gettext_noop("Preset classic: Schmidt base game."),
    gettext_noop("Preset online: online rules (computer players fill empty seats)."),
    gettext_noop("All four pawns start in the yard."),
    gettext_noop("Each colour starts with one pawn on its start field A and three in the yard."),
    gettext_noop(
        "A pawn leaves the yard only with a 6; on a 6 a yard pawn must be brought onto A "
        "whenever that is possible."
    ),
    gettext_noop("A pawn leaves the yard only with a 6, but bringing one out is never compulsory."),
    gettext_noop(
        "While a colour still has pawns in its yard, its pawn on field A must move off it "
        "first whenever it can."
    ),
    gettext_noop("A pawn on its own start field A need not make way for the yard."),
    gettext_noop(
        "A colour that cannot move (no pawn on the track, house pawns unable to move) rolls "
        "up to three times for a 6."
    ),
    gettext_noop("Every colour rolls once per turn, even when it cannot move."),
    gettext_noop("A 6 always earns another roll."),
    gettext_noop("Pawns may jump over other pawns inside the house."),
    gettext_noop("Pawns may not jump over pawns inside the house."),
    gettext_noop(
        "Two pawns of one colour on one track field form a barrier that no pawn may pass, "
        "land on or capture — not even the builder's own."
    ),
    gettext_noop("There are no barriers: two pawns of one colour never share a field."),
    gettext_noop("Capturing is compulsory: when a capture is possible, a capture must be made."),
    gettext_noop(
        "Capturing is not compulsory, but a pawn that could have captured and did not "
        "(when no capture was made) is huffed: it goes back to its yard."
    ),
    gettext_noop("Capturing is never compulsory."),
    gettext_noop(
        "A track pawn may also move backwards by the roll to capture, but never onto or "
        "over its own start field A."
    ),
    gettext_noop("Pawns only move forwards."),
    gettext_noop("The game ends when the first colour has all four pawns home; its player wins."),
    gettext_noop(
        "The game ends when a player has finished all of their colours; that player wins. "
        "Colours that finish earlier stop taking turns."
    ),
    gettext_noop(
        "Play goes on until every colour but one has finished; the finishing order gives the "
        "placings, and the first player to finish all their colours wins."
    ),
]

_CHANGED = re.compile(r"^Changed from the preset: (?P<changes>.*)\.$")
_NEUTRAL = re.compile(r"^(?P<colour>\S+) is a neutral colour: ")


def translate_sentence(sentence: str) -> str:
    """One sentence of ``explain`` in the active language (English when unknown)."""
    if match := _CHANGED.match(sentence):
        return gettext("Changed from the preset: %(changes)s.") % match.groupdict()
    if match := _NEUTRAL.match(sentence):
        colour = match["colour"]
        return gettext(
            "%(colour)s is a neutral colour: it has no player and takes no turns; any colour on "
            "turn may move a %(colour)s pawn instead of its own, and a colour is finished only "
            "when its own and all %(colour)s pawns are home."
        ) % {"colour": colour}
    return gettext(sentence)
