"""Fixtures of the foundation tests: one game to submit a log for, and no /healthz probe
thread outliving its test."""

from __future__ import annotations

import pytest


@pytest.fixture
def game(db):
    """A 2T+ league (results count at once) with one game: erin (black+yellow) against
    carol (green+red), the players of ../shared/examples/valid-league-2tplus.json."""
    from tests.builders import make_fixture, make_league, make_player, make_user
    from tournaments.models import League

    organizer = make_user("org")
    erin_user, carol_user = make_user("erin_u"), make_user("carol_u")
    erin = make_player("erin", user=erin_user)
    carol = make_player("carol", user=carol_user)
    league = make_league(organizer, format="2T+")
    League.objects.filter(pk=league.pk).update(confirmation_required=False)
    fixture = make_fixture(
        league, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black"
    )
    return {"league": league, "fixture": fixture, "erin": erin_user}


@pytest.fixture(autouse=True)
def _healthz_probes_finish():
    """A probe of a dependency that never answers outlives its /healthz request (until its
    own socket timeout): wait for it, so the next test starts with no probe running."""
    yield
    from config import health

    for thread in list(getattr(health, "_running", {}).values()):
        thread.join(15)
