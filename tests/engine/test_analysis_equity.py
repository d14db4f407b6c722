"""The equities under the analysis (``games.engine.analysis.equity``) and the walk's rolls
(``decisions.walk``): one ply is the expectation over the six rolls of the best move's
value, worked out here by hand; the evaluator is asked once per state, in batches; every
vector is a distribution over the players; every roll's luck sums to zero over the
players and the mover's skill is never positive."""

from __future__ import annotations

import pytest

from games.engine import Game, replay_log, simulate_game
from games.engine.analysis.decisions import (
    LOSS_SD_ENDGAME_MW,
    LOSS_SD_MW,
    clear_margin,
    is_endgame,
    mark_for,
    walk,
)
from games.engine.analysis.equity import Equity
from tests.engine.stand_in_evaluator import ProgressEvaluator

POSITION = {"red": [30, 12, "B", "B"], "black": [5, 22, 41, "B"], "yellow": [8, "B", "B", "B"]}


class Batched(ProgressEvaluator):
    """The stand-in with the batched form: records the batch sizes."""

    def __init__(self) -> None:
        super().__init__()
        self.batches: list[int] = []

    def win_chances_many(self, games):
        games = list(games)
        self.batches.append(len(games))
        return [self.win_chances(g) for g in games]


def by_hand(game: Game, model: ProgressEvaluator) -> list[float]:
    """E(s) = 1/6 Σ_d max_m V(s after d, m), V from the model, per player."""
    players = list(game.setup.players)
    me = players.index(game.setup.player_of(game.turn_seat))
    total = [0.0] * len(players)
    for die in range(1, 7):
        best = None
        for m in game.legal(game.turn_seat, die) or [None]:
            g = game.copy()
            g.push_raw(die, m)
            raw = model.win_chances(g)
            v = [raw[game.setup.players[p][0]] for p in players]
            v = [x / sum(v) for x in v]
            if best is None or v[me] > best[me]:
                best = v
        total = [t + x / 6 for t, x in zip(total, best, strict=True)]
    return total


def test_one_ply_is_the_expectation_over_the_six_rolls_of_the_best_move() -> None:
    game = Game.from_positions(POSITION, turn="black", rules="league")
    model = ProgressEvaluator()
    eq = Equity(model, game, plies=1)
    assert eq.value(game) == pytest.approx(by_hand(game, model), abs=1e-12)
    zero = Equity(model, game, plies=0)
    assert zero.value(game) != pytest.approx(eq.value(game), abs=1e-6)  # search changes it
    # two plies: the same expectation over one-ply values
    two = Equity(model, game, plies=2)
    me = list(game.setup.players).index("black")
    expected = [0.0] * 3
    for die in range(1, 7):
        values = [eq.value(after) for _, _, after in eq.options(game, die)]
        best = max(values, key=lambda v: v[me])
        expected = [e + b / 6 for e, b in zip(expected, best, strict=True)]
    assert two.value(game) == pytest.approx(expected, abs=1e-12)


def test_options_are_the_legal_moves_and_a_roll_without_one_passes() -> None:
    game = Game.from_positions(POSITION, turn="yellow", rules="league")
    eq = Equity(ProgressEvaluator(), game)
    assert [m for m, _, _ in eq.options(game, 6)] == game.legal(game.turn_seat, 6)
    [(move, huff, after)] = eq.options(game, 1)  # yellow: one pawn on the track
    assert move == game.legal(game.turn_seat, 1)[0] and huff is None
    stuck = Game.from_positions({"red": ["B"] * 4, "black": [5, "B", "B", "B"]}, turn="red")
    eq = Equity(ProgressEvaluator(), stuck)
    [(move, huff, after)] = eq.options(stuck, 3)
    assert move is None and after.events == 1  # the roll is spent


def test_the_model_is_asked_once_per_state_in_batches() -> None:
    game = Game.from_positions(POSITION, turn="red", rules="league")
    model = Batched()
    eq = Equity(model, game, plies=1)
    first = eq.value(game)
    asked = model.calls
    assert model.batches == [asked]  # one batch for the whole one-ply search
    assert eq.value(game) == first and model.calls == asked  # memoised
    assert eq.evaluations == asked


def test_vectors_are_distributions_with_allied_colours_as_one_player() -> None:
    log = simulate_game(
        rules="league", players={"ann": ["green", "red"], "bo": ["black", "yellow"]}, seed=3
    )
    w = walk(log, lambda g: Equity(ProgressEvaluator(), g))
    assert w.players == ["ann", "bo"]
    for r in w.rolls:
        for v in (r.before, r.best, r.played):
            assert len(v) == 2 and sum(v) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("rules", ["league", "classic", "league-gp"])
def test_every_rolls_luck_sums_to_zero_and_the_movers_skill_is_never_positive(rules) -> None:
    log = simulate_game(rules=rules, bots="random", seed=5)
    w = walk(log, lambda g: Equity(ProgressEvaluator(), g))
    assert len(w.rolls) == len(log["events"])
    previous = w.start
    _setup, game, steps = replay_log(log)
    eq = Equity(ProgressEvaluator(), game)
    for r, step in zip(w.rolls, steps, strict=True):
        assert r.before == previous  # the chain: each roll starts where the last one ended
        if r.event % 17 == 0:  # the expectation over the six rolls, by hand now and then
            me = w.players.index(r.player)
            by_hand = [0.0] * len(w.players)
            for die in range(1, 7):
                values = [eq.value(after) for *_, after in eq.options(game, die)]
                best = max(values, key=lambda v: v[me])
                by_hand = [t + b / 6 for t, b in zip(by_hand, best, strict=True)]
            assert r.expected == pytest.approx(by_hand, abs=1e-12)
        assert sum(r.expected) == pytest.approx(1.0, abs=1e-12)
        game.push_event(step.event)
        assert abs(sum(r.best) - sum(r.before)) < 1e-12  # Σ over players of the luck
        me = w.players.index(r.player)
        assert r.played[me] <= r.best[me]
        if r.decision is None:
            assert r.played == r.best  # a forced roll has no skill in it
        previous = r.played
    assert w.final.over and previous[w.players.index(w.final.winner)] == 1.0


def test_a_race_endgame_is_every_colour_out_of_its_yard_with_two_pawns_at_most_on_the_track():
    race = Game.from_positions({"red": [38, 41, 42, 43], "black": [36, 39, 40, 43]}, turn="red")
    assert is_endgame(race)
    three_out = Game.from_positions(
        {"red": [30, 38, 39, 43], "black": [36, 39, 40, 43]}, turn="red"
    )
    assert not is_endgame(three_out)
    in_yard = Game.from_positions({"red": [38, 41, 42, "B"], "black": [36, 39, 40, 43]}, turn="red")
    assert not is_endgame(in_yard)


def test_the_mark_rule_allows_for_the_number_of_decisions() -> None:
    # z of 1 − 0.05/150 is 3.40: a game of 150 decisions needs 40.8 mw above the threshold
    assert clear_margin(150) == pytest.approx(3.4029 * LOSS_SD_MW, abs=0.01)
    assert clear_margin(1) < clear_margin(10) < clear_margin(150) < clear_margin(600)
    margin = clear_margin(150)
    assert mark_for(30.01 + margin, margin) == "inaccuracy"
    assert mark_for(29.99 + margin, margin) is None
    assert mark_for(60.01 + margin, margin) == "mistake"
    assert mark_for(120.01 + margin, margin) == "blunder"
    endgame = clear_margin(150, LOSS_SD_ENDGAME_MW)  # 85 mw: the model is least sure there
    assert mark_for(110, endgame) is None and mark_for(110, margin) == "mistake"


def test_the_error_of_a_loss_grows_with_its_size_and_gives_its_interval() -> None:
    from games.engine.analysis import (
        INTERVAL_CONFIDENCE,
        LARGE_LOSS_MW,
        LOSS_SD_LARGE_MW,
        loss_interval_mw,
        loss_sd_mw,
    )

    assert INTERVAL_CONFIDENCE == 0.90
    assert loss_sd_mw(False, 0.0) == LOSS_SD_MW
    assert loss_sd_mw(False, LARGE_LOSS_MW - 0.1) == LOSS_SD_MW
    assert loss_sd_mw(False, LARGE_LOSS_MW) == LOSS_SD_LARGE_MW > LOSS_SD_MW
    assert loss_sd_mw(True, 0.0) == loss_sd_mw(True, 500.0) == LOSS_SD_ENDGAME_MW
    low, high = loss_interval_mw(100.0, False)
    assert (low + high) / 2 == pytest.approx(100.0)
    assert high - low == pytest.approx(2 * 1.6449 * LOSS_SD_LARGE_MW, abs=0.01)
    low, high = loss_interval_mw(5.0, False)
    assert low < 0 < high  # a small loss: the move played may have been as good
    assert loss_interval_mw(100.0, False, confidence=0.95)[0] < loss_interval_mw(100.0, False)[0]


def test_the_counting_rule_keeps_its_calibrated_24_mw() -> None:
    """The totals of chances lost were calibrated with 24 mw (session 10); measuring the
    intervals' error again must not move them."""
    from games.engine.analysis import counted_loss_mw

    assert counted_loss_mw(24.1, False) == 24.1
    assert counted_loss_mw(23.9, False) == 0.0
    assert counted_loss_mw(49.9, True) == 0.0 and counted_loss_mw(50.1, True) == 50.1
