"""One error rule (issue 35, item 4): every refusal a person can see is a code with
parameters, worded once in a catalogue and translated at the edge.

Two checks keep it so: every code of the catalogues has its English text and a German
translation that differs and carries the same ``%(name)s`` parameters; and the services'
source holds no ``raise ServiceError("an English sentence")`` (or ``NotAllowed``) beyond an
explicit allow-list per file that only shrinks."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.error_text import ENGINE_MESSAGES
from tournaments.services.errors import CATALOGUE, MESSAGES, WORDS, coded

ROOT = Path(__file__).resolve().parents[2]
PARAM = re.compile(r"%\((\w+)\)s")

#: where refusals are raised: the services of every app (live play's ``Refused`` words
#: its refusals with ``gettext_noop`` at the raise and is checked in tests/live)
SCANNED = (
    "core",
    "tournaments/services",
    "accounts",
    "ratings/services",
    "notifications",
    "live/services",
)
#: the refusal classes whose first argument must not be a literal English sentence
REFUSALS = {"ServiceError", "NotAllowed"}

#: file → how many ``raise ServiceError/NotAllowed("…")`` with a literal English sentence
#: (a string or an f-string) it still holds. Convert them to ``coded(...)`` (a code in
#: ``tournaments.services.errors.MESSAGES``, German at the end of the .po) and lower the
#: count; the test fails when a file holds more (a new English refusal) or fewer (lower it).
ALLOWED_ENGLISH: dict[str, int] = {
    "tournaments/services/events.py": 3,
    "tournaments/services/league_settings.py": 4,
    "tournaments/services/leagues.py": 6,
    "tournaments/services/mail_limits.py": 1,
    "tournaments/services/players.py": 1,
    "tournaments/services/playoffs.py": 2,
    "tournaments/services/starts.py": 2,
    "tournaments/services/text.py": 1,
    "tournaments/services/tie_breaks.py": 1,
}


def literal(node: ast.expr) -> bool:
    """A sentence written out: a string, an f-string, or either of them chosen by ``if``."""
    if isinstance(node, ast.IfExp):
        return literal(node.body) or literal(node.orelse)
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def english_refusals() -> dict[str, list[str]]:
    """file → ``line: text`` of each refusal raised with a literal English sentence."""
    found: dict[str, list[str]] = {}
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                    continue
                func = node.exc.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name not in REFUSALS or not node.exc.args:
                    continue
                first = node.exc.args[0]
                if literal(first):
                    where = str(path.relative_to(ROOT))
                    found.setdefault(where, []).append(f"{node.lineno}: {ast.unparse(first)}")
    return found


def test_no_new_english_refusal_and_the_allow_list_only_shrinks():
    found = english_refusals()
    counts = {path: len(lines) for path, lines in found.items()}
    more = {p: found[p] for p, n in counts.items() if n > ALLOWED_ENGLISH.get(p, 0)}
    fewer = {p: (n, counts.get(p, 0)) for p, n in ALLOWED_ENGLISH.items() if counts.get(p, 0) < n}
    assert not more, (
        "refusals raised with an English sentence: raise coded(...) instead "
        f"(tournaments/services/errors.py): {more}"
    )
    assert not fewer, f"fewer English refusals than allowed: lower ALLOWED_ENGLISH {fewer}"


def test_the_scan_finds_a_literal_refusal_and_passes_a_coded_one():
    source = (
        "def f():\n"
        "    raise ServiceError('plain English')\n"
        "def g():\n"
        "    raise errors.NotAllowed(f'only {x}')\n"
        "def h():\n"
        "    raise coded('organizers_only', league=x)\n"
        "def i(refusal):\n"
        "    raise ServiceError(refusal.message)\n"
        "def j(x):\n"
        "    raise NotAllowed('a' if x else f'b {x}')\n"
    )
    hits = [
        n
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Raise)
        and isinstance(n.exc, ast.Call)
        and getattr(n.exc.func, "id", getattr(n.exc.func, "attr", None)) in REFUSALS
        and literal(n.exc.args[0])
    ]
    assert [n.lineno for n in hits] == [2, 4, 10]


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_code_is_worded_in_english_and_german_with_the_same_parameters(code):
    english = CATALOGUE[code]
    assert isinstance(english, str) and english.strip(), f"{code} has no English text"
    names = set(PARAM.findall(english))
    with translation.override("de"):
        german = translation.gettext(english)
    assert german != english, f"{code} has no German translation: {english!r}"
    assert set(PARAM.findall(german)) == names, f"{code}: {german!r} vs {english!r}"
    params = {n: "X" for n in names}
    assert english % params and german % params


def test_the_catalogues_do_not_word_one_code_twice():
    assert not set(ENGINE_MESSAGES) & set(MESSAGES)
    assert len(CATALOGUE) == len(ENGINE_MESSAGES) + len(MESSAGES)


@pytest.mark.parametrize("word", WORDS)
def test_every_translated_parameter_word_has_german(word):
    with translation.override("de"):
        assert translation.gettext(word) != word, word


def test_a_converted_refusal_keeps_its_english_and_is_german_when_shown():
    error = coded("invitation_invalid")
    assert error.message == "this invitation link is not valid (mistyped or altered)"
    assert error.code == "invitation_invalid"
    with translation.override("de"):
        assert error.localized() == "dieser Einladungslink ist ungültig (vertippt oder verändert)"
    error = coded("join_entered", player="Ann", league="Cup")
    assert error.message == "Ann is entered in Cup already"
    with translation.override("de"):
        assert error.localized() == "Ann ist schon in Cup eingetragen"


@pytest.mark.django_db
def test_a_mistyped_invitation_link_is_refused_in_german_on_a_german_page():
    client = Client()
    client.cookies["django_language"] = "de"
    response = client.get(reverse("tournaments:invitation", args=["not-a-real-token"]))
    page = response.content.decode()
    assert response.status_code == 400
    assert "dieser Einladungslink ist ungültig (vertippt oder verändert)" in page
    assert "mistyped or altered" not in page


@pytest.mark.django_db
def test_a_look_alike_user_name_is_refused_in_german_on_the_german_sign_up_page():
    from tests.builders import make_user

    make_user("anna")
    client = Client()
    client.cookies["django_language"] = "de"
    response = client.post(
        "/accounts/signup/",
        {
            "username": "\u0430nna",  # a Cyrillic а
            "email": "anna2@example.org",
            "password1": "a-long-enough-pass-123",
            "password2": "a-long-enough-pass-123",
        },
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "sieht aus wie der vorhandene anna" in page
    assert "looks like the existing" not in page
