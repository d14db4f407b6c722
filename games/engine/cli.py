"""Command line: ``python -m games.engine validate|verify-dice|simulate|explain|analyse``.

python -m games.engine validate LOG.json [LOG.json ...]
    one JSON line per file (the result object of game-log.md plus "file");
    exit 0 if all are valid, 1 if any is invalid, 2 if a file can't be read
    or is not JSON at all.
python -m games.engine verify-dice LOG.json [LOG.json ...]
    recomputes every roll of each log from the seed its meta.dice reveals
    (maedn-dice/1, games/engine/dice.py) and prints one line per file:
    "FILE: verified: N rolls", or the first roll (event index) that differs, a
    commitment the seed does not match, or that the log carries no commitment (or
    has not revealed its seed). Exit 0 if every log verified, 1 if any log's dice
    differ, its seed misses its commitment or its meta.dice is malformed, 2 if a
    file can't be read or is not JSON, 3 if none failed but some log had nothing to
    verify (no commitment, seed not revealed).
python -m games.engine simulate --rules PRESET [--board 4|6] [--players SPEC]
    [--games N] [--seed S] [--out DIR] [--bots random,heuristic,...] [--first COLOUR]
    plays games with computer players, writes their logs to DIR and prints a
    summary. SPEC is "alice=green+red,bob=black+yellow"; --bots assigns bots
    to the players in order (players of SPEC first, then the remaining colours
    clockwise), the last one to everyone left.
python -m games.engine explain PRESET
    the preset's options in words (PRESET may also be a JSON rules object).
python -m games.engine analyse LOG.json [--plies 0|1|2] [--quiet]
    move analysis and luck of one game (docs/analysis.md): the analysis JSON on
    stdout, progress on stderr; exit 1 if the log is invalid, 2 if the file can't
    be read, is not JSON at all (as ``validate``, with its message) or an argument
    is bad.
python -m games.engine train --work DIR --out MODEL.npz [--games N] [--seed S] ...
    trains the evaluator on self-play (docs/analysis.md, "Evaluator"): seeded,
    progress on stderr, resumable (run it again with the same DIR).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from .analysis import (
    MARK_CHECK_ROLLOUTS,
    analyse,
)  # imported here: the other commands don't need it
from .dice import NO_COMMITMENT, NOT_REVEALED, verify_dice
from .log import MAX_LOG_BYTES, InvalidLog, load_json, log_dumps
from .rules import PRESETS, RulesError, RuleSet, explain
from .setup import colours_in_play
from .simulate import simulate_game
from .validate import validate


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args, out)
    except (RulesError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine",
        description="MÄDN rules engine: validate, verify-dice, simulate, explain",
    )
    sub = parser.add_subparsers(required=True, metavar="COMMAND")

    p = sub.add_parser("validate", help="validate maedn-log/1 game logs")
    p.add_argument("logs", nargs="+", metavar="LOG.json")
    p.set_defaults(run=_validate)

    p = sub.add_parser("verify-dice", help="recompute every roll of logs from their revealed seed")
    p.add_argument("logs", nargs="+", metavar="LOG.json")
    p.set_defaults(run=_verify_dice)

    p = sub.add_parser("simulate", help="play games with computer players")
    p.add_argument("--rules", default="league", help="preset name or JSON rules object")
    p.add_argument("--board", type=int, choices=(4, 6), default=4)
    p.add_argument("--players", default=None, help='e.g. "alice=green+red,bob=black+yellow"')
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--seed", type=int, default=None, help="game i uses seed S+i")
    p.add_argument("--out", type=Path, default=None, help="directory for the logs")
    p.add_argument("--bots", default="random", help="e.g. heuristic,random")
    p.add_argument("--first", default=None, help="colour that starts (default: drawn)")
    p.add_argument(
        "--unused",
        default=None,
        help='colours with no pawns, e.g. "blue,white" (two players on board 6); '
        "default: every colour no player holds plays as its own computer player",
    )
    p.set_defaults(run=_simulate)

    p = sub.add_parser("explain", help="describe a preset's options in words")
    p.add_argument("preset", help=f"one of {', '.join(PRESETS)} (or a JSON rules object)")
    p.set_defaults(run=_explain)

    p = sub.add_parser("analyse", help="move analysis and luck of one game (JSON)")
    p.add_argument("log", metavar="LOG.json")
    p.add_argument(
        "--plies",
        type=int,
        choices=(0, 1, 2),
        default=1,
        help="search depth of an option's equity (1: the default, as the platform; 0: the "
        "evaluator's value of the state after the move; 2: one ply deeper, ~12× the time)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(run=_analyse)

    _train_parser(sub)
    return parser


def _train_parser(sub) -> None:
    """``train``: the evaluator's training (games/engine/evaluator/train.py; numpy is
    imported only when it runs)."""
    p = sub.add_parser("train", help="train the evaluator on self-play (docs/analysis.md)")
    p.add_argument("--work", type=Path, required=True, help="directory of data and checkpoint")
    p.add_argument("--out", type=Path, required=True, help="the model file to write (.npz)")
    p.add_argument("--games", type=int, default=20_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--chunk", type=int, default=500, help="games per data file")
    p.add_argument("--sample", type=float, default=0.08, help="share of roll points kept")
    p.add_argument("--hidden", default="32,16", help="hidden layer sizes")
    p.add_argument(
        "--features",
        type=int,
        default=None,
        help="train on the first N features (default: all; 35 = generation 1's)",
    )
    p.add_argument(
        "--families",
        default=None,
        help="self-play only these families of the mix (comma-separated labels, e.g. "
        "league/b4: four single colours under league rules; default: the whole mix)",
    )
    p.add_argument(
        "--joint",
        type=int,
        default=0,
        help="a network that sees the K colours of a position together (each colour's row "
        "followed by the others' in turn order; only for fields of K single colours, e.g. 4 "
        "with --families league/b4); default 0: each colour's row scored alone",
    )
    p.add_argument(
        "--init-seed",
        type=int,
        default=None,
        help="seed of the starting weights and the batches' order (default: --seed, which "
        "also seeds the games): a second model of the same games, for an ensemble",
    )
    p.add_argument("--epochs", type=int, default=30)
    p.add_argument("--batch", type=int, default=2048)
    p.add_argument("--lr", type=float, default=0.003)
    p.add_argument("--l2", type=float, default=1e-5)
    p.add_argument(
        "--policy",
        default="heuristic",
        help="who plays the self-play games: heuristic, or a model file (.npz) that plays "
        "itself as the strong player",
    )
    p.add_argument("--start", type=Path, default=None, help="start from these weights")
    p.add_argument(
        "--td-events",
        type=int,
        default=0,
        help="TD targets: the teacher's value this many rolls after each sampled position "
        "(0: outcomes only)",
    )
    p.add_argument(
        "--td-weight",
        type=float,
        default=0.0,
        help="weight of the TD target against the outcome in the loss (0 … 1)",
    )
    p.add_argument(
        "--teacher", type=Path, default=None, help="the TD targets' model (default: shipped)"
    )
    p.set_defaults(run=_train)


def _train(args: argparse.Namespace, out: TextIO) -> int:
    from .evaluator.train import run  # noqa: PLC0415 (heavy: numpy and the trainer, for the train command only)

    return run(args, out)


def _emit(out: TextIO, obj: dict[str, Any]) -> None:
    line = json.dumps(obj, ensure_ascii=False)
    try:
        print(line, file=out)
    except UnicodeEncodeError:
        print(json.dumps(obj), file=out)


def _validate(args: argparse.Namespace, out: TextIO) -> int:
    status = 0
    for name in args.logs:
        try:
            data = Path(name).read_bytes()
        except OSError as exc:
            _emit(out, {"file": name, "valid": False, "error": f"can't read the file: {exc}"})
            status = 2
            continue
        if len(data) <= MAX_LOG_BYTES:
            try:
                load_json(data)  # not JSON at all: exit status 2
            except InvalidLog as exc:
                _emit(out, {"file": name, **exc.result()})
                status = 2
                continue
        result = validate(data)  # the text itself: NaN/Infinity are refused where they stand
        _emit(out, {"file": name, **result})
        if not result["valid"] and status == 0:
            status = 1
    return status


def _verify_dice(args: argparse.Namespace, out: TextIO) -> int:
    failed = unreadable = unchecked = False
    for name in args.logs:
        log, problem = _read_log_object(name)
        if log is None:
            print(f"{name}: {problem}", file=out)
            unreadable = True
            continue
        check = verify_dice(log)
        print(f"{name}: {check.message()}", file=out)
        if check.status in (NO_COMMITMENT, NOT_REVEALED):
            unchecked = True
        elif not check.verified:
            failed = True
    return 2 if unreadable else 1 if failed else 3 if unchecked else 0


def _read_log_object(name: str) -> tuple[dict[str, Any] | None, str]:
    """The JSON object in file ``name``, or ``None`` and why it is not one."""
    try:
        log = load_json(Path(name).read_bytes())
    except OSError as exc:
        return None, f"can't read the file: {exc}"
    except InvalidLog as exc:
        return None, f"not a log: {exc.error}"
    if not isinstance(log, dict):
        return None, "not a log: the file is not a JSON object"
    return log, ""


def _rules_arg(text: str) -> Any:
    return json.loads(text) if text.lstrip().startswith("{") else text


def _parse_players(spec: str | None) -> dict[str, list[str]] | None:
    if not spec:
        return None
    players: dict[str, list[str]] = {}
    for part in spec.split(","):
        name, sep, colours = part.partition("=")
        if not sep or not name.strip() or not colours.strip():
            raise ValueError(f'bad --players entry {part!r}: write "name=colour+colour"')
        players[name.strip()] = [c.strip() for c in colours.split("+")]
    return players


def _simulate(args: argparse.Namespace, out: TextIO) -> int:
    rules = RuleSet.from_spec(_rules_arg(args.rules))
    players = _parse_players(args.players)
    bot_names = _comma_list(args.bots) or ["random"]
    unused = _comma_list(args.unused or "") or None
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    tally = _Tally()
    for i in range(args.games):
        log = simulate_game(
            rules=rules,
            board=args.board,
            players=players,
            first=args.first,
            bots=_assign_bots(rules, args.board, players, bot_names, unused),
            seed=None if args.seed is None else args.seed + i,
            unused=unused,
        )
        tally.add(log, validate(log))
        if args.out:
            path = args.out / f"game-{i + 1:05d}.json"
            path.write_text(log_dumps(log) + "\n", encoding="utf-8")
    print(f"games: {args.games}  rules: {rules.preset}  board: {args.board}", file=out)
    tally.report(out, args.games)
    if args.out:
        print(f"logs written to {args.out}", file=out)
    return 0


def _comma_list(text: str) -> list[str]:
    """The non-empty items of a comma-separated option, stripped."""
    return [item.strip() for item in text.split(",") if item.strip()]


class _Tally:
    """What ``simulate`` prints of its games: mean rolls, wins per bot and per player."""

    def __init__(self) -> None:
        self.wins_by_bot: Counter[str] = Counter()
        self.wins_by_player: Counter[str] = Counter()
        self.rolls = 0
        self.incomplete = 0

    def add(self, log: dict[str, Any], result: dict[str, Any]) -> None:
        self.rolls += len(log["events"])
        winner = result.get("winner")
        if winner is None:
            self.incomplete += 1
            return
        self.wins_by_player[winner] += 1
        self.wins_by_bot[log["meta"]["bots"][winner]] += 1

    def report(self, out: TextIO, games: int) -> None:
        print(f"mean rolls: {self.rolls / games:.1f}" if games else "mean rolls: -", file=out)
        for label, wins in (
            ("wins per bot", self.wins_by_bot),
            ("wins per player", self.wins_by_player),
        ):
            parts = [f"{k} {v} ({100 * v / games:.1f}%)" for k, v in wins.most_common()]
            print(f"{label}: {', '.join(parts) or '-'}", file=out)
        if self.incomplete:
            print(f"incomplete: {self.incomplete}", file=out)


def _assign_bots(
    rules: RuleSet,
    board: int,
    players: dict[str, list[str]] | None,
    bot_names: list[str],
    unused: list[str] | None = None,
) -> dict[str, str]:
    order = list(players or {})
    held = {c for cs in (players or {}).values() for c in cs} | set(unused or ())
    order += [c for c in colours_in_play(board, rules) if c not in held]
    return {p: bot_names[min(i, len(bot_names) - 1)] for i, p in enumerate(order)}


def _explain(args: argparse.Namespace, out: TextIO) -> int:
    for line in explain(RuleSet.from_spec(_rules_arg(args.preset))):
        print(line, file=out)
    return 0


def _analyse(args: argparse.Namespace, out: TextIO) -> int:

    try:
        data = Path(args.log).read_bytes()
    except OSError as exc:
        print(f"error: can't read the file: {exc}", file=sys.stderr)
        return 2
    if len(data) <= MAX_LOG_BYTES:
        try:
            load_json(data)  # not JSON at all (nested too deeply too): exit 2, as validate
        except InvalidLog as exc:
            print(f"error: invalid log: {exc.error}", file=sys.stderr)
            return 2
    progress = None if args.quiet else _progress_printer(sys.stderr)
    try:
        result = analyse(data, plies=args.plies, progress=progress, mark_checks=MARK_CHECK_ROLLOUTS)
    except InvalidLog as exc:
        where = "" if exc.event is None else f"event {exc.event}: "
        print(f"error: invalid log: {where}{exc.error}", file=sys.stderr)
        return 1
    if progress is not None:
        print(file=sys.stderr)
    _emit(out, result)
    return 0


def _progress_printer(err: TextIO):
    last = [-1]

    def progress(done: int, total: int) -> None:
        percent = 100 * done // max(total, 1)
        if percent != last[0]:
            last[0] = percent
            print(f"\ranalysing: {percent}% ({done}/{total} events)", end="", file=err)
            err.flush()

    return progress
