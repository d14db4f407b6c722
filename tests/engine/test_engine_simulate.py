"""simulate_game and the bots."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    BOARDS,
    Game,
    HeuristicBot,
    RandomBot,
    final_game,
    make_bot,
    play,
    simulate_game,
    validate,
)
from games.engine.board import position_name
from games.engine.simulate import SIMULATE_MAX_EVENTS, lean_rules, play_random


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


# --- the lean random-play loop (play_random) ----------------------------------------------

STATE = (
    "pawns",
    "track",
    "tcount",
    "yard",
    "home",
    "capture_counts",
    "finished",
    "placings",
    "home_order",
    "over",
    "winner",
    "events",
    "prev",
    "turn_seat",
    "tries",
    "tries_max",
)


@st.composite
def lean_games(draw: st.DrawFn) -> tuple[Game, int, bool, int]:
    """A new game under rules play_random plays (every preset, random option changes,
    both boards, unused colours, allied players), a seed, until_first and an event cap."""
    board = draw(st.sampled_from([4, 6]))
    rules: dict = {"preset": draw(st.sampled_from(["league", "classic", "online", "league-gp"]))}
    for option in ("compulsory_entry", "clear_start", "three_tries", "jump_in_goal"):
        if draw(st.booleans()):
            rules[option] = draw(st.booleans())
    if draw(st.booleans()):
        rules["setup"] = draw(st.sampled_from(["yard", "one-out"]))
    if draw(st.booleans()):
        rules["end"] = draw(st.sampled_from(["first-colour", "both-colours", "all-places"]))
    names = BOARDS[board].colours
    unused = []
    if rules["preset"] != "online":  # the online rules leave no colour unused
        unused = draw(st.lists(st.sampled_from(names), unique=True, max_size=len(names) - 2))
    in_play = [c for c in names if c not in unused]
    players = None
    if len(in_play) >= 4 and draw(st.booleans()):
        players = {"a": in_play[0::2], "b": in_play[1::2]}
    game = Game.new(
        rules, board, unused=unused, players=players, first=draw(st.sampled_from(in_play))
    )
    seed = draw(st.integers(0, 2**32 - 1))
    cap = draw(st.sampled_from([SIMULATE_MAX_EVENTS, SIMULATE_MAX_EVENTS, 50]))
    return game, seed, draw(st.booleans()), cap


def _log_of(game: Game, events: list) -> dict:
    return {
        "format": "maedn-log/1",
        "board": game.board.size,
        "rules": game.rules.to_spec(),
        "players": {p: [game.names[s] for s in seats] for p, seats in game.setup.players.items()},
        "unused": [game.names[s] for s in sorted(game.setup.unused)],
        "first": game.names[game.setup.first],
        "events": events,
    }


@settings(max_examples=150, deadline=None)
@given(case=lean_games())
def test_the_lean_loop_plays_games_the_engine_replays_to_the_same_end(
    case: tuple[Game, int, bool, int],
) -> None:
    """play_random's games, recorded, are valid logs; replayed by the engine (Game.push_event,
    the general rules) they end in exactly the game play_random returned. Recording
    changes nothing: without a log the same seed plays the same game."""
    game, seed, until_first, cap = case
    assert lean_rules(game)
    events: list = []
    recorded = play_random(
        game.copy(), random.Random(seed), record=events, until_first=until_first, max_events=cap
    )
    rng = random.Random(seed)
    fast = play_random(game.copy(), rng, until_first=until_first, max_events=cap)
    log = _log_of(game, events)
    result = validate(log)
    assert result["valid"], result
    replayed = final_game(log)
    for name in STATE:
        assert getattr(fast, name) == getattr(recorded, name) == getattr(replayed, name), name
    assert result["complete"] == fast.over and result.get("winner") == fast.winner
    assert len(events) == fast.events <= cap
    if until_first and not fast.over and fast.events < cap:
        assert len(fast.placings) == 1  # it stopped at the first finisher
    # what play() does for random bots without a log
    again = play(
        game.copy(),
        [RandomBot()] * len(game.names),
        random.Random(seed),
        until_first=until_first,
        max_events=cap,
    )
    assert again.pawns == fast.pawns and again.events == fast.events


def test_play_takes_the_lean_loop_only_where_it_plays_the_rules() -> None:
    game = Game.new("league")
    assert lean_rules(game)
    for rules in (
        {"preset": "league", "barriers": True},
        {"preset": "league", "capture_backwards": True},
        {"preset": "league", "compulsory_capture": True},
        {"preset": "league", "compulsory_capture": "huff"},
        {"preset": "league", "neutral": "green"},
    ):
        other = Game.new(rules, unused=["black"] if "neutral" in rules else None)
        assert not lean_rules(other)
        with pytest.raises(ValueError, match="use play"):
            play_random(other, random.Random(1))
        # play() still plays these, with the general loop
        assert play(other, [RandomBot()] * 4, random.Random(1)).over


class Recording(random.Random):
    """A ``Random`` that remembers every ``getrandbits`` call: (bits, value)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.calls: list[tuple[int, int]] = []

    def getrandbits(self, k: int) -> int:
        value = super().getrandbits(k)
        self.calls.append((k, value))
        return value


@settings(max_examples=150, deadline=None)
@given(case=lean_games())
def test_the_lean_loop_chooses_among_exactly_the_engines_legal_moves(
    case: tuple[Game, int, bool, int],
) -> None:
    """At every roll of a play_random game, the choice it drew (how many moves it chose
    among, which one it took) matches Game.legal of the engine: the same number of moves,
    and the one taken is the engine's move at the index drawn (both list a colour's moves
    in the order of its pawns)."""
    game, seed, until_first, cap = case
    rng = Recording(seed)
    events: list = []
    play_random(game.copy(), rng, record=events, until_first=until_first, max_events=cap)
    calls = iter(rng.calls)
    replay = game.copy()
    for ev in events:
        bits, value = next(calls)
        while value > 5:  # the die: three bits, again on 6 or 7
            assert bits == 3
            bits, value = next(calls)
        assert bits == 3 and value + 1 == ev["die"]
        legal = replay.legal(replay.turn_seat, ev["die"])
        if len(legal) >= 2:  # a choice: one bit for 2 moves, two bits for 3 or 4, again if ≥ k
            need = 1 if len(legal) == 2 else 2
            bits, value = next(calls)
            while value >= len(legal):
                assert bits == need
                bits, value = next(calls)
            assert bits == need
            played = legal[value]
        else:
            played = legal[0] if legal else None
        expected = None if played is None else [position_name(played[1]), played[2]]
        assert ev.get("move") == expected
        replay.push_raw(ev["die"], played)
    assert next(calls, None) is None


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_until_first_plays_nothing_once_a_colour_has_finished(bot: str) -> None:
    game = Game.from_positions(
        {"red": [40, 41, 42, 43], "black": [5, "B", "B", "B"], "yellow": ["B"] * 4},
        turn="black",
        rules="league-gp",
    )
    assert game.placing_colours() == ["red"] and not game.over
    play(game, [make_bot(bot)] * 4, random.Random(1), until_first=True)
    assert game.events == 0
    play(game, [make_bot(bot)] * 4, random.Random(1))
    assert game.over and game.events > 0
