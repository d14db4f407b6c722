"""The Plackett–Luce update in plain floats (issue 31) is openskill's, bit for bit: on random
games of 2–4 players (ties, allied two-colour seats rated per player, places as the platform
makes them from results) every mu, sigma and win forecast equals what openskill's
``PlackettLuce.rate`` and ``predict_win`` give, compared with ``==``. Must hold after every
openskill upgrade (docs/ratings.md, "Dependency: openskill")."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce, PlackettLuceRating

from ratings.algorithms import (
    DEFAULT_SETTINGS,
    RatedGame,
    Rating,
    RatingSettings,
    finishing_places,
    plackett_luce,
    rate_game,
)
from ratings.config import PLATFORM_RATINGS


def openskill_reference(mus, sigmas, places, rating_settings):
    """What ``rate_game`` computed before issue 31: openskill's objects."""
    model = PlackettLuce(
        mu=rating_settings.mu,
        sigma=rating_settings.sigma,
        beta=rating_settings.beta,
        tau=rating_settings.tau,
    )
    teams = [[PlackettLuceRating(m, s)] for m, s in zip(mus, sigmas, strict=True)]
    forecast = [float(w) for w in model.predict_win(teams)]
    result = model.rate(teams, ranks=[float(p) for p in places])
    return (
        [float(t[0].mu) for t in result],
        [float(t[0].sigma) for t in result],
        forecast,
    )


SETTINGS = st.sampled_from(
    [PLATFORM_RATINGS, DEFAULT_SETTINGS, RatingSettings(beta=25.0 / 3.0, tau=0.0)]
)
# ratings as a platform's history has them: new players, long-played ones, extremes
MU = st.one_of(
    st.just(25.0),
    st.floats(-20, 80, allow_nan=False, allow_infinity=False),
    st.floats(24, 26, allow_nan=False, allow_infinity=False),
)
SIGMA = st.one_of(
    st.just(25.0 / 3.0),
    st.floats(0.05, 12, allow_nan=False, allow_infinity=False),
    st.floats(1e-6, 30, allow_nan=False, allow_infinity=False),
)


@st.composite
def games(draw):
    n = draw(st.integers(2, 4))
    mus = draw(st.lists(MU, min_size=n, max_size=n))
    sigmas = draw(st.lists(SIGMA, min_size=n, max_size=n))
    kind = draw(st.sampled_from(["order", "ties", "result"]))
    if kind == "order":  # no ties, in any seat order
        places = draw(st.permutations(range(1, n + 1)))
    elif kind == "ties":  # any places, sparse numbers and shared ones
        places = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
    else:  # as the platform makes them: finished players first, the rest by score (ties)
        players = list(range(n))
        finished = draw(st.lists(st.sampled_from(players), unique=True, max_size=n))
        rest = [p for p in players if p not in finished]
        scores = {p: draw(st.integers(0, 3)) for p in rest}
        made = finishing_places(players, finished, scores or None)
        places = [place for _, place in made] if made else [1, 2, *range(3, n + 1)][:n]
    return mus, sigmas, list(places)


@settings(max_examples=3000, deadline=None)
@given(game=games(), rating_settings=SETTINGS)
def test_the_fast_update_is_openskills_bit_for_bit(game, rating_settings):
    mus, sigmas, places = game
    fast = plackett_luce(mus, sigmas, places, rating_settings)
    assert fast == openskill_reference(mus, sigmas, places, rating_settings)


@settings(max_examples=300, deadline=None)
@given(game=games())
def test_rate_game_gives_openskills_figures_for_an_allied_board(game):
    """A 2T/3T board: each player (two or three colours) is one team; ``rate_game`` with
    the platform's settings gives openskill's figures and the competition places."""
    mus, sigmas, places = game
    players = [f"p{i}" for i in range(len(mus))]
    ratings = {p: Rating(m, s) for p, m, s in zip(players, mus, sigmas, strict=True)}
    game_ = RatedGame("g", tuple(zip(players, places, strict=True)))
    update = rate_game(ratings, game_, PLATFORM_RATINGS)
    ref_mu, ref_sigma, ref_forecast = openskill_reference(mus, sigmas, places, PLATFORM_RATINGS)
    assert [c.after.mu for c in update.changes] == ref_mu
    assert [c.after.sigma for c in update.changes] == ref_sigma
    assert [c.win_probability for c in update.changes] == ref_forecast
    assert [c.place for c in update.changes] == [game_.place_of(p) for p in players]
