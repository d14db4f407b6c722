import json

import pytest

from tests.builders import example_text, make_fixture, make_league, make_player, make_user
from tournaments.models import League

LOG = "valid-league-2tplus.json"


def corrected_log() -> str:
    """The same game as another text (other whitespace): another content hash, so the
    platform stores it as a new log — what a corrected upload is."""
    return json.dumps(json.loads(example_text(LOG)), indent=1)


@pytest.fixture
def table(db):
    """A 2T+ league whose results count at once, with one game: erin (black+yellow) against
    carol (green+red) — the players of ../shared/examples/valid-league-2tplus.json."""
    organizer = make_user("org")
    erin_user, carol_user = make_user("erin_u"), make_user("carol_u")
    erin = make_player("erin", user=erin_user)
    carol = make_player("carol", user=carol_user)
    league = make_league(organizer, format="2T+")
    League.objects.filter(pk=league.pk).update(confirmation_required=False)
    fixture = make_fixture(
        league, [(erin, ["black", "yellow"]), (carol, ["green", "red"])], "black"
    )
    return {"organizer": organizer, "erin": erin_user, "league": league, "fixture": fixture}


@pytest.fixture
def analyses_on(settings):
    settings.ANALYSIS_ENABLED = True
    settings.ANALYSIS_ROLLOUTS = 4
    return settings


@pytest.fixture
def fast_analyse(monkeypatch):
    """``games.analysis`` analyses with the hand-made analysis (tests/analysis/fake.py)."""
    from games import analysis
    from tests.analysis.fake import fake_analysis

    monkeypatch.setattr(analysis, "analyse", fake_analysis)
    return fake_analysis


from tests.live.conftest import people, scheduled  # noqa: E402, F401 (the live fixtures)
