"""Celery tasks: thin wrappers that load by id and call a service."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import standings


@shared_task(
    name="tournaments.recompute_standings",
    autoretry_for=(Exception,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
)
def recompute_standings(league_id: int) -> dict:
    """Recompute one league's standings snapshot (idempotent; safe to run concurrently)."""
    return standings.standings_recompute(league_id)


@shared_task(name="tournaments.standings_catch_up")
def standings_catch_up() -> list[int]:
    """Periodic safety net: recompute every league whose snapshot is behind its results
    (a lost message, a broker outage at submission time, a worker killed mid-run)."""
    stale = standings.leagues_with_stale_standings()
    for league_id in stale:
        recompute_standings.delay(league_id)
    return stale
