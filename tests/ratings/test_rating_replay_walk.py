"""The replay's walk at the 100× site's mix (docs/ratings.md, "A correction of the first
game"): mostly two-player boards — rated inline by the walk, rewritten by ``ctid`` — with
three- and four-player boards and ties among them. A void or a correction of the first,
a middle or the last game, followed by the update, leaves exactly the figures of a recompute
from scratch; and while the update's transaction is open, the history rows it did not
rewrite are not locked (another connection locks them ``NOWAIT``), the rewritten ones are."""

from __future__ import annotations

import datetime as dt
import random

import psycopg
import pytest
from django.db import connection, transaction

from ratings.models import RatingChange, RatingGame
from ratings.services import history_io, ratings
from ratings.services.ratings import ratings_recompute, ratings_update
from tests.ratings.test_rating_replay import T0, everything
from tournaments.models import Result

NAMES = ["ann", "bob", "cid", "dee", "eve", "fay", "gus"]


def _history(world, games: int, seed: int = 7, groups=None):
    """``games`` rated games (96 % two players; ties on the bigger boards) on fixtures with counted
    results, rated by the update. ``groups``: the players split in sets that never meet."""
    rng = random.Random(seed)
    league = world.league()
    fixtures = [world.game(league, ["ann", "bob", "cid"]) for _ in range(games)]
    result = Result.objects.create(fixture=fixtures[0], source="organizer", state="confirmed")
    players = [world.player(n).pk for n in NAMES]
    for i, fixture in enumerate(fixtures):
        pool = players if groups is None else [players[k] for k in groups[i % len(groups)]]
        seated = 2 if rng.random() < 0.96 else rng.choice((3, 4))
        board = rng.sample(pool, min(seated, len(pool)))
        places = rng.sample(range(1, len(board) + 1), len(board))
        if len(board) > 2 and rng.random() < 0.5:
            places[1] = places[0]  # a tie (never between everyone: that is not rated)
        RatingGame.objects.create(
            fixture=fixture,
            result=result,
            places=[[p, q] for p, q in zip(board, places, strict=True)],
            played_at=T0 + dt.timedelta(minutes=i),
        )
    ratings_update()
    return list(RatingGame.objects.order_by("pk"))


def _void(game):
    RatingGame.objects.filter(pk=game.pk).update(
        places=None, skip_reason="voided", applied=False, revision=game.revision + 1
    )


def _correct(game):
    """Other places: the first seat's place goes last (a win becomes a loss, a tie a win)."""
    rotated = [*game.places[1:], game.places[0]]
    places = [[p, q] for (p, _), (_, q) in zip(game.places, rotated, strict=True)]
    if places == game.places:
        places = [[p, 1 + (k == 0)] for k, (p, _) in enumerate(game.places)]
    RatingGame.objects.filter(pk=game.pk).update(
        places=places, applied=False, revision=game.revision + 1
    )


@pytest.mark.parametrize("threads", [True, False])
@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_a_void_or_correction_replays_to_the_recompute_bit_for_bit(
    world, where, threads, monkeypatch
):
    # with the background threads from the first game on (a long walk's), or none at all
    monkeypatch.setattr(history_io, "THREADS", threads)
    monkeypatch.setattr(ratings, "THREADS_FROM", 0)
    games = _history(world, 120)
    target = {"first": games[0], "middle": games[60], "last": games[-1]}[where]
    _correct(target)
    outcome = ratings_update()
    assert outcome["status"] == "replayed"
    if where != "last":
        assert outcome["updated"] > 20  # the walk's inline path rewrote rows
    corrected = everything()
    ratings_recompute(resync=False)
    assert everything() == corrected
    target.refresh_from_db()
    _void(target)
    outcome = ratings_update()
    assert outcome["deleted"] == len(target.places)
    voided = everything()
    ratings_recompute(resync=False)
    assert everything() == voided


def test_corrections_of_the_bigger_boards_replay_bit_for_bit(world):
    games = _history(world, 60, seed=11)
    for game in games:
        if len(game.places) > 2:
            _correct(game)
    ratings_update()
    replayed = everything()
    ratings_recompute(resync=False)
    assert everything() == replayed


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("waves", [False, True])
def test_the_update_locks_only_the_rows_it_rewrites(world, waves, monkeypatch):
    """The update's transaction still open: another connection locks, ``NOWAIT``, every
    history row the update did not rewrite (before the change, and after it between players
    the change never reached), and none of those it rewrote — walking game by game or, as
    a long walk does, in waves."""
    if waves:
        monkeypatch.setattr(ratings, "THREADS_FROM", 0)
    # ann, bob, cid meet each other; dee, eve, fay only each other
    _history(world, 40, seed=3, groups=[(0, 1, 2), (3, 4, 5)])
    games = list(RatingGame.objects.order_by("pk"))
    before = {row[0]: row[1:] for row in _rows()}
    target = games[20]
    _correct(target)
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with transaction.atomic():
        outcome = ratings_update()
        rewritten = {pk for pk, *values in _rows() if tuple(values) != before[pk]}
        assert len(rewritten) == outcome["updated"] > 0
        untouched = set(before) - rewritten
        assert any(RatingChange.objects.get(pk=pk).game_id > target.pk for pk in untouched)
        with psycopg.connect(**params, autocommit=True) as other:
            other.execute("SET lock_timeout = '2s'")
            free = other.execute(
                f"SELECT id FROM {RatingChange._meta.db_table} WHERE id = ANY(%s) "
                "FOR UPDATE NOWAIT",
                [sorted(untouched)],
            ).fetchall()
            assert len(free) == len(untouched)
            for pk in sorted(rewritten)[:5]:
                with pytest.raises(psycopg.errors.LockNotAvailable):
                    other.execute(
                        f"SELECT id FROM {RatingChange._meta.db_table} WHERE id = %s "
                        "FOR UPDATE NOWAIT",
                        [pk],
                    )


def _rows():
    return RatingChange.objects.values_list(
        "pk", "mu_before", "sigma_before", "mu_after", "sigma_after", "win_probability"
    )
