import json

import pytest

from tests.builders import erin_against_carol, example_text

LOG = "valid-league-2tplus.json"


def corrected_log() -> str:
    """The same game as another text (other whitespace): another content hash, so the
    platform stores it as a new log — what a corrected upload is."""
    return json.dumps(json.loads(example_text(LOG)), indent=1)


@pytest.fixture
def table(db):
    """erin against carol in a 2T+ league whose results count at once."""
    return erin_against_carol(counts_at_once=True)


@pytest.fixture
def analyses_on(settings):
    settings.ANALYSIS_ENABLED = True
    return settings


@pytest.fixture
def fast_analyse(monkeypatch):
    """``games.analysis`` analyses with the hand-made analysis (tests/analysis/fake.py)."""
    from games import analysis
    from tests.analysis.fake import fake_analysis

    monkeypatch.setattr(analysis, "analyse", fake_analysis)
    return fake_analysis


from tests.live.conftest import people, scheduled  # noqa: E402, F401 (the live fixtures)
