"""The rollout policy: how every colour plays in a rollout.

Three players, in order of cost: the heuristic bot itself, its exact incremental
replica, and :class:`LitePolicy` (the default), a cheaper relative measured to be
as strong.

:class:`HeuristicPolicy` plays exactly like :class:`games.engine.bots.HeuristicBot`
(the engine's heuristic computer player): a copy of the game and a full evaluation
per legal move. :class:`FastHeuristicPolicy` makes the same choices without copying:
the heuristic score is a sum of per-pawn terms, and an ordinary move (one own pawn
steps forward, captures nothing, neither leaves nor lands on the start field of an
enemy with pawns in its yard — the only way one pawn's move changes the terms of the
others) changes only the moved pawn's term and the "unpacked house" term of its
colour. Everything else (captures, entries, huffs, a neutral colour, barriers,
backward moves) is scored by the bot itself on a copy. Its choices equal the bot's
(a property test checks it on random positions; ``bench/rollout_policy.py`` counts
agreements and times both over whole games); only float rounding could split an
exact tie differently.
"""

from __future__ import annotations

import random

from ..board import PAWNS_PER_COLOUR
from ..bots import HeuristicBot
from ..game import Game
from ..moves import RawMove


def variant_win(game: Game, seat: int, moves: list[RawMove]) -> RawMove | None:
    """A move of ``moves`` that wins the game by its platform variant's condition at once
    (a capture in First capture, the second pawn home in Quick), if there is one."""
    variant = game.platform_variant
    T = game.T
    for m in moves:
        home_after = game.home[seat] + (1 if m[0] == seat and 0 <= m[1] < T <= m[2] else 0)
        if variant.decides(home_after, m):
            return m
    return None


class Policy:
    """Chooses one of at least two legal moves, and the huffed pawn."""

    name = "policy"

    def start(self, seed: int) -> None:
        """Called before every rollout with that rollout's dice seed (every option's
        rollout ``k`` gets the same one): a policy that draws random numbers seeds them
        here, so its choices are paired across the options like the dice and independent
        across rollouts. The deterministic policies ignore it."""

    def choose(self, game: Game, seat: int, die: int, moves: list[RawMove]) -> RawMove:
        raise NotImplementedError

    def choose_huff(self, game: Game, seat: int, targets: list[int]) -> int:
        return targets[0]


class HeuristicPolicy(Policy):
    """The heuristic bot's choices (one copy and a full evaluation per legal move)."""

    name = "heuristic"

    def __init__(self) -> None:
        self.bot = HeuristicBot()

    def choose(self, game, seat, die, moves):
        return self.bot.choose(game, seat, die, moves, None)

    def choose_huff(self, game, seat, targets):
        return self.bot.choose_huff(game, seat, targets, None)


class FastHeuristicPolicy(HeuristicPolicy):
    """The heuristic bot's choices, scored incrementally (see the module docstring)."""

    name = "heuristic"  # the same player: only faster

    def __init__(self) -> None:
        super().__init__()
        self._setup = None
        self._by_seat: dict[int, frozenset[int]] = {}
        self._plain = True

    def allies(self, game: Game, seat: int) -> frozenset[int]:
        """The seats of ``seat``'s player (cached for the last setup seen)."""
        setup = game.setup
        if setup is not self._setup:
            by_seat: dict[int, frozenset[int]] = {}
            for seats in setup.players.values():
                for s in seats:
                    by_seat[s] = frozenset(seats)
            self._setup, self._by_seat = setup, by_seat
            r = setup.rules
            self._plain = not (
                r.barriers or r.capture_backwards or r.huff or setup.neutral is not None
            )
        return self._by_seat[seat]

    def choose(self, game, seat, die, moves):  # noqa: C901 (hot loop: the rollout policy, per decision of every rollout; inlined)
        if game.platform_variant is not None:  # a move that wins the variant's game first
            win = variant_win(game, seat, moves)
            if win is not None:
                return win
        if game.variants or game.neutral >= 0 or game.huffing:
            return self.bot.choose(game, seat, die, moves, None)
        allies = self.allies(game, seat)
        bot = self.bot
        T = game.T
        yard = game.yard
        start = game.start
        starts = [start[e] for e in range(len(yard)) if yard[e] and e not in allies]
        absm = game.abs_of[seat]
        pw = game.pawns[seat]
        track = game.track
        rel_of = game.rel_of
        # the bot's constants, as locals
        entry, power, risk_w, threat_w = bot.ENTRY, bot.POWER, bot.RISK, bot.THREAT
        house = entry + T + bot.HOUSE
        depth = bot.DEPTH
        hit, hit_far = 1.0 - bot.HIT, 1.0 - bot.HIT_FAR
        attackers = self.attackers(game, allies)
        check_unpacked = game.three and yard[seat]

        def term(p: int) -> float:
            # HeuristicBot.evaluate's term of one own pawn on p (relative) with its
            # _risk, factor by factor in the same order
            if p >= T:
                return house + (p - T) * depth
            a = absm[p]
            miss = 1.0
            for rel, on_track, six, start_free in attackers:
                r = rel[a]
                for q in on_track:
                    d = r - q
                    if 1 <= d <= 6:
                        miss *= hit
                    elif 7 <= d <= 12:
                        miss *= hit_far
                if six:
                    if r == 0:
                        miss *= 1.0 - six
                    elif r <= 6 and start_free:
                        miss *= 1.0 - six / 6.0
            value = (entry + T * (p / T) ** power) * (1.0 - risk_w * (1.0 - miss))
            for t in range(p + 1, min(p + 7, T)):
                b = absm[t]
                e = track[b]
                if e >= 0 and e not in allies:
                    v = rel_of[e][b] / T
                    value += threat_w * (entry + T * v * v) / 6.0
            return value

        scores: list[float | None] = []
        full = False
        for m in moves:
            s, frm, to, cap = m
            if (
                cap >= 0
                or frm < 0
                or s != seat
                or (frm < T and absm[frm] in starts)
                or (to < T and absm[to] in starts)
            ):
                scores.append(None)
                full = True
                continue
            score = term(to) - term(frm)
            if check_unpacked:
                after = list(pw)
                after[after.index(frm)] = to
                score += self.unpacked(game, seat, after)
            scores.append(score)
        if full:  # some moves are scored on a copy: put all on the same scale
            base = bot.evaluate(game, allies) - self.unpacked(game, seat, pw)
            for i, m in enumerate(moves):
                if scores[i] is None:
                    g = game.copy()
                    g.move_pawn(seat, m)
                    scores[i] = bot.evaluate(g, allies)
                else:
                    scores[i] += base
        best = moves[0]
        best_score = -1e18
        for m, score in zip(moves, scores, strict=True):
            if score > best_score:
                best, best_score = m, score
        return best

    def attackers(self, g: Game, allies: frozenset[int]) -> list[tuple]:
        """What the risk of a pawn depends on, once per choice: per enemy seat (in seat
        order) its relative-field table, its track pawns, and its yard's entry chance
        (0 for an empty yard) and whether its field A is free."""
        bot = self.bot
        T = g.T
        out = []
        for e, pw in enumerate(g.pawns):
            if e in allies or not pw or g.finished[e]:
                continue
            six = 0.0
            if g.yard[e]:
                six = bot.STUCK_SIX if g.three and g.stuck(e) else 1.0 / 6.0
            on_track = [q for q in pw if 0 <= q < T]
            out.append((g.rel_of[e], on_track, six, g.track[g.abs_of[e][0]] < 0))
        return out

    def unpacked(self, g: Game, s: int, pawns: list[int]) -> float:
        """The heuristic bot's "unpacked house" term of seat ``s`` with these pawns."""
        T = g.T
        if not g.three or not g.yard[s] or any(0 <= p < T for p in pawns):
            return 0.0
        lowest = T + PAWNS_PER_COLOUR - sum(1 for p in pawns if p >= T)
        if all(p < 0 or p >= lowest for p in pawns):
            return 0.0  # packed: stuck
        return -self.bot.UNPACKED


class LitePolicy(FastHeuristicPolicy):
    """A cheaper relative of the heuristic bot (its own player: measured, not equal).

    Per legal move it scores only the moved pawn and its victim, with the bot's
    weights: the pawn's worth (convex progress, out of the yard, in the house, deeper)
    times the chance it survives until its next turn — enemy pawns 1–6 fields behind
    (found by looking at those six fields) and enemy entries — before and after the
    move, and the threats it makes on enemy pawns 1–6 fields ahead, plus half the
    victim's worth for a capture (minus the whole of it for an ally's pawn) and the
    bot's "unpacked house" term. It drops the bot's term for enemies 7–12 fields
    behind and ignores how a move changes the risk of the other pawns.
    ``bench/rollout_policy.py --strength lite`` measures it against the bot.
    """

    name = "lite"

    def __init__(self) -> None:
        super().__init__()
        self._tables: dict[int, tuple] = {}
        self._context_setup = None
        self._context: dict[int, tuple] = {}

    def tables(self, T: int) -> tuple:
        """Per track length: the six fields behind each absolute field (nearest first),
        a track pawn's worth by relative field, the threat on an enemy pawn by its
        relative field, and a house pawn's base worth — computed once."""
        found = self._tables.get(T)
        if found is None:
            bot = self.bot
            behind = [tuple((a - t) % T for t in range(1, 7)) for a in range(T)]
            worth = [bot.ENTRY + T * (p / T) ** bot.POWER for p in range(T)]
            threat = [bot.THREAT * (bot.ENTRY + T * (q / T) * (q / T)) / 6.0 for q in range(T)]
            found = self._tables[T] = (behind, worth, threat, bot.ENTRY + T + bot.HOUSE)
        return found

    def context(self, game: Game, seat: int) -> tuple:
        """What a choice of ``seat`` needs that only depends on the setup (cached): its
        allies, whether the rules are plain (else the bot itself chooses), ``enemy[o]``
        for a field's occupant ``o`` (-1, an empty field, is the last entry), its
        relative → absolute field table, the tables and the bot's weights."""
        if game.setup is not self._context_setup:  # (a game's copies share its setup)
            self._context_setup = game.setup
            self._context = {}
        found = self._context.get(seat)
        if found is None:
            bot = self.bot
            allies = self.allies(game, seat)
            enemy = [e not in allies for e in range(len(game.yard))] + [False]
            found = self._context[seat] = (
                allies,
                self._plain,
                enemy,
                game.abs_of[seat],
                *self.tables(game.T),
                bot.DEPTH,
                1.0 - bot.HIT,
                bot.ENEMY,
                bot.STUCK_SIX,
            )
        return found

    def choose(self, game, seat, die, moves):  # noqa: C901 (hot loop: the rollout policy, per decision of every rollout; inlined)
        if game.platform_variant is not None:  # a move that wins the variant's game first
            win = variant_win(game, seat, moves)
            if win is not None:
                return win
        (allies, plain, enemy, absm, behind, worth_at, threat_on, house, depth, hit, enemy_w,
         stuck_six) = self.context(game, seat)  # fmt: skip
        if not plain:  # a neutral colour, the huff, barriers, backward moves
            return self.bot.choose(game, seat, die, moves, None)
        T = game.T
        yard = game.yard
        track = game.track
        rel_of = game.rel_of
        # entry risk near the start fields of enemies with pawns in the yard (stuck: no
        # pawn on the track — the quick test first — and a packed house: three tries)
        entries = []
        three = game.three
        for e, y in enumerate(yard):
            if y and enemy[e] and not game.finished[e]:
                stuck = three and y + game.home[e] == PAWNS_PER_COLOUR and game.stuck(e)
                six = stuck_six if stuck else 1.0 / 6.0
                entries.append((rel_of[e], six, track[game.start[e]] < 0))

        def worth(p: int) -> float:
            """The moved pawn's worth on its relative field ``p`` (in the yard: nothing)."""
            if p >= T:  # in the house
                return house + (p - T) * depth
            if p < 0:
                return 0.0
            a = absm[p]
            miss = 1.0  # it survives: no enemy pawn 1-6 fields behind hits …
            for b in behind[a]:
                e = track[b]
                if enemy[e]:
                    rel = rel_of[e]
                    if rel[b] < rel[a]:  # (not past its own house on the way)
                        miss *= hit
            for rel, six, free in entries:  # … and no entering enemy does
                r = rel[a]
                if r == 0:
                    miss *= 1.0 - six
                elif r <= 6 and free:
                    miss *= 1.0 - six / 6.0
            value = worth_at[p] * miss
            for b in absm[p + 1 : p + 7 if p + 7 < T else T]:  # enemy pawns it threatens
                e = track[b]
                if enemy[e]:
                    value += threat_on[rel_of[e][b]]
            return value

        # the "unpacked house" term can only apply with no own pawn left on the track
        check_unpacked = three and yard[seat] and yard[seat] + game.home[seat] >= 3
        best = moves[0]
        best_score = -1e18
        for m in moves:
            _s, frm, to, cap = m  # the roller's own pawn (no neutral colour)
            score = worth(to) - worth(frm)
            if cap >= 0:
                value = worth_at[rel_of[cap][absm[to]]]
                score += -value if cap in allies else enemy_w * value
            if check_unpacked and to >= T:
                after = list(game.pawns[seat])
                after[after.index(frm)] = to
                score += self.unpacked(game, seat, after)
            if score > best_score:
                best, best_score = m, score
        return best


class RandomPolicy(Policy):
    """A uniformly random legal move (the random computer player's way of playing), drawn
    from a generator seeded by :meth:`start` for every rollout: deterministic, paired
    across the options of one decision and independent across rollouts. The weak
    reference of ``bench/analysis.py --calibration`` (does a verdict depend on how the
    rest of the game is played?)."""

    name = "random"

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def start(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, game, seat, die, moves):
        return moves[self._rng.randrange(len(moves))]

    def choose_huff(self, game, seat, targets):
        return targets[self._rng.randrange(len(targets))]


POLICIES = {
    "heuristic": HeuristicPolicy,
    "fast": FastHeuristicPolicy,
    "lite": LitePolicy,
    "random": RandomPolicy,
}
"""Rollout policies by name ("heuristic" and "fast" play exactly like the heuristic bot)."""


def default_policy() -> Policy:
    """The policy rollouts use unless told otherwise: :class:`LitePolicy` (as strong as
    the heuristic bot, about twice as fast as its exact replica; docs/analysis.md)."""
    return LitePolicy()
