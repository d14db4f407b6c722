"""Player ratings from finishing orders (openskill Plackett–Luce), replays, predictions and
calibration, as plain database-free Python.

Every player at the board is a "team" of one: a game of allied colours counts per player,
not per colour. A game is a :class:`RatedGame`: players with their finishing place
(1 = first, equal places = a tie). :func:`finishing_places` turns a platform result into
those places (or ``None`` for a game that is not rated, such as a forfeit).

- :func:`rate_game` / :func:`apply_game` — one game: new ratings and each player's delta.
- :func:`ratings_replay` — an ordered list of games from scratch; gives exactly the figures
  of applying the games one at a time (it is the same fold).
- :class:`RatingBook` and :func:`book_apply` — idempotent application: a game id already
  applied is skipped.
- :func:`display_rating`, :func:`is_provisional` — the number shown next to a name.
- :func:`predict_win` — win probabilities of a scheduled game from current ratings.
- :func:`calibration_report` — Brier score, log loss and reliability bins of win
  forecasts against the uniform baseline.

See ``docs/ratings.md`` for the decisions (forfeits, ties, count points, one global rating).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

import numpy as np
from openskill.models import PlackettLuce, PlackettLuceRating

from tournaments.algorithms.errors import AlgorithmError

PlayerId = Hashable
GameId = Hashable

#: Count points of a player who finished (four pawns in the house, 4 × 75): players with
#: these points finished for real, so their recorded order is never turned into a tie.
FINISHED_COUNT_POINTS = 300


class RatingError(AlgorithmError):
    """A game, a rating or a forecast cannot be rated or scored as given."""


# --------------------------------------------------------------------------------------
# Settings and ratings


@dataclass(frozen=True)
class RatingSettings:
    """The model's constants (openskill's defaults) and how a rating is displayed.

    - ``mu``, ``sigma`` — a new player's rating.
    - ``beta`` — the performance noise of one game (larger: luck matters more).
    - ``tau`` — added to sigma before every game, so ratings keep moving.
    - ``display_offset``, ``display_scale``, ``display_z`` — the displayed rating is
      ``round(display_offset + display_scale × (mu − display_z × sigma))``.
    - ``provisional_sigma`` — a rating with a larger sigma is shown as provisional.
    """

    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0
    display_offset: float = 1000.0
    display_scale: float = 40.0
    display_z: float = 3.0
    provisional_sigma: float = 6.0

    def __post_init__(self) -> None:
        for name in ("sigma", "beta", "display_scale"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value) and value > 0):
                raise RatingError(f"rating setting {name} must be a positive number, not {value!r}")
        for name in ("mu", "tau", "display_offset", "display_z", "provisional_sigma"):
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value)):
                raise RatingError(f"rating setting {name} must be a finite number, not {value!r}")
        if self.tau < 0:
            raise RatingError(f"rating setting tau must not be negative, not {self.tau!r}")


DEFAULT_SETTINGS = RatingSettings()


@dataclass(frozen=True)
class Rating:
    """A player's skill belief: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    def __post_init__(self) -> None:
        if not (isinstance(self.mu, int | float) and math.isfinite(self.mu)):
            raise RatingError(f"a rating's mu must be a finite number, not {self.mu!r}")
        if not (isinstance(self.sigma, int | float) and math.isfinite(self.sigma)):
            raise RatingError(f"a rating's sigma must be a finite number, not {self.sigma!r}")
        if self.sigma <= 0:
            raise RatingError(f"a rating's sigma must be positive, not {self.sigma!r}")


def initial_rating(settings: RatingSettings = DEFAULT_SETTINGS) -> Rating:
    """The rating of a player who has not played a rated game."""
    return Rating(settings.mu, settings.sigma)


def ordinal(rating: Rating, settings: RatingSettings = DEFAULT_SETTINGS) -> float:
    """The conservative skill estimate ``mu − z·sigma`` (openskill's ordinal)."""
    return rating.mu - settings.display_z * rating.sigma


def display_rating(rating: Rating, settings: RatingSettings = DEFAULT_SETTINGS) -> int:
    """The whole number shown next to a name: the ordinal, scaled and offset.

    A new player shows ``display_offset`` (1000); the number rises as the player's results
    are good and as the uncertainty shrinks.
    """
    return display_of(rating.mu, rating.sigma, settings)


def display_of(mu: float, sigma: float, settings: RatingSettings = DEFAULT_SETTINGS) -> int:
    """:func:`display_rating` of a plain ``mu`` and ``sigma`` (the replay's hot loop)."""
    return round(
        settings.display_offset + settings.display_scale * (mu - settings.display_z * sigma)
    )


def is_provisional(rating: Rating, settings: RatingSettings = DEFAULT_SETTINGS) -> bool:
    """True while the rating is too uncertain to be compared (shown with a "?")."""
    return rating.sigma > settings.provisional_sigma


@lru_cache(maxsize=32)
def _model(settings: RatingSettings) -> PlackettLuce:
    return PlackettLuce(mu=settings.mu, sigma=settings.sigma, beta=settings.beta, tau=settings.tau)


# --------------------------------------------------------------------------------------
# The Plackett–Luce update in plain floats (issue 31)

#: openskill's ``kappa`` (its default; the floor of a sigma's shrink factor)
KAPPA = 0.0001
_SQRT2 = math.sqrt(2.0)


def plackett_luce(
    mus: Sequence[float],
    sigmas: Sequence[float],
    places: Sequence[int],
    settings: RatingSettings = DEFAULT_SETTINGS,
) -> tuple[list[float], list[float], list[float]]:
    """One game of one-player teams: the players' new mu and sigma and their win forecasts
    before it, exactly (bit for bit) what openskill's ``PlackettLuce(mu, sigma, beta,
    tau).rate(teams, ranks=places)`` and ``.predict_win(teams)`` give for our settings
    (one player a team, no weights, scores, margin, balance or limit_sigma; kappa, gamma
    the defaults).

    The same floating-point operations in the same order, without openskill's objects: a
    rating object per player (each with a fresh uuid), a deep copy of the teams and the
    sorting through lists of lists were most of a replay's time. openskill stays the
    reference: ``tests/algorithms/test_alg_ratings_fast.py`` compares the two with ``==``
    on random games (2–4 players, ties) and must pass after every openskill upgrade.
    Notes on openskill 6.2's arithmetic, kept here on purpose: a team of one has
    ``sigma_squared = (sigma * 1.0) ** 2``, so the player's share of it is exactly 1.0; its
    averaging of tied players' mu changes is a no-op (it subtracts the updated rating from
    itself), so ties are rated only through the shared ``sum_q`` and ``a``.
    """
    n = len(mus)
    if n == 2:
        return plackett_luce_two(
            float(mus[0]), float(mus[1]), float(sigmas[0]), float(sigmas[1]), places, settings
        )
    mus = [float(m) for m in mus]
    beta_squared = settings.beta**2
    # predict_win, from the ratings before the game (no tau)
    two_beta_squared = 2 * beta_squared
    squares = [(float(s) * 1.0) ** 2 for s in sigmas]
    erf, sqrt = math.erf, math.sqrt
    if n == 2:
        p = 0.5 * (
            1.0
            + erf(((mus[0] - mus[1]) / sqrt(two_beta_squared + squares[0] + squares[1])) / _SQRT2)
        )
        forecast = [p, 1 - p]
    else:
        wins = []
        for i in range(n):
            mu_i, square_i = mus[i], squares[i]
            total = 0
            for j in range(n):
                if j != i:
                    z = (mu_i - mus[j]) / sqrt(two_beta_squared + square_i + squares[j])
                    total += 0.5 * (1.0 + erf(z / _SQRT2))
            wins.append(total / (n - 1))
        whole = sum(wins)
        forecast = [w / whole for w in wins]
    # rate: sigma widened by tau, the players sorted by place (stable)
    tau_squared = float(settings.tau) * float(settings.tau)
    order = sorted(range(n), key=places.__getitem__)
    ranks = [int(places[k]) for k in order]
    sigma = [sqrt(float(sigmas[k]) * float(sigmas[k]) + tau_squared) for k in order]
    mu = [mus[k] for k in order]
    square = [(s * 1.0) ** 2 for s in sigma]
    collective = 0.0
    for v in square:
        collective += v + beta_squared
    c = sqrt(collective)
    exp_mu = [math.exp(m / c) for m in mu]
    # sum_q[q]: exp(mu/c) of the players placed at or below q, added in sorted order
    sum_q = [0.0] * n
    a = [0] * n
    for q in range(n):
        first = q
        while first and ranks[first - 1] == ranks[q]:
            first -= 1
        acc = exp_mu[first]
        for i in range(first + 1, n):
            acc += exp_mu[i]
        sum_q[q] = acc
        a[q] = ranks.count(ranks[q])
    c_squared = c**2
    new_mu = [0.0] * n
    new_sigma = [0.0] * n
    for i in range(n):
        e_i, rank_i = exp_mu[i], ranks[i]
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= rank_i:
                t = e_i / sum_q[q]
                delta += t * (1 - t) / a[q]
                if q == i:
                    omega += (1 - t) / a[q]
                else:
                    omega -= t / a[q]
        square_i = square[i]
        omega *= square_i / c
        delta *= square_i / c_squared
        delta *= sqrt(square_i) / c
        s = sigma[i]
        share = s**2 / square_i
        k = order[i]
        if omega >= 0:
            new_mu[k] = mu[i] + share * omega * 1.0
            new_sigma[k] = s * sqrt(max(1 - share * delta * 1.0, KAPPA))
        else:
            new_mu[k] = mu[i] + share * omega / 1.0
            new_sigma[k] = s * sqrt(max(1 - share * delta / 1.0, KAPPA))
    return new_mu, new_sigma, forecast


def plackett_luce_two(mu_a, mu_b, sigma_a, sigma_b, places, settings):
    """:func:`plackett_luce` of two players (most of a federation's games: a 2T board),
    the same operations written out: the loops over q and i of the general case unrolled
    for a win (sum_q = [e0 + e1, e1], a = [1, 1]) and for a tie (both sums e0 + e1, a = 2)."""
    sqrt = math.sqrt
    beta_squared = settings.beta**2
    p = 0.5 * (
        1.0
        + math.erf(
            ((mu_a - mu_b) / sqrt(2 * beta_squared + (sigma_a * 1.0) ** 2 + (sigma_b * 1.0) ** 2))
            / _SQRT2
        )
    )
    forecast = [p, 1 - p]
    tau_squared = float(settings.tau) * float(settings.tau)
    rank_a, rank_b = int(places[0]), int(places[1])
    swapped = rank_b < rank_a  # the sort by place is stable: a tie keeps the seat order
    if swapped:
        mu_a, mu_b, sigma_a, sigma_b = mu_b, mu_a, sigma_b, sigma_a
    s0 = sqrt(sigma_a * sigma_a + tau_squared)
    s1 = sqrt(sigma_b * sigma_b + tau_squared)
    sq0 = (s0 * 1.0) ** 2
    sq1 = (s1 * 1.0) ** 2
    collective = 0.0
    collective += sq0 + beta_squared
    collective += sq1 + beta_squared
    c = sqrt(collective)
    e0 = math.exp(mu_a / c)
    e1 = math.exp(mu_b / c)
    if rank_a == rank_b:
        whole = e0 + e1
        t = e0 / whole
        delta0 = 0.0
        delta0 += t * (1 - t) / 2
        omega0 = 0.0
        omega0 += (1 - t) / 2
        delta0 += t * (1 - t) / 2
        omega0 -= t / 2
        t = e1 / whole
        delta1 = 0.0
        delta1 += t * (1 - t) / 2
        omega1 = 0.0
        omega1 -= t / 2
        delta1 += t * (1 - t) / 2
        omega1 += (1 - t) / 2
    else:
        whole = e0 + e1
        t = e0 / whole
        delta0 = 0.0
        delta0 += t * (1 - t) / 1
        omega0 = 0.0
        omega0 += (1 - t) / 1
        t = e1 / whole
        delta1 = 0.0
        delta1 += t * (1 - t) / 1
        omega1 = 0.0
        omega1 -= t / 1
        t = e1 / e1
        delta1 += t * (1 - t) / 1
        omega1 += (1 - t) / 1
    c_squared = c**2
    omega0 *= sq0 / c
    delta0 *= sq0 / c_squared
    delta0 *= sqrt(sq0) / c
    omega1 *= sq1 / c
    delta1 *= sq1 / c_squared
    delta1 *= sqrt(sq1) / c
    share = s0**2 / sq0
    if omega0 >= 0:
        mu0 = mu_a + share * omega0 * 1.0
        new0 = s0 * sqrt(max(1 - share * delta0 * 1.0, KAPPA))
    else:
        mu0 = mu_a + share * omega0 / 1.0
        new0 = s0 * sqrt(max(1 - share * delta0 / 1.0, KAPPA))
    share = s1**2 / sq1
    if omega1 >= 0:
        mu1 = mu_b + share * omega1 * 1.0
        new1 = s1 * sqrt(max(1 - share * delta1 * 1.0, KAPPA))
    else:
        mu1 = mu_b + share * omega1 / 1.0
        new1 = s1 * sqrt(max(1 - share * delta1 / 1.0, KAPPA))
    if swapped:
        return [mu1, mu0], [new1, new0], forecast
    return [mu0, mu1], [new0, new1], forecast


def plackett_luce_two_arrays(
    mu_a: np.ndarray,
    mu_b: np.ndarray,
    sigma_a: np.ndarray,
    sigma_b: np.ndarray,
    place_a: np.ndarray,
    place_b: np.ndarray,
    settings,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`plackett_luce_two` of many games at once (the replay's waves of games that
    share no player): per game the new ``mu_a, mu_b, sigma_a, sigma_b`` and the forecast
    ``win_a, win_b``, bit for bit the floats of the scalar function.

    The same operations in the same order as array operations: ``+ - * /`` and ``sqrt``
    are exactly rounded in numpy as in Python; the functions that are not (``erf``,
    ``exp``, and ``x ** 2``, which is C's ``pow`` and not always ``x * x``) are called
    per element through Python's ``math`` (:func:`_each`), since numpy's own may use other
    implementations (SIMD, SVML) with other last bits."""
    beta_squared = settings.beta**2
    square = _each(_square, 2.0)
    spread = _sqrt_array(2 * beta_squared + square(sigma_a * 1.0) + square(sigma_b * 1.0))
    p = 0.5 * (1.0 + _each(math.erf)(((mu_a - mu_b) / spread) / _SQRT2))
    win_a, win_b = p, 1 - p
    tau_squared = float(settings.tau) * float(settings.tau)
    swapped = place_b < place_a  # the sort by place is stable: a tie keeps the seat order
    m0, m1 = np.where(swapped, mu_b, mu_a), np.where(swapped, mu_a, mu_b)
    v0, v1 = np.where(swapped, sigma_b, sigma_a), np.where(swapped, sigma_a, sigma_b)
    s0 = _sqrt_array(v0 * v0 + tau_squared)
    s1 = _sqrt_array(v1 * v1 + tau_squared)
    sq0 = square(s0 * 1.0)  # also the scalar function's s0**2 (the same pow)
    sq1 = square(s1 * 1.0)
    collective = 0.0 + (sq0 + beta_squared)
    collective = collective + (sq1 + beta_squared)
    c = _sqrt_array(collective)
    exp = _each(math.exp)
    e0 = exp(m0 / c)
    e1 = exp(m1 / c)
    whole = e0 + e1
    t0 = e0 / whole
    t1 = e1 / whole
    tie = place_a == place_b
    # a tie: both sums e0 + e1, a = 2
    tie_delta0 = (0.0 + t0 * (1 - t0) / 2) + t0 * (1 - t0) / 2
    tie_omega0 = (0.0 + (1 - t0) / 2) - t0 / 2
    tie_delta1 = (0.0 + t1 * (1 - t1) / 2) + t1 * (1 - t1) / 2
    tie_omega1 = (0.0 - t1 / 2) + (1 - t1) / 2
    # a win: sum_q = [e0 + e1, e1], a = [1, 1]
    t11 = e1 / e1
    win_delta0 = 0.0 + t0 * (1 - t0) / 1
    win_omega0 = 0.0 + (1 - t0) / 1
    win_delta1 = (0.0 + t1 * (1 - t1) / 1) + t11 * (1 - t11) / 1
    win_omega1 = (0.0 - t1 / 1) + (1 - t11) / 1
    delta0 = np.where(tie, tie_delta0, win_delta0)
    omega0 = np.where(tie, tie_omega0, win_omega0)
    delta1 = np.where(tie, tie_delta1, win_delta1)
    omega1 = np.where(tie, tie_omega1, win_omega1)
    c_squared = square(c)
    omega0 = omega0 * (sq0 / c)
    delta0 = delta0 * (sq0 / c_squared)
    delta0 = delta0 * (_sqrt_array(sq0) / c)
    omega1 = omega1 * (sq1 / c)
    delta1 = delta1 * (sq1 / c_squared)
    delta1 = delta1 * (_sqrt_array(sq1) / c)
    # x * 1.0 and x / 1.0 (the scalar function's two branches) are both x
    share = sq0 / sq0
    mu0 = m0 + share * omega0
    new0 = s0 * _sqrt_array(_max_kappa(1 - share * delta0))
    share = sq1 / sq1
    mu1 = m1 + share * omega1
    new1 = s1 * _sqrt_array(_max_kappa(1 - share * delta1))
    return (
        np.where(swapped, mu1, mu0),
        np.where(swapped, mu0, mu1),
        np.where(swapped, new1, new0),
        np.where(swapped, new0, new1),
        win_a,
        win_b,
    )


#: ``x ** 2`` of a float is C's ``pow(x, 2.0)``, as ``math.pow`` (a call without a frame)
_square = math.pow


def _each(function, *args: float):
    """``function(value, *args)`` of every element of a float array, by Python's ``math``."""

    def each(values: np.ndarray) -> np.ndarray:
        listed = values.tolist()
        if args:
            mapped = map(function, listed, *(itertools.repeat(a, len(listed)) for a in args))
        else:
            mapped = map(function, listed)
        return np.fromiter(mapped, dtype=np.float64, count=len(listed))

    return each


def _sqrt_array(values: np.ndarray) -> np.ndarray:
    # IEEE 754 square root, exactly rounded like math.sqrt; a negative value is an error
    # there (ValueError), never reached by the ratings' sums of squares
    return np.sqrt(values)


def _max_kappa(values: np.ndarray) -> np.ndarray:
    """``max(value, KAPPA)`` of every element (Python's max keeps the first of equals)."""
    return np.where(values < KAPPA, KAPPA, values)


def competition_places(places: Sequence[int]) -> list[int]:
    """Each place in competition ranking (1, 2, 2, 4): one more than the players placed
    strictly better (:meth:`RatedGame.place_of` for every player at once)."""
    return [1 + sum(1 for other in places if other < own) for own in places]


# --------------------------------------------------------------------------------------
# Games


@dataclass(frozen=True)
class RatedGame:
    """A game to rate: each player with a finishing place.

    ``places`` is a tuple of ``(player, place)`` pairs in a fixed order (use the at-board
    order; a replay must build the game the same way to get the same floating-point
    figures). Place 1 is first; equal places are a tie; the numbers need not be dense.
    """

    game_id: GameId
    places: tuple[tuple[PlayerId, int], ...]

    def __post_init__(self) -> None:
        places = tuple(tuple(pair) for pair in self.places)
        object.__setattr__(self, "places", places)
        if len(places) < 2:
            raise RatingError(f"game {self.game_id!r}: a rated game needs at least two players")
        seen: set[PlayerId] = set()
        for pair in places:
            if len(pair) != 2:
                raise RatingError(f"game {self.game_id!r}: each place must be (player, place)")
            player, place = pair
            if player in seen:
                raise RatingError(f"game {self.game_id!r}: player {player!r} appears twice")
            seen.add(player)
            if isinstance(place, bool) or not isinstance(place, int) or place < 1:
                raise RatingError(
                    f"game {self.game_id!r}: place of {player!r} must be a whole number ≥ 1, "
                    f"not {place!r}"
                )

    @classmethod
    def from_order(cls, game_id: GameId, order: Sequence[PlayerId]) -> RatedGame:
        """A game without ties: ``order`` is the players from first to last."""
        return cls(game_id, tuple((player, i) for i, player in enumerate(order, start=1)))

    @classmethod
    def from_groups(cls, game_id: GameId, groups: Sequence[Collection[PlayerId]]) -> RatedGame:
        """A game with ties: ``groups`` from first to last, the players of a group tied."""
        places: list[tuple[PlayerId, int]] = []
        for i, group in enumerate(groups, start=1):
            if not group:
                raise RatingError(f"game {game_id!r}: place group {i} is empty")
            places.extend((player, i) for player in group)
        return cls(game_id, tuple(places))

    @property
    def players(self) -> tuple[PlayerId, ...]:
        return tuple(player for player, _ in self.places)

    @property
    def winners(self) -> frozenset[PlayerId]:
        """The players in first place (more than one if the first place is shared)."""
        best = min(place for _, place in self.places)
        return frozenset(player for player, place in self.places if place == best)

    def place_of(self, player: PlayerId) -> int:
        """The player's place in competition ranking (1, 2, 2, 4) among the players."""
        own = dict(self.places)[player]
        return 1 + sum(1 for _, place in self.places if place < own)


def finishing_places(
    players: Sequence[PlayerId],
    finished: Sequence[PlayerId] = (),
    scores: Mapping[PlayerId, float] | None = None,
    *,
    forfeit: bool = False,
    finished_score: float | None = None,
) -> tuple[tuple[PlayerId, int], ...] | None:
    """A platform result as rating places, or ``None`` when the game is not rated.

    - ``players`` — everyone at the board, in at-board order (the order of the output).
    - ``finished`` — the players the game itself placed, best first: the winner, then those
      who finished all their colours, then in the order their first colour was placed
      (``Result``: ``[winner, *both_finished, *colour_places]``; repeats and ``None`` are
      dropped).
    - ``scores`` — for the other players, higher is better: counted pawns of a complete
      game, count points of a time-limited one. Equal scores are a **tie**: the platform's
      tie-breaks (at-board order, a die roll) say nothing about skill. Without scores the
      other players are tied for the place after the finished ones.
    - ``forfeit`` — the game was not played: not rated, ``None``.
    - ``finished_score`` — a score that means "finished everything" (e.g.
      :data:`FINISHED_COUNT_POINTS`); players with it who are not in ``finished`` are an
      error, since the order they finished in would be lost.

    A result with no information (nobody finished, no scores) is ``None`` as well.
    """
    if forfeit:
        return None
    board = _checked_board(players)
    done = _checked_finished(finished, board)
    rest = [p for p in board if p not in done]
    score = _checked_scores(dict(scores or {}), board, rest, finished_score)
    if not done and (not score or len({score[p] for p in rest}) == 1):
        return None  # nobody finished and nothing separates the players: no information
    place: dict[PlayerId, int] = {p: i for i, p in enumerate(done, start=1)}
    place.update(_places_after(len(done), rest, score))
    return tuple((p, place[p]) for p in board)


def _checked_board(players: Sequence[PlayerId]) -> list[PlayerId]:
    """The players at the board: at least two, none twice."""
    board = list(players)
    if len(board) < 2:
        raise RatingError("a rated game needs at least two players")
    if len(set(board)) != len(board):
        raise RatingError(f"players at the board are repeated: {board!r}")
    return board


def _checked_finished(finished: Sequence[PlayerId], board: list[PlayerId]) -> list[PlayerId]:
    """The finishing order without repeats and ``None``, each of them at the board."""
    done = [p for p in dict.fromkeys(finished) if p is not None]
    unknown = [p for p in done if p not in board]
    if unknown:
        raise RatingError(f"finished players not at the board: {unknown!r}")
    return done


def _checked_scores(
    score: dict[PlayerId, float],
    board: list[PlayerId],
    rest: list[PlayerId],
    finished_score: float | None,
) -> dict[PlayerId, float]:
    """The scores: finite numbers of players at the board, for every player not finished
    (or for none), none of them ``finished_score`` (a finisher missing from the order)."""
    _check_score_owners(score, board, rest)
    _check_score_numbers(score)
    if finished_score is not None:
        _check_finishers_ordered(score, rest, finished_score)
    return score


def _check_score_owners(
    score: Mapping[PlayerId, float], board: list[PlayerId], rest: list[PlayerId]
) -> None:
    stray = [p for p in score if p not in board]
    if stray:
        raise RatingError(f"scores given for players not at the board: {stray!r}")
    missing = [p for p in rest if p not in score]
    if score and missing:
        raise RatingError(f"scores missing for players not finished: {missing!r}")


def _check_score_numbers(score: Mapping[PlayerId, float]) -> None:
    for p, s in score.items():
        if isinstance(s, bool) or not isinstance(s, int | float) or not math.isfinite(s):
            raise RatingError(f"score of {p!r} must be a finite number, not {s!r}")


def _check_finishers_ordered(
    score: Mapping[PlayerId, float], rest: list[PlayerId], finished_score: float
) -> None:
    """No player outside the finishing order has the score of one who finished all."""
    complete = [p for p in rest if score.get(p) == finished_score]
    if complete:
        raise RatingError(
            f"players {complete!r} finished (score {finished_score}) but are not in the "
            "finishing order"
        )


def _places_after(
    finished: int, rest: list[PlayerId], score: Mapping[PlayerId, float]
) -> dict[PlayerId, int]:
    """The places of the players not finished, after the ``finished`` ones: by score
    (equal scores tie), or all tied without scores."""
    if not score:
        return {p: finished + 1 for p in rest}
    distinct = sorted({score[p] for p in rest}, reverse=True)
    return {p: finished + 1 + distinct.index(score[p]) for p in rest}


# --------------------------------------------------------------------------------------
# One game


@dataclass(frozen=True)
class PlayerChange:
    """One player's rating change in one game."""

    player: PlayerId
    place: int
    before: Rating
    after: Rating
    win_probability: float

    @property
    def mu_delta(self) -> float:
        return self.after.mu - self.before.mu

    @property
    def sigma_delta(self) -> float:
        return self.after.sigma - self.before.sigma

    def display_delta(self, settings: RatingSettings = DEFAULT_SETTINGS) -> int:
        """Change of the displayed rating (the difference of the two rounded numbers)."""
        return display_rating(self.after, settings) - display_rating(self.before, settings)


@dataclass(frozen=True)
class GameUpdate:
    """The rating changes of one game, in the game's player order.

    ``win_probability`` of each change is the forecast made from the ratings *before* the
    game (for history pages and calibration).
    """

    game_id: GameId
    changes: tuple[PlayerChange, ...]

    @property
    def after(self) -> Mapping[PlayerId, Rating]:
        return MappingProxyType({c.player: c.after for c in self.changes})

    @property
    def before(self) -> Mapping[PlayerId, Rating]:
        return MappingProxyType({c.player: c.before for c in self.changes})

    def change(self, player: PlayerId) -> PlayerChange:
        for c in self.changes:
            if c.player == player:
                return c
        raise RatingError(f"player {player!r} did not play game {self.game_id!r}")


def _os(rating: Rating) -> PlackettLuceRating:
    return PlackettLuceRating(rating.mu, rating.sigma)


def _current(
    ratings: Mapping[PlayerId, Rating], player: PlayerId, settings: RatingSettings
) -> Rating:
    rating = ratings.get(player)
    if rating is None:
        return initial_rating(settings)
    if not isinstance(rating, Rating):
        raise RatingError(f"rating of {player!r} must be a Rating, not {rating!r}")
    return rating


def rate_game(
    ratings: Mapping[PlayerId, Rating],
    game: RatedGame,
    settings: RatingSettings = DEFAULT_SETTINGS,
) -> GameUpdate:
    """The rating changes of one game; ``ratings`` is not changed.

    Players missing from ``ratings`` start at :func:`initial_rating`.
    """
    if not isinstance(game, RatedGame):
        raise RatingError(f"expected a RatedGame, not {game!r}")
    players = game.players
    before = [_current(ratings, p, settings) for p in players]
    places = [place for _, place in game.places]
    mus, sigmas, forecast = plackett_luce(
        [r.mu for r in before], [r.sigma for r in before], places, settings
    )
    changes = tuple(
        PlayerChange(
            player=p,
            place=place,
            before=b,
            after=Rating(mu, sigma),
            win_probability=w,
        )
        for p, place, b, mu, sigma, w in zip(
            players, competition_places(places), before, mus, sigmas, forecast, strict=True
        )
    )
    return GameUpdate(game.game_id, changes)


def apply_game(
    ratings: Mapping[PlayerId, Rating],
    game: RatedGame,
    settings: RatingSettings = DEFAULT_SETTINGS,
) -> tuple[dict[PlayerId, Rating], GameUpdate]:
    """A copy of ``ratings`` with one game applied, and that game's changes."""
    update = rate_game(ratings, game, settings)
    new = dict(ratings)
    new.update(update.after)
    return new, update


# --------------------------------------------------------------------------------------
# Many games


@dataclass(frozen=True)
class Replay:
    """The result of :func:`ratings_replay`.

    - ``ratings`` — every player's final rating.
    - ``history`` — one :class:`GameUpdate` per rated game, in order.
    - ``games_played`` — rated games per player.
    - ``skipped`` — ids of games skipped because the same id came earlier.
    """

    ratings: Mapping[PlayerId, Rating]
    history: tuple[GameUpdate, ...]
    games_played: Mapping[PlayerId, int]
    skipped: tuple[GameId, ...] = ()

    def player_history(self, player: PlayerId) -> tuple[tuple[GameId, PlayerChange], ...]:
        """The player's changes, game by game (for a rating chart)."""
        return tuple((u.game_id, c) for u in self.history for c in u.changes if c.player == player)


def ratings_replay(
    games: Iterable[RatedGame],
    settings: RatingSettings = DEFAULT_SETTINGS,
    initial: Mapping[PlayerId, Rating] | None = None,
) -> Replay:
    """Rate ``games`` in the given order, from ``initial`` (default: nobody rated yet).

    The same fold as calling :func:`apply_game` once per game, so a full recompute equals
    the incremental updates exactly. A repeated game id is skipped (and listed).
    """
    ratings: dict[PlayerId, Rating] = dict(initial or {})
    for player in ratings:
        _current(ratings, player, settings)
    played: dict[PlayerId, int] = {}
    seen: set[GameId] = set()
    history: list[GameUpdate] = []
    skipped: list[GameId] = []
    for game in games:
        if not isinstance(game, RatedGame):
            raise RatingError(f"expected a RatedGame, not {game!r}")
        if game.game_id in seen:
            skipped.append(game.game_id)
            continue
        seen.add(game.game_id)
        update = rate_game(ratings, game, settings)
        ratings.update(update.after)
        for p in game.players:
            played[p] = played.get(p, 0) + 1
        history.append(update)
    return Replay(
        MappingProxyType(ratings), tuple(history), MappingProxyType(played), tuple(skipped)
    )


@dataclass(frozen=True)
class RatingBook:
    """Ratings together with the ids of the games already applied (idempotence)."""

    ratings: Mapping[PlayerId, Rating] = field(default_factory=dict)
    applied: frozenset[GameId] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "ratings", MappingProxyType(dict(self.ratings)))
        object.__setattr__(self, "applied", frozenset(self.applied))

    def rating(self, player: PlayerId, settings: RatingSettings = DEFAULT_SETTINGS) -> Rating:
        return _current(self.ratings, player, settings)

    def is_applied(self, game_id: GameId) -> bool:
        return game_id in self.applied


def book_apply(
    book: RatingBook, game: RatedGame, settings: RatingSettings = DEFAULT_SETTINGS
) -> tuple[RatingBook, GameUpdate | None]:
    """Apply a game once: a game id already in ``book.applied`` returns the book unchanged
    and ``None``."""
    if book.is_applied(game.game_id):
        return book, None
    ratings, update = apply_game(book.ratings, game, settings)
    return RatingBook(ratings, book.applied | {game.game_id}), update


def pending_games(games: Iterable[RatedGame], applied: Collection[GameId]) -> list[RatedGame]:
    """The games whose ids are not yet applied, in order (each id once)."""
    out: list[RatedGame] = []
    seen = set(applied)
    for game in games:
        if game.game_id not in seen:
            seen.add(game.game_id)
            out.append(game)
    return out


# --------------------------------------------------------------------------------------
# Predictions and calibration


def predict_win(
    ratings: Mapping[PlayerId, Rating],
    players: Sequence[PlayerId],
    settings: RatingSettings = DEFAULT_SETTINGS,
) -> dict[PlayerId, float]:
    """Each player's probability of winning a game between ``players`` (sums to 1).

    openskill's ``predict_win``; unrated players count with the initial rating.
    """
    board = list(players)
    if len(board) < 2:
        raise RatingError("a prediction needs at least two players")
    if len(set(board)) != len(board):
        raise RatingError(f"players are repeated: {board!r}")
    model = _model(settings)
    probs = model.predict_win([[_os(_current(ratings, p, settings))] for p in board])
    return {p: float(q) for p, q in zip(board, probs, strict=True)}


@dataclass(frozen=True)
class Forecast:
    """A win forecast for one game and what happened.

    ``probabilities`` — each player's predicted chance to win (summing to 1);
    ``winners`` — the player(s) who came first (a shared first place splits the win).
    """

    probabilities: Mapping[PlayerId, float]
    winners: frozenset[PlayerId]

    def __post_init__(self) -> None:
        probs = dict(self.probabilities)
        object.__setattr__(self, "probabilities", MappingProxyType(probs))
        object.__setattr__(self, "winners", frozenset(self.winners))
        if len(probs) < 2:
            raise RatingError("a forecast needs at least two players")
        for p, q in probs.items():
            if isinstance(q, bool) or not isinstance(q, int | float) or not 0 <= q <= 1:
                raise RatingError(f"probability of {p!r} must be between 0 and 1, not {q!r}")
        if abs(sum(probs.values()) - 1) > 1e-6:
            raise RatingError(f"probabilities must sum to 1, not {sum(probs.values())!r}")
        if not self.winners:
            raise RatingError("a forecast needs at least one winner")
        if not self.winners <= probs.keys():
            raise RatingError(f"winners {set(self.winners - probs.keys())!r} were not forecast")

    def outcome(self, player: PlayerId) -> float:
        """1 for the sole winner, 1/k for each of k players sharing first place, else 0."""
        return 1 / len(self.winners) if player in self.winners else 0.0


def forecasts_from_replay(replay: Replay) -> list[Forecast]:
    """The forecast made before each game of a replay, with the game's winners."""
    out = []
    for update in replay.history:
        best = min(c.place for c in update.changes)
        out.append(
            Forecast(
                {c.player: c.win_probability for c in update.changes},
                frozenset(c.player for c in update.changes if c.place == best),
            )
        )
    return out


@dataclass(frozen=True)
class ReliabilityBin:
    """Player-game forecasts whose probability fell in ``[low, high)``.

    ``mean_predicted`` against ``observed`` (the share of those forecasts that won) is one
    point of a reliability plot; a calibrated forecast has them equal.
    """

    low: float
    high: float
    count: int
    mean_predicted: float | None
    observed: float | None


@dataclass(frozen=True)
class CalibrationReport:
    """How good win forecasts were, and the uniform forecast (1/n) as the baseline.

    Brier score: per game, the sum over players of (p − outcome)², averaged over games
    (0 is perfect). Log loss: per game, −Σ outcome·ln p, averaged (natural log). Skill
    scores are ``1 − model / baseline``: above 0 means better than guessing uniformly.
    """

    games: int
    brier: float
    brier_baseline: float
    log_loss: float
    log_loss_baseline: float
    bins: tuple[ReliabilityBin, ...]

    @property
    def brier_skill(self) -> float:
        return 1 - self.brier / self.brier_baseline if self.brier_baseline else 0.0

    @property
    def log_loss_skill(self) -> float:
        return 1 - self.log_loss / self.log_loss_baseline if self.log_loss_baseline else 0.0


def calibration_report(
    forecasts: Iterable[Forecast], bins: int = 10, epsilon: float = 1e-15
) -> CalibrationReport:
    """Score win forecasts: Brier score, log loss and reliability bins, with the uniform
    baseline. ``epsilon`` keeps ln(0) finite for a forecast of 0 that happened."""
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 1:
        raise RatingError(f"bins must be a whole number ≥ 1, not {bins!r}")
    items = list(forecasts)
    if not items:
        raise RatingError("no forecasts to score")
    brier = brier0 = loss = loss0 = 0.0
    counts = [0] * bins
    sums = [0.0] * bins
    hits = [0.0] * bins
    for f in items:
        if not isinstance(f, Forecast):
            raise RatingError(f"expected a Forecast, not {f!r}")
        n = len(f.probabilities)
        for p, q in f.probabilities.items():
            o = f.outcome(p)
            brier += (q - o) ** 2
            brier0 += (1 / n - o) ** 2
            if o:
                loss -= o * math.log(max(q, epsilon))
                loss0 -= o * math.log(1 / n)
            k = min(int(q * bins), bins - 1)
            counts[k] += 1
            sums[k] += q
            hits[k] += o
    g = len(items)
    table = tuple(_reliability_bin(k, bins, counts[k], sums[k], hits[k]) for k in range(bins))
    return CalibrationReport(g, brier / g, brier0 / g, loss / g, loss0 / g, table)


def _reliability_bin(k: int, bins: int, count: int, predicted: float, hits: float):
    """Bin ``k`` of ``bins``: its forecasts' mean and how often they came true."""
    if not count:
        return ReliabilityBin(k / bins, (k + 1) / bins, 0, None, None)
    return ReliabilityBin(k / bins, (k + 1) / bins, count, predicted / count, hits / count)


__all__ = [
    "DEFAULT_SETTINGS",
    "FINISHED_COUNT_POINTS",
    "CalibrationReport",
    "Forecast",
    "GameUpdate",
    "PlayerChange",
    "RatedGame",
    "Rating",
    "RatingBook",
    "RatingError",
    "RatingSettings",
    "ReliabilityBin",
    "Replay",
    "apply_game",
    "book_apply",
    "calibration_report",
    "competition_places",
    "display_of",
    "display_rating",
    "finishing_places",
    "forecasts_from_replay",
    "initial_rating",
    "is_provisional",
    "ordinal",
    "pending_games",
    "plackett_luce",
    "predict_win",
    "rate_game",
    "ratings_replay",
]
