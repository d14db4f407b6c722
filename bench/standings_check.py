"""Every league's table by the database's sums and from every game: the same?

For each league of the database in ``DATABASE_URL`` (e.g. a site of bench/scale.py), inside
a transaction rolled back afterwards (nothing is written: both are only computed), the
table the recompute stores (``_computed_table``: sums where it can — the kept ones, built
first where the league has none, docs/results.md, "Sums kept by the counting transaction")
is compared, row by row and value by value, with the one
``compute_standings`` computes from every counted game; prints how many leagues were summed,
how many differ (and the first differences), and both ways' total time.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/maedn_scale_100x \\
    DJANGO_SETTINGS_MODULE=bench.settings_scale SECRET_KEY=x DEBUG=1 \\
    .venv/bin/python bench/standings_check.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    import django

    django.setup()
    from django.db import transaction

    from tournaments.algorithms.standings import compute_standings
    from tournaments.models import Entry, League
    from tournaments.selectors.standings_inputs import league_metrics, outcomes_for, roll_offs_for
    from tournaments.services import standings

    def rows(table):
        return [(r.entry, r.rank, dict(r.values), r.separated_by, r.tied) for r in table]

    summed, differing, timed = 0, [], {"recompute": 0.0, "every game": 0.0}
    real_sums = standings._sums  # the kept sums (rebuilt here first where none are kept)

    def counting(league, entries):
        nonlocal summed
        found = real_sums(league, entries)
        summed += found is not None
        return found

    standings._sums = counting
    with transaction.atomic():
        leagues = list(League.objects.order_by("pk"))
        for league in leagues:
            began = time.perf_counter()
            try:
                games, table = standings._computed_table(league)
                now = (games, rows(table))
            except Exception as exc:  # the same fault both ways is the same answer
                now = repr(exc)
            timed["recompute"] += time.perf_counter() - began
            began = time.perf_counter()
            accepted = league.entries.filter(state=Entry.State.ACCEPTED).order_by("pk")
            try:
                outcomes = outcomes_for(league)
                table = compute_standings(
                    list(accepted.values_list("pk", flat=True)),
                    outcomes,
                    league_metrics(league),
                    roll_offs=roll_offs_for(league),
                )
                then = (len(outcomes), rows(table))
            except Exception as exc:
                then = repr(exc)
            timed["every game"] += time.perf_counter() - began
            if now != then:
                differing.append((league.slug, now, then))
        transaction.set_rollback(True)
    print(
        f"{len(leagues)} leagues, {summed} summed, {len(differing)} differing; "
        f"recompute {timed['recompute']:.2f} s, from every game {timed['every game']:.2f} s"
    )
    for slug, now, then in differing[:3]:
        print(f"  {slug}:\n    recompute  {str(now)[:400]}\n    every game {str(then)[:400]}")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
