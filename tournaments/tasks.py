"""Celery tasks: thin wrappers that load by id and call a service."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import analyses, revisions, standings


@shared_task(
    name="tournaments.recompute_standings",
    autoretry_for=(Exception,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
)
def recompute_standings(league_id: int) -> dict:
    """Bring one league's standings snapshot to its results revision (idempotent; runs for
    one league coalesce: a run finding the league claimed leaves it to the holder)."""
    return standings.standings_recompute(league_id)


@shared_task(name="tournaments.standings_catch_up")
def standings_catch_up() -> list[int]:
    """Periodic safety net: recompute every league whose snapshot is behind its results
    (a lost message, a broker outage at submission time, a worker killed mid-run)."""
    stale = standings.leagues_with_stale_standings()
    for league_id in stale:
        recompute_standings.delay(league_id)
    return stale


@shared_task(name="tournaments.analyses_catch_up")
def analyses_catch_up() -> dict:
    """Periodic safety net of the move analyses: a queued analysis for every counted log
    without one, and the task sent again for analyses queued long ago."""
    return analyses.analyses_catch_up()


@shared_task(name="tournaments.revisions_fold")
def revisions_fold() -> dict[str, int]:
    """Periodic: the revision counters of ended database sessions folded into one row
    (the revisions' sums unchanged), so those tables stay as small as the live sessions."""
    return revisions.revisions_fold()
