"""The full recompute streams plain values (issue 31): its resync with the counted results
runs the same queries whatever the number of games (no query per result, seat or owner) and
gives exactly the figures of the incremental path; a void of a recent game replays only
what follows it and locks only the writer's state row."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings.models import RatingGame
from ratings.services.ratings import VOIDED, ratings_recompute, ratings_update
from tests.builders import make_player
from tests.ratings.test_rating_replay import everything
from tournaments.models import Entry, Seat
from tournaments.services.results import forfeit_record, result_void

NAMES = ["ann", "bob", "cid", "dee", "eve"]


def _games(world, league, count, start=0):
    fixtures = []
    for i in range(start, start + count):
        fixtures.append(world.play(league, [NAMES[(i + k) % len(NAMES)] for k in range(3)]))
    return fixtures


def _recompute_queries():
    with CaptureQueriesContext(connection) as queries:
        outcome = ratings_recompute()
    assert outcome["status"] == "recomputed"
    return len(queries)


def test_the_recompute_resyncs_in_the_same_queries_at_two_sizes(world):
    league = world.league()
    other = world.league(format="2T")  # a second owner's look-up is cached the same way
    counts = []
    for games in (4, 16):
        _games(world, league, games // 2)
        _games(world, league, games // 2, start=games)
        world.play(other, ["ann", "bob"])
        forfeited = world.game(league, ["ann", "bob", "cid"])
        loser = Entry.objects.get(league=league, player__name="cid")
        forfeit_record(fixture=forfeited, by=world.organizer, loser=loser, reason="no show")
        ratings_update()
        incremental = everything()
        counts.append(_recompute_queries())
        assert everything() == incremental
    assert counts[0] == counts[1], counts


def test_the_resync_puts_right_a_rated_game_whose_places_are_wrong(world):
    league = world.league()
    fixtures = _games(world, league, 5)
    ratings_update()
    incremental = everything()
    game = RatingGame.objects.get(fixture=fixtures[2])
    right, revision = game.places, game.revision
    game.places = [[p, 1] for p, _ in right]  # a tie that was never played
    game.save()
    RatingGame.objects.filter(fixture=fixtures[4]).delete()  # and a game it never knew
    ratings_recompute()
    game.refresh_from_db()
    assert (game.places, game.revision) == (right, revision + 1)
    ratings, history, games, state = everything()
    # the deleted game comes back with a new sequence (the latest): its figures are the same
    # since it was the last game
    assert (ratings, state) == (incremental[0], incremental[3])
    assert len(history) == len(incremental[1]) and len(games) == len(incremental[2])


def test_a_hand_result_with_a_player_without_an_account_is_resynced_unrated(world):
    league = world.league()
    fixtures = _games(world, league, 3)
    guest = make_player("guest")
    entry = Entry.objects.create(league=league, player=guest)
    Seat.objects.filter(fixture=fixtures[0], entry__player__name="ann").update(entry=entry)
    ratings_recompute()
    game = RatingGame.objects.get(fixture=fixtures[0])
    assert game.places is None and "without an account" in game.skip_reason


def _void_recent(world, history):
    """A league of ``history`` games, then the game to void and two after it; void it and
    run the update: the outcome, the SQL and the figures before and after."""
    league = world.league()
    _games(world, league, history)
    voided = world.play(league, ["ann", "bob", "cid"])
    world.play(league, ["dee", "eve", "fay"])  # nobody of the voided game: not re-rated
    world.play(league, ["cid", "dee", "eve"])  # cid's next game: re-rated
    ratings_update()
    before = everything()
    voided_seq = RatingGame.objects.get(fixture=voided).pk
    result_void(fixture=voided, by=world.organizer, reason="disputed")
    with CaptureQueriesContext(connection) as queries:
        outcome = ratings_update()
    return outcome, [q["sql"] for q in queries.captured_queries], before, voided_seq


def test_a_void_of_a_recent_game_rewrites_only_the_rows_after_it(world):
    sizes = []
    for history in (6, 30):
        outcome, sql, before, voided_seq = _void_recent(world, history)
        assert outcome["status"] == "replayed"
        # the voided game's three rows deleted; cid's next game re-rated (its three rows:
        # cid's before changed, and so the others' afters); the game between others untouched
        assert (outcome["deleted"], outcome["created"]) == (3, 0)
        assert outcome["games"] == 2 and outcome["updated"] == 3
        locks = [s for s in sql if "FOR UPDATE" in s or "FOR NO KEY UPDATE" in s]
        assert len(locks) == 1 and "ratingstate" in locks[0], locks
        after = everything()
        changed = set(before[1]) ^ set(after[1])
        assert {row[3] for row in changed} == {voided_seq, voided_seq + 2}
        assert not RatingGame.objects.filter(skip_reason=VOIDED).exists()
        writes = [s for s in sql if s.split()[0] in ("INSERT", "UPDATE", "DELETE")]
        sizes.append((len(sql), len(writes)))
        ratings_recompute()
        assert everything() == after
    assert sizes[0] == sizes[1], sizes
