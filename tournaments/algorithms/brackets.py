"""Playoff brackets and series (``tournament.md``, "Playoffs").

- :func:`build_bracket` — a single-elimination bracket of ``K`` seeds (2 ≤ K ≤ 64)
  with standard seeding: in the first round of a full bracket of size ``P`` (the next
  power of two) seed ``s`` meets ``P + 1 − s``; the matches are laid out so that, if
  the higher seed always wins, every round pairs the best remaining with the worst
  remaining (8 seeds: 1-8, 4-5, 3-6, 2-7; then 1-4, 2-3; then 1-2). Seeds
  ``K + 1 … P`` are empty, so the top ``P − K`` seeds have a first-round bye.
- :func:`xleague_playoffs` — #2 v #3 Qualifying Series (first to 3), its winner v #1
  Final Series (first to 4): the 3-seed bracket.
- :func:`head_start` — the 1–0 head start of the higher seed.
- :func:`series_state` — score, decided?, winner of a series from its game winners.
- :meth:`Bracket.progress` — who plays where, given the series winners so far.

Seeds are the playoff seed numbers ``1 … K`` (1 is best); matches are identified by
``(round, position)``: ``round`` from 1, ``position`` the 0-based index in the full
bracket of that round (round 1 has ``P / 2`` positions, some of them byes and then not
listed). The winner of ``(r, p)`` goes to ``(r + 1, p // 2)``, on the top side if ``p``
is even.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, TypeVar

from tournaments.algorithms.checks import is_whole
from tournaments.algorithms.errors import BracketError

PlayerId = Hashable
MatchKey = tuple[int, int]
Side = Literal["top", "bottom"]
Record = tuple[int, int]
"""A won–lost record: ``(wins, losses)``."""

T = TypeVar("T")

MIN_SEEDS = 2
MAX_SEEDS = 64


@dataclass(frozen=True)
class Slot:
    """One side of a match: a seed entering here, or the winner of an earlier match."""

    seed: int | None = None
    winner_of: MatchKey | None = None

    def __str__(self) -> str:
        if self.seed is not None:
            return f"#{self.seed}"
        assert self.winner_of is not None
        return f"winner of R{self.winner_of[0]}·{self.winner_of[1] + 1}"


@dataclass(frozen=True)
class BracketMatch:
    """A series: ``top`` v ``bottom``, first to ``first_to`` wins."""

    round: int
    position: int
    top: Slot
    bottom: Slot
    first_to: int
    head_start: bool
    name: str

    @property
    def key(self) -> MatchKey:
        return (self.round, self.position)


@dataclass(frozen=True)
class BracketRound:
    number: int
    name: str
    first_to: int
    head_start: bool
    matches: tuple[BracketMatch, ...]


@dataclass(frozen=True)
class BracketProgress:
    """The state of a bracket given the series winners so far.

    ``participants[key]`` is ``(top, bottom)`` — seed numbers, ``None`` while unknown.
    ``champion`` is the winner of the final once decided.
    """

    participants: Mapping[MatchKey, tuple[int | None, int | None]]
    winners: Mapping[MatchKey, int]
    champion: int | None

    def pending(self) -> tuple[MatchKey, ...]:
        """Matches whose two players are known but which have no winner yet."""
        return tuple(
            key
            for key, (top, bottom) in self.participants.items()
            if top is not None and bottom is not None and key not in self.winners
        )


@dataclass(frozen=True)
class Bracket:
    """A single-elimination bracket of ``seeds`` players in a bracket of ``size``."""

    seeds: int
    size: int
    rounds: tuple[BracketRound, ...]
    byes: tuple[int, ...]

    @property
    def matches(self) -> tuple[BracketMatch, ...]:
        return tuple(match for rnd in self.rounds for match in rnd.matches)

    @property
    def final(self) -> BracketMatch:
        return self.rounds[-1].matches[0]

    def match(self, round_number: int, position: int) -> BracketMatch:
        for match in self.matches:
            if match.key == (round_number, position):
                return match
        raise BracketError("bracket_no_match", round=round_number, position=position)

    def next_slot(self, round_number: int, position: int) -> tuple[int, int, Side] | None:
        """Where the winner of ``(round, position)`` goes: ``(round, position, side)``,
        or ``None`` after the final."""
        self.match(round_number, position)
        if round_number == len(self.rounds):
            return None
        return (round_number + 1, position // 2, "top" if position % 2 == 0 else "bottom")

    def progress(self, winners: Mapping[MatchKey, int]) -> BracketProgress:
        """Fill the bracket with the series ``winners`` (``(round, position) → seed``).

        Raises :class:`BracketError` for a winner of an unknown match, of a match whose
        players are not known yet, or who is not one of its two players.
        """
        known = {match.key for match in self.matches}
        for key in winners:
            if key not in known:
                raise BracketError("bracket_no_match", round=key[0], position=key[1])
        participants: dict[MatchKey, tuple[int | None, int | None]] = {}

        def resolve(slot: Slot) -> int | None:
            if slot.seed is not None:
                return slot.seed
            assert slot.winner_of is not None
            return winners.get(slot.winner_of)

        for match in self.matches:  # rounds in order, so earlier winners are known
            top, bottom = resolve(match.top), resolve(match.bottom)
            participants[match.key] = (top, bottom)
            if match.key in winners:
                _check_winner(match, winners[match.key], top, bottom)
        return BracketProgress(
            participants=participants,
            winners=dict(winners),
            champion=winners.get(self.final.key),
        )


def _check_winner(match: BracketMatch, winner: int, top: int | None, bottom: int | None) -> None:
    """``winner`` can have won ``match``: both its players are known and one is the winner."""
    where = {"match": match.name, "round": match.round, "position": match.position}
    if top is None or bottom is None:
        raise BracketError("bracket_winner_early", **where)
    if winner not in (top, bottom):
        raise BracketError(
            "bracket_winner_not_playing", winner=winner, top=top, bottom=bottom, **where
        )


def bracket_order(size: int) -> tuple[int, ...]:
    """Seeds in bracket order for a power-of-two ``size``; consecutive pairs meet.

    8 → (1, 8, 5, 4, 3, 6, 7, 2): matches 1-8, 4-5, 3-6, 2-7.
    """
    if size < 2 or size & (size - 1):
        raise BracketError("bracket_size", size=size)
    order = [1, 2]
    while len(order) < size:
        order = _doubled(order)
    return tuple(order)


def _doubled(order: list[int]) -> list[int]:
    """The bracket order of twice as many seeds: each seed meets its mirror (seed ``s``
    of ``n`` meets ``2n + 1 − s``), every other pair upside down."""
    total = 2 * len(order) + 1
    expanded: list[int] = []
    for index, seed in enumerate(order):
        pair = (seed, total - seed)
        expanded.extend(pair if index % 2 == 0 else reversed(pair))
    return expanded


def default_round_names(rounds: int) -> tuple[str, ...]:
    names = []
    for number in range(1, rounds + 1):
        left = 2 ** (rounds - number + 1)  # players in a full round
        names.append(
            {2: "Final", 4: "Semi-finals", 8: "Quarter-finals"}.get(left, f"Round of {left}")
        )
    return tuple(names)


def _per_round(value: T | Sequence[T], rounds: int, what: str) -> tuple[T, ...]:
    if isinstance(value, Sequence) and not isinstance(value, str):
        values = tuple(value)
        if len(values) != rounds:
            raise BracketError("bracket_per_round", option=what, rounds=rounds, count=len(values))
        return values
    return (value,) * rounds  # type: ignore[return-value]


def build_bracket(
    seeds: int,
    *,
    first_to: int | Sequence[int] = 1,
    head_start: bool | Sequence[bool] = False,
    names: Sequence[str] | None = None,
) -> Bracket:
    """A standard-seeded single-elimination bracket for ``seeds`` players.

    ``first_to`` (series length) and ``head_start`` (whether the head-start rule
    applies) are one value for all rounds or one per round, first round first.
    ``names`` names the rounds (default: "Final", "Semi-finals", "Quarter-finals",
    "Round of N").
    """
    if not is_whole(seeds, at_least=MIN_SEEDS, at_most=MAX_SEEDS):
        raise BracketError("bracket_seed_count", low=MIN_SEEDS, high=MAX_SEEDS, given=repr(seeds))
    size = 1 << (seeds - 1).bit_length()  # the smallest power of two that holds them
    count = size.bit_length() - 1
    lengths, starts, labels = _round_settings(count, first_to, head_start, names)
    order = bracket_order(size)
    rounds: list[BracketRound] = []
    # slot of each position of the current round's field: a seed or a winner
    field: list[Slot | None] = [Slot(seed=s) if s <= seeds else None for s in order]
    for number, length, start, label in zip(
        range(1, count + 1), lengths, starts, labels, strict=True
    ):
        template = BracketRound(number, label, length, start, ())
        bracket_round, field = _play_round(template, field)
        rounds.append(bracket_round)
    return Bracket(seeds=seeds, size=size, rounds=tuple(rounds), byes=_byes(order, seeds))


def _round_settings(
    count: int,
    first_to: int | Sequence[int],
    head_start: bool | Sequence[bool],
    names: Sequence[str] | None,
) -> tuple[tuple, tuple, tuple[str, ...]]:
    """Each of the ``count`` rounds' series length, head start and name, checked."""
    lengths = _per_round(first_to, count, "first_to")
    starts = _per_round(head_start, count, "head_start")
    labels = tuple(names) if names is not None else default_round_names(count)
    if len(labels) != count:
        raise BracketError("bracket_names", rounds=count, count=len(labels))
    for number, (length, start) in enumerate(zip(lengths, starts, strict=True), start=1):
        _check_round_series(number, length, start)
    return lengths, starts, labels


def _byes(order: tuple[int, ...], seeds: int) -> tuple[int, ...]:
    """The seeds whose first-round opponent does not exist (a bracket position beyond
    ``seeds``), best first."""
    pairs = zip(order[::2], order[1::2], strict=True)
    return tuple(sorted(min(a, b) for a, b in pairs if max(a, b) > seeds))


def _check_round_series(number: int, length: object, start: object) -> None:
    """A round's series: first to at least 1, and a head start only where it cannot
    decide the series before it starts."""
    if not is_whole(length, at_least=1):
        raise BracketError("round_first_to_positive", round=number, given=repr(length))
    if not isinstance(start, bool):
        raise BracketError("round_head_start_bool", round=number, given=repr(start))
    if start and length < 2:  # type: ignore[operator]
        raise BracketError("round_head_start_first_to_1", round=number)


def _play_round(
    template: BracketRound, field: list[Slot | None]
) -> tuple[BracketRound, list[Slot | None]]:
    """The matches of one round between neighbouring positions of ``field`` (a missing
    side is a bye: the present one advances), and the field of the next round."""
    matches = []
    next_field: list[Slot | None] = []
    for position in range(len(field) // 2):
        top, bottom = field[2 * position], field[2 * position + 1]
        if top is None or bottom is None:
            next_field.append(top if bottom is None else bottom)
            continue
        top, bottom = _higher_seed_on_top(top, bottom)
        matches.append(
            BracketMatch(
                round=template.number,
                position=position,
                top=top,
                bottom=bottom,
                first_to=template.first_to,
                head_start=template.head_start,
                name=template.name,
            )
        )
        next_field.append(Slot(winner_of=(template.number, position)))
    return replace(template, matches=tuple(matches)), next_field


def _higher_seed_on_top(top: Slot, bottom: Slot) -> tuple[Slot, Slot]:
    if top.seed is not None and bottom.seed is not None and bottom.seed < top.seed:
        return bottom, top
    return top, bottom


def xleague_playoffs() -> Bracket:
    """XLeague: #2 v #3 Qualifying Series (first to 3), winner v #1 Final Series
    (first to 4); the higher seed's head start applies in both."""
    return build_bracket(
        3, first_to=(3, 4), head_start=True, names=("Qualifying Series", "Final Series")
    )


def head_start(
    higher_record: Record | None = None,
    lower_record: Record | None = None,
    *,
    enabled: bool = True,
) -> int:
    """The higher seed's head start in a series: 1 or 0.

    1 if the rule is ``enabled``, unless both players had the same won–lost record
    (same wins and same losses) and were separated only by tie-breaks. Without records
    (``None``) the head start applies.
    """
    if not enabled:
        return 0
    same = higher_record is not None and lower_record is not None
    if same and tuple(higher_record) == tuple(lower_record):  # type: ignore[arg-type]
        return 0
    return 1


@dataclass(frozen=True)
class SeriesState:
    """A series between ``higher`` (the higher seed) and ``lower``.

    ``higher_score`` includes the head start. ``games_played`` counts games actually
    played; ``max_games_left`` is how many more games may be needed at most.
    """

    higher: PlayerId
    lower: PlayerId
    first_to: int
    head_start: int
    higher_score: int
    lower_score: int
    games_played: int
    winner: PlayerId | None

    @property
    def decided(self) -> bool:
        return self.winner is not None

    @property
    def loser(self) -> PlayerId | None:
        if self.winner is None:
            return None
        return self.lower if self.winner == self.higher else self.higher

    @property
    def score(self) -> str:
        """ "3–1": the higher seed's score first (head start included)."""
        return f"{self.higher_score}–{self.lower_score}"

    @property
    def max_games_left(self) -> int:
        if self.decided:
            return 0
        return (self.first_to - self.higher_score) + (self.first_to - self.lower_score) - 1


def _check_series(higher: PlayerId, lower: PlayerId, first_to: int, head_start: int) -> None:
    if higher == lower:
        raise BracketError("series_two_players")
    if not is_whole(first_to, at_least=1):
        raise BracketError("first_to_positive", given=repr(first_to))
    if not is_whole(head_start):
        raise BracketError("head_start_whole", given=repr(head_start))
    if not 0 <= head_start < first_to:
        raise BracketError("head_start_impossible", head_start=head_start, first_to=first_to)


def series_state(
    game_winners: Sequence[PlayerId],
    *,
    higher: PlayerId,
    lower: PlayerId,
    first_to: int,
    head_start: int = 0,
) -> SeriesState:
    """Score a series from its game winners in order (``higher`` is the higher seed).

    Raises :class:`BracketError` for a winner who is not in the series, games recorded
    after the series was decided, or an impossible configuration.
    """
    _check_series(higher, lower, first_to, head_start)
    scores = {higher: head_start, lower: 0}
    winner: PlayerId | None = None
    for number, game_winner in enumerate(game_winners, start=1):
        if winner is not None:
            raise BracketError("series_game_after", game=number, winner=repr(winner))
        if game_winner not in scores:
            raise BracketError("series_winner_stranger", game=number, winner=repr(game_winner))
        scores[game_winner] += 1
        if scores[game_winner] == first_to:
            winner = game_winner
    return SeriesState(
        higher=higher,
        lower=lower,
        first_to=first_to,
        head_start=head_start,
        higher_score=scores[higher],
        lower_score=scores[lower],
        games_played=len(game_winners),
        winner=winner,
    )


@dataclass(frozen=True)
class PlayoffRounds:
    """A bracket's per-round settings, one value per round, first round first."""

    seeds: int
    first_to: tuple[int, ...]
    head_start: tuple[bool, ...]

    def build(self, names: Sequence[str] | None = None) -> Bracket:
        """The bracket with these settings."""
        return build_bracket(
            self.seeds, first_to=self.first_to, head_start=self.head_start, names=names
        )


def rounds_for(seeds: int) -> int:
    """How many rounds a bracket of ``seeds`` has (2 → 1, 3–4 → 2, 5–8 → 3, …)."""
    if isinstance(seeds, bool) or not isinstance(seeds, int) or not MIN_SEEDS <= seeds <= MAX_SEEDS:
        raise BracketError("bracket_seed_count", low=MIN_SEEDS, high=MAX_SEEDS, given=repr(seeds))
    return (seeds - 1).bit_length()


def _spread(value: object, count: int, what: str) -> tuple[object, ...]:
    """One value, or a list of one value (every round), or one value per round."""
    if isinstance(value, list | tuple):
        values = tuple(value)
        if len(values) == 1:
            return values * count
        if len(values) != count:
            raise BracketError("bracket_spread", option=what, rounds=count, count=len(values))
        return values
    return (value,) * count


def _head_starts(
    head_start: bool | Sequence[bool] | None, lengths: tuple[object, ...], count: int
) -> tuple[object, ...]:
    """Whether the head-start rule applies, per round: as given, or by default in every
    round longer than first-to-1."""
    if head_start is None:
        return tuple(length >= 2 for length in lengths)  # type: ignore[operator]
    starts = _spread(head_start, count, "head_start")
    for number, start in enumerate(starts, start=1):
        if not isinstance(start, bool):
            raise BracketError("round_head_start_true_false", round=number, given=repr(start))
    return starts


def playoff_rounds(
    seeds: int,
    first_to: int | Sequence[int] = 1,
    head_start: bool | Sequence[bool] | None = None,
) -> PlayoffRounds:
    """Normalise and validate a bracket's per-round settings.

    ``first_to`` and ``head_start`` are each one value for every round, a list of one
    value, or a list with one value per round, first round first (e.g.
    ``head_start=[False, True]``: no head start in the semi-finals, the head-start rule
    in the final). ``head_start=None`` *(platform default)* applies the rule in every
    round longer than first-to-1. Returns full per-round tuples; raises
    :class:`BracketError` naming the round for a wrong count, a value that is not a
    whole number 1–9 / ``true``/``false``, or a head start in a first-to-1 round.
    """
    count = rounds_for(seeds)
    lengths = _spread(first_to, count, "first_to")
    for number, length in enumerate(lengths, start=1):
        if not is_whole(length, at_least=1, at_most=9):
            raise BracketError("round_first_to_range", round=number, given=repr(length))
    starts = _head_starts(head_start, lengths, count)
    result = PlayoffRounds(seeds, tuple(lengths), tuple(starts))  # type: ignore[arg-type]
    result.build()  # the bracket's own checks (a head start in a first-to-1 series)
    return result
