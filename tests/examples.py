"""The public example logs (../shared/examples beside the repository): their one path and
readers; Django-free, so the engine tests can use it too."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = REPO_ROOT.parent / "shared" / "examples"
#: The 2T+ example game of erin (black+yellow) against carol (green+red), black starts.
LOG_2TPLUS = "valid-league-2tplus.json"


def example_bytes(name: str = LOG_2TPLUS) -> bytes:
    return (EXAMPLES / name).read_bytes()


def example_text(name: str = LOG_2TPLUS) -> str:
    return (EXAMPLES / name).read_text(encoding="utf-8")


def example(name: str = LOG_2TPLUS) -> dict[str, Any]:
    return json.loads(example_bytes(name))
