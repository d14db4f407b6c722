"""Small checks of the algorithms' inputs, shared by the modules."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator


def is_whole(value: object, at_least: int | None = None, at_most: int | None = None) -> bool:
    """``value`` is an ``int`` (``True``/``False`` are not numbers here), at least
    ``at_least`` and at most ``at_most`` when given."""
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    low = value if at_least is None else at_least
    high = value if at_most is None else at_most
    return low <= value <= high


def repeated(items: Iterable[Hashable]) -> Iterator[Hashable]:
    """Each item of ``items`` that appears again, as it appears again."""
    seen: set[Hashable] = set()
    for item in items:
        if item in seen:
            yield item
        seen.add(item)
