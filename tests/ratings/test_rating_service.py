"""Ratings kept with the counted results: which games are rated, the incremental update,
idempotence, corrections and voids, and the full recompute giving the same figures."""

from __future__ import annotations

from django.core.management import call_command

from ratings.algorithms import RatedGame, ratings_replay
from ratings.config import PLATFORM_RATINGS
from ratings.models import PlayerRating, RatingChange, RatingGame, RatingState
from ratings.services.ratings import ratings_recompute, ratings_update
from tournaments.models import Entry
from tournaments.services.results import forfeit_record, result_void

ORDERS = [
    ["ann", "bob", "cid"],
    ["bob", "cid", "ann"],
    ["ann", "cid", "bob"],
    ["dee", "ann", "bob"],
    ["cid", "dee", "ann"],
    ["ann", "bob", "dee"],
]


def snapshot():
    ratings = sorted(
        PlayerRating.objects.values_list("player__name", "mu", "sigma", "display", "games")
    )
    history = sorted(
        RatingChange.objects.values_list(
            "player__name",
            "sequence",
            "place",
            "mu_before",
            "mu_after",
            "sigma_after",
            "win_probability",
            "display_before",
            "display_after",
        )
    )
    return ratings, history


def play_all(world, league, orders=ORDERS, *, update_each=True):
    fixtures = []
    for order in orders:
        fixtures.append(world.play(league, order))
        if update_each:
            ratings_update()
    return fixtures


def test_a_counted_result_is_rated_in_sequence_with_the_algorithm_figures(world):
    league = world.league()
    fixtures = play_all(world, league)
    games = list(RatingGame.objects.order_by("pk"))
    assert [g.fixture_id for g in games] == [f.pk for f in fixtures]
    ids = {n: p.pk for n, p in world.players.items()}
    expected = ratings_replay(
        [
            RatedGame.from_order(g.pk, [ids[n] for n in order])
            for g, order in zip(games, ORDERS, strict=True)
        ],
        PLATFORM_RATINGS,
    )
    for pid in ids.values():
        row = PlayerRating.objects.get(player_id=pid)
        assert (row.mu, row.sigma) == (expected.ratings[pid].mu, expected.ratings[pid].sigma)
        assert row.games == expected.games_played[pid]
    ann = RatingChange.objects.filter(player=world.players["ann"]).order_by("sequence")
    assert [c.place for c in ann] == [1, 3, 1, 2, 3, 1]
    first = ann[0]
    assert first.display_before == 1000  # a new player: 1000 + 40 × (25 − 3 × 25/3)
    assert first.mu_after > first.mu_before and first.delta > 0
    assert abs(first.win_probability - 1 / 3) < 1e-9  # three new players: a third each


def test_update_is_idempotent(world):
    league = world.league()
    play_all(world, league, update_each=False)
    first = ratings_update()
    assert first["status"] == "updated" and first["applied"] == len(ORDERS)
    before = snapshot()
    again = ratings_update()
    assert again == {"status": "up to date", "applied": 0, "through": first["through"]}
    assert snapshot() == before
    assert RatingChange.objects.count() == 3 * len(ORDERS)


def test_incremental_equals_full_recompute_and_the_command(world):
    league = world.league()
    play_all(world, league)  # one update per game
    incremental = snapshot()
    assert ratings_recompute()["status"] == "recomputed"
    assert snapshot() == incremental
    call_command("ratings_recompute")
    assert snapshot() == incremental


def test_a_correction_of_a_rated_game_replays_in_the_original_order(world):
    league = world.league()
    fixtures = play_all(world, league)
    world.enter(fixtures[1], ["ann", "bob", "cid"], reason="wrong winner")
    corrected_game = RatingGame.objects.get(fixture=fixtures[1])
    assert corrected_game.applied is False  # pending again, below what was applied
    assert corrected_game.pk <= RatingState.objects.get().applied_through
    assert ratings_update()["status"] == "replayed"
    corrected = snapshot()
    # the same figures as if the corrected result had been there from the start
    RatingChange.objects.all().delete()
    ratings_recompute()
    assert snapshot() == corrected
    game = RatingGame.objects.get(fixture=fixtures[1])
    assert game.pk == min(g.pk for g in RatingGame.objects.all()) + 1  # kept its sequence
    names = {p.pk: n for n, p in world.players.items()}
    assert [names[p] for p, place in game.places if place == 1] == ["ann"]


def test_void_of_a_rated_game_takes_it_out(world):
    league = world.league()
    fixtures = play_all(world, league, ORDERS[:2])
    result_void(fixture=fixtures[0], by=world.organizer, reason="played with wrong rules")
    assert ratings_update()["status"] == "replayed"
    assert not RatingGame.objects.filter(fixture=fixtures[0]).exists()
    assert RatingChange.objects.filter(fixture=fixtures[0]).count() == 0
    ann = PlayerRating.objects.get(player=world.players["ann"])
    assert ann.games == 1


def test_forfeits_are_not_rated(world):
    league = world.league()
    fixture = world.game(league, ["ann", "bob", "cid"])
    loser = Entry.objects.get(league=league, player__name="cid")
    forfeit_record(fixture=fixture, by=world.organizer, loser=loser, reason="no show")
    ratings_update()
    game = RatingGame.objects.get(fixture=fixture)
    assert game.places is None and game.skip_reason == "forfeit"
    assert not PlayerRating.objects.exists()


def test_a_late_commit_with_a_lower_sequence_replays_from_it(world):
    league = world.league()
    play_all(world, league, ORDERS[:3], update_each=False)
    # the second game's transaction "committed late": the first and third were applied
    second = RatingGame.objects.order_by("pk")[1]
    RatingGame.objects.exclude(pk=second.pk).update(applied=False)
    RatingGame.objects.filter(pk=second.pk).update(applied=False)
    games = list(RatingGame.objects.order_by("pk"))
    RatingGame.objects.filter(pk=second.pk).delete()
    ratings_update()
    second.pk = games[1].pk
    second.applied = False
    second.save(force_insert=True)
    out = ratings_update()
    assert out["status"] == "replayed"
    after = snapshot()
    ratings_recompute(resync=False)
    assert snapshot() == after


def test_a_correction_that_keeps_the_places_needs_no_recompute(world):
    league = world.league()
    fixtures = play_all(world, league, ORDERS[:2])
    before = snapshot()
    world.enter(fixtures[0], ORDERS[0], reason="typo in the reason")  # same finishing order
    assert ratings_update()["status"] == "up to date"
    assert snapshot() == before


def test_games_of_two_leagues_share_one_rating(world):
    a = world.league(format="3T")
    b = world.league(format="2T")
    world.play(a, ["ann", "bob", "cid"])
    world.play(b, ["ann", "bob"])
    ratings_update()
    assert PlayerRating.objects.get(player=world.players["ann"]).games == 2


def test_the_command_backfills_results_counted_before_ratings_existed(world):
    league = world.league()
    play_all(world, league)
    ratings = sorted(PlayerRating.objects.values_list("player__name", "mu", "sigma", "games"))
    # a database from before this feature: counted results, no rating rows at all
    RatingGame.objects.all().delete()  # and the history with it
    PlayerRating.objects.all().delete()
    assert not PlayerRating.objects.exists() and not RatingChange.objects.exists()
    call_command("ratings_recompute")
    assert RatingGame.objects.count() == len(ORDERS)
    assert (
        sorted(PlayerRating.objects.values_list("player__name", "mu", "sigma", "games")) == ratings
    )
