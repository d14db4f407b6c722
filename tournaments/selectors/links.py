"""Links built many times on one page (a list of games, players, leagues): the URL pattern
reversed once per page, each value put in as ``reverse`` would quote it (issue 31: a
``{% url %}`` per row was a measurable part of the uncached pages' rendering)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from django.urls import reverse
from django.utils.http import RFC3986_SUBDELIMS

#: a value that every converter of a slug or a number accepts, and no URL holds otherwise
_MARKER = "9081726354"
_SAFE = RFC3986_SUBDELIMS + "/~:@"


def link_maker(name: str) -> Callable[[Any], str]:
    """``reverse(name, args=[value])`` for many values of the one argument."""
    before, after = reverse(name, args=[_MARKER]).split(_MARKER)
    return lambda value: f"{before}{quote(str(value), safe=_SAFE)}{after}"
