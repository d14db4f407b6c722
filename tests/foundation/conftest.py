"""Fixtures of the foundation tests: no /healthz probe thread outlives its test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _healthz_probes_finish():
    """A probe of a dependency that never answers outlives its /healthz request (until its
    own socket timeout): wait for it, so the next test starts with no probe running."""
    yield
    from config import health

    for thread in list(getattr(health, "_running", {}).values()):
        thread.join(15)
