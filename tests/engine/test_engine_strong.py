"""The strong computer player (games/engine/strong.py): legal choices only, every rule set
and board, the huff, allied colours, platform variants; its search against the evaluator.
Its choices in exactly solved endgames: tests/engine/test_evaluator_exact.py.

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
from games.engine.strong import StrongBot

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# The presets' families and the Schmidt variants the evaluator was not trained on (the huff,
# barriers with backward captures, a neutral colour): the bot must still play them legally.
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


def _whole_games():
    """Every rule set on board 4, league and 2T+ on board 6: a whole game each (4-35 s);
    the fast suite keeps the two 2T+ games (allied colours, both boards)."""
    cases = [*((r, 4) for r in RULES), ("league", 6), ("league-2t+", 6)]
    return [
        pytest.param(rules, board, marks=() if rules == "league-2t+" else pytest.mark.slow)
        for rules, board in cases
    ]


@pytest.mark.parametrize(("rules", "board"), _whole_games())
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


@pytest.mark.slow  # whole games of the strong player
def test_under_the_huff_it_weighs_the_huff_of_each_option_and_plays_valid_games():
    bot = Recording()
    rules = {"preset": "classic", "compulsory_capture": "huff"}
    for seed in range(3):
        log = simulate_game(rules=rules, bots={"red": bot}, seed=seed)
        assert validate(log)["valid"]
    assert bot.huffs > 0  # the look-ahead scored non-capturing options with their huff


@pytest.mark.slow  # whole games of the strong player
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


def test_the_strong_bot_against_random_players_finishes_games():
    bots = [StrongBot(), RandomBot(), RandomBot(), HeuristicBot()]
    game = Game.new("league", first="red")
    play(game, bots, random.Random(3), until_first=True)
    assert game.over and game.placings


def test_depth_one_is_the_best_afterstate_by_the_evaluator():
    game = Game.from_positions({"red": [4, 20, "B", "B"], "black": [38, "B", "B", "B"]}, turn="red")
    moves = game.legal(0, 4)
    bot = StrongBot(depth=1)
    values = bot.move_values(game, 0, 4, moves)
    ev = bot.evaluator(game)
    for m, v in zip(moves, values, strict=True):
        h = game.copy()
        h.push_raw(4, m)
        assert v == ev.win_chances(h)[0]
    with pytest.raises(ValueError):
        StrongBot(depth=4)


def test_depth_two_averages_the_best_replies_over_the_six_rolls():
    game = Game.from_positions({"red": [30, 36, 42, 43], "black": [31, 35, 41, 42]}, turn="red")
    moves = game.legal(0, 3)
    bot = StrongBot(depth=2)
    ev = bot.evaluator(game)
    for m, v in zip(moves, bot.move_values(game, 0, 3, moves), strict=True):
        h = game.copy()
        h.push_raw(3, m)
        c = h.turn_seat
        expected = 0.0
        for d in range(1, 7):
            replies = h.legal(c, d)
            outcomes = []
            for r in replies or [None]:
                leaf = h.copy()
                leaf.push_raw(d, r)
                outcomes.append(ev.win_chances(leaf))
            expected += max(outcomes, key=lambda ch: ch[c])[0] / 6
        assert v == pytest.approx(expected, abs=1e-12)


def _expectimax(ev, g: Game, plies: int, seat: int) -> tuple[float, ...]:
    """The textbook expectimax the search must equal: per roll the reply best for its
    roller by the value ``plies - 1`` deeper, the mean over the six rolls."""
    if plies == 0 or g.over:
        return ev.win_chances(g)
    c = g.turn_seat
    total = None
    for d in range(1, 7):
        outcomes = []
        for r in g.legal(c, d) or [None]:
            h = g.copy()
            h.push_raw(d, r)
            outcomes.append(_expectimax(ev, h, plies - 1, seat))
        best = outcomes[0]
        for o in outcomes[1:]:
            if o[c] > best[c]:
                best = o
        total = list(best) if total is None else [a + b for a, b in zip(total, best, strict=True)]
    return tuple(x / 6 for x in total)


def test_depth_three_is_expectimax_over_two_rolls_and_depth_two_agrees_with_it():
    game = Game.from_positions({"red": [30, 36, 42, 43], "black": [31, 35, 41, 42]}, turn="red")
    moves = game.legal(0, 3)
    ev = StrongBot().evaluator(game)
    for depth in (2, 3):
        values = StrongBot(depth=depth).move_values(game, 0, 3, moves)
        for m, v in zip(moves, values, strict=True):
            h = game.copy()
            h.push_raw(3, m)
            assert v == pytest.approx(_expectimax(ev, h, depth - 1, 0)[0], abs=1e-12)


@pytest.mark.parametrize("variant", ["quick", "first-capture"])
def test_in_a_platform_variant_it_takes_the_move_that_wins_at_once(variant):
    if variant == "quick":  # a second pawn home wins Quick
        game = Game.new("league", variant="quick")
        game.place({"red": [39, 43, 10, "B"], "black": [5, "B", "B", "B"]})
        die, wins = 3, (39, 42)
    else:  # a capture wins First capture
        game = Game.new("league", variant="first-capture")
        game.place({"red": [30, 10, "B", "B"], "black": [24, "B", "B", "B"]})  # black's 24 = 34
        die, wins = 4, (30, 34)
    moves = game.legal(0, die)
    assert len(moves) > 1
    assert StrongBot().choose(game, 0, die, moves, random.Random(0))[1:3] == wins


def test_depth_three_deepens_the_two_best_moves_when_the_call_is_close():
    # positions from seeded games of four heuristic players; at every roll with three or
    # more moves, depth 3 plays the two-ply best unless the runner-up is within the
    # margin, and then the better of the two by three plies - until both branches were
    # taken and the third ply overturned the two-ply choice at least once
    from games.engine.strong import DEEPEN_MARGIN

    heuristic, two, three = HeuristicBot(), StrongBot(depth=2), StrongBot()
    close = clear = overturned = 0
    for seed in range(20):
        rng = random.Random(seed)
        game = Game.new("league", first="red")
        while not game.over and not (clear and overturned):
            c, d = game.turn_seat, rng.randint(1, 6)
            moves = game.legal(c, d)
            if len(moves) >= 3:
                v2 = two.move_values(game, c, d, moves)
                order = sorted(range(len(moves)), key=lambda i: (-v2[i], i))
                pick = three.best_index(game, c, d, moves)
                if v2[order[0]] - v2[order[1]] > DEEPEN_MARGIN:
                    clear += 1
                    assert pick == order[0] == two.best_index(game, c, d, moves)
                else:
                    close += 1
                    v3 = three.move_values(game, c, d, moves)
                    pair = sorted(order[:2])
                    assert pick == (pair[1] if v3[pair[1]] > v3[pair[0]] else pair[0])
                    overturned += pick != order[0]
            game.push_raw(d, heuristic.choose(game, c, d, moves, rng) if moves else None)
        if clear and overturned:
            break
    assert close and clear and overturned  # both branches, and the third ply mattered
