"""The one storable-text check (games/storable.py): what PostgreSQL text cannot hold — a NUL
character, an unpaired surrogate — found in text and anywhere in parsed JSON."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.storable import (
    NUL_CHARACTER,
    UNPAIRED_SURROGATE,
    Unstorable,
    find_unstorable,
    storable,
    unstorable,
)

# text with the occasional NUL, lone surrogate and backslash-u spelling of one
PIECE = st.characters(exclude_categories=()) | st.sampled_from(["\x00", "\\u0000", "\ud800"])
TEXT = st.lists(PIECE, max_size=6).map("".join)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


def _every_string(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_every_string(v))]
    if isinstance(value, list):
        return [s for v in value for s in _every_string(v)]
    return []


def test_text() -> None:
    assert unstorable("Jörg ✓ \\u0000") is None
    assert unstorable("a\x00b") == NUL_CHARACTER
    assert unstorable("a\ud800b") == UNPAIRED_SURROGATE
    assert storable("fine") == "fine"
    assert storable("a\x00b\udc80") == "a\\x00b\\udc80"
    assert unstorable(storable("a\x00b\udc80")) is None


def test_where_in_json() -> None:
    assert find_unstorable({"events": [{"colour": "red"}, {"colour": "re\x00d"}]}) == Unstorable(
        "events[1].colour", NUL_CHARACTER
    )
    found = find_unstorable({"meta": {"n\ud800": 1}})
    assert found == Unstorable("meta", UNPAIRED_SURROGATE, key=True)
    assert str(found) == "a key in meta contains an unpaired surrogate (\\ud800–\\udfff)"
    assert str(find_unstorable("\x00")) == "the document contains a NUL character (\\u0000)"
    assert find_unstorable({"a": "\\u0000 spelled, not held"}) is None


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_found_exactly_when_some_string_cannot_be_stored(value: Any) -> None:
    """The fast pass never hides a bad string, and a place is named only for one."""
    found = find_unstorable(value)
    bad = [s for s in _every_string(value) if unstorable(s)]
    assert (found is None) == (not bad)
    if found is not None:
        assert found.problem in {unstorable(s) for s in bad}
