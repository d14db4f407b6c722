"""The replay's walk in waves (docs/ratings.md, "The walk in waves"): the two-player games
of a wave rated as arrays give the floats of the scalar formula bit for bit, and a long
walk in waves writes exactly the rows the walk game by game writes."""

from __future__ import annotations

import datetime as dt
import random

import numpy as np
import pytest
from django.db import transaction

from ratings.algorithms import plackett_luce_two, plackett_luce_two_arrays
from ratings.config import PLATFORM_RATINGS
from ratings.models import RatingChange, RatingGame
from ratings.services import history_io, ratings
from ratings.services.ratings import ratings_recompute, ratings_update
from tests.ratings.test_rating_replay import everything
from tests.ratings.test_rating_replay_walk import _correct, _history, _void


def _games(n: int, seed: int) -> list[tuple[float, float, float, float, list[int]]]:
    rng = random.Random(seed)
    games = []
    for _ in range(n):
        mu_a, mu_b = rng.uniform(-10, 60), rng.uniform(-10, 60)
        sigma_a, sigma_b = rng.uniform(0.01, 9), rng.uniform(0.01, 9)
        if rng.random() < 0.05:  # the same player's figures on both sides, and round ones
            mu_b, sigma_b = mu_a, sigma_a
        if rng.random() < 0.05:
            mu_a, sigma_a = 25.0, 25.0 / 3
        places = rng.choice(([1, 2], [2, 1], [1, 1], [2, 2], [3, 1]))
        games.append((mu_a, mu_b, sigma_a, sigma_b, places))
    return games


def test_the_arrays_give_the_scalar_formulas_floats_bit_for_bit():
    games = _games(20_000, seed=5)
    columns = [np.array([g[k] for g in games], dtype=np.float64) for k in range(4)]
    places = np.array([g[4] for g in games], dtype=np.int64)
    arrays = plackett_luce_two_arrays(*columns, places[:, 0], places[:, 1], PLATFORM_RATINGS)
    for i, (mu_a, mu_b, sigma_a, sigma_b, where) in enumerate(games):
        (new_a, new_b), (sig_a, sig_b), (win_a, win_b) = plackett_luce_two(
            mu_a, mu_b, sigma_a, sigma_b, where, PLATFORM_RATINGS
        )
        got = tuple(float(a[i]) for a in arrays)
        assert got == (new_a, new_b, sig_a, sig_b, win_a, win_b), (i, games[i])


@pytest.mark.parametrize("change", ["correct", "void"])
def test_a_long_walk_in_waves_writes_what_the_walk_game_by_game_writes(world, change, monkeypatch):
    monkeypatch.setattr(ratings, "THREADS_FROM", 0)
    games = _history(world, 150, seed=23)
    (_correct if change == "correct" else _void)(games[2])
    outcomes, figures = {}, {}
    for waves in (False, True):
        monkeypatch.setattr(ratings, "WAVES", waves)
        with transaction.atomic():
            outcomes[waves] = ratings_update()
            figures[waves] = everything()
            transaction.set_rollback(True)
    assert outcomes[True] == outcomes[False]
    assert outcomes[True]["updated"] > 100
    assert figures[True] == figures[False]
    ratings_update()
    ratings_recompute(resync=False)
    assert everything() == figures[True]


@pytest.mark.parametrize("threads", [True, False])
def test_the_arrays_read_are_the_rows_read_one_by_one(world, threads, monkeypatch):
    """The batch read as arrays holds what the tuples of the walk game by game hold."""
    monkeypatch.setattr(history_io, "THREADS", threads)
    _history(world, 30, seed=29)
    with transaction.atomic():
        [(games, rows)] = list(history_io.array_chunks(1, 1000))
        every = np.arange(len(games["pk"]))
        tuples = [row for batch in history_io.history_row_batches(1, size=100) for row in batch]
        assert history_io.row_tuples(rows, np.arange(len(rows["pk"]))) == tuples
        read = list(history_io.rated_games(1, everything=False, size=100))
        assert history_io.game_tuples(games, every) == [
            (*game[:4], game[4] or "", *game[5:]) for game in read
        ]


def test_a_walk_in_waves_with_new_games_pending_creates_their_rows_in_order(world, monkeypatch):
    """A correction of an early game and new games pending at the end, in one update: the new
    games' rows are created in sequence order (as the walk game by game creates them) and
    everything equals a recompute."""
    monkeypatch.setattr(ratings, "THREADS_FROM", 0)
    games = _history(world, 80, seed=31)
    late = [world.game(world.league(), ["ann", "bob", "cid"]) for _ in range(6)]
    players = [world.player(n).pk for n in ("ann", "bob", "cid", "dee")]
    for i, fixture in enumerate(late):
        board = players[: 2 + i % 3]
        RatingGame.objects.create(
            fixture=fixture,
            result=games[0].result,
            places=[[p, 1 + (k + i) % len(board)] for k, p in enumerate(board)],
            played_at=games[-1].played_at + dt.timedelta(minutes=i + 1),
        )
    _correct(games[1])
    outcome = ratings_update()
    assert outcome["created"] == sum(2 + i % 3 for i in range(6))
    created = list(
        RatingChange.objects.filter(game__in=RatingGame.objects.filter(pk__gt=games[-1].pk))
        .order_by("pk")
        .values_list("sequence", flat=True)
    )
    assert created == sorted(created)
    replayed = everything()
    ratings_recompute(resync=False)
    assert everything() == replayed
