"""The ratings' file export: the ratings table as CSV (served by ``ratings/api/ratings.py``:
``/api/v1/ratings.csv``), cells written as the competition's exports write theirs."""

from __future__ import annotations

import csv
import io

from tournaments.exports import csv_cell


def ratings_csv(rows) -> str:
    """The ratings table (``ratings.selectors.ratings.ratings_table`` rows) as CSV; the
    player column holds the label (``Player.label``: the name, told apart where needed)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(
        ["rank", "player", "slug", "rating", "provisional", "mu", "sigma", "games", "last_played"]
    )
    for r in rows:
        writer.writerow(
            [
                csv_cell(v)
                for v in (
                    r.rank,
                    r.player.label,
                    r.player.slug,
                    r.rating,
                    r.provisional,
                    r.mu,
                    r.sigma,
                    r.games,
                    r.last_played_at.isoformat() if r.last_played_at else "",
                )
            ]
        )
    return out.getvalue()
