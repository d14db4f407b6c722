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

from tournaments.algorithms.checks import is_whole, repeated
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
    for player in repeated(group):
        raise SeedingError("player_twice", player=repr(player))
    return group


def _check_roll(value: object, player: PlayerId, round_number: int) -> int:
    if not is_whole(value) or value not in DIE_FACES:
        raise SeedingError("roll_range", number=round_number, player=repr(player), roll=repr(value))
    return value  # type: ignore[return-value]


def _describe(players: Iterable[PlayerId]) -> str:
    return ", ".join(repr(p) for p in players)


def _places(first: int, size: int) -> dict:
    if size == 1:
        return part("roll_place", place=first)
    return part("roll_places", first=first, last=first + size - 1)


def _places_to_decide(places: object, players: int) -> int:
    """How many leading places the dice decide (all of them by default)."""
    if places is None:
        return players
    if not is_whole(places, at_least=1):
        raise SeedingError("places_positive", given=repr(places))
    return min(places, players)  # type: ignore[call-overload]


def _recorded_rounds(
    recorded_rolls: Sequence[Mapping[PlayerId, int]],
) -> list[dict[PlayerId, int]]:
    """The organizer's recorded rounds, each roll checked."""
    if isinstance(recorded_rolls, Mapping):
        raise SeedingError("rolls_not_rounds")
    return [_checked_round(n, rolls, rolls) for n, rolls in enumerate(recorded_rolls, start=1)]


def _checked_round(number: int, rolls: object, given: object) -> dict[PlayerId, int]:
    """Roll round ``number`` (``given`` as it was given): each player's roll checked."""
    if not isinstance(rolls, Mapping):
        raise SeedingError("roll_round_mapping", number=number, given=repr(given))
    return {p: _check_roll(v, p, number) for p, v in rolls.items()}


Block = tuple[PlayerId, ...]


def _split_by_rolls(block: Block, rolls: Mapping[PlayerId, int]) -> list[Block]:
    """``block`` as blocks of equal rolls, the highest first (in the block's order)."""
    values = sorted(set(rolls.values()), reverse=True)
    return [tuple(p for p in block if rolls[p] == v) for v in values]


def _strangers(number: int, unknown: list[PlayerId]) -> SeedingError:
    """Round ``number`` has rolls of players who are not taking part."""
    code = "roll_not_taking_part" if len(unknown) == 1 else "rolls_not_taking_part"
    return SeedingError(code, number=number, players=_describe(unknown))


class _Ranking:
    """A roll-off under way: ``blocks`` of players, best first; a block of more than one
    player is a tie, and an *open* tie (one reaching into the ``places`` that must be
    decided) is rolled again by exactly its players."""

    def __init__(self, group: Block, places: int):
        self.group = group
        self.places = places
        self.blocks: list[Block] = [group]
        self.history: list[RollRound] = []

    def first_place(self, block: Block) -> int:
        place = 1
        for other in self.blocks:
            if other is block:
                return place
            place += len(other)
        raise AssertionError("block not in ranking")  # pragma: no cover

    def open_ties(self) -> list[Block]:
        return [b for b in self.blocks if len(b) > 1 and self.first_place(b) <= self.places]

    def places_of(self, block: Block) -> dict:
        return _places(self.first_place(block), len(block))

    def apply(self, block: Block, rolls: Mapping[PlayerId, int]) -> None:
        """Record the round ``block`` rolled and split the block by its rolls."""
        start = self.first_place(block)
        self.history.append(
            RollRound(
                number=len(self.history) + 1,
                players=block,
                rolls=tuple(rolls[p] for p in block),
                places=(start, start + len(block) - 1),
            )
        )
        index = next(i for i, other in enumerate(self.blocks) if other is block)
        self.blocks[index : index + 1] = _split_by_rolls(block, rolls)

    def roll_out(self, rng: random.Random) -> None:
        """Roll every open tie, the best-placed first, until none is left."""
        while pending := self.open_ties():
            block = pending[0]
            self.apply(block, {p: rng.randint(1, 6) for p in block})

    def replay(self, recorded: list[dict[PlayerId, int]]) -> None:
        """Apply the recorded rounds, each by exactly the players of an open tie, and
        require that they decide every place that matters."""
        for number, rolls in enumerate(recorded, start=1):
            pending = self.open_ties()
            if not pending:
                raise SeedingError("roll_round_not_needed", number=number, rolls=_describe(rolls))
            match = next((b for b in pending if set(b) == set(rolls)), None)
            if match is None:
                raise self.misplaced(number, rolls, pending)
            self.apply(match, rolls)
        if pending := self.open_ties():
            raise self.unresolved(pending)

    def unresolved(self, pending: list[Block]) -> SeedingError:
        """The recorded rounds stop while ``pending`` ties are open (or there are none)."""
        if not self.history:
            return SeedingError("rolls_missing")
        tied = [part("roll_tied", players=_describe(b), places=self.places_of(b)) for b in pending]
        return SeedingError("roll_tie_unresolved", tied=tied)

    def misplaced(self, number: int, rolls: Mapping, pending: list[Block]) -> SeedingError:
        """Why round ``number`` matches no open tie: a stranger rolled, a tied player did
        not, or the round is by other players than those who still have to roll."""
        unknown = [p for p in rolls if p not in self.group]
        if unknown:
            return _strangers(number, unknown)
        partial = next((b for b in pending if set(rolls) < set(b)), None)
        if partial is not None:
            return self.incomplete(number, rolls, partial)
        return self.wrong_players(number, rolls, pending)

    def wrong_players(self, number: int, rolls: Mapping, pending: list[Block]) -> SeedingError:
        """Round ``number`` is by other players than any tie that must still roll."""
        needed = [
            part("roll_needed", players=_describe(b), places=self.places_of(b)) for b in pending
        ]
        return SeedingError(
            "roll_round_wrong_players" if rolls else "roll_round_empty",
            number=number,
            players=_describe(rolls),
            needed=needed,
        )

    def incomplete(self, number: int, rolls: Mapping, tie: Block) -> SeedingError:
        """Round ``number`` is by some of the players of ``tie``, not all."""
        return SeedingError(
            "roll_round_incomplete",
            number=number,
            players=_describe(p for p in tie if p not in rolls),
            places=self.places_of(tie),
        )

    def result(self) -> DieRollOrder:
        decided = next(
            (i for i, block in enumerate(self.blocks) if len(block) > 1), len(self.blocks)
        )
        order = tuple(p for block in self.blocks for p in block)
        return DieRollOrder(order=order, history=tuple(self.history), decided=decided)


def roll_off(
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
    ranking = _Ranking(group, _places_to_decide(places, len(group)))
    if recorded_rolls is not None:
        ranking.replay(_recorded_rounds(recorded_rolls))
    else:
        ranking.roll_out(rng or random.Random(seed))
    return ranking.result()


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
    return [
        _checked_round(number, item.as_dict() if isinstance(item, RollRound) else item, item)
        for number, item in enumerate(rounds, start=1)
    ]


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
