"""Issue 34 point 21: the README, the first page a newcomer reads, says what `make run`
loads and how to choose its address, and its "Where things are" lists every document once,
in whole sentences."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(title: str) -> str:
    start = README.index(f"## {title}")
    end = README.find("\n## ", start + 1)
    return README[start : end if end != -1 else None]


def test_where_things_are_links_every_document_once_and_ends_its_sentences():
    section = _section("Where things are")
    linked = re.findall(r"\]\((docs/[^)]+\.md)\)", section)
    documents = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert len(linked) == len(set(linked))  # each once
    assert set(linked) <= documents
    # the documents of the platform's areas (a new one is listed when it is written)
    for name in ("architecture", "engine", "tournaments", "results", "pages", "live", "api"):
        assert f"docs/{name}.md" in linked
    lines = [line.strip() for line in section.splitlines() if line.strip()]
    assert len(lines) == len(set(lines))
    assert section.rstrip().endswith(".")
    assert "The contract the\n" not in section


def test_make_run_says_how_to_choose_the_address():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "PORT ?=" in makefile and "HOST ?=" in makefile
    assert "make run PORT=" in README and "HOST=" in _section("The two commands")


def test_the_demo_is_described_as_it_loads():
    from tournaments.management.commands import demo

    section = _section("The two commands")
    assert "a 3-player XLeague and a 9-player 2T+ league," not in section
    assert "seven leagues" in section
    for words in ("Grand Prix on board 6", "open club night", "triple-threat event", "3T"):
        assert words in section.replace("\n", " ")
    assert len(demo.CUPS) == 2 and "two finished 3T" in section.replace("\n", " ")
