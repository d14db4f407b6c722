"""Benchmark of the game analysis on the evaluator (a script, not a test).

    python bench/analysis.py [--games 1000] [--bands 30] [--loss-error 12] [--skip ...]

Prints, with the shipped models (``games.engine.evaluator.evaluator_of``):

* **speed**: CPU seconds (``time.process_time``, the figure to quote on a shared machine)
  of the analysis of ``/work/shared/examples/valid-league.json`` (target ≤ 15 s) and of a
  typical 600-event league game (the first simulated league game between heuristic players
  with 600 ± 10 % events, seed 0 on; target ≤ 10 s), with the evaluator's calls;
* **reproducibility**: each of the two analysed twice in this process and once in a fresh
  process — the share of decisions with the same mark and the correlation of the
  per-decision losses (target ≥ 95 % and ≥ 0.95; the analysis has no random numbers);
* **depth**: the same at one ply against two plies (the reference one roll deeper) over
  ``--loss-error`` heuristic league games: mark agreement, loss correlation and the
  spread of the loss difference — the measured ``LOSS_SD_MW`` of the mark rule;
* **exact**: over ``--exact`` small endgames solved by expectimax
  (tests/engine/endgames.py), every option's loss by the analysis against its exact loss;
* **bands**: the error rate (milli-wins per decision) of the random, heuristic and strong
  computer players, ``--bands`` league games each with all four seats alike — where the
  ``BANDS`` of ``games.engine.analysis`` come from;
* **luck**: over ``--games`` simulated league games (heuristic players), the largest
  deviation of start + luck + own skill + others' skill from end (target ≤ 1e-9), the
  largest sum of all players' luck at one roll (≈ 0), and the range of the players'
  own-skill sums (target within [−1, 0]);
* **drift**: over ``--drift`` games, the part of the luck that is the model changing its
  mind when it looks one roll further (the expected equity over the six rolls, each best
  move valued as the options are, minus the equity before the roll; 0 for a perfect model).
* **calibration** (issue #37; ``--calibration N``, ``--rollouts R``, ``--positions P``,
  ``--marked M``, ``--reference FILE``, ``--calibration-cache FILE``): (1) the reference
  positions (:func:`reference_positions`: ``P`` ordinary decisions of heuristic league
  games, seeds 70,000 on, and ``M`` moves marked by session 10's rule in mixed league
  games, seeds 50,000 on), each move played and its best valued by ``R`` paired rollouts to
  the end under the heuristic and under a random policy (kept in ``FILE``, resumed): how
  often the two policies' verdicts agree, the marks against the rollouts (and the marks the
  shipped rule keeps), the model's error by kind and by the size of the loss, and the
  coverage of the 90 % intervals before (12 mw for every loss) and now
  (``decisions.loss_sd_mw``), allowing for the rollouts' own noise and as if the rollouts
  were the truth; (2) ``N`` mixed league games (0: none) (game ``i``: a random, a
  heuristic, a strong and a second heuristic player, seats rotated with ``i``, seed 50,000 +
  ``i``), each analysed: per player kind the mean total loss per game under the raw rule and
  under the shown rule (``shown_loss``), against the paired win-rate differences (random −
  heuristic: ``bench/bots.py --matches random-heuristic,heuristic-heuristic``; strong −
  heuristic: docs/engine.md), and how often one game's levels put random < heuristic <
  strong. The games' analyses are kept in the cache file (resumed when it exists).
* **details** (session 17; ``--details N``, ``--details-file FILE``): the same mixed games
  with every decision's options (:func:`mixed_details`, one JSON line a game, resumed) —
  what ``bench/loss_rules.py`` judges counting rules on without analysing again;
  ``--details-player-model FILE`` (the strong seat searches with a model not shipped) and
  ``--details-model FILE`` (the decisions valued by it too): a model's effect on the
  levels before it ships (session 20, docs/engine.md).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import simulate_game  # noqa: E402
from games.engine.analysis import MARK_CHECK_ROLLOUTS, analyse  # noqa: E402
from games.engine.analysis.decisions import walk  # noqa: E402
from games.engine.analysis.equity import Equity  # noqa: E402
from games.engine.analysis.luck import decompose  # noqa: E402
from games.engine.evaluator import evaluator_of  # noqa: E402
from games.engine.game import Game  # noqa: E402
from games.engine.log import read_log  # noqa: E402

EXAMPLE = Path("/work/shared/examples/valid-league.json")


def typical_game(events: int = 600) -> tuple[int, dict]:
    for seed in range(10_000):
        log = simulate_game(rules="league", bots="heuristic", seed=seed)
        if abs(len(log["events"]) - events) <= events // 10:
            return seed, log
    raise SystemExit("no simulated game of that length")


def losses_and_marks(data: dict) -> tuple[list[float], list[str | None]]:
    return [d["loss"] for d in data["decisions"]], [d["mark"] for d in data["decisions"]]


def correlation(a: list[float], b: list[float]) -> float:
    n = len(a)
    if n < 2:
        return float("nan")
    ma, mb = sum(a) / n, sum(b) / n
    sa = math.sqrt(sum((x - ma) ** 2 for x in a))
    sb = math.sqrt(sum((y - mb) ** 2 for y in b))
    if sa == 0 or sb == 0:
        return 1.0 if a == b else float("nan")
    return sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True)) / (sa * sb)


def agreement(a: dict, b: dict) -> tuple[float, float]:
    la, ma = losses_and_marks(a)
    lb, mb = losses_and_marks(b)
    same = sum(x == y for x, y in zip(ma, mb, strict=True)) / max(1, len(ma))
    return same, correlation(la, lb)


def fresh_process(path: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-m", "games.engine", "analyse", str(path), "--quiet"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def speed_and_reproducibility(tmp: Path) -> None:
    _seed, typical = typical_game()
    games = [("valid-league.json", json.loads(EXAMPLE.read_text())), ("typical", typical)]
    print("== speed (CPU s, one ply) and reproducibility")
    for name, log in games:
        path = tmp / f"{name}.json"
        path.write_text(json.dumps(log))
        model = evaluator_of(Game(read_log(log)[0]))  # the game's field's, loaded untimed
        c0 = time.process_time()
        first = analyse(log, evaluator=model, mark_checks=MARK_CHECK_ROLLOUTS)
        cpu = time.process_time() - c0
        second = analyse(log, evaluator=model, mark_checks=MARK_CHECK_ROLLOUTS)
        other = fresh_process(path)
        for d in (first, second, other):
            d.pop("seconds")
        same, corr = agreement(first, second)
        same_p, corr_p = agreement(first, other)
        marks = sum(d["mark"] is not None for d in first["decisions"])
        print(
            f"{name}: {len(log['events'])} events, {len(first['decisions'])} decisions, "
            f"{marks} marked: {cpu:.2f} CPU s"
        )
        print(
            f"  twice in one process: identical={first == second} marks {100 * same:.1f} % "
            f"loss r={corr:.4f}; in a fresh process: identical={first == other} "
            f"marks {100 * same_p:.1f} % r={corr_p:.4f}"
        )


def depth(n: int) -> None:
    print(f"== one ply against two plies ({n} heuristic league games)")
    diffs: list[float] = []
    l1s: list[float] = []
    l2s: list[float] = []
    same = total = 0
    marks1 = marks2 = 0
    cpu1 = cpu2 = 0.0
    for seed in range(n):
        log = simulate_game(rules="league", bots="heuristic", seed=10_000 + seed)
        c0 = time.process_time()
        a = analyse(log, plies=1)
        c1 = time.process_time()
        b = analyse(log, plies=2)
        cpu1 += c1 - c0
        cpu2 += time.process_time() - c1
        la, ma = losses_and_marks(a)
        lb, mb = losses_and_marks(b)
        l1s += la
        l2s += lb
        diffs += [1000 * (x - y) for x, y in zip(la, lb, strict=True)]
        same += sum(x == y for x, y in zip(ma, mb, strict=True))
        marks1 += sum(m is not None for m in ma)
        marks2 += sum(m is not None for m in mb)
        total += len(la)
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
    rms = math.sqrt(sum(d * d for d in diffs) / len(diffs))
    big = sum(abs(d) > 30 for d in diffs)
    r = correlation(l1s, l2s)
    print(f"decisions {total}: same mark {100 * same / total:.1f} %, loss r={r:.3f}")
    print(
        f"loss(1 ply) − loss(2 plies), mw: mean {mean:+.2f} sd {sd:.2f} rms {rms:.2f}; "
        f"|diff| > 30 mw: {big} ({100 * big / total:.2f} %)"
    )
    print(
        f"marked: {marks1} at one ply, {marks2} at two; "
        f"CPU s per game {cpu1 / n:.2f} / {cpu2 / n:.2f}"
    )


def bands(n: int) -> None:
    print(f"== error rate (mw per decision) by computer player, {n} league games each, 4 alike")
    quantile: dict[tuple[str, float], float] = {}
    for bot in ("random", "heuristic", "strong"):
        rates: list[float] = []
        for seed in range(n):
            log = simulate_game(rules="league", bots=bot, seed=20_000 + seed)
            data = analyse(log)
            rates += [s["error_rate"] for s in data["summary"].values() if s["decisions"] >= 10]
        rates.sort()
        q = [rates[int(f * (len(rates) - 1))] for f in (0.1, 0.25, 0.5, 0.75, 0.9)]
        quantile.update({(bot, f): x for f, x in zip((0.1, 0.25, 0.5, 0.75, 0.9), q, strict=True)})
        print(
            f"{bot:>9}: player-games {len(rates)}, mean {sum(rates) / len(rates):.1f}; "
            f"10/25/50/75/90 %: " + " / ".join(f"{x:.1f}" for x in q)
        )
    # the rule of games.engine.analysis.BANDS: strong up to the heuristic player's lower
    # quartile, good up to its upper quartile, fair up to the random player's median (the
    # strong player plays the model's own choices: it cannot calibrate the top band)
    edges = (quantile["heuristic", 0.25], quantile["heuristic", 0.75], quantile["random", 0.5])
    print(
        "the old rule (BANDS now come from --calibration): "
        "strong ≤ {:.1f}, good ≤ {:.1f}, fair ≤ {:.1f}, weak above".format(*edges)
    )


def luck(n: int) -> None:
    print(f"== luck split on {n} simulated league games (heuristic players)")
    worst_identity = worst_roll_sum = 0.0
    own_min, own_max = 0.0, -1.0
    outside = 0
    c0 = time.process_time()
    for seed in range(n):
        log = simulate_game(rules="league", bots="heuristic", seed=30_000 + seed)
        w = walk(log, lambda g: Equity(evaluator_of(g), g, 1))
        for r in w.rolls:
            worst_roll_sum = max(worst_roll_sum, abs(sum(r.best) - sum(r.before)))
        split = decompose(w.players, w.start, w.rolls)
        for s in split.values():
            total = s["start"] + s["luck"] + s["own_skill"] + s["others_skill"]
            worst_identity = max(worst_identity, abs(total - s["end"]))
            own_min, own_max = min(own_min, s["own_skill"]), max(own_max, s["own_skill"])
            outside += not -1.0 <= s["own_skill"] <= 0.0
    print(
        f"max |start + luck + own + others − end| = {worst_identity:.2e}; "
        f"max |Σ players' luck at a roll| = {worst_roll_sum:.2e}"
    )
    print(
        f"own-skill sums in [{own_min:.3f}, {own_max:.3f}]; outside [−1, 0]: {outside}; "
        f"CPU s per game {(time.process_time() - c0) / n:.2f}"
    )


def exact(n: int) -> None:
    """The loss of every option against expectimax in small endgames
    (tests/engine/endgames.py): the analysis' loss (one ply on the model) minus the exact
    loss, for every legal move of every roll with a choice."""
    sys.path.insert(0, str(ROOT / "tests" / "engine"))
    from endgames import MAX_STATES, endgames

    from games.engine.analysis.exact import exact_win

    print(f"== losses against expectimax in {n} small endgames")
    diffs: list[float] = []
    false_marks = options = skipped = 0
    for eg in endgames(seed=7, count=n):
        g = eg.game
        eq = Equity(evaluator_of(g), g, 1)
        me = eq.player_index[g.turn_seat]
        player = eq.players[me]
        for die in range(1, 7):
            choices = eq.options(g, die)
            if len(choices) < 2:
                continue
            try:
                truth = [exact_win(after, max_states=MAX_STATES)[player] for *_, after in choices]
            except ValueError:  # a capture made the endgame too large to solve: left out
                skipped += 1
                continue
            model = [eq.value(after)[me] for _, _, after in choices]
            for t, v in zip(truth, model, strict=True):
                exact_loss, loss = max(truth) - t, max(model) - v
                diffs.append(1000 * (loss - exact_loss))
                false_marks += 1000 * loss - 27 >= 30 and 1000 * exact_loss < 30
                options += 1
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
    print(
        f"options {options}: loss − exact loss, mw: mean {mean:+.2f} sd {sd:.2f} "
        f"max |·| {max(map(abs, diffs)):.1f}; would-be false inaccuracies (margin 27 mw): "
        f"{false_marks}; rolls left out (too large): {skipped}"
    )


def drift(n: int) -> None:
    """How much of the luck is the model changing its mind: at every roll point, the
    expected equity over the six rolls with the best move valued as the options are
    (one ply deeper than ``before``) minus ``before``. Zero for a perfect model."""
    from games.engine.validate import replay_log

    print(f"== the look-ahead part of the luck ({n} league games, heuristic players)")
    per_game: list[float] = []
    luck_game: list[float] = []
    per_roll: list[float] = []
    for seed in range(n):
        log = simulate_game(rules="league", bots="heuristic", seed=40_000 + seed)
        _setup, game, steps = replay_log(log)
        eq = Equity(evaluator_of(game), game, 1)
        k = len(eq.players)
        total = [0.0] * k
        for step in steps:
            me = eq.player_index[game.turn_seat]
            before = eq.value(game)
            expected = [0.0] * k
            for die in range(1, 7):
                values = [eq.value(after) for _, _, after in eq.options(game, die)]
                best = max(values, key=lambda v: v[me])
                expected = [e + b / 6 for e, b in zip(expected, best, strict=True)]
            gap = [e - b for e, b in zip(expected, before, strict=True)]
            per_roll.append(abs(gap[me]))
            total = [t + g for t, g in zip(total, gap, strict=True)]
            game.push_event(step.event)
        w = walk(log, lambda g: Equity(evaluator_of(g), g, 1))
        split = decompose(w.players, w.start, w.rolls)
        per_game += [abs(t) for t in total]
        luck_game += [abs(s["luck"]) for s in split.values()]
    mean = sum(per_roll) / len(per_roll)
    print(
        f"per roll: mean |look-ahead part| {1000 * mean:.2f} mw for the mover; per "
        f"player-game: mean |Σ| {sum(per_game) / len(per_game):.3f} against mean |Σ luck| "
        f"{sum(luck_game) / len(luck_game):.3f}"
    )


# --- calibration (issue #37) -------------------------------------------------------------

MIXED = ("random", "heuristic", "strong", "heuristic")
COLOURS = ("red", "black", "yellow", "green")


def mixed_games(n: int, cache: Path) -> list[dict]:
    """``n`` mixed league games, analysed (see the module); resumed from ``cache``."""
    records = json.loads(cache.read_text()) if cache.is_file() else []
    c0 = time.process_time()
    for i in range(len(records), n):
        bots = {COLOURS[(s + i) % 4]: MIXED[s] for s in range(4)}
        log = simulate_game(rules="league", bots=bots, seed=50_000 + i)
        data = analyse(log)
        winner = [p for p, x in data["summary"].items() if x["luck"]["end"] == 1.0]
        records.append(
            {
                "seed": 50_000 + i,
                "bots": bots,
                "winner": winner[0] if winner else None,
                "decisions": [
                    [d["player"], round(d["loss"], 6), d["phase"]] for d in data["decisions"]
                ],
            }
        )
        if i % 5 == 4 or i == n - 1:
            cache.write_text(json.dumps(records))
            print(f"  {i + 1} games analysed ({time.process_time() - c0:.0f} CPU s)", flush=True)
    return records[:n]


def mixed_details(
    n: int,
    path: Path,
    start: int = 0,
    player_model: Path | None = None,
    model: Path | None = None,
) -> list[dict]:
    """The same ``n`` mixed league games (from game ``start``) with every decision's detail,
    for designing the counting rule without analysing again (session 17): one JSON line a
    game (``seed``, ``bots``, ``winner``, ``events`` and ``decisions``: per decision
    ``[player, phase, endgame, played, best, values]`` with ``values`` the mover's equity of
    each option in milli-wins, engine order), appended and resumed from ``path``. The
    decisions are :func:`analyse`'s (its walk without the luck split's look-ahead).

    A model not shipped yet (session 20): ``player_model`` — the strong seat searches with
    that model file; ``model`` — the decisions are valued by it (and the strong seat searches
    with it too, unless ``player_model`` says otherwise). Use another ``path`` for each."""
    from games.engine.evaluator import Evaluator
    from games.engine.evaluator import endgame as endgames
    from games.engine.evaluator.model import Network
    from games.engine.strong import StrongBot

    def loaded(file: Path | None) -> Evaluator | None:
        return None if file is None else Evaluator(Network.load(file), file.stem)

    valuer = loaded(model)
    searcher = loaded(player_model) or valuer
    strong = StrongBot(searcher) if searcher is not None else "strong"
    # which models a file's games were played and valued with (none: the shipped model's,
    # whose lines stay as they were): a file of other models is refused, never mixed
    models = {
        k: str(v) for k, v in (("player_model", player_model), ("model", model)) if v is not None
    }

    done: dict[int, dict] = {}
    if path.is_file():
        for line in path.read_text().splitlines():
            try:
                rec = json.loads(line)
            except ValueError:  # a line cut short by a stop: done again
                continue
            if rec.get("models", {}) != models:
                had = rec.get("models") or "the shipped model"
                raise SystemExit(
                    f"{path}: its games were played and valued with {had}, not "
                    f"{models or 'the shipped model'}: use another file"
                )
            done[rec["seed"]] = rec
    c0 = time.process_time()
    with path.open("a") as out:
        for i in range(start, start + n):
            if 50_000 + i in done:
                continue
            bots = {COLOURS[(s + i) % 4]: MIXED[s] for s in range(4)}
            players = {c: strong if b == "strong" else b for c, b in bots.items()}
            log = simulate_game(rules="league", bots=players, seed=50_000 + i)
            with endgames.private_store():
                w = walk(log, lambda g: Equity(valuer or evaluator_of(g), g, 1), lookahead=False)
            setup = w.game0.setup
            rec = {
                **({"models": models} if models else {}),
                "seed": 50_000 + i,
                "bots": bots,
                "players": list(w.players),
                "colours": {w.game0.names[s]: setup.player_of(s) for s in setup.in_play},
                "winner": w.final.winner,
                "events": len(log["events"]),
                "decisions": [
                    [
                        d.player,
                        d.phase,
                        int(d.endgame),
                        d.played,
                        d.best,
                        [round(1000 * v[w.players.index(d.player)], 3) for v in d.values],
                    ]
                    for d in w.decisions
                ],
            }
            done[rec["seed"]] = rec
            out.write(json.dumps(rec) + "\n")
            out.flush()
            if i % 10 == 9:
                print(
                    f"  {i + 1} games ({len(done)} kept, {time.process_time() - c0:.0f} CPU s)",
                    flush=True,
                )
    return [done[50_000 + i] for i in range(start, start + n) if 50_000 + i in done]


REFERENCE_POLICIES = ("heuristic", "random")
"""The rollout policies of the reference positions: ``heuristic`` (the heuristic bot's
exact replica, ``FastHeuristicPolicy``: the players' real continuation in these games, the
stronger policy and the reference of the intervals) and ``random`` (a uniformly random
move, seeded per rollout: the weak one)."""


def _paired_rollouts(
    game,
    die: int,
    legal: list,
    names: list[str],
    d: dict,
    seed: int,
    event: int,
    rollouts: int,
    policy,
) -> dict:
    """The best and the played move of decision ``d`` valued by ``rollouts`` paired
    rollouts (common dice and, for the random policy, common choices; independent across
    rollouts): mean of best − played for the mover and the variance of that mean."""
    from games.engine.analysis.rollout import estimate_options

    after = []
    for name in (d["best"], d["played"]):
        g = game.copy()
        g.push_raw(die, legal[names.index(name)])
        after.append(g)
    est = estimate_options(after, rollouts, seed, event, policy)
    best_w, played_w = (e.indicator(d["player"]) for e in est)
    diffs = [b - p for b, p in zip(best_w, played_w, strict=True)]
    mean = sum(diffs) / rollouts
    var = sum((x - mean) ** 2 for x in diffs) / (rollouts - 1)
    return {"mean": mean, "var_mean": var / rollouts}


ROW_KEYS = (
    "event",
    "player",
    "die",
    "played",
    "best",
    "loss",
    "mark",
    "phase",
    "endgame",
    "decisions",
)


def game_decisions(log: dict) -> list[dict]:
    """The decisions of a log as :func:`analyse` values them (its walk, without the luck
    split's look-ahead: about a sixth of the cost), each with its loss, and ``mark`` by
    the rule the reference set was chosen with (session 10's: an error of 12 mw, 25 in a
    race endgame, for every loss) — so the set stays the same whatever the rule becomes."""
    from games.engine.analysis.decisions import clear_margin, mark_for
    from games.engine.evaluator import endgame as endgames

    with endgames.private_store():
        w = walk(log, lambda g: Equity(evaluator_of(g), g, 1), lookahead=False)
    out = []
    for d in w.decisions:
        loss = d.loss(w.players.index(d.player))
        sd = 25.0 if d.endgame else 12.0
        out.append(
            {
                "event": d.event,
                "player": d.player,
                "die": d.die,
                "played": d.names[d.played],
                "best": d.names[d.best],
                "loss": loss,
                "phase": d.phase,
                "endgame": d.endgame,
                "decisions": len(w.decisions),
                "mark": mark_for(1000 * loss, clear_margin(len(w.decisions), sd)),
            }
        )
    return out


def positions_at(log: dict, events: list[int]) -> dict[int, tuple]:
    """The game before each of ``events`` with its legal moves and their names."""
    from games.engine.validate import replay_log

    out = {}
    _, game, steps = replay_log(log)
    for step in steps:
        if step.index > max(events):
            break
        if step.index in events:
            c = game.turn_seat
            legal = game.legal(c, step.event["die"])
            out[step.index] = (game.copy(), legal, [str(game.move_object(m, c)) for m in legal])
        game.push_event(step.event)
    return out


def reference_positions(held: int, marked: int, rollouts: int, cache: Path) -> list[dict]:
    """The reference positions of the intervals and of the policies' agreement (issue
    #37), deterministic and resumed from ``cache``:

    * ``held`` **ordinary** decisions of heuristic league games (seeds 70,000 on, never
      trained on) where the analysis' best move is not the move played, at most four per
      game, spread out;
    * ``marked`` **marked** moves of mixed league games (a random, a heuristic, a strong
      and a second heuristic player, seats rotated, seeds 50,000 on), at most three per game.

    Each: the analysis' loss of the move played against its best, and the same two moves
    valued by ``rollouts`` paired rollouts to the end under each of ``REFERENCE_POLICIES``
    (rollout ``k`` of a position on the dice ``(seed, event, k)``)."""
    from games.engine.analysis.policy import FastHeuristicPolicy, RandomPolicy

    policies = {"heuristic": FastHeuristicPolicy(), "random": RandomPolicy()}
    rows: list[dict] = json.loads(cache.read_text()) if cache.is_file() else []
    done = {(r["kind"], r["seed"], r["event"]) for r in rows}
    c0 = time.process_time()

    def source(kind: str):
        seed = 70_000 if kind == "ordinary" else 50_000
        while True:
            if kind == "ordinary":
                log = simulate_game(rules="league", bots="heuristic", seed=seed)
            else:
                i = seed - 50_000
                bots = {COLOURS[(s + i) % 4]: MIXED[s] for s in range(4)}
                log = simulate_game(rules="league", bots=bots, seed=seed)
            yield seed, log
            seed += 1

    for kind, want in (("marked", marked), ("ordinary", held)):
        have = sum(r["kind"] == kind for r in rows)
        for seed, log in source(kind):
            if have >= want:
                break
            found = [
                d
                for d in game_decisions(log)
                if (d["mark"] if kind == "marked" else d["played"] != d["best"])
            ]
            per_game = 3 if kind == "marked" else 4  # a few per game, spread out
            picks = found[:: max(1, len(found) // per_game)][:per_game]
            picks = [d for d in picks if (kind, seed, d["event"]) not in done][: want - have]
            positions = positions_at(log, [d["event"] for d in picks]) if picks else {}
            for d in picks:
                game, legal, names = positions[d["event"]]
                row = {"kind": kind, "seed": seed, **{k: d[k] for k in ROW_KEYS}}
                row["rollouts"] = rollouts
                for name, policy in policies.items():
                    row[name] = _paired_rollouts(
                        game, d["die"], legal, names, d, seed, d["event"], rollouts, policy
                    )
                rows.append(row)
                have += 1
                cache.write_text(json.dumps(rows))
                print(
                    f"  {kind} {have}/{want}: seed {seed} event {d['event']} loss "
                    f"{1000 * d['loss']:.1f} mw, heuristic rollouts "
                    f"{1000 * row['heuristic']['mean']:+.1f}, random "
                    f"{1000 * row['random']['mean']:+.1f} "
                    f"({time.process_time() - c0:.0f} CPU s)",
                    flush=True,
                )
    return [r for r in rows if r["kind"] == "ordinary"][:held] + [
        r for r in rows if r["kind"] == "marked"
    ][:marked]


def seeds_with_marks(details: Path) -> Iterable[int]:
    """The seeds of the mixed games of a ``--details`` file (one JSON line a game, every
    decision's options) in which the shipped rule marks a move, then every seed after the
    file's last: where :func:`shipped_marks` need analyse (about 5 games in 100 have a
    mark)."""
    from itertools import chain, count

    from games.engine.analysis.analyse import decision_mark, mark_margins

    seeds, last = [], 49_999
    for line in details.read_text().splitlines():
        try:
            rec = json.loads(line)
        except ValueError:  # a line cut short by a stop
            continue
        last = max(last, rec["seed"])
        margins = mark_margins(len(rec["decisions"]))
        if any(
            decision_mark(values[best] - values[played], bool(endgame), margins)
            for _player, _phase, endgame, played, best, values in rec["decisions"]
        ):
            seeds.append(rec["seed"])
    return chain(sorted(seeds), count(last + 1))


def shipped_marks(
    marked: int, rollouts: int, cache: Path, seeds: Iterable[int] | None = None
) -> list[dict]:
    """``marked`` moves marked as the game page shows them (:func:`analyse`: the
    evaluator's marks, the largest played out by its own rollouts, ``games.engine.analysis
    .checks``) in mixed league games (a random, a heuristic, a strong and a second heuristic
    player, seats rotated, seeds 50,000 on, or only ``seeds``), each valued again by
    ``rollouts`` paired rollouts to the end under both :data:`REFERENCE_POLICIES` on dice of
    the benchmark's own (rollout ``k`` of event ``e`` on ``(game seed, e, k)``: independent
    of the analysis' dice) — the issue's check of the marks people see (issue #37: the shown
    loss within ± 20 mw of the rollouts on average, bias ≤ 10 mw, no mark whose rollouts'
    interval includes 0). Deterministic and resumed from ``cache``."""
    from games.engine.analysis.analyse import decision_mark, mark_margins
    from games.engine.analysis.policy import FastHeuristicPolicy, RandomPolicy

    policies = {"heuristic": FastHeuristicPolicy(), "random": RandomPolicy()}
    state = json.loads(cache.read_text()) if cache.is_file() else {"walked": [], "rows": []}
    rows: list[dict] = state["rows"]
    walked = set(state["walked"])
    c0 = time.process_time()
    order = iter(seeds) if seeds is not None else iter(range(50_000, 10**9))
    for seed in order:
        if len(rows) >= marked:
            break
        if seed in walked:
            continue
        i = seed - 50_000
        bots = {COLOURS[(s + i) % 4]: MIXED[s] for s in range(4)}
        log = simulate_game(rules="league", bots=bots, seed=seed)
        found = game_decisions(log)  # the evaluator's marks first: a sixth of an analysis
        margins = mark_margins(len(found))
        if not any(decision_mark(1000 * d["loss"], d["endgame"], margins) for d in found):
            walked.add(seed)
            state["walked"] = sorted(walked)
            cache.write_text(json.dumps(state))
            continue
        data = analyse(log, mark_checks=MARK_CHECK_ROLLOUTS)  # as the platform analyses
        shown = [e for e in data["decisions"] if e["mark"]][: marked - len(rows)]
        positions = positions_at(log, [e["event"] for e in shown]) if shown else {}
        for e in shown:
            game, legal, names = positions[e["event"]]
            row = {"seed": seed, "bot": bots[e["player"]], "decisions": len(shown)}
            row |= {k: e[k] for k in ("event", "player", "die", "played", "best", "loss")}
            row |= {k: e[k] for k in ("phase", "endgame", "mark", "loss_mw")}
            row["checked"] = "check" in e
            row["rollouts"] = rollouts
            for name, policy in policies.items():
                row[name] = _paired_rollouts(
                    game, e["die"], legal, names, e, seed, e["event"], rollouts, policy
                )
            rows.append(row)
            print(
                f"  shipped mark {len(rows)}/{marked}: seed {seed} event {e['event']} "
                f"({row['bot']}, {row['mark']}) shown {e['loss_mw']:.1f} mw (model "
                f"{1000 * e['loss']:.1f}), heuristic rollouts "
                f"{1000 * row['heuristic']['mean']:+.1f} ± "
                f"{1960 * math.sqrt(row['heuristic']['var_mean']):.1f} "
                f"({time.process_time() - c0:.0f} CPU s)",
                flush=True,
            )
        walked.add(seed)
        state["walked"] = sorted(walked)
        cache.write_text(json.dumps(state))
    return rows[:marked]


def report_shipped_marks(rows: list[dict]) -> None:
    """The shown marks against the benchmark's rollouts, per policy: the mean of shown −
    rollouts (bias) with its 95 % interval, the mean distance, and the marks whose
    rollouts' 95 % interval includes 0 (or lies below it); the evaluator's own loss of the
    same moves beside it (what the page showed before the marks were played out)."""
    n = len(rows)
    print(
        f"== shown marks against paired rollouts ({n} marks, "
        f"{rows[0]['rollouts'] if rows else 0} rollouts each)"
    )
    if not n:
        return
    by_bot = {b: sum(r["bot"] == b for r in rows) for b in ("random", "heuristic", "strong")}
    checked = sum(r["checked"] for r in rows)
    print(
        "  marks by player: "
        + ", ".join(f"{b} {k}" for b, k in by_bot.items())
        + f"; played out by the analysis: {checked}"
    )
    for policy in REFERENCE_POLICIES:
        ses = [1000 * math.sqrt(r[policy]["var_mean"]) for r in rows]
        verdicts = [_verdict(r[policy]["mean"], math.sqrt(r[policy]["var_mean"])) for r in rows]
        print(
            f"  {policy:>9} rollouts: mean {sum(1000 * r[policy]['mean'] for r in rows) / n:.1f}"
            f" mw (se {min(ses):.0f}–{max(ses):.0f}); interval above 0: {verdicts.count(1)}, "
            f"includes 0: {verdicts.count(0)}, below 0: {verdicts.count(-1)}"
        )
        for label, key in (("shown", "loss_mw"), ("model", None)):
            diffs = [(r[key] if key else 1000 * r["loss"]) - 1000 * r[policy]["mean"] for r in rows]
            m = sum(diffs) / n
            sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / max(1, n - 1))
            print(
                f"    {label} − rollouts: {m:+.1f} ± {Z95 * sd / math.sqrt(n):.1f} mw (bias), "
                f"mean |{label} − rollouts| {sum(abs(x) for x in diffs) / n:.1f} mw"
            )


Z90 = 1.6448536269514722  # two-sided 90 %: the intervals' target coverage
Z95 = 1.959963984540054


def _verdict(m: float, se: float) -> int:
    """+1: the analysis' best move is better (the 95 % interval of best − played above
    0), −1: the move played is better (below 0), 0: the rollouts cannot tell."""
    return 1 if m - Z95 * se > 0 else -1 if m + Z95 * se < 0 else 0


def _model_sd(rows: list[dict]) -> float:
    """The model's error (mw) on these rows: the spread of analysis − heuristic rollouts
    with the rollouts' own noise taken out."""
    err = [r["loss"] - r["heuristic"]["mean"] for r in rows]
    if len(err) < 2:
        return float("nan")
    m = sum(err) / len(err)
    spread = sum((x - m) ** 2 for x in err) / (len(err) - 1)
    noise = sum(r["heuristic"]["var_mean"] for r in rows) / len(rows)
    return 1000 * math.sqrt(max(0.0, spread - noise))


def coverage(rows: list[dict], sd_mw, z: float = Z90) -> tuple[int, int, int]:
    """How many of ``rows`` the interval ``loss ± z · sd_mw(row)`` covers: against the
    heuristic rollouts' estimate as if it were the truth (``naive``), and allowing for the
    estimate's own noise (``|loss − rollouts| ≤ z · √(sd² + se²)``: the coverage of the
    true loss when the errors are normal). Returns (naive, allowing, n)."""
    naive = allowing = 0
    for r in rows:
        diff = 1000 * abs(r["loss"] - r["heuristic"]["mean"])
        sd = sd_mw(r)
        se = 1000 * math.sqrt(r["heuristic"]["var_mean"])
        naive += diff <= z * sd
        allowing += diff <= z * math.hypot(sd, se)
    return naive, allowing, len(rows)


def report_reference(rows: list[dict]) -> None:
    """The reference positions: the policies' agreement, the marks against the rollouts,
    the model's error by kind (fitted on the even positions, checked on the odd), and the
    90 % intervals' coverage before and after."""
    from games.engine.analysis.decisions import loss_sd_mw

    kinds = ("ordinary", "marked")
    by = {k: [r for r in rows if r["kind"] == k] for k in kinds}
    n_r = sorted({r["rollouts"] for r in rows})
    print(
        f"== reference positions: {len(by['ordinary'])} ordinary decisions, "
        f"{len(by['marked'])} marked moves; {n_r} paired rollouts per move and policy"
    )
    names = {1: "best better", 0: "cannot tell", -1: "played better"}
    for k in kinds:
        mine = by[k]
        if not mine:
            continue
        table: dict[tuple[int, int], int] = {}
        for r in mine:
            key = (
                _verdict(r["heuristic"]["mean"], math.sqrt(r["heuristic"]["var_mean"])),
                _verdict(r["random"]["mean"], math.sqrt(r["random"]["var_mean"])),
            )
            table[key] = table.get(key, 0) + 1
        same = sum(v for (a, b), v in table.items() if a == b)
        print(
            f"  {k}: verdicts of heuristic and random rollouts the same in {same}/{len(mine)}"
            f" = {same / len(mine):.0%}; "
            + ", ".join(
                f"heuristic '{names[a]}' / random '{names[b]}' {v}"
                for (a, b), v in sorted(table.items(), reverse=True)
            )
        )
        for pol in REFERENCE_POLICIES:
            diff = [1000 * (r["loss"] - r[pol]["mean"]) for r in mine]
            m = sum(diff) / len(diff)
            sdv = math.sqrt(sum((x - m) ** 2 for x in diff) / max(1, len(diff) - 1))
            lower_pos = sum(r[pol]["mean"] - Z95 * math.sqrt(r[pol]["var_mean"]) > 0 for r in mine)
            rolled = 1000 * sum(r[pol]["mean"] for r in mine) / len(mine)
            shown = 1000 * sum(r["loss"] for r in mine) / len(mine)
            print(
                f"    {pol:>9} rollouts: loss {rolled:6.1f} mw (analysis {shown:.1f}); "
                f"analysis − rollouts {m:+.1f} ± {Z95 * sdv / math.sqrt(len(diff)):.1f} mw, "
                f"mean |·| {sum(map(abs, diff)) / len(diff):.1f} mw; best better (95 % lower "
                f"end > 0) in {lower_pos}/{len(mine)}"
            )
    print("  the model's error (mw, rollout noise taken out): fit on even positions, check on odd")
    for k in (*kinds, "all"):
        mine = rows if k == "all" else by[k]
        if len(mine) < 4:
            continue
        even, odd = _model_sd(mine[0::2]), _model_sd(mine[1::2])
        print(
            f"    {k:>8}: all {_model_sd(mine):5.1f} ({len(mine)}), even {even:5.1f}, "
            f"odd {odd:5.1f}; rollouts' noise "
            f"{1000 * math.sqrt(sum(r['heuristic']['var_mean'] for r in mine) / len(mine)):.1f}"
        )
    from games.engine.analysis.analyse import decision_mark, mark_margins

    shipped = [
        r
        for r in by["marked"]
        if decision_mark(1000 * r["loss"], r["endgame"], mark_margins(r["decisions"]))
    ]
    if shipped:
        diff = [1000 * (r["loss"] - r["heuristic"]["mean"]) for r in shipped]
        m = sum(diff) / len(diff)
        sdv = math.sqrt(sum((x - m) ** 2 for x in diff) / max(1, len(diff) - 1))
        sure = {
            pol: sum(_verdict(r[pol]["mean"], math.sqrt(r[pol]["var_mean"])) == 1 for r in shipped)
            for pol in REFERENCE_POLICIES
        }
        print(
            f"  marks of the shipped rule (margin from LOSS_SD_LARGE_MW): {len(shipped)} of the "
            f"{len(by['marked'])} marked moves; analysis − heuristic rollouts {m:+.1f} ± "
            f"{Z95 * sdv / math.sqrt(len(diff)):.1f} mw, mean |·| "
            f"{sum(map(abs, diff)) / len(diff):.1f} mw; best better (95 % lower end > 0): "
            + ", ".join(f"{pol} {k}/{len(shipped)}" for pol, k in sure.items())
        )
    print("  by the size of the loss (what decisions.loss_sd_mw distinguishes; no race endgames):")
    for name, lo, hi in (("< 30 mw", 0, 30), (">= 30 mw", 30, 1e9), (">= 150 mw", 150, 1e9)):
        mine = [r for r in rows if not r["endgame"] and lo <= 1000 * r["loss"] < hi]
        if len(mine) >= 4:
            print(
                f"    {name:>9}: model error {_model_sd(mine):5.1f} mw ({len(mine)}; even "
                f"{_model_sd(mine[0::2]):.1f}, odd {_model_sd(mine[1::2]):.1f})"
            )
    print(
        "  the smallest error (whole mw) whose 90 % interval covers 90 % of the even positions, "
        "checked on the odd:"
    )
    for name, lo, hi in (("< 30 mw", 0, 30), (">= 30 mw", 30, 1e9)):
        mine = [r for r in rows if not r["endgame"] and lo <= 1000 * r["loss"] < hi]
        even, odd = mine[0::2], mine[1::2]
        if len(even) < 4 or not odd:
            continue
        sd = next(
            x for x in range(1, 500) if coverage(even, lambda r, x=x: x)[1] >= 0.9 * len(even)
        )
        _, cov_odd, n_odd = coverage(odd, lambda r, x=sd: x)
        share = cov_odd / n_odd
        print(f"    {name:>9}: {sd} mw; on the odd positions {cov_odd}/{n_odd} = {share:.0%}")
    before = {False: 12.0, True: 25.0}  # LOSS_SD_MW / LOSS_SD_ENDGAME_MW until this change
    rules = {
        "before (12 mw; 25 in a race endgame)": lambda r: before[r["endgame"]],
        "now (decisions.loss_sd_mw)": lambda r: loss_sd_mw(r["endgame"], 1000 * r["loss"]),
    }
    print("  coverage of the 90 % interval loss ± 1.645 · sd (target ≥ 85–90 %):")
    for name, rule in rules.items():
        parts = []
        for k in (*kinds, "all"):
            mine = rows if k == "all" else by[k]
            if not mine:
                continue
            naive, allowing, n = coverage(mine, rule)
            _, odd_allowing, odd_n = coverage(mine[1::2], rule)
            parts.append(
                f"{k} {allowing}/{n} = {allowing / n:.0%} (odd {odd_allowing}/{odd_n}; "
                f"against the rollouts as truth {naive / n:.0%})"
            )
        print(f"    {name}: " + "; ".join(parts))


def soft(subtract: dict[str, float]):
    """A loss counts by what it exceeds ``subtract[phase]`` (fractions of a game)."""
    return lambda loss, ph: max(0.0, loss - subtract.get(ph, 0.0))


def hard(limit: dict[str, float]):
    """A loss counts in full once it exceeds ``limit[phase]``, else not at all."""
    return lambda loss, ph: loss if loss > limit.get(ph, 0.0) else 0.0


def shipped(loss: float, ph: str) -> float:
    """Session 10's rule (``games.engine.analysis.counted_loss_mw``; the analysis counts by
    ``counting.counted_losses_mw`` since session 17: ``bench/loss_rules.py`` judges it)."""
    from games.engine.analysis import counted_loss_mw

    return counted_loss_mw(1000 * loss, ph == "race") / 1000


def judge(games: list[dict], rule) -> tuple[dict[str, list[float]], int, int]:
    """Per player kind the counted loss of every game (heuristic: the mean of its two
    seats), and in how many games the levels (``band_for`` on the error rate) put
    random strictly below heuristic strictly below strong, and the error rates in that order
    (random > heuristic > strong, or heuristic = strong = 0)."""
    from games.engine.analysis import band_for

    rank = {"strong": 3, "good": 2, "fair": 1, "weak": 0, None: -1}
    per: dict[str, list[float]] = {"random": [], "heuristic": [], "strong": []}
    bands_ok = rates_ok = 0
    for g in games:
        totals = {p: 0.0 for p in g["bots"]}
        raw = {p: 0.0 for p in g["bots"]}
        counts = {p: 0 for p in g["bots"]}
        for player, loss, ph in g["decisions"]:
            totals[player] += rule(loss, ph)
            raw[player] += loss
            counts[player] += 1
        kinds: dict[str, list[float]] = {"random": [], "heuristic": [], "strong": []}
        for p, kind in g["bots"].items():
            kinds[kind].append(totals[p])
        for kind, xs in kinds.items():
            per[kind].append(sum(xs) / len(xs))
        rate = {p: 1000 * totals[p] / max(1, counts[p]) for p in g["bots"]}
        by_kind: dict[str, list[str]] = {"random": [], "heuristic": [], "strong": []}
        for p, kind in g["bots"].items():
            by_kind[kind].append(p)
        r, s_ = by_kind["random"][0], by_kind["strong"][0]
        # the levels: by the error rate of the model's own losses (what BANDS are set on)
        band = {p: rank[band_for(1000 * raw[p] / max(1, counts[p]), counts[p])] for p in g["bots"]}
        for h in by_kind["heuristic"]:  # each heuristic seat is one comparison
            bands_ok += band[r] < band[h] < band[s_]
            rates_ok += rate[r] > rate[h] > rate[s_] or (rate[r] > rate[h] == rate[s_] == 0.0)
    return per, bands_ok, rates_ok


def calibration(
    n: int, positions: int, marked: int, rollouts: int, cache: Path, reference: Path | None
) -> None:
    kept = reference or cache.with_name(
        cache.stem + f"-reference-{positions}+{marked}x{rollouts}.json"
    )
    c0 = time.process_time()
    rows = reference_positions(positions, marked, rollouts, kept)
    report_reference(rows)
    print(f"  ({time.process_time() - c0:.0f} CPU s; rows kept in {kept})")
    sd = {"all": _model_sd([r for r in rows if r["kind"] == "ordinary"]) / 1000}
    if n <= 0:
        return
    print(f"== calibration: {n} mixed league games (random, heuristic, strong, heuristic)")
    games = mixed_games(n, cache)
    truth = {("random", "heuristic"): (-24.5, 3.8), ("strong", "heuristic"): (0.9, 1.1)}
    print(
        "paired win-rate differences (points): random − heuristic −24.5 ± 3.8 "
        "(bench/bots.py, 600 games), strong − heuristic +0.9 ± 1.1 (docs/engine.md, 10,000)"
    )
    phases = ("opening", "middle", "race")
    rules = {"raw": soft({}), "shipped (counted_loss_mw)": shipped}
    for k in (1.0, 2.0, 3.0):
        rules[f"excess over {k:g} × error"] = soft({p: k * sd.get(p, sd["all"]) for p in phases})
        rules[f"in full beyond {k:g} × error"] = hard({p: k * sd.get(p, sd["all"]) for p in phases})
    for name, rule in rules.items():
        per, bands_ok, rates_ok = judge(games, rule)
        line = [f"{name:>28}: mean loss per game (points)"]
        for kind, xs in per.items():
            line.append(f"{kind} {100 * sum(xs) / len(xs):.1f}")
        for (a, b), (want, half) in truth.items():
            # a's winning chance over b's = b's loss − a's loss, game by game
            diffs = [100 * (y - x) for x, y in zip(per[a], per[b], strict=True)]
            m = sum(diffs) / len(diffs)
            sdv = math.sqrt(sum((x - m) ** 2 for x in diffs) / (len(diffs) - 1))
            h = 1.96 * sdv / math.sqrt(len(diffs))
            ok = abs(m - want) <= math.hypot(h, half)
            line.append(f"| {a} − {b} {m:+.1f} ± {h:.1f} ({'agrees' if ok else 'differs'})")
        pairs = 2 * len(games)
        line.append(
            f"| rates in order {rates_ok}/{pairs} = {rates_ok / pairs:.0%}, levels strictly in "
            f"order {bands_ok}/{pairs} = {bands_ok / pairs:.0%}"
        )
        print(" ".join(line))
    rates: dict[str, list[float]] = {"random": [], "heuristic": [], "strong": []}
    for g in games:  # the error rates (the model's loss per decision) the levels classify
        loss = {p: 0.0 for p in g["bots"]}
        count = {p: 0 for p in g["bots"]}
        for player, x, _ph in g["decisions"]:
            loss[player] += x
            count[player] += 1
        for p, kind in g["bots"].items():
            if count[p] >= 10:
                rates[kind].append(1000 * loss[p] / count[p])
    for kind, xs in rates.items():
        xs.sort()
        q = [xs[int(f * (len(xs) - 1))] for f in (0.1, 0.25, 0.5, 0.75, 0.9)]
        print(
            f"  error rate {kind:>9}: {len(xs)} player-games, mean {sum(xs) / len(xs):.1f}; "
            "10/25/50/75/90 %: " + " / ".join(f"{x:.2f}" for x in q)
        )
    wins = {k: 0.0 for k in ("random", "heuristic", "strong")}
    for g in games:
        for p, kind in g["bots"].items():
            wins[kind] += (g["winner"] == p) / (2 if kind == "heuristic" else 1)
    print(
        "  wins per seat in the mixed games: "
        + ", ".join(f"{k} {v / len(games):.1%}" for k, v in wins.items())
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=1000, help="games of the luck check")
    ap.add_argument("--bands", type=int, default=30, help="games per computer player")
    ap.add_argument("--loss-error", type=int, default=12, help="games of the depth check")
    ap.add_argument("--drift", type=int, default=10, help="games of the look-ahead check")
    ap.add_argument("--exact", type=int, default=16, help="endgames of the exact check")
    ap.add_argument("--calibration", type=int, default=100, help="mixed games (calibration)")
    ap.add_argument(
        "--positions", type=int, default=50, help="ordinary reference decisions (calibration)"
    )
    ap.add_argument("--marked", type=int, default=50, help="marked reference moves (calibration)")
    ap.add_argument(
        "--shipped-marks",
        type=int,
        default=0,
        help="moves the shipped rule marks, against --rollouts paired rollouts (0: none)",
    )
    ap.add_argument(
        "--marks-from",
        type=Path,
        default=None,
        help="a --details file: look for shipped marks only in its games that have one",
    )
    ap.add_argument(
        "--rollouts", type=int, default=1500, help="paired rollouts per move and policy"
    )
    ap.add_argument(
        "--reference",
        type=Path,
        default=None,
        help="the reference positions' file (resumed; default beside --calibration-cache)",
    )
    ap.add_argument(
        "--calibration-cache",
        type=Path,
        default=ROOT / "var" / "bench-calibration.json",
        help="the mixed games' analyses (resumed)",
    )
    ap.add_argument(
        "--details",
        type=int,
        default=0,
        help="mixed games analysed with every decision's options (rule design; 0: none)",
    )
    ap.add_argument(
        "--details-file",
        type=Path,
        default=ROOT / "var" / "bench-calibration-details.jsonl",
        help="the detailed mixed games (one JSON line a game, resumed)",
    )
    ap.add_argument(
        "--details-first",
        type=int,
        default=0,
        help="--details: games FIRST … FIRST+N-1 (two processes on two ranges, two files: "
        "their lines joined make one file)",
    )
    ap.add_argument(
        "--details-player-model",
        type=Path,
        default=None,
        help="--details: the strong seat searches with this model file (not shipped yet)",
    )
    ap.add_argument(
        "--details-model",
        type=Path,
        default=None,
        help="--details: the decisions valued by this model file, the strong seat searching "
        "with it too unless --details-player-model says otherwise",
    )
    ap.add_argument(
        "--skip",
        nargs="*",
        default=[],
        choices=("speed", "depth", "exact", "bands", "luck", "drift", "calibration"),
        help="sections to leave out",
    )
    args = ap.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        if "speed" not in args.skip:
            speed_and_reproducibility(Path(tmp))
    if "depth" not in args.skip:
        depth(args.loss_error)
    if "exact" not in args.skip:
        exact(args.exact)
    if "bands" not in args.skip:
        bands(args.bands)
    if "luck" not in args.skip:
        luck(args.games)
    if "drift" not in args.skip:
        drift(args.drift)
    if args.details > 0:
        args.details_file.parent.mkdir(exist_ok=True)
        print(f"== {args.details} mixed games with every decision's options")
        mixed_details(
            args.details,
            args.details_file,
            args.details_first,
            args.details_player_model,
            args.details_model,
        )
    if args.shipped_marks:
        args.calibration_cache.parent.mkdir(exist_ok=True)
        kept = args.calibration_cache.with_name(
            args.calibration_cache.stem + f"-shipped-marks-x{args.rollouts}.json"
        )
        c0 = time.process_time()
        seeds = seeds_with_marks(args.marks_from) if args.marks_from else None
        report_shipped_marks(shipped_marks(args.shipped_marks, args.rollouts, kept, seeds))
        print(f"  ({time.process_time() - c0:.0f} CPU s; rows kept in {kept})")
    if "calibration" not in args.skip:
        args.calibration_cache.parent.mkdir(exist_ok=True)
        calibration(
            args.calibration,
            args.positions,
            args.marked,
            args.rollouts,
            args.calibration_cache,
            args.reference,
        )


if __name__ == "__main__":
    main()
