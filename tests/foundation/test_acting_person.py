"""One name for the acting person (issue 35): in every service the person on whose behalf
it writes (an account, or a link holder: ``tournaments.actors``) is ``by``, keyword-only.
``user`` names an account a service acts *on* or a check looks *as* (whose settings, inbox
or address; who is looking, in a refusal or a visibility check), only in the functions
listed here with their reason. docs/architecture.md, "The acting person"."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: the services of every app
SERVICES = (
    "tournaments/services",
    "live/services",
    "games/services.py",
    "accounts/services.py",
    "notifications/services.py",
    "ratings/services",
)

#: other names a service might give its acting person: never
ACTOR_ALIASES = {"user", "actor", "acting", "acting_user", "by_user", "request_user", "who"}

#: (file, function) → why its ``user`` is not the acting person
USER_IS_NOT_THE_ACTOR = {
    ("tournaments/services/players.py", "player_create"): "the account the player belongs to",
    ("tournaments/services/leagues.py", "league_add_organizer"): "the account added",
    ("tournaments/services/leagues.py", "league_remove_organizer"): "the account removed",
    ("tournaments/services/entries.py", "invitation_address_refusal"): "who is looking",
    ("tournaments/services/entries.py", "_same_address"): "who is looking",
    ("tournaments/services/entries.py", "email_confirmation_token"): "the account to confirm",
    ("tournaments/services/entries.py", "email_confirmation_send"): "the account mailed",
    ("tournaments/services/entries.py", "_account_language"): "the account mailed",
    ("tournaments/services/guards.py", "require_organizer"): "who is looking (a permission)",
    ("live/services/state.py", "room_visible"): "who is looking",
    ("accounts/services.py", "language_of"): "whose setting",
    ("accounts/services.py", "language_set"): "whose setting",
    ("notifications/services.py", "digest_set"): "whose setting",
    ("notifications/services.py", "digest_of"): "whose setting",
    ("notifications/services.py", "switches"): "whose settings",
    ("notifications/services.py", "preferences"): "whose settings",
    ("notifications/services.py", "preferences_set"): "whose settings",
    ("notifications/services.py", "unsubscribe_token"): "whose settings",
    ("notifications/services.py", "unread_count"): "whose inbox",
    ("notifications/services.py", "inbox"): "whose inbox",
    ("notifications/services.py", "mark_read"): "whose inbox",
    ("notifications/services.py", "_inbox_entry"): "whose inbox",
}

#: public functions taking ``by`` positionally: helpers other services call in a fixed
#: shape (a lock, a check) — the list only shrinks
BY_POSITIONAL = {
    ("tournaments/services/players.py", "accountless_limit_check"),
    ("tournaments/services/entries.py", "rated_player_refusal"),
    ("tournaments/services/championship.py", "sits_at"),
    ("tournaments/services/championship.py", "same_actor"),
    ("tournaments/services/results.py", "fixture_lock"),
    ("tournaments/services/results.py", "result_version_create"),
    ("live/services/moves.py", "claim"),
}


def service_functions():
    """(file, function node) of every function in the services."""
    for top in SERVICES:
        path = ROOT / top
        for module in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            if "migrations" in module.parts:
                continue
            tree = ast.parse(module.read_text(encoding="utf-8"), filename=str(module))
            where = str(module.relative_to(ROOT))
            for node in ast.walk(tree):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield where, node


def misnamed(functions) -> list[str]:
    """``file: function(name)`` wherever a person is named otherwise than the rule says."""
    found = []
    for where, node in functions:
        args = node.args
        positional = [a.arg for a in args.posonlyargs + args.args]
        names = {*positional, *(a.arg for a in args.kwonlyargs)}
        for alias in sorted(names & ACTOR_ALIASES):
            if alias == "user" and (where, node.name) in USER_IS_NOT_THE_ACTOR:
                continue
            found.append(f"{where}: {node.name}({alias}) — the acting person is `by`")
        public = not node.name.startswith("_")
        if public and "by" in positional and (where, node.name) not in BY_POSITIONAL:
            found.append(f"{where}: {node.name}(by) — `by` is keyword-only (`*, by`)")
    return found


def test_every_service_names_its_acting_person_by_keyword_only():
    assert misnamed(service_functions()) == []


def test_the_allow_lists_hold_only_what_is_there():
    """A function renamed or gone leaves the lists (they only shrink)."""
    functions = {(where, node.name): node for where, node in service_functions()}
    for key in USER_IS_NOT_THE_ACTOR:
        node = functions.get(key)
        args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs if node else []
        assert any(a.arg == "user" for a in args), key
    for key in BY_POSITIONAL:
        node = functions.get(key)
        assert node is not None and any(a.arg == "by" for a in node.args.args), key


def test_the_walk_finds_a_misnamed_acting_person():
    source = (
        "def result_confirm(*, result, user): ...\n"
        "def seat_take(*, room_id, actor): ...\n"
        "def entry_add(league, by): ...\n"
        "def _helper(fixture, by): ...\n"
        "def league_create(*, owner, by): ...\n"
    )
    nodes = [n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)]
    found = misnamed(("x/services.py", n) for n in nodes)
    assert [f.split(":")[1].split("(")[0].strip() for f in found] == [
        "result_confirm",
        "seat_take",
        "entry_add",
    ]
