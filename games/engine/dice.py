"""Provably fair dice (``maedn-dice/1``): every roll of a game derived from a secret seed the
server committed to before the first roll, so that anyone can check, once the seed is
revealed, that no roll was chosen as the game went.

The scheme (docs/live.md, "Provably fair dice"; the log's keys: docs/engine.md):

- **Seed**: 32 random bytes (``secrets.token_bytes(32)``), drawn when the room is opened.
- **Commitment**: ``SHA-256(seed)``, lowercase hex, published before the first roll (the
  room page, the log's ``meta.dice.commitment``).
- **Roll number i** (0-based; roll i is the log's event i — every event is one roll) is
  ``die(seed, i)``: ``d = HMAC-SHA256(key=seed, msg=ASCII("maedn-dice/1:" + str(i)))``
  (``str(i)``: decimal, no sign, no leading zeros). Read ``d``'s 32 bytes in order and take
  the first byte ``b`` with ``b < 252``: the roll is ``b mod 6 + 1``. 252 = 6 × 42, so each
  face comes from exactly 42 of the 252 accepted byte values: no modulo bias. If all 32
  bytes are 252 or more (probability (4/256)³² ≈ 10⁻⁵⁸), go on with
  ``HMAC-SHA256(seed, "maedn-dice/1:" + str(i) + ":" + str(k))`` for k = 1, 2, … by the
  same rule.
- **Reveal**: when the game is over the log carries ``meta.dice.seed`` (hex); before, no
  one learns it.

Verification (:func:`verify_dice`, ``python -m games.engine verify-dice LOG.json``): the
revealed seed hashes to the commitment, and every event's ``die`` is ``die(seed, i)``.

Pure: no Django, no I/O.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .game import Game
from .log import LogRecord

SCHEME = "maedn-dice/1"
"""The scheme's name: the HMAC message's prefix and ``meta.dice.scheme``."""

SEED_BYTES = 32
ACCEPT_BELOW = 252
"""Bytes 0…251 are accepted (6 × 42 values); 252…255 are skipped (rejection sampling)."""


def commitment(seed: bytes) -> str:
    """The seed's commitment: ``SHA-256(seed)`` in lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


def die(seed: bytes, index: int) -> int:
    """Roll number ``index`` (0-based) of the stream of ``seed``: 1–6 (module docstring)."""
    if index < 0:
        raise ValueError(f"a roll's index is 0 or more, not {index}")
    message = f"{SCHEME}:{index}"
    k = 0
    while True:
        digest = hmac.digest(seed, message.encode("ascii"), "sha256")
        for b in digest:
            if b < ACCEPT_BELOW:
                return b % 6 + 1
        k += 1
        message = f"{SCHEME}:{index}:{k}"


def dice_meta(seed: bytes, *, reveal: bool) -> dict[str, str]:
    """The log's ``meta.dice``: the scheme and the commitment, and the seed once ``reveal``."""
    meta = {"scheme": SCHEME, "commitment": commitment(seed)}
    if reveal:
        meta["seed"] = seed.hex()
    return meta


# --- verifying a log ------------------------------------------------------------------------

VERIFIED = "verified"
DIFFERS = "differs"
NO_COMMITMENT = "no-commitment"
NOT_REVEALED = "not-revealed"
MISMATCH = "commitment-mismatch"
MALFORMED = "malformed"


@dataclass(frozen=True)
class DiceCheck:
    """What :func:`verify_dice` found. ``status`` is one of ``verified`` (every roll is
    the seed's), ``differs`` (``event``: the first roll that is not; ``expected`` the
    seed's roll, ``found`` the log's), ``no-commitment`` (the log carries no
    ``meta.dice``: nothing to check), ``not-revealed`` (a commitment but no seed yet: the
    game is not over), ``commitment-mismatch`` (the seed does not hash to the commitment)
    or ``malformed`` (``meta.dice`` is not as documented)."""

    status: str
    rolls: int = 0
    event: int | None = None
    expected: int | None = None
    found: Any = None
    commitment: str | None = None
    seed: str | None = None
    detail: str = ""

    @property
    def verified(self) -> bool:
        return self.status == VERIFIED

    def message(self) -> str:
        """One line in English (the command line's output)."""
        if self.status == VERIFIED:
            return f"verified: {self.rolls} rolls"
        if self.status == DIFFERS:
            return (
                f"roll {self.event} differs: the log has {self.found!r}, the seed gives "
                f"{self.expected} (event {self.event}, 0-based; {self.event} rolls before "
                "it verified)"
            )
        if self.status == NO_COMMITMENT:
            return "no commitment: the log has no meta.dice, so its dice cannot be verified"
        if self.status == NOT_REVEALED:
            return (
                "not revealed: the log commits to a seed but does not reveal it "
                "(the game is not over), so its dice cannot be verified yet"
            )
        if self.status == MISMATCH:
            return (
                "commitment mismatch: SHA-256 of the revealed seed is not the commitment "
                f"{self.commitment}"
            )
        return f"malformed meta.dice: {self.detail}"

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"status": self.status, "verified": self.verified}
        if self.status in (VERIFIED, DIFFERS):
            out["rolls"] = self.rolls
        for key in ("event", "expected", "found", "commitment", "seed"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        out["message"] = self.message()
        return out


def _hex(value: Any, size: int) -> bytes | None:
    if not isinstance(value, str) or len(value) != 2 * size:
        return None
    try:
        return bytes.fromhex(value)
    except ValueError:
        return None


def verify_dice(log: Mapping[str, Any]) -> DiceCheck:
    """Check a ``maedn-log/1`` log (parsed) against its ``meta.dice`` (module docstring).
    The log's moves are not checked here: that is the validator's job."""
    meta = log.get("meta")
    dice = meta.get("dice") if isinstance(meta, Mapping) else None
    if dice is None:
        return DiceCheck(NO_COMMITMENT)
    opened = _revealed_seed(dice)
    if isinstance(opened, DiceCheck):
        return opened
    committed, seed = opened
    shown = seed.hex()
    if commitment(seed) != committed:
        return DiceCheck(MISMATCH, commitment=committed, seed=shown)
    events = log.get("events")
    if not isinstance(events, list):
        return DiceCheck(MALFORMED, commitment=committed, seed=shown, detail="no events list")
    for i, event in enumerate(events):
        found = event.get("die") if isinstance(event, Mapping) else None
        expected = die(seed, i)
        if type(found) is not int or found != expected:
            return DiceCheck(
                DIFFERS,
                rolls=i,
                event=i,
                expected=expected,
                found=found,
                commitment=committed,
                seed=shown,
            )
    return DiceCheck(VERIFIED, rolls=len(events), commitment=committed, seed=shown)


def _revealed_seed(dice: object) -> tuple[str, bytes] | DiceCheck:
    """``meta.dice``'s commitment (lowercase) and revealed seed, or the check's verdict if
    it is malformed or the seed is not revealed yet."""
    if not isinstance(dice, Mapping):
        return DiceCheck(MALFORMED, detail="meta.dice is not an object")
    if dice.get("scheme") != SCHEME:
        return DiceCheck(
            MALFORMED, detail=f"unknown scheme {dice.get('scheme')!r} (this checks {SCHEME})"
        )
    committed = dice.get("commitment")
    if _hex(committed, 32) is None:
        return DiceCheck(MALFORMED, detail="the commitment is not 64 hex digits")
    committed = committed.lower()
    if "seed" not in dice:
        return DiceCheck(NOT_REVEALED, commitment=committed)
    seed = _hex(dice["seed"], SEED_BYTES)
    if seed is None:
        return DiceCheck(
            MALFORMED, commitment=committed, detail=f"the seed is not {2 * SEED_BYTES} hex digits"
        )
    return committed, seed


# --- a game played with the stream (tests, the command line's demonstration) --------------


def play_with_seed(
    seed: bytes,
    rules: Any = "online",
    board: int = 4,
    *,
    choice_seed: int = 0,
    max_events: int = 20_000,
) -> dict[str, Any]:
    """A whole game whose rolls are the stream of ``seed`` and whose moves are chosen at
    random (``choice_seed``), played as a live room plays it — ``Game.legal_moves`` and
    ``Game.push`` with roll i for event i — with ``meta.dice`` revealed: its log."""

    game = Game.new(rules, board)
    rng = random.Random(choice_seed)
    events: list[dict[str, Any]] = []
    while not game.is_over() and len(events) < max_events:
        roll = die(seed, len(events))
        roller = game.turn
        legal = game.legal_moves(roll)
        move = rng.choice(legal) if legal else None
        huff = None
        if move is not None:
            options = game.huff_options(roll, move)
            huff = options[0] if options else None
        played = game.push(roll, move, huff)
        events.append(played.event(roll) if played is not None else {"colour": roller, "die": roll})
    return LogRecord(
        rules=rules,
        first=game.setup.colours[game.setup.first],
        events=events,
        board=board,
        meta={"generator": "games.engine.dice", "dice": dice_meta(seed, reveal=True)},
    ).to_dict()
