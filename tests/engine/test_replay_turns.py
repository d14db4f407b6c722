"""``replay_turns``: each event's roll, move and capture without the board, the same as
``replay``'s steps say; the stored per-seat statistics read from it (issue 31: an upload's
second replay built every step's board to count rolls and captures)."""

from __future__ import annotations

import json

import pytest

from games.engine import InvalidLog, replay, replay_turns, simulate_game
from games.stats import log_stats
from tests.examples import EXAMPLES

VALID = sorted(p.name for p in EXAMPLES.glob("valid-*.json"))


def _logs():
    for name in VALID:
        yield (EXAMPLES / name).read_text(encoding="utf-8")
    for seed in range(4):  # captures and huffs come up in longer games
        yield json.dumps(
            simulate_game(
                rules="league",
                players={"a": ["yellow"], "b": ["red"]},
                first="yellow",
                bots="heuristic",
                seed=seed,
            )
        )


def _stats_from_steps(text: str) -> dict:
    """The statistics as they were counted before: from every step of ``replay``."""
    steps = list(replay(text))
    setup, _ = replay_turns(text)
    seat_of = {name: s for s, name in enumerate(setup.colours)}
    stats = {
        s: dict(rolls=0, sixes=0, moves=0, captures=0, captured=0, huffed=0, faces=[0] * 6)
        for s in setup.used
    }
    for step in steps:
        row = stats[seat_of[step.colour]]
        row["rolls"] += 1
        row["sixes"] += step.die == 6
        row["faces"][step.die - 1] += 1
        if step.move is None:
            continue
        row["moves"] += 1
        if step.captured is not None:
            row["captures"] += 1
            stats[seat_of[step.captured[0]]]["captured"] += 1
        if step.move.huff is not None:
            row["huffed"] += 1
    return stats


def test_examples_are_found():
    assert VALID


@pytest.mark.parametrize("text", list(_logs()))
def test_turns_say_what_the_steps_say(text):
    _, turns = replay_turns(text)
    steps = list(replay(text))
    assert [(t.colour, t.die, t.move, t.captured) for t in turns] == [
        (s.colour, s.die, s.move, s.captured) for s in steps
    ]


@pytest.mark.parametrize("text", list(_logs()))
def test_stats_from_the_text_or_its_parse_equal_those_from_every_step(text):
    expected = _stats_from_steps(text)
    assert log_stats(text) == expected
    assert log_stats(json.loads(text)) == expected


def test_an_illegal_event_is_refused_at_its_index():
    data = json.loads((EXAMPLES / VALID[0]).read_text(encoding="utf-8"))
    data["events"][0]["die"] = 9
    _, turns = replay_turns(data)
    with pytest.raises(InvalidLog) as refused:
        list(turns)
    assert refused.value.event == 0
