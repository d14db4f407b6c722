"""The ratings update and an organizer's write to a rated game, at the same moment on real
PostgreSQL connections, never deadlock (docs/ratings.md, "Lock order").

The interleaving that deadlocked (issue 22, point 10): the update holds the pending rated
game and inserts its rating history, whose foreign key to the fixture takes a key-share lock
on the fixture row; the organizer's hand entry, void or upload holds that fixture row and
then asks for the rated game. The hooks below force exactly that order: the update waits,
with the rated game locked, until the organizer's transaction holds the fixture, and only
then writes its history.
"""

from __future__ import annotations

import threading
from unittest import mock

import pytest
from rest_framework.test import APIClient

from ratings.models import RatingChange, RatingGame
from ratings.services import ratings
from tests.concurrently import run_concurrently
from tests.ratings.conftest import World
from tournaments.models import Result
from tournaments.services import results

pytestmark = pytest.mark.django_db(transaction=True)


def _pending_game(world: World):
    league = world.league()
    fixture = world.game(league, ["ann", "bob", "cid"])
    world.enter(fixture, ["ann", "bob", "cid"])
    game = RatingGame.objects.get(fixture=fixture)
    assert not game.applied or RatingChange.objects.filter(game=game).exists()
    # whatever ran on commit: the game is pending again, as right after the entry
    RatingChange.objects.all().delete()
    RatingGame.objects.filter(pk=game.pk).update(applied=False)
    return league, fixture


def _interleaved(organizer_write):
    """Run ``ratings_update`` and ``organizer_write`` concurrently, the update holding its
    rated games while the organizer takes the fixture, then writing its history."""
    update_holds_games = threading.Event()
    organizer_holds_fixture = threading.Event()
    real_rate, real_lock = ratings._rate, results.fixture_lock

    def rate_after_the_organizer_locked(*args, **kwargs):
        update_holds_games.set()
        organizer_holds_fixture.wait(timeout=5)
        return real_rate(*args, **kwargs)

    def lock_while_the_update_holds_games(fixture_id):
        update_holds_games.wait(timeout=5)
        fixture = real_lock(fixture_id)
        organizer_holds_fixture.set()
        return fixture

    with (
        mock.patch.object(ratings, "_rate", rate_after_the_organizer_locked),
        mock.patch.object(results, "fixture_lock", lock_while_the_update_holds_games),
    ):
        outcomes = run_concurrently(ratings.ratings_update, organizer_write)
    assert update_holds_games.is_set() and organizer_holds_fixture.is_set()
    return outcomes


def test_a_correction_during_the_update_neither_deadlocks_nor_is_lost(world):
    _, fixture = _pending_game(world)
    update, correction = _interleaved(lambda: world.enter(fixture, ["cid", "bob", "ann"]))
    assert not isinstance(update, Exception), update
    assert not isinstance(correction, Exception), correction
    assert update["status"] in ("updated", "replayed")
    # the correction made its game pending again; the next update rates the corrected order
    ratings.ratings_update()
    places = dict(RatingChange.objects.filter(fixture=fixture).values_list("player__name", "place"))
    assert places == {"cid": 1, "bob": 2, "ann": 3}
    assert not RatingGame.objects.filter(applied=False).exists()


def test_a_void_through_the_api_during_the_update_answers_200_and_counts(world):
    _, fixture = _pending_game(world)
    client = APIClient()
    client.force_authenticate(world.organizer)

    def void():
        return client.post(
            f"/api/v1/fixtures/{fixture.pk}/void/", {"reason": "wrong table"}, format="json"
        )

    update, response = _interleaved(void)
    assert not isinstance(update, Exception), update
    assert not isinstance(response, Exception), response
    assert response.status_code == 200, response.content
    assert not Result.objects.filter(fixture=fixture, state=Result.State.CONFIRMED).exists()
    ratings.ratings_update()  # the void of a rated game: replayed without it
    assert not RatingChange.objects.filter(fixture=fixture).exists()
    assert not RatingGame.objects.filter(fixture=fixture, places__isnull=False).exists()


def test_every_fixture_lock_in_the_code_is_for_no_key_update():
    """The lock order holds only while no write takes a fixture ``FOR UPDATE`` (which blocks
    the ratings task's foreign-key checks): every ``select_for_update`` on fixtures in the
    code says ``no_key=True``."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    pattern = re.compile(r"(Fixture\.objects|fixtures)\.select_for_update\(")
    found, plain = 0, []
    for app in ("tournaments", "games", "live", "accounts"):
        for path in (root / app).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for match in pattern.finditer(text):
                found += 1
                arguments = text[match.end() : match.end() + 60].split(")\n")[0]
                if "no_key=True" not in arguments:
                    plain.append(
                        f"{path.relative_to(root)}: {text[match.start() : match.end() + 40]}"
                    )
    assert found >= 8 and not plain, plain
