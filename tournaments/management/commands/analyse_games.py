"""``manage.py analyse_games``: compute the move analyses of counted games in this process.

Where no Celery worker runs (the embedded ``make run`` default) analyses are queued but never
computed inside a request; this command computes them. With a worker, the beat task does
the same through the ``analysis`` queue.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from tournaments.services.analyses import analyse_now


class Command(BaseCommand):
    help = "Analyse every counted game log that has no analysis yet (in this process)."

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, help="at most this many logs")
        parser.add_argument("--league", help="only this league's games (its slug)")
        parser.add_argument("--retry-failed", action="store_true", help="try failed analyses again")

    def handle(self, *args, limit=None, league=None, retry_failed=False, **options):
        if limit is not None and limit < 1:
            raise CommandError("--limit must be at least 1")

        def report(log, outcome):
            extra = f": {outcome['error']}" if outcome.get("error") else ""
            self.stdout.write(
                f"log {log.sha256[:10]} ({log.events} events): {outcome['status']}{extra}"
            )

        outcomes = analyse_now(
            limit=limit,
            league_slug=league,
            retry_failed=retry_failed,
            progress=report,
        )
        stored = sum(1 for o in outcomes if o.get("stored"))
        failed = sum(1 for o in outcomes if o["status"] == "failed")
        self.stdout.write(f"analyse_games: {stored} stored, {failed} failed")
