"""A game's snapshot restored onto a fresh game of the same setup is the same game: every
later roll gives the same legal moves, the same events and the same end (what live play
relies on to apply a move from the stored position instead of replaying the game)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    PRESETS,
    Game,
    SnapshotError,
    game_restore,
    game_snapshot,
    simulate_game,
)


def _same(a: Game, b: Game) -> None:
    assert a.positions() == b.positions()
    assert (a.turn, a.tries_left, a.attempt, a.is_over(), a.winner) == (
        b.turn,
        b.tries_left,
        b.attempt,
        b.is_over(),
        b.winner,
    )
    assert a.placing_colours() == b.placing_colours() and a.captures() == b.captures()
    assert a.ended_by == b.ended_by and a.events == b.events
    if not a.is_over():
        for die in range(1, 7):
            assert [str(m) for m in a.legal_moves(die)] == [str(m) for m in b.legal_moves(die)]


@settings(max_examples=25, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    board=st.sampled_from([4, 6]),
    variant=st.sampled_from([None, "quick", "first-capture"]),
    seed=st.integers(0, 10_000),
    cut=st.floats(0, 1),
)
def test_a_restored_snapshot_plays_on_exactly_like_the_game(preset, board, variant, seed, cut):
    log = simulate_game(preset, board, seed=seed, variant=variant, bots="random")
    events = log["events"]
    at = int(cut * len(events))

    def fresh() -> Game:
        return Game.new(preset, board, first=log["first"], variant=variant)

    played = fresh()
    played.push_events(events[:at])
    data = json.loads(json.dumps(game_snapshot(played)))  # what the database gives back
    restored = game_restore(fresh(), data)
    _same(played, restored)
    for event in events[at:]:  # both play the rest of the log: every step identical
        played.push_event(event)
        restored.push_event(event)
        _same(played, restored)
    assert restored.is_over() == played.is_over()


def test_a_snapshot_of_another_board_or_version_is_refused():
    data = game_snapshot(Game.new("league", 6))
    with pytest.raises(SnapshotError, match="another board"):
        game_restore(Game.new("league", 4), data)
    with pytest.raises(SnapshotError, match="version"):
        game_restore(Game.new("league", 6), {**data, "v": 0})
