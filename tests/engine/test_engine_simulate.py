"""simulate_game and the bots."""

from __future__ import annotations

import random

import pytest

from games.engine import (
    Game,
    HeuristicBot,
    RandomBot,
    make_bot,
    play,
    simulate_game,
    validate,
)


def test_simulate_game_signature_from_the_platform() -> None:
    log = simulate_game(
        rules="league",
        board=4,
        players={"alice": ["green", "red"], "bob": ["black", "yellow"]},
        first="green",
        bots={"alice": "heuristic", "bob": "random"},
        seed=1,
    )
    assert log["format"] == "maedn-log/1" and log["first"] == "green"
    assert log["players"] == {"alice": ["green", "red"], "bob": ["black", "yellow"]}
    assert log["events"][0]["colour"] == "green"
    result = validate(log)
    assert result["valid"] and result["complete"] and result["winner"] in ("alice", "bob")


def test_simulate_game_is_reproducible() -> None:
    a = simulate_game(rules="classic", seed=42, bots="heuristic")
    b = simulate_game(rules="classic", seed=42, bots="heuristic")
    c = simulate_game(rules="classic", seed=43, bots="heuristic")
    assert a == b and a["events"] != c["events"]


@pytest.mark.parametrize(
    ("kwargs", "check"),
    [
        (
            {
                "rules": "league-3t+",
                "board": 6,
                "players": {
                    "a": ["red", "black"],
                    "b": ["yellow", "green"],
                    "c": ["blue", "white"],
                },
            },
            lambda r: r["winner"] in "abc" and len(r["placings"]) >= 2,
        ),
        (
            {"rules": "league-gp", "players": {"a": ["red", "yellow"], "b": ["black", "green"]}},
            lambda r: len(r["placings"]) == 4,
        ),
        ({"rules": "classic", "unused": ["black"]}, lambda r: r["pawns_home"]["black"] == 0),
        (
            {"rules": {"preset": "classic", "neutral": "green"}},
            lambda r: "green" not in r["placings"] and len(r["placings"]) == 3,
        ),
        (
            {"rules": "online", "colours": ["rot", "schwarz", "gelb", "grün"]},
            lambda r: r["placings"][0] in ("rot", "schwarz", "gelb", "grün"),
        ),
    ],
)
def test_simulate_variants(kwargs: dict, check) -> None:
    log = simulate_game(seed=3, **kwargs)
    result = validate(log)
    assert result["valid"] and result["complete"]
    assert check(result)


def test_simulate_rejects_bad_setups() -> None:
    with pytest.raises(ValueError):
        simulate_game(rules="chess")
    with pytest.raises(ValueError):
        simulate_game(players={"a": ["purple"]})
    with pytest.raises(ValueError):
        simulate_game(bots={"nobody": "random"})
    with pytest.raises(ValueError):
        make_bot("grandmaster")


def test_play_until_first_finisher() -> None:
    game = Game.new("classic", first="red")
    play(game, [RandomBot()] * 4, random.Random(1), until_first=True)
    assert len(game.placings) == 1 and not game.is_over()


def test_heuristic_bot_prefers_a_capture_and_the_house() -> None:
    bot = HeuristicBot()
    rng = random.Random(0)
    g = Game.from_positions(
        {
            "red": [5, 30, "B", "B"],
            "black": [38, "B", "B", "B"],
            "yellow": ["B"] * 4,
            "green": ["B"] * 4,
        },
        turn="red",
    )
    moves = g.legal(0, 3)
    assert bot.choose(g, 0, 3, moves, rng) == (0, 5, 8, 1)
    g = Game.from_positions(
        {"red": [37, 12, "B", "B"], "black": ["B"] * 4, "yellow": ["B"] * 4, "green": ["B"] * 4},
        turn="red",
    )
    assert bot.choose(g, 0, 3, g.legal(0, 3), rng) == (0, 37, 40, -1)


def test_heuristic_beats_random_players() -> None:
    wins = 0
    games = 120
    for seed in range(games):
        log = simulate_game(
            rules="league",
            first=["red", "black", "yellow", "green"][seed % 4],
            bots={"red": "heuristic"},
            seed=seed,
        )
        wins += validate(log)["winner"] == "red"
    assert wins / games > 0.4  # random play would win about a quarter
