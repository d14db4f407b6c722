"""Differential tests: the engine against a naive second implementation of rules.md.

``engine_reference.py`` is written straight from the spec with no shared code. For
random rule sets, boards, colour names, unused/neutral colours and allied players:

* games the reference plays are valid for the engine, with the same result;
* games the engine simulates are valid for the reference;
* after a random mutation, both give the same verdict and the same event index.
"""

from __future__ import annotations

import random
from typing import Any

import engine_reference as ref
import pytest

from games.engine import simulate_game, validate

OPTIONS = [
    "barriers",
    "capture_backwards",
    "jump_in_goal",
    "three_tries",
    "compulsory_entry",
    "clear_start",
]


def random_header(rng: random.Random) -> dict[str, Any]:
    size = rng.choice([4, 4, 6])
    preset = rng.choice(list(ref.PRESETS))
    rules: dict[str, Any] = {"preset": preset}
    for option in OPTIONS:
        if rng.random() < 0.3:
            rules[option] = rng.random() < 0.5
    if rng.random() < 0.4:
        rules["compulsory_capture"] = rng.choice([True, False, "huff"])
    if rng.random() < 0.3:
        rules["setup"] = rng.choice(["yard", "one-out"])
    if rng.random() < 0.3:
        rules["end"] = rng.choice(["first-colour", "both-colours", "all-places"])
    colours = list(ref.DEFAULT[size])
    if rng.random() < 0.3:
        colours = [c.upper() for c in colours]
    rest = list(colours)
    if rng.random() < 0.3:
        rules["neutral"] = rng.choice(rest)
        rest.remove(rules["neutral"])
    header: dict[str, Any] = {
        "format": "maedn-log/1",
        "board": size,
        "rules": rules,
        "colours": colours,
    }
    if preset != "online" and rng.random() < 0.3 and len(rest) > 2:
        header["unused"] = [rest.pop(rng.randrange(len(rest)))]
    if rng.random() < 0.5:
        pool = list(rest)
        rng.shuffle(pool)
        players = {}
        while len(pool) >= 2 and rng.random() < 0.7:
            players[f"p{len(players)}"] = [pool.pop(), pool.pop()]
        if players:
            header["players"] = players
    header["first"] = rng.choice(rest)
    return header


def mutate(log: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], int]:
    events = [dict(e) for e in log["events"]]
    i = rng.randrange(len(events))
    kind = rng.choice(["die", "move", "colour", "drop", "insert", "huff", "nomove"])
    event = events[i]
    if kind == "die":
        event["die"] = rng.randint(0, 7)
    elif kind == "move":
        event["move"] = [rng.choice(["B", rng.randint(0, 51)]), rng.randint(0, 51)]
    elif kind == "colour":
        event["colour"] = rng.choice(log["colours"])
    elif kind == "drop":
        del events[i]
    elif kind == "insert":
        events.insert(i, {"colour": rng.choice(log["colours"]), "die": rng.randint(1, 6)})
    elif kind == "huff":
        event["huff"] = rng.choice(["B", rng.randint(0, 51)])
    else:
        event.pop("move", None)
    return dict(log, events=events), i


def same_result(result: dict[str, Any], expected: dict[str, Any]) -> bool:
    keys = ("complete", "placings", "pawns_home", "captures")
    return (
        all(result[k] == expected[k] for k in keys) and result.get("winner") == expected["winner"]
    )


@pytest.mark.parametrize("seed", range(6))
def test_engine_agrees_with_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    for k in range(4):
        header = random_header(rng)
        played = ref.play(header, seed=1000 * seed + k, max_events=5000)
        result = validate(played)
        assert result["valid"], (header, result)
        ok, _, expected = ref.check(played)
        assert ok and same_result(result, expected), (header, result, expected)

        simulated = simulate_game(
            rules=header["rules"],
            board=header["board"],
            players=header.get("players"),
            first=header["first"],
            colours=header["colours"],
            unused=header.get("unused"),
            bots=rng.choice(["random", "heuristic"]),
            seed=k,
            max_events=5000,
        )
        ok, index, expected = ref.check(simulated)
        assert ok, (header, index)
        assert same_result(validate(simulated), expected)

        for _ in range(8):
            mutated, _i = mutate(rng.choice([played, simulated]), rng)
            result = validate(mutated)
            ok, index, _ = ref.check(mutated)
            assert (result["valid"], result.get("event")) == (ok, index), (header, result)
