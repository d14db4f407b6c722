"""The evaluator's input: one feature row per colour of a game at a roll point.

A row describes one colour from its own point of view (its pawns, the enemy pawns near
them, its place in the turn order) plus the rules that shape its race. The network
(:mod:`games.engine.evaluator.model`) turns each row into a score; the scores of all
colours are compared only at the end (a softmax over the players), so one row layout
serves two to six colours, board 4 and board 6, one or two colours per player.

Distances are relative to the colour (``0`` = its field A, ``T … T+3`` its house) and
divided by the track length ``T``, so board 4 (``T = 40``) and board 6 (``T = 48``)
share the scale. "Enemy" means a colour of another player (allies are not counted as
threats: they do not capture on purpose); the neutral colour counts as an enemy.

Pure Python: a row costs a few dozen microseconds, and a decision needs a few hundred
rows at most (the network itself runs on all of them at once in numpy).
"""

from __future__ import annotations

from ..board import PAWNS_PER_COLOUR
from ..game import Game

NAMES: tuple[str, ...] = (
    "yard",  # pawns in the yard / 4
    "home",  # pawns in the house / 4
    "track",  # pawns on the track / 4
    "to_go",  # Σ (T - p) / T over track pawns, / 4: track distance left to the house
    "progress2",  # Σ (p / T)² over track pawns, / 4: convex progress
    "lead",  # most advanced track pawn p / T (0: none)
    "trail",  # least advanced track pawn p / T (0: none)
    "q1",  # track pawns in the first quarter of the track / 4
    "q2",
    "q3",
    "q4",  # ... in the last quarter / 4
    "slack",  # house moves still needed to pack the house pawns / 6
    "unpacked",  # 1 if the house pawns are not packed at its end
    "stuck",  # 1 if the colour is stuck (rules.md §4) with pawns in the yard
    "on_start",  # 1 if an own pawn stands on A while the yard is not empty
    "exposed",  # (own track pawn, enemy pawn 1-6 fields behind it) pairs / 4
    "exposed_worth",  # the same pairs weighted by the own pawn's p / T
    "exposed_far",  # pairs at 7-12 fields / 4
    "on_enemy_start",  # own pawns on an enemy's A whose yard is not empty / 4
    "near_enemy_start",  # own pawns 1-6 past an enemy's free A with yard pawns / 4
    "threats",  # (own track pawn, enemy pawn 1-6 fields ahead) pairs / 4
    "threats_worth",  # the same pairs weighted by the enemy pawn's progress / T
    "entry_hit",  # 1 if the yard is not empty and an enemy pawn stands on own A
    "on_turn",  # 1 if this colour rolls next
    "turn_distance",  # turns of other colours before this one's / (active colours - 1)
    "tries",  # rolls left / 3 in the roll opportunity (this colour on turn), else 0
    "active",  # colours still playing / 6
    "remaining",  # this colour's whole race left (yard pawn = T + 9) / (4 (T + 9))
    "best_enemy",  # the least race left of any enemy colour, same scale
    "mean_enemy",  # the mean race left of the enemy colours, same scale
    "three_tries",  # the rules
    "jump_in_goal",
    "compulsory_entry",
    "clear_start",
    "board6",
    # generation 2: who rolls before this colour (the counts above do not say whose
    # pawns threaten, so a pawn about to be hit looked like one that can still run)
    "exposed_next",  # pairs of exposed (1-6 behind) whose enemy is the colour on turn / 4
    "exposed_next_worth",  # the same weighted by the own pawn's p / T
    "exposed_soon",  # pairs of exposed whose enemy rolls before this colour's next roll / 4
    "exposed_soon_worth",  # the same weighted by the own pawn's p / T
    "entry_soon",  # own pawns on an enemy's A (yard not empty) that rolls first / 4
    # the heuristic bot's own terms (games/engine/bots.py), per pawn, in units of T: a
    # pawn's worth (10 + T (p/T)² on the track, 10 + T + 10 + 5 per house field in the
    # house) and its worth at risk (times 1 - 0.9^n 1-6 behind · (35/36)^n 7-12 behind ·
    # 5/6 on an enemy's A with yard pawns · 35/36 1-6 past it while it is free), / 4
    "worth",
    "risk_value",
    "threat_value",  # Σ (10 + T q²) / 6 over enemy pawns 1-6 ahead (q: the victim's p/T)
)
"""The features of a row, in order (the comments say what each one is). A model reads
the first ``n`` of them (its file lists them): generation 1 was trained on the first 35,
so features are only ever appended."""

N_FEATURES = len(NAMES)

N_GENERATION_1 = 35
"""The features of generation 1 (the first 35): :func:`rows` computes the rest only for a
model that reads them."""

YARD_EXTRA = 9
"""A yard pawn's race is counted as ``T + 3 + 9`` fields: the house end plus about the
wait for a 6 (six rolls of 3.5 fields would be 21; a colour moves its other pawns meanwhile,
so the wait costs less). Only a scale for the three race features; the network learns the rest."""


def allies_of(game: Game) -> list[frozenset[int]]:
    """Per seat, the seats of its player (itself alone for a colour without one)."""
    out = [frozenset((s,)) for s in range(len(game.names))]
    for seats in game.setup.players.values():
        group = frozenset(seats)
        for s in seats:
            out[s] = group
    return out


def remaining(pawns: list[int], T: int) -> int:
    """A colour's race left in fields (a yard pawn counts ``T + 3 + YARD_EXTRA``)."""
    last = T + 3
    return sum(last - p if p >= 0 else last + YARD_EXTRA for p in pawns)


def rows(  # noqa: C901 (hot loop: the evaluator's features, per position valued; inlined)
    game: Game, allies: list[frozenset[int]] | None = None, n_features: int = N_FEATURES
) -> list[list[float]]:
    """One feature row per seat of ``game`` (``len(game.names)`` rows; a colour that is
    unused, neutral or finished gets a row of zeros, which the model never reads).
    ``n_features`` ≤ 35 leaves out the later features (rows of 35: generation 1's, about
    a sixth faster)."""
    ext = n_features > N_GENERATION_1
    width = N_FEATURES if ext else N_GENERATION_1
    T = game.T
    n = len(game.names)
    if allies is None:
        allies = allies_of(game)
    pawns = game.pawns
    track = game.track
    yard = game.yard
    rel_of = game.rel_of
    abs_of = game.abs_of
    start = game.start
    finished = game.finished
    in_play = game.in_play
    neutral = game.neutral
    rules = game.setup.rules
    jump = rules.jump_in_goal
    three = rules.three_tries
    ruleflags = [
        1.0 if three else 0.0,
        1.0 if jump else 0.0,
        1.0 if rules.compulsory_entry else 0.0,
        1.0 if rules.clear_start else 0.0,
        1.0 if T > 40 else 0.0,
    ]
    active = [s for s in range(n) if in_play[s] and not finished[s]]
    n_active = len(active)
    scale = 4.0 * (T + 3 + YARD_EXTRA)
    races = [remaining(pawns[s], T) / scale if pawns[s] else 0.0 for s in range(n)]
    # turn order: how many other active colours roll before each one
    turn = game.turn_seat
    distance = [0] * n
    if turn >= 0 and n_active > 1:
        order = [s for s in range(turn, turn + n) if (s % n) in active]
        for k, s in enumerate(order):
            distance[s % n] = k
    # enemies that can enter onto their A: seats with yard pawns (neutral never rolls)
    entering = [s for s in range(n) if yard[s] and in_play[s] and not finished[s]]
    out: list[list[float]] = []
    inv_t = 1.0 / T
    for c in range(n):
        if not (in_play[c] and not finished[c]) or c == neutral:
            out.append([0.0] * width)
            continue
        mine = allies[c]
        pw = pawns[c]
        absm = abs_of[c]
        to_go = prog2 = 0.0
        lead = trail = -1
        q = [0, 0, 0, 0]
        exposed = exposed_far = 0
        exposed_worth = 0.0
        threats = 0
        threats_worth = 0.0
        on_enemy_start = near_enemy_start = 0
        exposed_next = exposed_soon = entry_soon = 0
        exposed_next_worth = exposed_soon_worth = 0.0
        dc = distance[c]  # an enemy with a smaller distance rolls before this colour
        worth = risk_value = threat_value = 0.0
        entry_worth = 10.0 * inv_t
        houses: list[int] = []
        for p in pw:
            if p < 0:
                continue
            if p >= T:
                houses.append(p)
                continue
            x = p * inv_t
            to_go += 1.0 - x
            prog2 += x * x
            if p > lead:
                lead = p
            if trail < 0 or p < trail:
                trail = p
            q[min(3, (4 * p) // T)] += 1
            a = absm[p]
            miss = 1.0  # the heuristic's chance that the pawn is not hit (ext only)
            for k in range(1, 13):  # enemy pawns behind
                o = track[(a - k) % T]
                if o >= 0 and o not in mine:
                    if k <= 6:
                        exposed += 1
                        exposed_worth += x
                        if ext:
                            miss *= 0.9
                            if distance[o] < dc and o != neutral:
                                exposed_soon += 1
                                exposed_soon_worth += x
                                if o == turn:
                                    exposed_next += 1
                                    exposed_next_worth += x
                    else:
                        exposed_far += 1
                        if ext:
                            miss *= 35.0 / 36.0
            for k in range(1, 7):  # enemy pawns ahead
                o = track[(a + k) % T]
                if o >= 0 and o not in mine:
                    threats += 1
                    qx = rel_of[o][(a + k) % T] * inv_t
                    threats_worth += qx
                    if ext:
                        threat_value += (entry_worth + qx * qx) / 6.0
            for e in entering:
                if e in mine:
                    continue
                r = rel_of[e][a]
                if r == 0:
                    on_enemy_start += 1
                    if ext:
                        miss *= 5.0 / 6.0
                        if distance[e] < dc:
                            entry_soon += 1
                elif r <= 6 and track[start[e]] < 0:
                    near_enemy_start += 1
                    if ext:
                        miss *= 35.0 / 36.0
            if ext:
                w = entry_worth + x * x
                worth += w
                risk_value += w * (1.0 - miss)
        k_home = len(houses)
        if ext:
            for h in houses:
                worth += (20.0 + 5.0 * (h - T)) * inv_t + 1.0
        slack = 0
        if k_home:
            houses.sort(reverse=True)
            last = T + 3
            for i, h in enumerate(houses):
                slack += last - i - h
        n_yard = yard[c]
        n_track = PAWNS_PER_COLOUR - n_yard - k_home
        stuck = 1.0 if three and n_yard and n_track == 0 and slack == 0 else 0.0
        own_a = track[start[c]]
        on_start = 1.0 if n_yard and own_a == c else 0.0
        entry_hit = 1.0 if n_yard and own_a >= 0 and own_a not in mine else 0.0
        enemy_races = [races[s] for s in active if s not in mine]
        best_enemy = min(enemy_races) if enemy_races else 0.0
        mean_enemy = sum(enemy_races) / len(enemy_races) if enemy_races else 0.0
        tries = game.tries / 3.0 if c == turn else 0.0
        row = [
            n_yard / 4.0,
            k_home / 4.0,
            n_track / 4.0,
            to_go / 4.0,
            prog2 / 4.0,
            lead * inv_t if lead >= 0 else 0.0,
            trail * inv_t if trail >= 0 else 0.0,
            q[0] / 4.0,
            q[1] / 4.0,
            q[2] / 4.0,
            q[3] / 4.0,
            slack / 6.0,
            1.0 if slack else 0.0,
            stuck,
            on_start,
            exposed / 4.0,
            exposed_worth / 4.0,
            exposed_far / 4.0,
            on_enemy_start / 4.0,
            near_enemy_start / 4.0,
            threats / 4.0,
            threats_worth / 4.0,
            entry_hit,
            1.0 if c == turn else 0.0,
            distance[c] / (n_active - 1) if n_active > 1 else 0.0,
            tries,
            n_active / 6.0,
            races[c],
            best_enemy,
            mean_enemy,
            *ruleflags,
        ]
        if ext:
            row += (
                exposed_next / 4.0,
                exposed_next_worth / 4.0,
                exposed_soon / 4.0,
                exposed_soon_worth / 4.0,
                entry_soon / 4.0,
                worth / 4.0,
                risk_value / 4.0,
                threat_value / 4.0,
            )
        out.append(row)
    return out


def first_complete_player(g: Game) -> str | None:
    """The first player (in the order of placings) all of whose colours are placed, or None:
    in an ``all-places`` game the winner, known before the game is over."""
    players = g.setup.players
    done: dict[str, int] = {}
    for s in g.placings:
        p = g.setup.player_of(s)
        done[p] = done.get(p, 0) + 1
        if done[p] == len(players[p]):
            return p
    return None
