"""The strong computer player (games/engine/strong.py): legal choices only, every rule set
and board, the huff, allied colours; its solo-race table against simulated solo play.

Strength claims live in bench/bots.py, not here: a head-to-head test that could not flake
would need thousands of games.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import Game, HeuristicBot, RandomBot, make_bot, play, simulate_game, validate
from games.engine.strong import StrongBot, solo_table

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Each rule set and board needs its own solo-race table (seconds to build): the tests use
# three — league on boards 4 and 6, classic (one try, jumping in the house) on board 4 —
# and variants of them (the huff, barriers with backward captures, allied colours).
RULES: list[Any] = [
    "league",
    "league-2t+",
    {"preset": "league", "compulsory_capture": "huff"},
    {"preset": "classic", "compulsory_capture": "huff"},
    {"preset": "classic", "barriers": True, "capture_backwards": True},
    {"preset": "classic", "neutral": "green"},
]
PLAYERS = {
    4: [None, {"alice": ["green", "red"], "bob": ["black", "yellow"]}],
    6: [None, {"a": ["red", "black"], "b": ["yellow", "green"], "c": ["blue", "white"]}],
}


class Recording(StrongBot):
    """StrongBot that checks every choice it makes against the moves it was offered."""

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0
        self.huffs = 0

    def choose(self, game, seat, die, moves, rng):
        before = (game.copy().pawns, game.turn_seat, game.events)
        m = super().choose(game, seat, die, moves, rng)
        assert m in moves
        assert (game.pawns, game.turn_seat, game.events) == before  # looked ahead on copies
        self.decisions += 1
        return m

    def choose_huff(self, game, seat, targets, rng):
        h = super().choose_huff(game, seat, targets, rng)
        assert h in targets
        self.huffs += 1
        return h


@st.composite
def games(draw: st.DrawFn) -> tuple[Game, random.Random]:
    """A game somewhere in its course: random players for a random number of rolls."""
    rules = draw(st.sampled_from(RULES))
    neutral = isinstance(rules, dict) and "neutral" in rules
    board = draw(st.sampled_from([4, 6])) if rules == "league" else 4
    players = None if neutral else draw(st.sampled_from(PLAYERS[board]))
    if rules == "league-2t+" and players is None:
        players = PLAYERS[4][1]
    game = Game.new(rules, board, players=players)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(0, 400))):
        if game.over:
            break
        c = game.turn_seat
        n = rng.randint(1, 6)
        moves = game.legal(c, n)
        m = rng.choice(moves) if moves else None
        huff = None
        if m is not None and game.huffing and game.huff_due(c, moves, m):
            huff = min(game.huff_targets(c, moves, m))
        game.push_raw(n, m, huff)
    return game, rng


@FAST
@given(games(), st.integers(1, 6))
def test_the_bot_returns_one_of_the_legal_moves_and_changes_nothing(case, die):
    game, rng = case
    if game.over:
        return
    c = game.turn_seat
    moves = game.legal(c, die)
    if len(moves) < 2:
        return
    bot = Recording()
    bot.choose(game, c, die, moves, rng)
    assert bot.decisions == 1


@pytest.mark.parametrize(
    ("rules", "board"), [*((r, 4) for r in RULES), ("league", 6), ("league-2t+", 6)]
)
def test_games_with_the_strong_bot_validate(rules, board):
    neutral = isinstance(rules, dict) and "neutral" in rules
    players = None if neutral or rules != "league-2t+" else PLAYERS[board][1]
    bot = Recording()
    bots: Any = bot
    if players is not None:
        bots = {p: bot if i == 0 else "heuristic" for i, p in enumerate(players)}
    log = simulate_game(rules=rules, board=board, players=players, bots=bots, seed=board)
    result = validate(log)
    assert result["valid"] and result["complete"], result
    assert bot.decisions > 0
    if players is not None:
        assert log["meta"]["bots"][next(iter(players))] == "strong"


def test_under_the_huff_it_weighs_the_huff_of_each_option_and_plays_valid_games():
    bot = Recording()
    rules = {"preset": "classic", "compulsory_capture": "huff"}
    for seed in range(3):
        log = simulate_game(rules=rules, bots={"red": bot}, seed=seed)
        assert validate(log)["valid"]
    assert bot.huffs > 0  # the look-ahead scored non-capturing options with their huff


def test_it_is_registered_and_reproducible():
    assert isinstance(make_bot("strong"), StrongBot)
    a = simulate_game(rules="league", bots="strong", seed=5)
    b = simulate_game(rules="league", bots="strong", seed=5)
    assert a == b and a["meta"]["bots"] == {c: "strong" for c in a["colours"]}


@pytest.mark.parametrize("rules", ["league", {"preset": "league", "compulsory_capture": "huff"}])
def test_it_takes_a_capture_that_sends_a_pawn_about_to_finish_home(rules):
    # red rolls 4: its pawn at 4 can hit black's runner at black's 38, two fields before
    # black's house (absolute (10 + 38) % 40 = 8, red's 8) — or walk its pawn 20 → 24.
    game = Game.from_positions(
        {"red": [4, 20, "B", "B"], "black": [38, "B", "B", "B"]}, turn="red", rules=rules
    )
    moves = game.legal(0, 4)
    capture = [m for m in moves if m[3] == 1]
    assert capture and len(moves) > 1
    assert StrongBot().choose(game, 0, 4, moves, random.Random(0)) == capture[0]


def test_it_runs_a_pawn_into_the_house_rather_than_leaving_it_before_an_enemy():
    # red's pawn at 37 stands 3 fields ahead of black's pawn (red's 34); a 4 takes it
    # into the house (41) — or moves the pawn at 5 to 9, leaving the runner exposed.
    black_at = (34 - 10) % 40  # red's field 34 in black's frame
    game = Game.from_positions(
        {"red": [37, 5, "B", "B"], "black": [black_at, "B", "B", "B"]}, turn="red"
    )
    moves = game.legal(0, 4)
    assert {m[1:3] for m in moves} == {(37, 41), (5, 9)}
    assert StrongBot().choose(game, 0, 4, moves, random.Random(0))[1:3] == (37, 41)


# --- the solo-race table ------------------------------------------------------------------


def test_the_solo_table_matches_a_lone_colour_played_by_it():
    """The table's expected turns agree with engine games of a lone colour that always
    moves to the placement the table rates best (black stays in its yard: it only ever
    rolls 1s)."""
    table = solo_table(40, True, False, True, True)
    for start, games in ((["B"] * 4, 600), ([43, 42, 41, "B"], 1500)):
        rng = random.Random(7)
        total = 0
        for _ in range(games):
            game = Game.from_positions({"red": start, "black": ["B"] * 4}, turn="red")
            last = -1
            while not game.over:
                if game.turn_seat == 1:
                    game.push_raw(1)
                    last = 1
                    continue
                total += last != 0  # a new turn of red's
                last = 0
                n = rng.randint(1, 6)
                best = None
                for m in game.legal(0, n):
                    g = game.copy()
                    g.move_pawn(0, m)
                    v = table[tuple(sorted(g.pawns[0], reverse=True))]
                    if best is None or v < best[0]:
                        best = (v, m)
                game.push_raw(n, best[1] if best else None)
        key = tuple(sorted((-1 if p == "B" else p for p in start), reverse=True))
        expected = 1 + table[key]  # the turn being rolled in, and the rest
        # a solo game's length has a standard deviation under 12 turns: 4 standard errors
        assert abs(total / games - expected) < 4 * 12 / games**0.5, (start, total / games)


def test_the_solo_table_knows_the_rules():
    league = solo_table(40, True, False, True, True)
    # a finished colour needs nothing; a pawn one step from finishing needs a turn at most
    assert league[(43, 42, 41, 40)] == 0.0
    assert 0 < league[(43, 42, 41, 39)] <= 6.0
    # without jumping, the front of the house is worse than its back
    assert league[(40, -1, -1, -1)] > league[(43, -1, -1, -1)]
    jumping = solo_table(40, True, True, True, True)
    assert jumping[(40, -1, -1, -1)] < league[(40, -1, -1, -1)]
    # three tries make a colour with an empty track faster out of the yard
    one_try = solo_table(40, False, False, True, True)
    assert league[(-1, -1, -1, -1)] < one_try[(-1, -1, -1, -1)]
    # every placement has a finite, non-negative value
    assert all(0 <= v < 1000 for v in league.values())


def test_the_strong_bot_against_random_players_finishes_games():
    bots = [StrongBot(), RandomBot(), RandomBot(), HeuristicBot()]
    game = Game.new("league", first="red")
    play(game, bots, random.Random(3), until_first=True)
    assert game.over and game.placings
