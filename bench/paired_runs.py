"""Win rates and paired differences over the per-game results of several
``bench/bots.py --save`` files (a script, not a test).

    python bench/paired_runs.py RUN.json [RUN.json ...] [--rules league]

The same games may be split over runs (``--first-game``): each match's pieces are put
together in the order of their first game, and two matches are paired when they cover
the same games. Prints every match's win rate with its 95 % Wilson interval, then every
pair's mean difference on the same dice with its 95 % interval.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engine.analysis.stats import paired_half_width, wilson_interval


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("--rules", default="league")
    args = ap.parse_args()
    pieces: dict[str, dict[int, list[int]]] = {}
    for path in args.runs:
        for spec, entry in json.loads(path.read_text()).get(args.rules, {}).items():
            pieces.setdefault(spec, {})[entry["first"]] = entry["results"]
    full = {s: [x for k in sorted(v) for x in v[k]] for s, v in pieces.items()}
    cover = {s: (sorted(v), len(full[s])) for s, v in pieces.items()}
    for spec, r in full.items():
        lo, hi = wilson_interval(sum(r), len(r))
        print(f"{spec}: {len(r)} games, {sum(r) / len(r):.1%} [{lo:.1%}, {hi:.1%}]")
    specs = list(full)
    for i, a in enumerate(specs):
        for b in specs[i + 1 :]:
            if cover[a] == cover[b]:
                x, y = full[a], full[b]
                mean = (sum(x) - sum(y)) / len(x)
                print(f"{a} − {b}: {mean:+.1%} ± {paired_half_width(x, y):.1%} ({len(x)} games)")


if __name__ == "__main__":
    main()
