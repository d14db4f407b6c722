"""Small checks of the algorithms' inputs, shared by the modules."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator


def is_whole(value: object, at_least: int | None = None) -> bool:
    """``value`` is an ``int`` (``True``/``False`` are not numbers here), and at least
    ``at_least`` when given."""
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return at_least is None or value >= at_least


def repeated(items: Iterable[Hashable]) -> Iterator[Hashable]:
    """Each item of ``items`` that appears again, as it appears again."""
    seen: set[Hashable] = set()
    for item in items:
        if item in seen:
            yield item
        seen.add(item)
