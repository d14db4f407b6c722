"""``manage.py ratings_recompute``: rebuild every player rating and the rating history from
the counted results, from scratch and in rating-sequence order (same figures as the
incremental updates)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from ratings.services.ratings import ratings_recompute


class Command(BaseCommand):
    help = "Recompute all player ratings from scratch (after a settings or library change)."

    def handle(self, *args, **options):
        outcome = ratings_recompute(resync=True)
        self.stdout.write(
            f"ratings: {outcome['applied']} games rated, {outcome['players']} players, "
            f"through sequence {outcome['through']}"
        )
