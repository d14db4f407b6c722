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
    if league.format not in TRIPLE_THREAT_FORMATS:
        raise coded(
            "rankings_3t_format",
            field="level",
            formats=", ".join(TRIPLE_THREAT_FORMATS),
            league=league.name,
            format=league.format,
        )
    if level is not None and (isinstance(level, bool) or level not in LEVELS):
        raise coded(
            "ranking_level_unknown",
            field="level",
            levels=", ".join(map(str, LEVELS)),
            level=repr(level),
        )
    if level is None and (world_championship or major):
        raise coded("ranking_level_missing", field="level")
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        league.ranking_level = level
        league.world_championship = bool(world_championship)
        league.major = bool(major)
        league.save(update_fields=["ranking_level", "world_championship", "major"])
        return league
