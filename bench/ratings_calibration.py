"""Ratings calibration benchmark (issue 16): how well do win forecasts from the ratings
predict who wins, for a few values of β (the luck of one game)?

Two sources of games, rated exactly as the platform rates them (prequential: each
forecast is made from the ratings *before* its game):

- ``--simulate`` (default): leagues simulated with the real rules engine. Each player has a
  hidden skill p — the share of their moves chosen by the heuristic computer player, the
  rest random — drawn once; leagues of 2T (2 players, 4 colours) and 3T (3 players,
  6 colours) games between random subsets of the players, in random order.
- ``--from-db``: the platform's own counted games, in rating sequence (the ``places`` of
  ``RatingGame``; run ``manage.py ratings_recompute`` first; DATABASE_URL as for Django,
  e.g. the demo's SQLite file).

Prints, per β, the Brier score and log loss against the uniform forecast (1/n), their
skill scores (1 − model/uniform; above 0 = better than guessing), the replay time, and the
reliability table of the chosen β (mean forecast against the share won, per bin).

    .venv/bin/python bench/ratings_calibration.py [--players 40] [--games 1500] [--seed 1]
    DEBUG=1 .venv/bin/python bench/ratings_calibration.py --from-db
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.engine import simulate_game  # noqa: E402
from games.engine.bots import Bot, HeuristicBot, RandomBot  # noqa: E402
from games.engine.validate import outcome  # noqa: E402
from ratings.algorithms import (  # noqa: E402
    RatedGame,
    RatingSettings,
    calibration_report,
    finishing_places,
    forecasts_from_replay,
    ratings_replay,
)

BETAS = (25 / 6, 25 / 4, 25 / 3, 12.5, 50 / 3, 25.0)
SEATS = {
    2: (4, ("black", "yellow"), ("green", "red")),
    3: (6, ("red", "black"), ("yellow", "green"), ("blue", "white")),
}


class SkilledBot(Bot):
    """Plays the heuristic move with probability ``skill``, else a random one."""

    def __init__(self, skill: float):
        self.skill = skill
        self.good, self.bad = HeuristicBot(), RandomBot()

    def _pick(self, rng: random.Random) -> Bot:
        return self.good if rng.random() < self.skill else self.bad

    def choose(self, game, seat, die, moves, rng):
        return self._pick(rng).choose(game, seat, die, moves, rng)

    def choose_huff(self, game, seat, targets, rng):
        return self._pick(rng).choose_huff(game, seat, targets, rng)


def simulated_games(players: int, games: int, seed: int) -> tuple[list[RatedGame], dict]:
    """Games between players of hidden skill, rated places as the platform derives them
    (winner, colour finishing order, then pawns home; equal pawns tie)."""
    rng = random.Random(seed)
    skill = {f"p{i:02d}": rng.random() for i in range(players)}
    out: list[RatedGame] = []
    for number in range(games):
        size = 2 if rng.random() < 0.5 else 3
        board, *pairs = SEATS[size]
        names = rng.sample(sorted(skill), size)
        seats = {name: list(pair) for name, pair in zip(names, pairs, strict=True)}
        log = simulate_game(
            rules="league",
            board=board,
            players=seats,
            bots={name: SkilledBot(skill[name]) for name in names},
            seed=seed * 1_000_003 + number,
        )
        result = outcome(log)
        owner = {colour: name for name, colours in seats.items() for colour in colours}
        finished = [result.winner] + [owner[c] for c in result.placings]
        pawns = {n: max(result.pawns_home.get(c, 0) for c in seats[n]) for n in names}
        places = finishing_places(names, finished, pawns)
        if places is not None:
            out.append(RatedGame(number, places))
    return out, skill


def database_games() -> list[RatedGame]:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django

    django.setup()
    from ratings.models import RatingGame

    return [
        RatedGame(g.pk, tuple((int(p), int(place)) for p, place in g.places))
        for g in RatingGame.objects.filter(places__isnull=False).order_by("pk")
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--from-db", action="store_true", help="the platform's counted games")
    parser.add_argument("--players", type=int, default=40)
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--warm-up", type=float, default=0.3, help="share of the first games not scored"
    )
    args = parser.parse_args()

    started = time.perf_counter()
    if args.from_db:
        games = database_games()
        print(f"platform games: {len(games)} rated games from the database")
    else:
        games, _ = simulated_games(args.players, args.games, args.seed)
        sizes = [len(g.places) for g in games]
        print(
            f"simulated: {args.players} players, {len(games)} rated games "
            f"({sizes.count(2)} 2T, {sizes.count(3)} 3T), seed {args.seed}, "
            f"{time.perf_counter() - started:.1f} s to play them"
        )
    if len(games) < 10:
        sys.exit("too few rated games to score a forecast")
    skip = int(len(games) * args.warm_up)
    print(f"scored: the last {len(games) - skip} forecasts (the first {skip} warm the ratings)")
    print()
    print(
        f"{'beta':>7} {'Brier':>7} {'unif.':>7} {'skill':>7} {'logloss':>8} {'unif.':>7} "
        f"{'skill':>7} {'replay':>8}"
    )
    best = None
    for beta in BETAS:
        settings = RatingSettings(beta=beta)
        t0 = time.perf_counter()
        replay = ratings_replay(games, settings)
        elapsed = time.perf_counter() - t0
        report = calibration_report(forecasts_from_replay(replay)[skip:], bins=10)
        print(
            f"{beta:7.3f} {report.brier:7.4f} {report.brier_baseline:7.4f} "
            f"{report.brier_skill:+7.3f} {report.log_loss:8.4f} {report.log_loss_baseline:7.4f} "
            f"{report.log_loss_skill:+7.3f} {elapsed:7.2f}s"
        )
        if best is None or report.log_loss < best[1].log_loss:
            best = (beta, report)
    beta, report = best
    print()
    print(f"best log loss at beta = {beta:.3f}; its reliability table:")
    print(f"{'forecast':>13} {'count':>6} {'mean forecast':>14} {'share won':>10}")
    for b in report.bins:
        if b.count:
            print(
                f"  {b.low:4.1f} – {b.high:3.1f} {b.count:6d} {b.mean_predicted:14.3f} "
                f"{b.observed:10.3f}"
            )


if __name__ == "__main__":
    main()
