"""The dice check the pages show (a game's page, a finished live room): a log's
``meta.dice`` verified by the engine (``games.engine.dice``, ``maedn-dice/1``)."""

from __future__ import annotations

from typing import Any

from games.engine.dice import NO_COMMITMENT, SCHEME, verify_dice
from games.engine.log import InvalidLog, load_json


def dice_check(log: str | bytes | dict[str, Any] | None) -> dict[str, Any] | None:
    """What the page's "Provably fair dice" card shows for ``log`` (its stored text or the
    parsed log): the engine's verdict (``DiceCheck.as_dict``: ``status``, ``rolls``,
    ``event``, ``expected``, ``found``, ``commitment``, ``seed``) with the scheme, or None
    when the log carries no commitment (nothing to show) or is not a log at all."""
    if log is None:
        return None
    if not isinstance(log, dict):
        try:
            log = load_json(log)
        except InvalidLog:
            return None
        if not isinstance(log, dict):
            return None
    check = verify_dice(log)
    if check.status == NO_COMMITMENT:
        return None
    return {**check.as_dict(), "scheme": SCHEME, "number": (check.event or 0) + 1}
