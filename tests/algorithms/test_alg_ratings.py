"""Ratings: places from results, openskill updates, replay = incremental, idempotence,
displayed rating, win predictions and their calibration."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from ratings.algorithms import (
    DEFAULT_SETTINGS,
    FINISHED_COUNT_POINTS,
    Forecast,
    RatedGame,
    Rating,
    RatingBook,
    RatingError,
    RatingSettings,
    apply_game,
    book_apply,
    calibration_report,
    display_rating,
    finishing_places,
    forecasts_from_replay,
    initial_rating,
    is_provisional,
    pending_games,
    predict_win,
    rate_game,
    ratings_replay,
)

# --------------------------------------------------------------------------------------
# Places from a platform result


def test_two_player_game_with_only_a_winner_places_the_loser_second():
    assert finishing_places(["a", "b"], ["b"]) == (("a", 2), ("b", 1))


def test_allied_colours_count_per_player_in_at_board_order():
    # 3T: three players, two colours each; the result names players, never colours.
    places = finishing_places(["p1", "p2", "p3"], ["p2"], {"p1": 1, "p2": 4, "p3": 3})
    assert places == (("p1", 3), ("p2", 1), ("p3", 2))


def test_result_fields_can_be_passed_as_stored():
    # [winner, *both_finished, *colour_places]: repeats and a missing winner are dropped.
    places = finishing_places(["a", "b", "c"], [None, "c", "a", "c", "a"])
    assert places == (("a", 2), ("b", 3), ("c", 1))


def test_equal_counted_pawns_are_a_tie_not_the_at_board_order():
    places = finishing_places(["p1", "p2", "p3"], ["p3"], {"p1": 2, "p2": 2, "p3": 4})
    assert places == (("p1", 2), ("p2", 2), ("p3", 1))


def test_time_limited_game_is_placed_by_count_points_after_the_finishers():
    # Open game: d finished (all four pawns home), the rest by count points; b and c level.
    points = {"a": 120, "b": 57, "c": 57, "d": FINISHED_COUNT_POINTS}
    places = finishing_places(
        ["a", "b", "c", "d"], ["d"], points, finished_score=FINISHED_COUNT_POINTS
    )
    assert places == (("a", 2), ("b", 3), ("c", 3), ("d", 1))


def test_time_limited_game_nobody_finished_ties_the_top_on_equal_points():
    places = finishing_places(["a", "b", "c"], [], {"a": 80, "b": 40, "c": 80})
    assert places == (("a", 1), ("b", 2), ("c", 1))


def test_finishers_keep_their_order_even_with_equal_count_points():
    points = {"a": 300, "b": 300, "c": 10}
    places = finishing_places(["a", "b", "c"], ["b", "a"], points, finished_score=300)
    assert places == (("a", 2), ("b", 1), ("c", 3))


def test_forfeit_is_not_rated():
    assert finishing_places(["a", "b"], ["a"], forfeit=True) is None


def test_a_result_without_information_is_not_rated():
    assert finishing_places(["a", "b", "c"]) is None
    assert finishing_places(["a", "b", "c"], [], {"a": 5, "b": 5, "c": 5}) is None


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((["a"], ["a"]), {}, "at least two players"),
        ((["a", "a"], ["a"]), {}, "repeated"),
        ((["a", "b"], ["c"]), {}, "not at the board"),
        ((["a", "b", "c"], ["a"], {"b": 1}), {}, "scores missing"),
        ((["a", "b"], ["a"], {"b": 1, "z": 3}), {}, "not at the board"),
        ((["a", "b"], ["a"], {"b": float("nan")}), {}, "finite number"),
        ((["a", "b"], [], {"a": 300, "b": 1}), {"finished_score": 300}, "finished"),
    ],
)
def test_bad_results_name_the_problem(args, kwargs, message):
    with pytest.raises(RatingError, match=message):
        finishing_places(*args, **kwargs)


# --------------------------------------------------------------------------------------
# Games


def test_game_validation():
    with pytest.raises(RatingError, match="at least two"):
        RatedGame.from_order(1, ["a"])
    with pytest.raises(RatingError, match="appears twice"):
        RatedGame.from_order(1, ["a", "a"])
    with pytest.raises(RatingError, match="whole number"):
        RatedGame(1, (("a", 1), ("b", 0)))
    with pytest.raises(RatingError, match="whole number"):
        RatedGame(1, (("a", 1), ("b", 1.5)))
    with pytest.raises(RatingError, match="empty"):
        RatedGame.from_groups(1, [["a"], []])


def test_places_are_competition_ranks_and_need_not_be_dense():
    game = RatedGame(7, (("a", 10), ("b", 20), ("c", 20), ("d", 99)))
    assert [game.place_of(p) for p in "abcd"] == [1, 2, 2, 4]
    assert game.winners == {"a"}
    assert RatedGame.from_groups(8, [["x", "y"], ["z"]]).winners == {"x", "y"}


# --------------------------------------------------------------------------------------
# One game


def test_rate_game_matches_openskill_plackett_luce_with_the_places_as_ranks():
    ratings = {"a": Rating(30.0, 5.0), "b": Rating(22.0, 7.0)}  # c is new
    game = RatedGame(1, (("a", 2), ("b", 1), ("c", 2)))
    update = rate_game(ratings, game)
    model = PlackettLuce()
    expected = model.rate(
        [[model.rating(30.0, 5.0)], [model.rating(22.0, 7.0)], [model.rating()]],
        ranks=[2.0, 1.0, 2.0],
    )
    assert [(c.after.mu, c.after.sigma) for c in update.changes] == [
        (t[0].mu, t[0].sigma) for t in expected
    ]
    assert [c.place for c in update.changes] == [2, 1, 2]
    assert update.change("c").before == initial_rating()


def test_winner_gains_last_loses_and_uncertainty_shrinks():
    update = rate_game({}, RatedGame.from_order("g", ["a", "b", "c"]))
    a, b, c = (update.change(p) for p in "abc")
    assert a.mu_delta > 0 > c.mu_delta
    assert a.mu_delta > b.mu_delta > c.mu_delta
    assert all(ch.sigma_delta < 0 for ch in update.changes)
    assert a.display_delta() > 0 > c.display_delta()


def test_equal_ratings_tied_get_equal_updates():
    update = rate_game({}, RatedGame.from_groups("g", [["a"], ["b", "c"]]))
    assert update.change("b").after == update.change("c").after


def test_beating_a_stronger_player_gains_more():
    strong = {"s": Rating(35.0, 3.0), "w": Rating(20.0, 3.0)}
    upset = rate_game({**strong, "x": Rating(25.0, 3.0)}, RatedGame.from_order(1, ["x", "s"]))
    easy = rate_game({**strong, "x": Rating(25.0, 3.0)}, RatedGame.from_order(1, ["x", "w"]))
    assert upset.change("x").mu_delta > easy.change("x").mu_delta > 0


def test_rate_game_leaves_the_input_alone_and_apply_game_copies():
    ratings = {"a": Rating(25.0, 8.0)}
    game = RatedGame.from_order(1, ["a", "b"])
    new, update = apply_game(ratings, game)
    assert ratings == {"a": Rating(25.0, 8.0)}
    assert new["a"] == update.change("a").after != ratings["a"]
    assert set(new) == {"a", "b"}


def test_rating_validation():
    with pytest.raises(RatingError, match="positive"):
        Rating(25.0, 0.0)
    with pytest.raises(RatingError, match="finite"):
        Rating(float("inf"), 1.0)
    with pytest.raises(RatingError, match="must be a Rating"):
        rate_game({"a": (25.0, 8.0)}, RatedGame.from_order(1, ["a", "b"]))  # type: ignore[dict-item]
    with pytest.raises(RatingError, match="beta"):
        RatingSettings(beta=0)
    with pytest.raises(RatingError, match="tau"):
        RatingSettings(tau=-1)


def test_settings_change_the_model():
    game = RatedGame.from_order(1, ["a", "b"])
    default = rate_game({}, game).change("a").mu_delta
    noisy = rate_game({}, game, RatingSettings(beta=12.0)).change("a").mu_delta
    assert 0 < noisy < default  # more luck per game: a win says less


# --------------------------------------------------------------------------------------
# Replay = incremental, idempotence

players = st.sampled_from(["a", "b", "c", "d", "e", "f", "g"])


@st.composite
def games(draw):
    n = draw(st.integers(min_value=1, max_value=40))
    out = []
    for i in range(n):
        board = draw(st.lists(players, min_size=2, max_size=6, unique=True))
        places = draw(st.lists(st.integers(1, 4), min_size=len(board), max_size=len(board)))
        out.append(RatedGame(i, tuple(zip(board, places, strict=True))))
    return out


@settings(max_examples=60, deadline=None)
@given(games())
def test_replay_from_scratch_equals_applying_games_one_at_a_time(game_list):
    replay = ratings_replay(game_list)
    ratings: dict = {}
    book = RatingBook()
    for game, logged in zip(game_list, replay.history, strict=True):
        ratings, update = apply_game(ratings, game)
        book, booked = book_apply(book, game)
        assert update == logged == booked
    assert dict(replay.ratings) == ratings == dict(book.ratings)  # exact floats
    assert book.applied == {g.game_id for g in game_list}
    played = {p: sum(p in g.players for g in game_list) for p in ratings}
    assert dict(replay.games_played) == played


@settings(max_examples=40, deadline=None)
@given(games(), st.data())
def test_replay_can_resume_from_a_checkpoint(game_list, data):
    k = data.draw(st.integers(0, len(game_list)))
    first = ratings_replay(game_list[:k])
    resumed = ratings_replay(game_list[k:], initial=first.ratings)
    assert dict(resumed.ratings) == dict(ratings_replay(game_list).ratings)


@settings(max_examples=40, deadline=None)
@given(games())
def test_applying_a_game_twice_changes_nothing(game_list):
    book = RatingBook()
    for game in game_list:
        book, _ = book_apply(book, game)
    for game in game_list:
        again, update = book_apply(book, game)
        assert update is None
        assert again is book
    doubled = ratings_replay([g for g in game_list for _ in range(2)])
    assert dict(doubled.ratings) == dict(book.ratings)
    assert doubled.skipped == tuple(g.game_id for g in game_list)


def test_pending_games_skips_applied_and_repeated_ids():
    g1, g2, g3 = (RatedGame.from_order(i, ["a", "b"]) for i in (1, 2, 3))
    assert pending_games([g1, g2, g2, g3], applied={1}) == [g2, g3]


def test_player_history_lists_each_game_of_the_player():
    replay = ratings_replay(
        [
            RatedGame.from_order(1, ["a", "b"]),
            RatedGame.from_order(2, ["b", "c"]),
            RatedGame.from_order(3, ["c", "a"]),
        ]
    )
    history = replay.player_history("a")
    assert [game_id for game_id, _ in history] == [1, 3]
    assert history[0][1].after == history[1][1].before
    assert history[1][1].after == replay.ratings["a"]


def test_a_consistent_winner_rises_to_the_top():
    rng = random.Random(16)
    pool = ["a", "b", "c", "d", "e", "f"]
    game_list = []
    for i in range(60):
        board = rng.sample(pool, 3)
        order = sorted(board, key=lambda p: (p != "a", rng.random()))
        game_list.append(RatedGame.from_order(i, order))
    replay = ratings_replay(game_list)
    best = max(replay.ratings, key=lambda p: display_rating(replay.ratings[p]))
    assert best == "a"


# --------------------------------------------------------------------------------------
# Displayed rating


def test_displayed_rating_is_the_scaled_ordinal():
    assert display_rating(initial_rating()) == 1000  # 25 − 3 × 25/3 = 0
    assert display_rating(Rating(30.0, 2.0)) == 1000 + 40 * 24
    custom = RatingSettings(display_offset=0, display_scale=1, display_z=2)
    assert display_rating(Rating(30.0, 2.0), custom) == 26


def test_provisional_while_sigma_is_large():
    assert is_provisional(initial_rating())
    assert not is_provisional(Rating(25.0, DEFAULT_SETTINGS.provisional_sigma))


# --------------------------------------------------------------------------------------
# Predictions


def test_two_player_prediction_is_the_normal_cdf_of_the_mu_gap():
    ratings = {"a": Rating(30.0, 4.0), "b": Rating(25.0, 3.0)}
    beta = DEFAULT_SETTINGS.beta
    z = (30.0 - 25.0) / math.sqrt(2 * beta**2 + 16 + 9)
    expected = 0.5 * (1 + math.erf(z / math.sqrt(2)))
    p = predict_win(ratings, ["a", "b"])
    assert p["a"] == pytest.approx(expected)
    assert p["b"] == pytest.approx(1 - expected)


def test_multiplayer_prediction_sums_to_one_and_follows_the_ratings():
    ratings = {"a": Rating(32.0, 3.0), "b": Rating(25.0, 3.0), "c": Rating(20.0, 3.0)}
    p = predict_win(ratings, ["c", "a", "b"])
    assert sum(p.values()) == pytest.approx(1)
    assert p["a"] > p["b"] > p["c"]
    fresh = predict_win({}, ["x", "y", "z", "w"])
    assert all(q == pytest.approx(0.25) for q in fresh.values())


def test_prediction_needs_distinct_players():
    with pytest.raises(RatingError, match="at least two"):
        predict_win({}, ["a"])
    with pytest.raises(RatingError, match="repeated"):
        predict_win({}, ["a", "a"])


def test_the_update_records_the_forecast_made_before_the_game():
    ratings = {"a": Rating(32.0, 3.0), "b": Rating(20.0, 3.0)}
    update = rate_game(ratings, RatedGame.from_order(1, ["b", "a"]))
    forecast = predict_win(ratings, ["b", "a"])
    assert {c.player: c.win_probability for c in update.changes} == forecast


# --------------------------------------------------------------------------------------
# Calibration


def test_calibration_by_hand():
    forecasts = [
        Forecast({"a": 0.5, "b": 0.3, "c": 0.2}, {"a"}),
        Forecast({"x": 0.8, "y": 0.2}, {"y"}),
    ]
    report = calibration_report(forecasts, bins=5)
    # Brier: (0.25 + 0.09 + 0.04) and (0.64 + 0.64), averaged over two games.
    assert report.games == 2
    assert report.brier == pytest.approx((0.38 + 1.28) / 2)
    # Uniform: 3 players (4/9 + 1/9 + 1/9), 2 players (1/4 + 1/4).
    assert report.brier_baseline == pytest.approx((6 / 9 + 0.5) / 2)
    assert report.log_loss == pytest.approx(-(math.log(0.5) + math.log(0.2)) / 2)
    assert report.log_loss_baseline == pytest.approx((math.log(3) + math.log(2)) / 2)
    # Bins of width 0.2: 0.2, 0.2 → [0.2, 0.4) with 0.3; 0.5 → [0.4, 0.6); 0.8 → [0.8, 1].
    counts = [b.count for b in report.bins]
    assert counts == [0, 3, 1, 0, 1]
    low = report.bins[1]
    assert low.mean_predicted == pytest.approx(0.7 / 3)
    assert low.observed == pytest.approx(1 / 3)  # y won from 0.2
    assert report.bins[4].observed == 0.0
    assert report.bins[0].mean_predicted is None
    assert report.brier_skill == pytest.approx(1 - report.brier / report.brier_baseline)


def test_uniform_forecasts_score_exactly_the_baseline():
    forecasts = [
        Forecast({"a": 0.5, "b": 0.5}, {"b"}),
        Forecast(dict.fromkeys("xyz", 1 / 3), {"z"}),
    ]
    report = calibration_report(forecasts)
    assert report.brier == pytest.approx(report.brier_baseline)
    assert report.log_loss_skill == pytest.approx(0)


def test_shared_first_place_splits_the_outcome():
    f = Forecast({"a": 0.5, "b": 0.25, "c": 0.25}, {"a", "b"})
    report = calibration_report([f])
    assert report.brier == pytest.approx(0 + 0.0625 + 0.0625)
    assert report.log_loss == pytest.approx(-(0.5 * math.log(0.5) + 0.5 * math.log(0.25)))


def test_a_certain_wrong_forecast_has_a_finite_log_loss():
    report = calibration_report([Forecast({"a": 1.0, "b": 0.0}, {"b"})])
    assert math.isfinite(report.log_loss)
    assert report.log_loss > 30


def test_forecasts_from_a_replay_start_uniform_and_use_the_ratings_before_each_game():
    game_list = [RatedGame.from_order(1, ["a", "b"]), RatedGame.from_order(2, ["b", "a"])]
    replay = ratings_replay(game_list)
    first, second = forecasts_from_replay(replay)
    assert dict(first.probabilities) == {"a": 0.5, "b": 0.5}
    assert first.winners == {"a"}
    assert second.probabilities["a"] > 0.5  # a won the first game
    assert second.winners == {"b"}


@pytest.mark.parametrize(
    ("probabilities", "winners", "message"),
    [
        ({"a": 0.7, "b": 0.7}, {"a"}, "sum to 1"),
        ({"a": 1.2, "b": -0.2}, {"a"}, "between 0 and 1"),
        ({"a": 1.0}, {"a"}, "two players"),
        ({"a": 0.5, "b": 0.5}, set(), "winner"),
        ({"a": 0.5, "b": 0.5}, {"c"}, "not forecast"),
    ],
)
def test_bad_forecasts_are_refused(probabilities, winners, message):
    with pytest.raises(RatingError, match=message):
        Forecast(probabilities, winners)


def test_calibration_needs_forecasts_and_bins():
    with pytest.raises(RatingError, match="no forecasts"):
        calibration_report([])
    with pytest.raises(RatingError, match="bins"):
        calibration_report([Forecast({"a": 0.5, "b": 0.5}, {"a"})], bins=0)
