"""Seeding by die roll, and roll-offs in general (``tournament.md``, "League").

Before each DRR every player rolls a die; the highest roll is #1. Tied players
re-roll among themselves only, as often as needed, and the re-roll decides only their
places among themselves. The same machinery decides the default starting colour
(:mod:`.starting_colour`), where only the first place matters.

The dice come either from ``random.Random(seed)`` (reproducible: store the seed) or
from rolls the organizer recorded at the table; either way the result carries the full
history, round by round, to be shown to users.

Recorded rolls are a sequence of roll rounds, each a mapping ``player → die value``.
The first round holds every player; each further round holds exactly the players of
one tie that is still open (ties may be recorded in any order; a tie that is tied
again needs another round by the same players).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.algorithms.errors import SeedingError, part

PlayerId = Hashable

DIE_FACES = range(1, 7)


@dataclass(frozen=True)
class RollRound:
    """One round of rolls: ``players[i]`` rolled ``rolls[i]``.

    ``places`` is the range of places (1-based, inclusive) the round decides: the first
    round decides ``(1, n)``; a re-roll of a tie for second and third place ``(2, 3)``.
    """

    number: int
    players: tuple[PlayerId, ...]
    rolls: tuple[int, ...]
    places: tuple[int, int]

    @property
    def is_reroll(self) -> bool:
        return self.number > 1

    def as_dict(self) -> dict[PlayerId, int]:
        return dict(zip(self.players, self.rolls, strict=True))


@dataclass(frozen=True)
class DieRollOrder:
    """The outcome of a roll-off.

    ``order`` is best first. ``decided`` is how many leading places are decided by the
    dice (all of them for a seeding; at least 1 for a starting-colour roll-off, where
    the players below first place may still be tied and are then listed in input
    order). ``history`` holds every roll round in the order it was rolled.
    """

    order: tuple[PlayerId, ...]
    history: tuple[RollRound, ...]
    decided: int

    @property
    def winner(self) -> PlayerId:
        """The first place (#1, or the starting colour)."""
        return self.order[0]

    @property
    def seed_numbers(self) -> dict[PlayerId, int]:
        """``player → seed number`` (1 = best)."""
        return {player: index for index, player in enumerate(self.order, start=1)}

    def seed_of(self, player: PlayerId) -> int:
        return self.order.index(player) + 1


def _check_players(players: Iterable[PlayerId]) -> tuple[PlayerId, ...]:
    if isinstance(players, str | bytes):
        raise SeedingError("players_one_string")
    group = tuple(players)
    if not group:
        raise SeedingError("roll_nobody")
    seen: set[PlayerId] = set()
    for player in group:
        if player in seen:
            raise SeedingError("player_twice", player=repr(player))
        seen.add(player)
    return group


def _check_roll(value: object, player: PlayerId, round_number: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in DIE_FACES:
        raise SeedingError("roll_range", number=round_number, player=repr(player), roll=repr(value))
    return value


def _describe(players: Iterable[PlayerId]) -> str:
    return ", ".join(repr(p) for p in players)


def _places(first: int, size: int) -> dict:
    if size == 1:
        return part("roll_place", place=first)
    return part("roll_places", first=first, last=first + size - 1)


def roll_off(  # noqa: C901 (a roll-off's rounds and their checks in one pass)
    players: Iterable[PlayerId],
    *,
    seed: int | str | None = None,
    rng: random.Random | None = None,
    recorded_rolls: Sequence[Mapping[PlayerId, int]] | None = None,
    places: int | None = None,
) -> DieRollOrder:
    """Order ``players`` by die rolls, highest first, re-rolling ties among the tied.

    Give at most one source of dice: ``seed`` (``random.Random(seed)``), ``rng``, or
    ``recorded_rolls``. With none, a fresh unseeded ``random.Random()`` is used (still
    shown through the history, but not reproducible).

    ``places`` is how many leading places must be decided (default: all). A tie that
    lies entirely below those places is not re-rolled.

    Raises :class:`SeedingError` for duplicate players, rolls outside 1–6, recorded
    rounds by the wrong players, rounds that are not needed, and recorded rolls that
    stop while a tie is still open.
    """
    group = _check_players(players)
    if sum(source is not None for source in (seed, rng, recorded_rolls)) > 1:
        raise SeedingError("roll_sources")
    if places is None:
        places = len(group)
    if isinstance(places, bool) or not isinstance(places, int) or places < 1:
        raise SeedingError("places_positive", given=repr(places))
    places = min(places, len(group))

    recorded: list[dict[PlayerId, int]] | None = None
    if recorded_rolls is not None:
        if isinstance(recorded_rolls, Mapping):
            raise SeedingError("rolls_not_rounds")
        recorded = []
        for number, round_rolls in enumerate(recorded_rolls, start=1):
            if not isinstance(round_rolls, Mapping):
                raise SeedingError("roll_round_mapping", number=number, given=repr(round_rolls))
            recorded.append({p: _check_roll(v, p, number) for p, v in round_rolls.items()})
    elif rng is None:
        rng = random.Random(seed)

    # ``ranking`` is a list of blocks (tuples of players), best first; a block of more
    # than one player is a tie. ``open_ties`` are blocks that must still be rolled.
    ranking: list[tuple[PlayerId, ...]] = [group]
    history: list[RollRound] = []

    def first_place(block: tuple[PlayerId, ...]) -> int:
        place = 1
        for other in ranking:
            if other is block:
                return place
            place += len(other)
        raise AssertionError("block not in ranking")  # pragma: no cover

    def open_ties() -> list[tuple[PlayerId, ...]]:
        return [block for block in ranking if len(block) > 1 and first_place(block) <= places]

    def roll(block: tuple[PlayerId, ...]) -> dict[PlayerId, int]:
        assert rng is not None
        return {p: rng.randint(1, 6) for p in block}

    def apply(block: tuple[PlayerId, ...], rolls: Mapping[PlayerId, int]) -> None:
        start = first_place(block)
        history.append(
            RollRound(
                number=len(history) + 1,
                players=block,
                rolls=tuple(rolls[p] for p in block),
                places=(start, start + len(block) - 1),
            )
        )
        values = sorted(set(rolls.values()), reverse=True)
        split = [tuple(p for p in block if rolls[p] == v) for v in values]
        index = next(i for i, other in enumerate(ranking) if other is block)
        ranking[index : index + 1] = split

    if recorded is None:
        while pending := open_ties():
            block = pending[0]  # the best-placed open tie first
            apply(block, roll(block))
    else:
        for number, rolls in enumerate(recorded, start=1):
            pending = open_ties()
            if not pending:
                raise SeedingError("roll_round_not_needed", number=number, rolls=_describe(rolls))
            match = next((b for b in pending if set(b) == set(rolls)), None)
            if match is None:
                unknown = [p for p in rolls if p not in group]
                if unknown:
                    raise SeedingError(
                        "roll_not_taking_part" if len(unknown) == 1 else "rolls_not_taking_part",
                        number=number,
                        players=_describe(unknown),
                    )
                partial = next((b for b in pending if set(rolls) < set(b)), None)
                if partial is not None:
                    missing = [p for p in partial if p not in rolls]
                    raise SeedingError(
                        "roll_round_incomplete",
                        number=number,
                        players=_describe(missing),
                        places=_places(first_place(partial), len(partial)),
                    )
                needed = [
                    part(
                        "roll_needed", players=_describe(b), places=_places(first_place(b), len(b))
                    )
                    for b in pending
                ]
                raise SeedingError(
                    "roll_round_wrong_players" if rolls else "roll_round_empty",
                    number=number,
                    players=_describe(rolls),
                    needed=needed,
                )
            apply(match, rolls)
        pending = open_ties()
        if pending:
            if not history:
                raise SeedingError("rolls_missing")
            tied = [
                part("roll_tied", players=_describe(b), places=_places(first_place(b), len(b)))
                for b in pending
            ]
            raise SeedingError("roll_tie_unresolved", tied=tied)

    decided = 0
    for block in ranking:
        if len(block) > 1:
            break
        decided += 1
    order = tuple(p for block in ranking for p in block)
    return DieRollOrder(order=order, history=tuple(history), decided=decided)


def seed_by_die_roll(
    players: Iterable[PlayerId],
    *,
    seed: int | str | None = None,
    rng: random.Random | None = None,
    recorded_rolls: Sequence[Mapping[PlayerId, int]] | None = None,
) -> DieRollOrder:
    """Seed a DRR: every player rolls, highest is #1, ties re-rolled among the tied.

    ``result.order[0]`` is #1; ``result.seed_numbers`` maps players to seed numbers;
    ``result.history`` is every roll round. See :func:`roll_off` for the sources of
    dice and the errors.
    """
    return roll_off(players, seed=seed, rng=rng, recorded_rolls=recorded_rolls)


def _rounds_of(
    rounds: Iterable[RollRound | Mapping[PlayerId, int]],
) -> list[Mapping[PlayerId, int]]:
    if isinstance(rounds, DieRollOrder):
        rounds = rounds.history
    if isinstance(rounds, Mapping | str | bytes):
        raise SeedingError("roll_rounds_list")
    result: list[Mapping[PlayerId, int]] = []
    for number, item in enumerate(rounds, start=1):
        rolls = item.as_dict() if isinstance(item, RollRound) else item
        if not isinstance(rolls, Mapping):
            raise SeedingError("roll_round_mapping", number=number, given=repr(item))
        result.append({p: _check_roll(v, p, number) for p, v in rolls.items()})
    return result


def roll_sequences(
    rounds: DieRollOrder | Iterable[RollRound | Mapping[PlayerId, int]],
) -> dict[PlayerId, tuple[int, ...]]:
    """Every roll each player made, re-rolls included, in the order they were rolled.

    ``rounds`` is a roll-off's history (a :class:`DieRollOrder`, its ``history``, or
    the recorded rounds ``player → roll``). Within one roll-off, comparing two
    players' sequences roll by roll (higher first) gives exactly the order the dice
    decided: two tied players always re-rolled in the same round. Players the dice
    left tied (below the places that mattered) have equal sequences.
    """
    sequences: dict[PlayerId, list[int]] = {}
    for rolls in _rounds_of(rounds):
        for player, value in rolls.items():
            sequences.setdefault(player, []).append(value)
    return {player: tuple(values) for player, values in sequences.items()}


def check_roll_off(
    rounds: Iterable[RollRound | Mapping[PlayerId, int]],
    players: Iterable[PlayerId] | None = None,
) -> DieRollOrder:
    """Validate a recorded, complete roll-off and return its order.

    ``players`` default to the first round's players. The rounds must follow the
    rules of :func:`roll_off` (first round by everybody, then one round per open tie
    by exactly the tied players) and decide every place; otherwise
    :class:`SeedingError` names what is wrong.
    """
    recorded = _rounds_of(rounds)
    if not recorded:
        raise SeedingError("roll_off_empty")
    group = tuple(recorded[0]) if players is None else tuple(players)
    return roll_off(group, recorded_rolls=recorded)
