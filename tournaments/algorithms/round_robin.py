"""Round-robin schedules in seed numbers (``tournament.md``, "League").

Players are the seed numbers ``1 … n`` of a DRR (see :mod:`.seeding`); a game is a
tuple of seed numbers in **at-board order** (the first mentioned player first).

- :func:`three_player_drr` — the exact XMädn order for three players, with the
  organizer's reordering of G4–G6.
- :func:`double_round_robin` — any ``2 ≤ n ≤ 64``: Berger tables for the first half,
  every pairing again with the first mentioned player swapped for the second half.
  Three players get the XMädn order.
- :func:`triple_threat_schedule` — three players to a (6-colour) board, rounds of
  disjoint boards with pair meetings balanced.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product

from tournaments.algorithms.checks import is_whole
from tournaments.algorithms.errors import SchedulingError

MIN_PLAYERS = 2
MAX_PLAYERS = 64

Game = tuple[int, ...]
"""Seed numbers in at-board order: ``(2, 1)`` is "#2 vs #1", #2 first mentioned."""

#: The XMädn three-player DRR: game number → at-board order.
THREE_PLAYER_GAMES: dict[int, Game] = {
    1: (1, 2),
    2: (3, 1),
    3: (2, 3),
    4: (2, 1),
    5: (1, 3),
    6: (3, 2),
}
DEFAULT_LATE_ORDER: tuple[int, int, int] = (4, 5, 6)


@dataclass(frozen=True)
class Round:
    """One round of a schedule.

    ``number`` is the playing order (1-based); ``label`` names the round for people
    ("G5" in the three-player DRR, "R3" otherwise); ``leg`` is 1 or 2 for the two
    halves of a DRR (1 for triple-threat schedules). ``byes`` are the seeds that sit
    the round out.
    """

    number: int
    games: tuple[Game, ...]
    byes: tuple[int, ...] = ()
    label: str = ""
    leg: int = 1

    @property
    def bye(self) -> int | None:
        """The single bye of a two-player round robin (``None`` if nobody sits out)."""
        if not self.byes:
            return None
        if len(self.byes) > 1:
            raise SchedulingError("round_byes", round=self.number, count=len(self.byes))
        return self.byes[0]

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone playing this round, in game order then at-board order."""
        return tuple(p for game in self.games for p in game)


@dataclass(frozen=True)
class Schedule:
    """A complete schedule for seeds ``1 … players``."""

    players: int
    rounds: tuple[Round, ...]

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game in playing order."""
        return tuple(game for rnd in self.rounds for game in rnd.games)

    def leg(self, number: int) -> tuple[Round, ...]:
        """The rounds of leg (half) ``1`` or ``2``."""
        return tuple(rnd for rnd in self.rounds if rnd.leg == number)


def _check_count(n: object, minimum: int = MIN_PLAYERS) -> int:
    if not is_whole(n):
        raise SchedulingError("players_not_integer", given=repr(n))
    if not minimum <= n <= MAX_PLAYERS:
        raise SchedulingError("schedule_players", low=minimum, high=MAX_PLAYERS, count=n)
    return n


def check_late_order(late_order: Iterable[object]) -> tuple[int, int, int]:
    """Validate an organizer's order of G4–G6 (a permutation of 4, 5, 6)."""
    order = _as_tuple(late_order)
    if not all(is_whole(g) for g in order) or sorted(order) != [4, 5, 6]:  # type: ignore[type-var]
        raise SchedulingError("late_order_games", given=repr(order))
    return order  # type: ignore[return-value]


def _as_tuple(late_order: Iterable[object]) -> tuple[object, ...]:
    """The organizer's order as a tuple (a list of game numbers, not a string)."""
    if isinstance(late_order, str | bytes):
        raise SchedulingError("late_order_list", given=repr(late_order))
    try:
        return tuple(late_order)
    except TypeError:
        raise SchedulingError("late_order_list", given=repr(late_order)) from None


def three_player_drr(late_order: Iterable[int] = DEFAULT_LATE_ORDER) -> Schedule:
    """The XMädn three-player DRR: G1 #1–#2, G2 #3–#1, G3 #2–#3, then G4–G6.

    ``late_order`` lists the games 4, 5, 6 in the order they are played (the organizer
    may reorder them so that important results are decided late); e.g. ``(6, 4, 5)``
    plays G6 fourth. Every round has one game and the third player as its bye.
    """
    order = (1, 2, 3, *check_late_order(late_order))
    rounds = []
    for number, game_no in enumerate(order, start=1):
        game = THREE_PLAYER_GAMES[game_no]
        bye = next(p for p in (1, 2, 3) if p not in game)
        rounds.append(
            Round(
                number=number,
                games=(game,),
                byes=(bye,),
                label=f"G{game_no}",
                leg=1 if game_no <= 3 else 2,
            )
        )
    return Schedule(players=3, rounds=tuple(rounds))


def berger_tables(n: int) -> tuple[Round, ...]:
    """One round robin by Berger tables (FIDE layout, circle method).

    For an even count the last seed is the circle's fixed point; for an odd count a
    phantom seed ``n + 1`` is added and whoever meets it has the bye. Colours ("who is
    first mentioned") follow the FIDE Berger tables, which alternate for every player
    except for at most one break, so nobody is first mentioned more than twice in a
    row within the table.
    """
    _check_count(n)
    m = n if n % 2 == 0 else n + 1  # with the phantom
    rounds: list[Round] = []
    for r in range(1, m):
        games = _berger_round(r, m)
        byes = _drop_phantom(games, m) if m != n else ()
        rounds.append(Round(number=r, games=tuple(games), byes=byes, label=f"R{r}", leg=1))
    return tuple(rounds)


def _drop_phantom(games: list[Game], phantom: int) -> tuple[int, ...]:
    """Take the phantom seed's game out of ``games``: whoever meets it has the bye."""
    game = next(g for g in games if phantom in g)
    games.remove(game)
    return tuple(p for p in game if p != phantom)


def _berger_round(r: int, m: int) -> list[Game]:
    """Round ``r`` of the Berger table of ``m`` seeds (even; ``m`` is the fixed point):
    the games, first mentioned first."""
    k = m - 1  # circle size
    target = (r + 1) % k
    # the seed that meets the fixed point m this round: 2·p ≡ r + 1 (mod k)
    p0 = next(i for i in range(1, m) if (2 * i) % k == target)
    games: list[Game] = [(p0, m) if r % 2 == 1 else (m, p0)]
    for d in range(1, m // 2):
        a = (p0 + d - 1) % k + 1
        b = (p0 - d - 1) % k + 1
        low, high = min(a, b), max(a, b)
        games.append((low, high) if (high - low) % 2 == 1 else (high, low))
    return games


def double_round_robin(n: int, *, late_order: Iterable[int] | None = None) -> Schedule:
    """A double round robin for seeds ``1 … n`` (``2 ≤ n ≤ 64``).

    Three players get the XMädn order (:func:`three_player_drr`; ``late_order`` reorders
    G4–G6 and is accepted only for three players).

    Otherwise the first half is :func:`berger_tables`; the second half plays every
    round of the first half again with the first mentioned player swapped, in the order
    2, 3, …, last, 1 *(platform rule)*. Starting the second half with the table's second
    round avoids the run "first mentioned in the last round of the first half and the
    first round of the second half" that the plain repetition produces; with it nobody
    is first mentioned more than twice in a row (byes do not interrupt a run), and for
    an odd count never twice in a row. Each player has exactly one bye per half for an
    odd count.
    """
    _check_count(n)
    if n == 3:
        return three_player_drr(DEFAULT_LATE_ORDER if late_order is None else late_order)
    if late_order is not None:
        raise SchedulingError("late_order_three_only", count=n)
    first = berger_tables(n)
    return Schedule(players=n, rounds=(*first, *_second_half(first)))


def _second_half(first: tuple[Round, ...]) -> list[Round]:
    """The first half's rounds again, first mentioned swapped, in the order 2, 3, …, 1."""
    count = len(first)
    second_order = [*first[1:], first[0]]
    rounds = []
    for offset, rnd in enumerate(second_order, start=1):
        number = count + offset
        rounds.append(
            Round(
                number=number,
                games=tuple(tuple(reversed(game)) for game in rnd.games),
                byes=rnd.byes,
                label=f"R{number}",
                leg=2,
            )
        )
    return rounds


# --------------------------------------------------------------------------------------
# Triple threat: three players to a board.

_Cost = tuple[int, int]  # (boards without a "due" player, pair-meeting cost)


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _due_first(
    playing: list[int], due: frozenset[int], rng: random.Random, attempt: int
) -> list[int]:
    """The due players, then the others; shuffled (each group) after the first attempt."""
    heads = [p for p in playing if p in due]
    others = [p for p in playing if p not in due]
    if attempt:
        rng.shuffle(heads)
        rng.shuffle(others)
    return heads + others


def _companions(free: list[int], due: frozenset[int], boards_left: int) -> list[int]:
    """Whom a board's head may take as companions: while the due players left are no
    more than the boards left (each of them should head one), the others."""
    if len(due.intersection(free)) > boards_left:
        return free
    pool = [p for p in free if p not in due]
    return pool if len(pool) >= 2 else free


class _Swaps:
    """Swapping players between boards of three: ``uncovered[i]`` is 1 for a board
    without a "due" player; a swap is made when it covers more boards, or as many at a
    lower pair-meeting weight."""

    def __init__(self, triples: list[list[int]], due: frozenset[int], weight: list[list[int]]):
        self.triples = triples
        self.due = due
        self.weight = weight
        self.uncovered = [0 if due.intersection(t) else 1 for t in triples]

    def _uncovered(self, player: int, rest: list[int]) -> int:
        return 0 if (player in self.due or self.due.intersection(rest)) else 1

    def _weight_change(self, leaving: int, coming: int, rest: list[int]) -> int:
        """How the board's pair weight changes when ``coming`` takes ``leaving``'s seat."""
        weight = self.weight
        return sum(weight[coming][o] - weight[leaving][o] for o in rest)

    def try_swap(self, i: int, x: int, j: int, y: int) -> bool:
        """Swap seat ``x`` of board ``i`` with seat ``y`` of board ``j`` if that helps."""
        ti, tj = self.triples[i], self.triples[j]
        a, b = ti[x], tj[y]
        rest_i = [p for p in ti if p != a]
        rest_j = [p for p in tj if p != b]
        delta = self._weight_change(a, b, rest_i) + self._weight_change(b, a, rest_j)
        new_ui, new_uj = self._uncovered(b, rest_i), self._uncovered(a, rest_j)
        if (new_ui + new_uj - self.uncovered[i] - self.uncovered[j], delta) >= (0, 0):
            return False
        ti[x], tj[y] = b, a
        self.uncovered[i], self.uncovered[j] = new_ui, new_uj
        return True


class _Planner:
    """Round-by-round state of a triple-threat schedule."""

    def __init__(self, n: int, restarts: int) -> None:
        self.n = n
        self.restarts = restarts
        self.seeds = list(range(1, n + 1))
        self.meetings: dict[tuple[int, int], int] = {}
        self.bye_counts = dict.fromkeys(self.seeds, 0)
        self.last_bye = dict.fromkeys(self.seeds, 0)
        self.seat_counts = {p: [0, 0, 0] for p in self.seeds}
        self._weights: list[list[int]] | None = None

    # -- costs -------------------------------------------------------------------------

    def pair_cost(self, triple: Sequence[int]) -> int:
        # Convex in the number of earlier meetings: one pair meeting a third time costs
        # more than two pairs meeting a second time.
        meetings = self.meetings
        return sum(4 ** meetings.get(_pair(a, b), 0) for a, b in combinations(triple, 2))

    # -- partition ---------------------------------------------------------------------

    def _improve(self, triples: list[list[int]], due: frozenset[int]) -> _Cost:
        """Swap players between boards while that lowers the cost; return the cost."""
        swaps = _Swaps(triples, due, self.weights())
        improved = True
        while improved:
            improved = False
            for i, j in combinations(range(len(triples)), 2):
                for x, y in product(range(3), range(3)):
                    improved |= swaps.try_swap(i, x, j, y)
        return (sum(swaps.uncovered), sum(self.pair_cost(t) for t in triples))

    def weights(self) -> list[list[int]]:
        """``weights()[a][b]`` = 4 ** (earlier meetings of a and b)."""
        if self._weights is None:
            size = self.n + 1
            self._weights = [[1] * size for _ in range(size)]
            for (a, b), count in self.meetings.items():
                self._weights[a][b] = self._weights[b][a] = 4**count
        return self._weights

    def partition(
        self, playing: list[int], rng: random.Random, restarts: int
    ) -> tuple[_Cost, list[list[int]], frozenset[int]]:
        """Split ``playing`` into boards of three.

        Primary goal: as many boards as possible hold a "due" player (one who was
        first mentioned least often), so that the first-mentioned seat can rotate;
        secondary: the pair-meeting cost.
        """
        due = self._due(playing)
        best: tuple[_Cost, list[list[int]]] | None = None
        for attempt in range(restarts):
            triples = self._greedy_boards(
                _due_first(playing, due, rng, attempt), due, len(playing) // 3
            )
            cost = self._improve(triples, due)
            if best is None or cost < best[0]:
                best = (cost, [list(t) for t in triples])
        assert best is not None
        return best[0], best[1], due

    def _due(self, playing: list[int]) -> frozenset[int]:
        """The players first mentioned least often so far."""
        low = min(self.seat_counts[p][0] for p in playing)
        return frozenset(p for p in playing if self.seat_counts[p][0] == low)

    def _greedy_boards(self, free: list[int], due: frozenset[int], boards: int) -> list[list[int]]:
        """The greedy start: each board takes the next free player (the due ones come
        first) and the two companions adding the least cost; while the due players are
        fewer than the boards left, companions are not due players."""
        weight = self.weights()
        triples: list[list[int]] = []
        while free:
            head = free.pop(0)
            pool = _companions(free, due, boards - len(triples) - 1)
            head_due = head in due
            wh = weight[head]

            def start_cost(ab: tuple[int, int], wh: list[int] = wh, hd: bool = head_due) -> _Cost:
                a, b = ab
                covered = hd or a in due or b in due
                return (0 if covered else 1, wh[a] + wh[b] + weight[a][b])

            a, b = min(combinations(pool, 2), key=start_cost)
            free.remove(a)
            free.remove(b)
            triples.append([head, a, b])
        return triples

    # -- byes --------------------------------------------------------------------------

    def choose_byes(self, number: int) -> list[int]:
        """The ``n % 3`` players sitting out round ``number``.

        Bye counts stay within one of each other: players with the fewest byes sit out
        first. When that leaves a choice, small choices (≤ 36 candidate sets) are
        decided by the best resulting boards, then by the longest time since the last
        bye; larger ones by the longest time since the last bye, then the highest seed
        numbers.
        """
        slots = self.n % 3
        if not slots:
            return []
        forced, pool = self._bye_candidates(slots)
        options = list(combinations(pool, slots - len(forced)))
        if len(options) == 1 or len(options) > 36:
            return forced + list(options[0])

        def quality(option: tuple[int, ...]) -> tuple[_Cost, int, int]:
            byes = set(forced) | set(option)
            playing = [p for p in self.seeds if p not in byes]
            cost, _, _ = self.partition(playing, random.Random(number), 1)
            return cost, sum(self.last_bye[p] for p in option), -sum(option)

        return forced + list(min(options, key=quality))

    def _bye_candidates(self, slots: int) -> tuple[list[int], list[int]]:
        """Who must sit out (fewer byes than the ``slots``-th in line) and among whom
        the rest of the byes is chosen (as many byes as the ``slots``-th), in order of
        bye count, then last bye, then seed number (highest first)."""
        order = sorted(self.seeds, key=lambda p: (self.bye_counts[p], self.last_bye[p], -p))
        threshold = self.bye_counts[order[slots - 1]]
        forced = [p for p in order if self.bye_counts[p] < threshold]
        pool = [p for p in order if self.bye_counts[p] == threshold]
        return forced, pool

    # -- seats -------------------------------------------------------------------------

    def seat(self, triple: Sequence[int], due: frozenset[int]) -> Game:
        """At-board order: a due player first (the one first mentioned least often),
        the others balancing positions 2 and 3; ties by seed number."""
        counts = self.seat_counts

        def key(order: tuple[int, ...]) -> tuple[int, ...]:
            return (
                0 if order[0] in due else 1,
                counts[order[0]][0],
                counts[order[1]][1] + counts[order[2]][2],
                *order,
            )

        return min(permutations(triple), key=key)

    # -- rounds ------------------------------------------------------------------------

    def _record(self, game: Game) -> None:
        """Count the seats the game's players take and the pairs that meet."""
        for pos, p in enumerate(game):
            self.seat_counts[p][pos] += 1
        for a, b in combinations(game, 2):
            key = _pair(a, b)
            self.meetings[key] = self.meetings.get(key, 0) + 1

    def plan_round(self, number: int) -> Round:
        byes = self.choose_byes(number)
        playing = [p for p in self.seeds if p not in byes]
        _, triples, due = self.partition(
            playing, random.Random(self.n * 10_007 + number), self.restarts
        )
        games = []
        for triple in triples:
            games.append(self.seat(triple, due))
            self._record(games[-1])
        self._weights = None
        for p in byes:
            self.bye_counts[p] += 1
            self.last_bye[p] = number
        games.sort(key=min)
        return Round(
            number=number, games=tuple(games), byes=tuple(sorted(byes)), label=f"R{number}"
        )


def triple_threat_schedule(n: int, rounds: int, *, restarts: int | None = None) -> Schedule:
    """Rounds of triple-threat boards (three players each) for seeds ``1 … n``.

    ``3 ≤ n ≤ 64``; ``1 ≤ rounds ≤ 1000`` is the organizer's number of rounds (games
    per player, byes aside). Every round seats ``n // 3`` boards; the ``n % 3`` others
    have a bye. Exactly three players: one board per round with all three, the at-board
    order rotating (1, 2, 3), (2, 3, 1), (3, 1, 2), …

    Guarantees (tested):

    - boards are disjoint triples; nobody plays twice in a round;
    - byes are spread evenly: after every round any two players' bye counts differ by
      at most one;
    - the first mentioned seat rotates: when ``n`` is a multiple of three, after every
      round any two players' first-mentioned counts differ by at most one.

    Pair balance is a heuristic, not an optimal design: each round minimises
    Σ 4^(earlier meetings) over the board's pairs (greedy start, then player swaps
    between boards, with ``restarts`` deterministic restarts; default 6, 2 above 33
    players), so new pairs are preferred to repeats and a third meeting is avoided
    before second ones. For 9 players it finds the Kirkman schedule (4 rounds, every
    pair exactly once). The result is deterministic.
    """
    _check_count(n, minimum=3)
    if not is_whole(rounds, at_least=1, at_most=1000):
        raise SchedulingError("schedule_rounds", given=repr(rounds))
    if restarts is None:
        restarts = 6 if n <= 33 else 2
    if not is_whole(restarts, at_least=1):
        raise SchedulingError("restarts_positive", given=repr(restarts))
    planner = _Planner(n, restarts)
    return Schedule(
        players=n, rounds=tuple(planner.plan_round(number) for number in range(1, rounds + 1))
    )
