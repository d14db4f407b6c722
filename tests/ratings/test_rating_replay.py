"""The ratings update replays from the change (docs/ratings.md, "Replay from the change"):
random sequences of new games, corrections, voids and updates end with exactly the figures of
a recompute from scratch, and a correction of a late game costs the same queries and rows
however long the history before it is."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.models import PlayerRating, RatingChange, RatingGame, RatingState
from ratings.services.ratings import VOIDED, ratings_recompute, ratings_update
from tournaments.models import Result

NAMES = ["ann", "bob", "cid", "dee", "eve"]
FIXTURES = 8
T0 = timezone.now().replace(microsecond=0)


def everything():
    """Every stored figure of the ratings, in a comparable form (no row ids)."""
    ratings = sorted(
        PlayerRating.objects.values_list(
            "player_id", "mu", "sigma", "display", "games", "last_played_at"
        )
    )
    history = sorted(
        RatingChange.objects.values_list(
            "player_id",
            "game_id",
            "fixture_id",
            "sequence",
            "place",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "display_before",
            "display_after",
            "win_probability",
            "played_at",
        )
    )
    games = sorted(RatingGame.objects.values_list("pk", "places", "applied"))
    state = RatingState.objects.values_list("games_rated").first()
    return ratings, history, games, state


@pytest.fixture
def board(world):
    """Fixtures with counted results (the rated games' foreign keys) and five players."""
    league = world.league()
    fixtures = [
        world.play(league, ["ann", "bob", "cid"]) for _ in range(FIXTURES)
    ]  # the entries' own rated games are cleared by every example
    results = {r.fixture_id: r.pk for r in Result.objects.filter(state=Result.State.CONFIRMED)}
    players = [world.player(n).pk for n in NAMES]
    return [(f.pk, results[f.pk]) for f in fixtures], players


places_of = st.lists(st.integers(0, len(NAMES) - 1), min_size=2, max_size=4, unique=True).flatmap(
    lambda seats: st.tuples(
        st.just(seats), st.lists(st.integers(1, 3), min_size=len(seats), max_size=len(seats))
    )
)
step = st.one_of(
    st.tuples(st.just("count"), st.integers(0, FIXTURES - 1), places_of),
    st.tuples(st.just("void"), st.integers(0, FIXTURES - 1), st.just(None)),
    st.tuples(st.just("forfeit"), st.integers(0, FIXTURES - 1), st.just(None)),
    st.tuples(st.just("update"), st.just(0), st.just(None)),
)


def _apply_step(kind, index, value, fixtures, players):
    """What ``rating_game_counted`` does to a fixture's rated game, with random places."""
    fixture_id, result_id = fixtures[index]
    game = RatingGame.objects.filter(fixture_id=fixture_id).first()
    if kind == "update":
        ratings_update()
        return
    if kind == "count":
        seats, ranks = value
        places = [[players[s], r] for s, r in zip(seats, ranks, strict=True)]
        if len(set(ranks)) == 1:
            places = None  # nothing separates them: not rated
        reason = "" if places else "nothing separates the players"
    else:
        places, reason = None, VOIDED if kind == "void" else "forfeit"
    if game is None:
        if kind == "void":
            return
        # played_at not in sequence order: the last game by sequence sets last_played_at
        RatingGame.objects.create(
            fixture_id=fixture_id,
            result_id=result_id,
            places=places,
            skip_reason=reason,
            played_at=T0 - dt.timedelta(minutes=7 * index % 5),
        )
    elif (game.places, game.skip_reason) != (places, reason):
        if game.places != places or kind == "void":
            game.applied = False
        game.places, game.skip_reason = places, reason
        game.revision += 1
        game.save()


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=1, max_size=18))
def test_random_counts_corrections_and_voids_replay_to_a_recompute_from_scratch(board, steps):
    fixtures, players = board
    RatingGame.objects.all().delete()
    PlayerRating.objects.all().delete()
    RatingState.objects.all().delete()
    for kind, index, value in steps:
        _apply_step(kind, index, value, fixtures, players)
    ratings_update()
    incremental = everything()
    assert not RatingGame.objects.filter(applied=False).exists()
    assert not RatingGame.objects.filter(skip_reason=VOIDED).exists()
    ratings_recompute(resync=False)
    assert everything() == incremental
    assert ratings_update()["status"] == "up to date"


def _correct_the_last_game(world, fixture):
    """Correct ``fixture`` (the newest game) and measure the update that follows."""
    world.enter(fixture, ["cid", "ann", "bob"], reason="wrong winner")
    with CaptureQueriesContext(connection) as queries:
        outcome = ratings_update()
    assert outcome["status"] == "replayed"
    sql = [q["sql"] for q in queries.captured_queries]
    locks = [s for s in sql if "FOR UPDATE" in s or "FOR NO KEY UPDATE" in s]
    writes = [s for s in sql if s.split()[0] in ("INSERT", "UPDATE", "DELETE")]
    return outcome, len(sql), locks, len(writes)


def test_a_correction_of_a_late_game_costs_the_same_at_two_history_sizes(world):
    league = world.league()
    names = ["ann", "bob", "cid", "dee", "eve"]
    sizes = []
    for games in (6, 30):
        for i in range(games):
            order = [names[(i + k) % len(names)] for k in range(3)]
            world.play(league, order)
        last = world.play(league, ["ann", "bob", "cid"])
        ratings_update()
        before = everything()
        outcome, queries, locks, writes = _correct_the_last_game(world, last)
        sizes.append((queries, writes, outcome["updated"], outcome["created"], outcome["games"]))
        # only the rating state is locked (the writer's lock), never the table
        assert len(locks) == 1 and "ratingstate" in locks[0], locks
        # the corrected game alone was re-rated: three history rows, three ratings
        assert (outcome["games"], outcome["updated"], outcome["players"]) == (1, 3, 3)
        after = everything()
        changed = set(after[1]) - set(before[1])
        assert len(changed) == 3 and {row[1] for row in changed} == {
            RatingGame.objects.get(fixture=last).pk
        }
        ratings_recompute(resync=False)
        assert everything() == after
    assert sizes[0] == sizes[1], sizes


def test_a_correction_early_in_the_history_rewrites_what_its_players_reach(world):
    """A correction reaches later games only through the players whose ratings it changed:
    games between other players are neither re-rated nor written."""
    league = world.league()
    first = world.play(league, ["ann", "bob", "cid"])
    for _ in range(3):
        world.play(league, ["dee", "eve", "fay"])  # never meets the first game's players
    world.play(league, ["cid", "gus", "hal"])  # cid's next game: re-rated
    ratings_update()
    world.enter(first, ["cid", "ann", "bob"], reason="wrong winner")
    outcome = ratings_update()
    assert outcome["status"] == "replayed"
    assert outcome["games"] == 2  # the corrected game and cid's next one
    assert outcome["updated"] == 6 and outcome["created"] == outcome["deleted"] == 0
    after = everything()
    # a swap between two players rated alike leaves the third's rating as it was: clean
    world.enter(first, ["cid", "bob", "ann"], reason="second and third swapped")
    outcome = ratings_update()
    assert outcome["games"] == 1 and outcome["updated"] == 2
    assert everything() != after
    after = everything()
    ratings_recompute(resync=False)
    assert everything() == after
