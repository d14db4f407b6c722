"""Names people see (player names, user names): one normal form, no invisible or
direction-changing characters, and a key under which names that look alike are equal
(issue 32). Pure Python, database-free.

- ``normalise_name`` applies Unicode NFKC (fullwidth ``Ａｎｎａ`` becomes ``Anna``,
  ligatures and compatibility forms their plain letters) and refuses, naming the character,
  control characters, tabs, zero-width and other default-ignorable format characters
  (U+200B, U+200D, U+FEFF, U+00AD, …) and the bidirectional embeddings, overrides and
  isolates (U+202A–U+202E, U+2066–U+2069) and marks (U+200E, U+200F, U+061C).
- ``name_skeleton`` is the confusable *skeleton* of Unicode TR39 (Unicode Security
  Mechanisms, section 4) of the case-folded name: two names with equal skeletons look
  alike (``alice`` and ``аlice`` with a Cyrillic а, ``Anna`` and ``Αnna`` with a Greek
  Alpha, ``rn`` and ``m``). TR39 compares case as it is (a capital ``I`` is an ``l``),
  so a second key, ``name_skeleton_folded``, is the skeleton of the case-folded name
  (``ΑLICE`` and ``alice``). Where a name must be unique, neither key may be taken
  (``tournaments.services.players.player_name_clash``, ``accounts.services.username_clash``).

The confusables data are Unicode's ``confusables.txt`` as the ``confusable-homoglyphs``
package ships them (``confusables.json``). That file stores each line "source → prototype"
in both directions, so the mapping is rebuilt here: each group of characters confusable
with one another maps to one representative (the multi-character prototype where there is
one, else the member every other member maps to, else the ASCII or lowest code point);
equal skeletons are what matter, not which member stands for the group.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from functools import lru_cache

from confusable_homoglyphs.utils import load

from tournaments.algorithms.errors import AlgorithmError

#: bidirectional formatting characters: embeddings, overrides, isolates and marks
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
#: left-to-right marks the confusables data wraps right-to-left letters in (for display)
_DATA_MARKS = "\u200e\u200f"


class BadName(AlgorithmError):
    """A name that cannot be used: ``char`` is the offending character's ``U+XXXX`` code."""

    def __init__(self, code: str, /, **params):
        super().__init__(code, **params)
        self.char = params.get("char", "")


def _char_name(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}".strip()


def refused_character(text: str) -> tuple[str, str] | None:
    """The first character a name may not contain and what kind it is, or None."""
    for ch in text:
        kind = _refused_kind(ch)
        if kind is not None:
            return ch, kind
    return None


def _refused_kind(ch: str) -> str | None:
    """What kind of character a name may not hold ``ch`` is, or None if it may."""
    category = unicodedata.category(ch)
    return next((kind for test, kind in _REFUSED if test(ch, category)), None)


def _is_tab(ch: str, _category: str) -> bool:
    return ch == "\t"


def _is_bidi(ch: str, _category: str) -> bool:
    return ch in BIDI_CONTROLS


def _is_control(_ch: str, category: str) -> bool:
    return category in ("Cc", "Zl", "Zp")


def _is_invisible(ch: str, category: str) -> bool:
    """A format character, or a filler that shows nothing (Hangul fillers, CGJ)."""
    return category == "Cf" or ch in "\u115f\u1160\u3164\uffa0\u034f"


def _is_unassigned(_ch: str, category: str) -> bool:
    return category in ("Cs", "Co", "Cn")


#: the characters a name may not hold, tried in this order: (test, what kind it is)
_REFUSED = (
    (_is_tab, "a tab"),
    (_is_bidi, "a bidirectional control character (it reorders how text shows)"),
    (_is_control, "a control character or line break"),
    (_is_invisible, "an invisible (zero-width or format) character"),
    (_is_unassigned, "an unassigned or private-use character"),
)


def normalise_name(text: str, *, what: str = "a name") -> str:
    """``text`` in NFKC with surrounding white space removed and inner runs of white
    space made one space, or ``BadName`` naming the first character it may not hold."""
    text = unicodedata.normalize("NFKC", text or "")
    found = refused_character(text)
    if found is not None:
        ch, kind = found
        if unicodedata.category(ch) in ("Cc", "Zl", "Zp") and ch != "\t":
            # worded as the league names' check (tournaments.services.text.single_line)
            raise BadName("name_one_line", subject=what, char=_char_name(ch))
        raise BadName("name_refused_character", subject=what, refused=kind, char=_char_name(ch))
    return " ".join(text.split())


@lru_cache(maxsize=1)
def _prototypes() -> tuple[dict[str, str], frozenset[str]]:
    """Each confusable character → the representative of its group (see the module), and
    every character that is in some group."""

    graph = _confusable_graph(load("confusables.json"))
    mapping: dict[str, str] = {}
    for group in _groups(graph):
        rep = _representative(graph, group)
        mapping.update((m, rep) for m in group if len(m) == 1 and m != rep)
    return mapping, frozenset(m for m in graph if len(m) == 1)


def _groups(graph: dict[str, set[str]]) -> Iterator[set[str]]:
    """The groups of mutually confusable strings, each once."""
    seen: set[str] = set()
    for start in sorted(graph):
        if start not in seen:
            group = _connected(graph, start)
            seen |= group
            yield group


def _confusable_graph(data: dict[str, list[dict]]) -> dict[str, set[str]]:
    """Which strings are confusable with which, both ways (the data's display marks
    stripped)."""
    graph: dict[str, set[str]] = {}
    for key, homoglyphs in data.items():
        a = key.strip(_DATA_MARKS)
        for glyph in homoglyphs:
            b = glyph["c"].strip(_DATA_MARKS)
            if a and b and a != b:
                graph.setdefault(a, set()).add(b)
                graph.setdefault(b, set()).add(a)
    return graph


def _connected(graph: dict[str, set[str]], start: str) -> set[str]:
    """The group of strings confusable with ``start``, directly or through others."""
    group: set[str] = set()
    todo = [start]
    while todo:
        node = todo.pop()
        if node not in group:
            group.add(node)
            todo.extend(graph[node] - group)
    return group


def _representative(graph: dict[str, set[str]], group: set[str]) -> str:
    """The member that stands for ``group``: its multi-character prototype where there is
    one, else the member most others map to, else the ASCII or lowest code point."""
    longer = sorted(m for m in group if len(m) > 1)
    if longer:
        return longer[0]
    return min(group, key=lambda m: (-len(graph[m]), not m.isascii(), ord(m[0])))


def skeleton(text: str) -> str:
    """TR39's skeleton: NFD, each character to its prototype, NFD again (repeated until it
    stands still, so prototypes that are themselves confusable end in one form)."""
    table, _members = _prototypes()
    current = unicodedata.normalize("NFD", text)
    for _round in range(4):
        mapped = unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in current))
        if mapped == current:
            break
        current = mapped
    return current


def _plain(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text or "").split())


def _casefold_keeping_confusables(text: str) -> str:
    """Case-folded, except a capital that is confusable while its small letter is not
    (``Ƨ`` looks like ``2``, ``ƨ`` like nothing): it stays, so the skeleton still sees it."""
    _table, members = _prototypes()
    out = []
    for ch in text:
        folded = ch.casefold()
        keep = folded != ch and ch in members and not any(c in members for c in folded)
        out.append(ch if keep else folded)
    return "".join(out)


def name_skeleton(text: str) -> str:
    """The key under which two names *look* alike: the TR39 skeleton of the NFKC name (white
    space made single spaces), case-folded afterwards and mapped again (``alice`` =
    ``аlice`` with a Cyrillic а = ``ａｌｉｃｅ``; ``Alice`` = ``AIice`` with a capital I)."""
    return skeleton(skeleton(_plain(text)).casefold())


def name_skeleton_folded(text: str) -> str:
    """The key under which two names are alike *regardless of case*: the skeleton of the
    case-folded name (``ALICE`` = ``аlice``; ``ΑLICE`` with a Greek Alpha = ``alice``)."""
    return skeleton(skeleton(_casefold_keeping_confusables(_plain(text))).casefold())


def name_keys(text: str) -> tuple[str, str]:
    """Both keys of a name: equal in either means the names may not stand side by side."""
    return name_skeleton(text), name_skeleton_folded(text)


def look_alike(a: str, b: str) -> bool:
    """Whether two names would be taken for one another (either key equal)."""
    return any(x == y for x, y in zip(name_keys(a), name_keys(b), strict=True))
