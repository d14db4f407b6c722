"""Fixtures of the foundation tests: one game to submit a log for, and no /healthz probe
thread outliving its test."""

from __future__ import annotations

import pytest


@pytest.fixture
def game(db):
    """erin against carol in a 2T+ league whose results count at once."""
    from tests.builders import erin_against_carol

    return erin_against_carol(counts_at_once=True)


@pytest.fixture(autouse=True)
def _healthz_probes_finish():
    """A probe of a dependency that never answers outlives its /healthz request (until its
    own socket timeout): wait for it, so the next test starts with no probe running."""
    yield
    from config import health

    for thread in list(getattr(health, "_running", {}).values()):
        thread.join(15)
