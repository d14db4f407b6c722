"""Shared helpers for the engine tests (no database, no Django needed)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.examples import EXAMPLES

HERE = Path(__file__).resolve().parent

# engine_reference.py (the naive second implementation) sits next to the tests
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    if not EXAMPLES.is_dir():
        pytest.skip(f"shared examples not found at {EXAMPLES}")
    return EXAMPLES
