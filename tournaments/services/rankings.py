"""Setting a triple-threat league's 3T World Rankings level and its world-championship and
major flags (the organizer's decision, tournament.md "Rankings")."""

from __future__ import annotations

from django.db import transaction

from tournaments.algorithms.world_rankings import LEVELS
from tournaments.models import League
from tournaments.selectors.rankings import TRIPLE_THREAT_FORMATS
from tournaments.services.errors import coded
from tournaments.services.guards import require_organizer


def league_set_ranking(
    *,
    league: League,
    by,
    level: int | None,
    world_championship: bool = False,
    major: bool = False,
) -> League:
    """Give a triple-threat league its ranking level (1–4) and flags, or take it out of the
    world rankings with ``level=None`` (the flags are cleared then)."""
    require_organizer(by, league)
    _check_ranking(league, level, world_championship or major)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        league.ranking_level = level
        league.world_championship = bool(world_championship)
        league.major = bool(major)
        league.save(update_fields=["ranking_level", "world_championship", "major"])
        return league


def _check_ranking(league: League, level, flagged: bool) -> None:
    """Only a triple-threat league is ranked, at one of the levels; a world championship
    or major has a level."""
    if league.format not in TRIPLE_THREAT_FORMATS:
        raise coded(
            "rankings_3t_format",
            field="level",
            formats=", ".join(TRIPLE_THREAT_FORMATS),
            league=league.name,
            format=league.format,
        )
    if not _level_known(level):
        raise coded(
            "ranking_level_unknown",
            field="level",
            levels=", ".join(map(str, LEVELS)),
            level=repr(level),
        )
    if level is None and flagged:
        raise coded("ranking_level_missing", field="level")


def _level_known(level) -> bool:
    """No level (not ranked), or one of the ranking levels."""
    return level is None or (not isinstance(level, bool) and level in LEVELS)
