"""Hypothesis properties: simulated games are valid, mutations are caught where they happen,
pawns are conserved, replay is deterministic, and validate never raises."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    BOARDS,
    Game,
    IllegalMove,
    Position,
    RandomBot,
    final_game,
    play,
    replay,
    simulate_game,
    validate,
)

PRESETS = ["league", "league-2t+", "league-gp", "classic", "online"]
VARIANTS: list[Any] = [
    *PRESETS,
    {"preset": "classic", "barriers": True},
    {"preset": "classic", "compulsory_capture": "huff"},
    {"preset": "classic", "compulsory_capture": True, "capture_backwards": True},
    {"preset": "classic", "neutral": "green"},
    {"preset": "online", "barriers": True, "capture_backwards": True, "compulsory_capture": "huff"},
]
PLAYERS = {
    4: [None, {"alice": ["green", "red"], "bob": ["black", "yellow"]}],
    6: [None, {"a": ["red", "black"], "b": ["yellow", "green"], "c": ["blue", "white"]}],
}
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def simulated(draw: st.DrawFn) -> dict[str, Any]:
    rules = draw(st.sampled_from(VARIANTS))
    # variants on board 6 can run to thousands of rolls with random players: presets only
    board = 4 if isinstance(rules, dict) else draw(st.sampled_from([4, 6]))
    neutral = isinstance(rules, dict) and "neutral" in rules
    players = None if neutral else draw(st.sampled_from(PLAYERS[board]))
    return simulate_game(
        rules=rules,
        board=board,
        players=players,
        bots=draw(st.sampled_from(["random", "heuristic"])),
        seed=draw(st.integers(0, 2**32 - 1)),
    )


@FAST
@given(simulated())
def test_simulated_games_are_valid_and_complete(log: dict[str, Any]) -> None:
    result = validate(log)
    assert result["valid"], result
    assert result["complete"] and result["winner"] is not None
    assert result["events"] == len(log["events"])
    assert validate(json.dumps(log)) == result


@st.composite
def mutation(draw: st.DrawFn) -> tuple[dict[str, Any], int, dict[str, Any]]:
    log = draw(simulated())
    events = [dict(e) for e in log["events"]]
    i = draw(st.integers(0, len(events) - 1))
    kind = draw(st.sampled_from(["die", "move", "colour", "drop", "insert"]))
    colours = log["colours"]
    if kind == "die":
        events[i]["die"] = draw(st.integers(0, 7))
    elif kind == "move":
        last = BOARDS[log["board"]].last_field
        start = draw(st.one_of(st.just("B"), st.integers(0, last)))
        events[i]["move"] = draw(st.sampled_from([None, [start, draw(st.integers(0, last))]]))
    elif kind == "colour":
        events[i]["colour"] = draw(st.sampled_from(colours))
    elif kind == "drop":
        del events[i]
    else:
        extra: dict[str, Any] = {
            "colour": draw(st.sampled_from(colours)),
            "die": draw(st.integers(1, 6)),
        }
        events.insert(i, extra)
    return log, i, dict(log, events=events)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutation())
def test_a_mutation_is_caught_at_the_mutated_event_or_later(case: tuple) -> None:
    _original, i, mutated = case
    result = validate(mutated)
    if result["valid"]:
        return
    # the events before the mutation are untouched: they are never blamed
    assert result["event"] >= i, result
    if i >= len(mutated["events"]):
        return
    # and if the mutated event itself is not playable there, it is the one blamed
    before = final_game(dict(mutated, events=mutated["events"][:i]))
    try:
        before.push_event(mutated["events"][i])
    except IllegalMove:
        assert result["event"] == i, result


def _check_position(game_log: dict[str, Any], positions: dict[str, tuple]) -> None:
    board = BOARDS[game_log["board"]]
    colours = game_log["colours"]
    unused = set(game_log.get("unused", ()))
    barriers = isinstance(game_log["rules"], dict) and game_log["rules"].get("barriers")
    fields: dict[int, list[str]] = {}
    for seat, colour in enumerate(colours):
        pawns = positions[colour]
        assert len(pawns) == (0 if colour in unused else 4)
        house = [p for p in pawns if p != "B" and p >= board.track_length]
        assert len(house) == len(set(house))
        for p in pawns:
            if p != "B" and p < board.track_length:
                fields.setdefault(board.absolute(seat, p), []).append(colour)
    for there in fields.values():
        assert len(set(there)) == 1, there
        assert len(there) <= (2 if barriers else 1)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(simulated())
def test_pawns_are_conserved_and_replay_is_deterministic(log: dict[str, Any]) -> None:
    steps = list(replay(log))
    again = list(replay(json.loads(json.dumps(log))))
    assert steps == again
    for step in steps[:: max(1, len(steps) // 60)]:
        _check_position(log, step.positions)
    _check_position(log, steps[-1].positions)
    result = validate(log)
    assert sum(result["pawns_home"].values()) == sum(
        sum(1 for p in ps if p != "B" and p >= BOARDS[log["board"]].track_length)
        for ps in steps[-1].positions.values()
    )


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
    | st.sampled_from(["B", "red", "league", "maedn-log/1", "green", "huff"]),
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(
            st.sampled_from(["colour", "die", "move", "huff", "pawn_colour", "preset", "x"])
            | st.text(max_size=5),
            children,
            max_size=5,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_validate_never_raises_on_arbitrary_json(value: Any) -> None:
    result = validate(value)
    assert result["valid"] in (True, False)
    validate(json.dumps(value))


EVENT = st.one_of(
    JSON,
    st.fixed_dictionaries(
        {
            "colour": st.sampled_from(["red", "black", "yellow", "green", "x"]) | JSON,
            "die": st.integers(-1, 8) | JSON,
        },
        optional={
            "move": st.lists(st.sampled_from(["B", 0, 1, 6, 40, 43, 44]) | JSON, max_size=3) | JSON,
            "huff": JSON,
            "pawn_colour": JSON,
        },
    ),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rules=st.sampled_from(VARIANTS) | JSON,
    first=st.sampled_from(["red", "black", "green"]) | JSON,
    players=st.none() | JSON,
    unused=st.none() | JSON,
    board=st.sampled_from([4, 6]) | JSON,
    colours=st.none() | JSON,
    events=st.lists(EVENT, max_size=12),
)
def test_validate_never_raises_on_log_shaped_json(**parts: Any) -> None:
    log = {"format": "maedn-log/1", **{k: v for k, v in parts.items() if v is not None}}
    result = validate(log)
    assert set(result) <= {
        "valid",
        "event",
        "error",
        "complete",
        "events",
        "placings",
        "winner",
        "pawns_home",
        "captures",
    }
    if not result["valid"]:
        assert isinstance(result["error"], str) and result["error"]


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=64) | st.text(max_size=64))
def test_validate_never_raises_on_arbitrary_text(data: bytes | str) -> None:
    assert validate(data)["valid"] is False


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(PRESETS))
def test_legal_moves_api_agrees_with_push(seed: int, rules: str) -> None:
    log = simulate_game(rules=rules, seed=seed)
    game = Game.new(rules, first=log["first"])
    for event in log["events"][:200]:
        moves = game.legal_moves(event["die"])
        move = next((m for m in moves if m.as_list() == event.get("move")), None)
        assert (move is None) == ("move" not in event)
        game.push(event["die"], move, event.get("huff"))


@settings(max_examples=40, deadline=None)
@given(
    rules=st.sampled_from(
        ["league", "classic", "online", {"preset": "classic", "neutral": "green"}]
    ),
    seed=st.integers(0, 10**6),
    rolls=st.integers(0, 400),
)
def test_a_copy_is_the_same_game_and_independent(rules: object, seed: int, rolls: int) -> None:
    """Game.copy sets every slot (it writes them out), equal to the original's; the state
    that changes is the copy's own: playing the copy on leaves the original as it was."""
    unused = ["black"] if isinstance(rules, dict) else None
    game = Game.new(rules, unused=unused)
    play(game, [RandomBot()] * 4, random.Random(seed), max_events=rolls)
    before = repr(game), game.result()
    twin = game.copy()
    slots = [*Position.__slots__, *Game.__slots__]
    assert all(getattr(twin, name) == getattr(game, name) for name in slots)
    for name in (
        "pawns",
        "track",
        "tcount",
        "home",
        "yard",
        "capture_counts",
        "finished",
        "placings",
        "home_order",
    ):
        assert getattr(twin, name) is not getattr(game, name), name
    assert all(a is not b for a, b in zip(twin.pawns, game.pawns, strict=True))
    play(twin, [RandomBot()] * 4, random.Random(seed + 1))
    assert twin.over and (repr(game), game.result()) == before
