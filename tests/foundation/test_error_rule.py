"""One error rule (issue 35, item 4): every refusal a person can see is a code with
parameters, worded once in a catalogue and translated at the edge.

Two checks keep it so: every code of the catalogues has its English text and a German
translation that differs and carries the same ``%(name)s`` parameters; and the services'
source holds no ``raise ServiceError("an English sentence")`` (or ``NotAllowed``) beyond an
explicit allow-list per file that only shrinks. The algorithms raise only codes of their
catalogue (``tournaments.algorithms.messages``): ``DrawError("table_sizes_impossible", …)``,
never ``DrawError("7 players cannot …")``."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core.errors import ServiceError
from games.engine.rules import RulesError, RuleSet
from games.error_text import ENGINE_MESSAGES
from tests.builders import make_league, make_player, make_user
from tournaments.algorithms import messages as algorithm_messages
from tournaments.algorithms.errors import AlgorithmError, DrawError, SeedingError
from tournaments.models import Entry
from tournaments.services.errors import (
    ALGORITHM_MESSAGES,
    CATALOGUE,
    MESSAGES,
    WORDS,
    coded,
    from_algorithm,
    why_of,
)
from tournaments.services.leagues import validate_rules

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
    "tournaments/permissions.py",
)
#: the refusal classes whose first argument must not be a literal English sentence (raised
#: or returned); a ``Refusal``'s first argument must be a code of ``MESSAGES``
REFUSALS = {"ServiceError", "NotAllowed"}

#: file → how many ``raise ServiceError/NotAllowed("…")`` with a literal English sentence
#: (a string or an f-string) it still holds. Convert them to ``coded(...)`` (a code in
#: ``tournaments.services.errors.MESSAGES``, German at the end of the .po) and lower the
#: count; the test fails when a file holds more (a new English refusal) or fewer (lower it).
ALLOWED_ENGLISH: dict[str, int] = {}


def literal(node: ast.expr) -> bool:
    """A sentence written out: a string, an f-string, or either of them chosen by ``if``."""
    if isinstance(node, ast.IfExp):
        return literal(node.body) or literal(node.orelse)
    return isinstance(node, ast.JoinedStr) or (
        isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


def _called(node: ast.AST) -> str | None:
    func = node.func if isinstance(node, ast.Call) else None
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def _not_a_code(node: ast.expr) -> bool:
    """A written-out sentence where a code of ``MESSAGES`` belongs."""
    if isinstance(node, ast.IfExp):
        return _not_a_code(node.body) or _not_a_code(node.orelse)
    return literal(node) and not (isinstance(node, ast.Constant) and node.value in MESSAGES)


def _raised_or_returned(node: ast.AST) -> ast.Call | None:
    """The call a ``raise`` or ``return`` statement makes, if any."""
    value = getattr(node, "exc" if isinstance(node, ast.Raise) else "value", None)
    return value if isinstance(node, ast.Raise | ast.Return) and _called(value) else None


def sentence_refusals(tree: ast.AST) -> list[ast.expr]:
    """The first arguments that are English sentences: of a ``ServiceError``/``NotAllowed``
    raised or returned, and of any ``Refusal(...)`` (``tournaments.permissions``: its first
    argument is a code)."""
    found = []
    for node in ast.walk(tree):
        call = _raised_or_returned(node)
        if call is not None and _called(call) in REFUSALS and call.args:
            found += [call.args[0]] if literal(call.args[0]) else []
        elif _called(node) == "Refusal" and node.args and _not_a_code(node.args[0]):
            found.append(node.args[0])
    return found


def english_refusals() -> dict[str, list[str]]:
    """file → ``line: text`` of each refusal made with a literal English sentence."""
    found: dict[str, list[str]] = {}
    for top in SCANNED:
        paths = [ROOT / top] if top.endswith(".py") else sorted((ROOT / top).rglob("*.py"))
        for path in paths:
            if "migrations" in path.parts:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for first in sentence_refusals(tree):
                where = str(path.relative_to(ROOT))
                found.setdefault(where, []).append(f"{first.lineno}: {ast.unparse(first)}")
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
    hits = sentence_refusals(ast.parse(source))
    assert [n.lineno for n in hits] == [2, 4, 10]


def test_the_scan_finds_a_returned_or_refusal_sentence_and_passes_codes():
    source = (
        "def f():\n"
        "    return ServiceError('plain English')\n"
        "def g(x):\n"
        "    return Refusal(f'only {x} may do this', forbidden=True)\n"
        "def h():\n"
        "    return Refusal('log in first')\n"
        "def i(x):\n"
        "    return Refusal('organizers_only', forbidden=True, league=x)\n"
        "def j(b):\n"
        "    return Refusal(f'analysis_retry_{b}')\n"
        "def k():\n"
        "    return coded('void_nothing')\n"
    )
    hits = sentence_refusals(ast.parse(source))
    assert [n.lineno for n in hits] == [2, 4, 6, 10]


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_every_code_is_worded_in_english_and_german_with_the_same_parameters(code):
    english = CATALOGUE[code]
    assert isinstance(english, str) and english.strip(), f"{code} has no English text"
    names = set(PARAM.findall(english))
    with translation.override("de"):
        german = translation.gettext(english)
    if re.search(r"[a-zA-Z]", PARAM.sub("", english)):  # "%(within)s: %(why)s" has no words
        assert german != english, f"{code} has no German translation: {english!r}"
    assert set(PARAM.findall(german)) == names, f"{code}: {german!r} vs {english!r}"
    params = {n: "X" for n in names}
    assert english % params and german % params


def test_the_catalogues_do_not_word_one_code_twice():
    assert not set(ENGINE_MESSAGES) & set(MESSAGES)
    assert not set(ALGORITHM_MESSAGES) & (set(MESSAGES) | set(ENGINE_MESSAGES))
    assert len(CATALOGUE) == len(ENGINE_MESSAGES) + len(ALGORITHM_MESSAGES) + len(MESSAGES)


# --- the algorithms' codes ------------------------------------------------------------------

#: the algorithms' own files (championship.py words its one refusal with a ValueError)
ALGORITHMS = ROOT / "tournaments" / "algorithms"


def algorithm_error_names() -> set[str]:
    """The names of ``AlgorithmError`` and of every subclass defined in the algorithms."""
    names, todo = set(), [AlgorithmError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return names


def uncoded_algorithm_raises(tree: ast.AST, names: set[str]) -> list[str]:
    """``line: first argument`` of each ``raise SomeAlgorithmError(x)`` whose ``x`` is a
    written-out sentence (an f-string, or a string that is not a code of the catalogue)."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
            continue
        func = node.exc.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name not in names:
            continue
        first = node.exc.args[0] if node.exc.args else None
        codes = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
        for code in codes:
            if literal(code) and not (
                isinstance(code, ast.Constant) and code.value in ALGORITHM_MESSAGES
            ):
                found.append(f"{node.lineno}: {ast.unparse(code)}")
            if code is None:
                found.append(f"{node.lineno}: (no code)")
    return found


def test_the_algorithms_raise_codes_of_their_catalogue_not_sentences():
    names = algorithm_error_names()
    assert {"DrawError", "SeedingError", "BadName", "RecurrenceError"} <= names
    found = {}
    for path in sorted(ALGORITHMS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        if lines := uncoded_algorithm_raises(tree, names):
            found[path.name] = lines
    assert not found, (
        "algorithm errors raised with an English sentence: give them a code in "
        f"tournaments/algorithms/messages.py (German at the end of the .po): {found}"
    )


def test_the_algorithm_scan_finds_a_sentence_and_passes_a_code():
    source = (
        "def f(n):\n"
        "    raise DrawError(f'{n} players cannot be split')\n"
        "def g():\n"
        "    raise SeedingError('rolls are missing: every player must roll')\n"
        "def h(n):\n"
        "    raise DrawError('table_sizes_impossible', count=n)\n"
        "def i(error):\n"
        "    raise DrawError(error.code, **error.params)\n"
        "def j(x):\n"
        "    raise SeedingError('rolls_missing' if x else 'no such sentence')\n"
        "def k():\n"
        "    raise ValueError('not an algorithm refusal')\n"
    )
    lines = uncoded_algorithm_raises(ast.parse(source), algorithm_error_names())
    assert [line.split(":")[0] for line in lines] == ["2", "4", "10"]


def test_an_algorithm_error_keeps_its_english_and_is_german_when_shown():
    error = DrawError("table_sizes_impossible", count=5, low=3, high=4, possible="3, 4, 6, 7, 8")
    english = (
        "5 players cannot be split into tables of 3–4; add or withdraw a player "
        "(possible with 3–4: 3, 4, 6, 7, 8, …)"
    )
    assert str(error) == english and error.code == "table_sizes_impossible"
    shown = from_algorithm(error, field="players")
    assert shown.message == english and shown.field == "players"
    assert shown.code == "table_sizes_impossible" and shown.params["count"] == 5
    with translation.override("de"):
        assert shown.localized() == (
            "5 Spieler lassen sich nicht auf Tische zu 3–4 verteilen; nimm einen Spieler hinzu "
            "oder ziehe einen zurück (möglich mit 3–4: 3, 4, 6, 7, 8, …)"
        )


def test_a_nested_algorithm_error_and_its_place_are_german_too():
    inner = SeedingError("roll_range", number=2, player="'Ann'", roll="7")
    error = coded("count_points_unplaced", why=why_of(inner))
    assert error.message == (
        "the count points of this game do not place its players: roll round 2: 'Ann' rolled "
        "7; a die roll must be a whole number from 1 to 6"
    )
    with translation.override("de"):
        assert error.localized() == (
            "die Zählpunkte dieser Partie ergeben keine Platzierung ihrer Spieler: Wurfrunde 2: "
            "'Ann' hat 7 gewürfelt; ein Würfelwurf ist eine ganze Zahl von 1 bis 6"
        )


def test_the_algorithms_catalogue_needs_no_django():
    code = (
        "import sys; import tournaments.algorithms.errors, tournaments.algorithms.open_draw; "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), "
        "sorted(m for m in sys.modules if m.startswith('django'))"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_an_uncoded_algorithm_error_keeps_its_text():
    error = AlgorithmError("a rating setting must be positive")
    assert error.code is None and str(error) == "a rating setting must be positive"
    shown = from_algorithm(error)
    assert shown.code is None and shown.localized() == "a rating setting must be positive"


@pytest.mark.parametrize("word", algorithm_messages.WORDS)
def test_the_algorithms_words_are_translated_where_shown(word):
    assert word in WORDS


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


@pytest.mark.django_db
def test_an_unresolved_seeding_roll_off_is_refused_in_german_on_a_german_page():
    owner = make_user("olga")
    league = make_league(owner, "roll-cup", status="registration")
    for name in ("Ann", "Ben", "Cleo"):
        Entry.objects.create(league=league, player=make_player(name))
    client = Client()
    client.force_login(owner)
    client.cookies["django_language"] = "de"
    response = client.post(
        reverse("tournaments:seed", args=[league.slug]),
        {"method": "rolls", "rolls": "Ann 6, Ben 6, Cleo 4"},
    )
    page = response.content.decode()
    assert response.status_code == 400, page[:2000]
    assert "die eingetragenen Würfe lassen einen Gleichstand offen" in page
    assert "trage ihren Wiederholungswurf ein" in page
    assert "leave a tie unresolved" not in page
    assert not league.cycles.exists()


def test_a_league_s_rules_refusal_is_the_engine_s_code_and_german_when_shown():
    with pytest.raises(ServiceError) as refused:
        validate_rules("league", {"capture_backwards": "sometimes"})
    error = refused.value
    assert error.code == "rules_option_value" and error.field == "rules"
    assert error.message == 'option capture_backwards must be false / true, not "sometimes"'
    with translation.override("de"):
        assert error.localized().startswith("die Option capture_backwards muss ")
    with pytest.raises(RulesError) as unknown:
        RuleSet.from_spec("no-such-preset")
    assert unknown.value.args[0].code == "rules_unknown_preset"
    assert str(unknown.value).startswith('unknown rules preset "no-such-preset" (presets: ')
