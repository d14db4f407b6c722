"""The permissions matrix of docs/permissions.md, endpoint by endpoint and role by role:
every write endpoint (and the one restricted read) against anonymous, a logged-in stranger,
an entrant, the game's player and opponent, the organizer of another league, a
co-organizer, the owner and staff — in a public league and in a private one, where outsiders
get 404 (the league does not exist for them), never 403.

A refused request changes nothing (checked with a fingerprint of the database).

The world is built once for the module, inside a transaction held open for it; each case
runs in its own savepoint (pytest-django's ``db``), rolled back after it, on a fresh copy
of the world's objects, so no case sees what another one wrote."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.models import GameAnalysis
from tests.api.conftest import ROLES, World, build_world, error_of
from tests.builders import example_bytes
from tests.matrix import built_once, matrix_params
from tournaments.models import Cycle, Entry, Fixture, League, Player, Result, TieBreakRoll
from tournaments.services.results import game_log_submit, result_enter, result_report
from tournaments.services.schedule import cycle_create

ORGANIZERS = {"organizer", "co_organizer", "staff"}
#: who may enter a player without an account: its creator (the league's owner here) and
#: staff; a co-organizer once the creator shares it
CREATOR = {"organizer", "staff"}
AT_BOARD = {"player", "opponent"}
LOGGED_IN = set(ROLES) - {"anonymous"}
#: Roles that cannot see a private league (they are neither organizers nor entrants).
OUTSIDERS = {"stranger", "other_organizer"}


@dataclass
class Case:
    name: str
    method: str
    url: Callable[[World], str]
    body: Callable[[World], Any] = lambda w: {}
    allowed: set[str] = field(default_factory=set)
    success: int = 200
    prepare: Callable[[World], None] | None = None
    content_type: str = "json"
    league_scoped: bool = True
    #: Status for roles that are neither allowed nor anonymous (default 403).
    others: dict[str, int] = field(default_factory=dict)
    #: Settings for the case (pytest-django's ``settings``).
    settings: dict[str, Any] = field(default_factory=dict)


@pytest.fixture(scope="module")
def module_world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """The world of tests/api/conftest.py, written once in a transaction that stays open
    while the module runs and is rolled back at its end."""
    yield from built_once(django_db_blocker, build_world)


@pytest.fixture
def world(module_world: World, db) -> World:
    """This case's own copy of the module's world; the rows are the module's, and whatever
    the case writes is rolled back with its savepoint."""
    return copy.deepcopy(module_world)


def _pending(w: World) -> Result:
    return result_report(
        fixture=w.fixture, by=w.users["player"], winner=w.entries["erin"], reason="OTB"
    )


def _prepare_pending(w: World) -> None:
    w.pending = _pending(w)  # type: ignore[attr-defined]


def _prepare_confirmed(w: World) -> None:
    result_enter(
        fixture=w.fixture, by=w.users["organizer"], winner=w.entries["erin"], reason="setup"
    )


def _prepare_failed_analysis(w: World) -> None:
    """A counted log whose analysis (under the case's settings) failed."""
    from games.analysis import analysis_request

    counted = game_log_submit(
        fixture=w.fixture, content=example_bytes("valid-league-2tplus.json"), by=w.users["staff"]
    )
    row, _ = analysis_request(counted.game_log)
    GameAnalysis.objects.filter(pk=row.pk).update(status="failed", error="ValueError: bad")


def _prepare_registration(w: World) -> None:
    League.objects.filter(pk=w.league.pk).update(status=League.Status.REGISTRATION)
    w.players["frank"] = Player.objects.create(
        name="frank", slug="frank", created_by=w.users["organizer"]
    )


def _prepare_unseated_entry(w: World) -> None:
    frank = Player.objects.create(name="frank", slug="frank")
    w.entries["frank"] = Entry.objects.create(league=w.league, player=frank)


def _prepare_triple_threat(w: World) -> None:
    League.objects.filter(pk=w.league.pk).update(format="3T")


def _prepare_cycle(w: World) -> None:
    Cycle.objects.filter(league=w.league).delete()
    w.league.fixtures.exclude(pk=w.fixture.pk).delete()
    cycle_create(league=w.league, by=w.users["organizer"], seed=7)


CASES = [
    Case(
        "league create",
        "post",
        lambda w: "/api/v1/leagues/",
        lambda w: {"name": "Spring league", "format": "2T+"},
        allowed=LOGGED_IN,
        success=201,
        league_scoped=False,
    ),
    Case(
        "player create (no account)",
        "post",
        lambda w: "/api/v1/players/",
        lambda w: {"name": "Zoe"},
        allowed=ORGANIZERS | {"other_organizer"},
        success=201,
        league_scoped=False,
    ),
    Case(
        "player create (own profile)",
        "post",
        lambda w: "/api/v1/players/",
        lambda w: {"name": "Zoe", "link_to_me": True},
        allowed=LOGGED_IN - {"entrant", "player", "opponent"},
        success=201,
        league_scoped=False,
        others={"entrant": 400, "player": 400, "opponent": 400},
    ),
    Case(
        "player share (no account)",
        "post",
        lambda w: "/api/v1/players/frank/shared/",
        lambda w: {"shared": True},
        allowed=CREATOR,
        league_scoped=False,
        prepare=_prepare_registration,
    ),
    Case(
        "league status",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/status/",
        lambda w: {"status": "finished"},
        allowed=ORGANIZERS,
    ),
    Case(
        "add organizer",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/organizers/",
        lambda w: {"username": "stranger"},
        allowed={"organizer", "staff"},  # the owner adds co-organizers (issue 12)
    ),
    Case(
        "league ranking level",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/ranking/",
        lambda w: {"level": 3, "major": True},
        allowed=ORGANIZERS,
        prepare=_prepare_triple_threat,
    ),
    Case(
        "entry add",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/entries/",
        lambda w: {"player": "frank"},
        allowed=CREATOR,
        success=201,
        prepare=_prepare_registration,
    ),
    Case(
        "entry remove",
        "delete",
        lambda w: f"/api/v1/leagues/{w.league.slug}/entries/{w.entries['frank'].pk}/",
        allowed=ORGANIZERS,
        success=204,
        prepare=_prepare_unseated_entry,
    ),
    Case(
        "entry withdraw",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/entries/{w.entries['dave'].pk}/withdraw/",
        lambda w: {"reason": "moved away"},
        allowed=ORGANIZERS | {"entrant"},  # dave's own account may withdraw him
    ),
    Case(
        "DRR create",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/cycles/",
        lambda w: {"seed": 42},
        allowed=ORGANIZERS,
        success=201,
    ),
    Case(
        "DRR late order",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/cycles/1/late-order/",
        lambda w: {"late_order": [6, 4, 5]},
        allowed=ORGANIZERS,
        prepare=_prepare_cycle,
    ),
    Case(
        "playoffs generate",  # xleague has no playoffs configured: organizers get that 400
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/playoffs/",
        allowed=ORGANIZERS,
        success=400,
    ),
    Case(
        "log submit",
        "post",
        lambda w: f"/api/v1/fixtures/{w.fixture.pk}/log/",
        lambda w: example_bytes(),
        allowed=ORGANIZERS | AT_BOARD,
        success=201,
        content_type="raw",
    ),
    Case(
        "result report",
        "post",
        lambda w: f"/api/v1/fixtures/{w.fixture.pk}/report/",
        lambda w: {"winner": w.entries["carol"].pk, "counted_pawns": {}},
        allowed=ORGANIZERS | AT_BOARD,
        success=201,
    ),
    Case(
        "result confirm",
        "post",
        lambda w: f"/api/v1/results/{w.pending.pk}/confirm/",
        allowed=ORGANIZERS | {"opponent"},
        prepare=_prepare_pending,
    ),
    Case(
        "result dispute",
        "post",
        lambda w: f"/api/v1/results/{w.pending.pk}/dispute/",
        lambda w: {"reason": "carol won"},
        # the opponent, not the player who submitted it (issue 24: no disputing oneself)
        allowed=ORGANIZERS | {"opponent"},
        prepare=_prepare_pending,
    ),
    Case(
        "result resolve",
        "post",
        lambda w: f"/api/v1/results/{w.pending.pk}/resolve/",
        lambda w: {"accept": False, "note": "no evidence"},
        allowed=ORGANIZERS,
        prepare=_prepare_pending,
    ),
    Case(
        "result enter",
        "post",
        lambda w: f"/api/v1/fixtures/{w.fixture.pk}/result/",
        lambda w: {"winner": w.entries["carol"].pk, "reason": "score sheet"},
        allowed=ORGANIZERS,
        success=201,
    ),
    Case(
        "forfeit",
        "post",
        lambda w: f"/api/v1/fixtures/{w.fixture.pk}/forfeit/",
        lambda w: {"loser": w.entries["carol"].pk, "reason": "no-show"},
        allowed=ORGANIZERS,
        success=201,
    ),
    Case(
        "void",
        "post",
        lambda w: f"/api/v1/fixtures/{w.fixture.pk}/void/",
        lambda w: {"reason": "replay ordered"},
        allowed=ORGANIZERS,
        prepare=_prepare_confirmed,
    ),
    Case(
        "run a failed analysis again",
        "post",
        lambda w: f"/api/v1/fixtures/{w.fixture.pk}/analysis/retry/",
        allowed=ORGANIZERS,
        prepare=_prepare_failed_analysis,
        settings={"ANALYSIS_ENABLED": True},
    ),
    Case(
        "tie-break roll",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/tie-break-rolls/",
        lambda w: {"rolls": [{"erin": 5, "carol": 2}], "note": "at the table"},
        allowed=ORGANIZERS,
        success=201,
    ),
    Case(
        "starting colour rolled at the table",
        "post",
        lambda w: f"/api/v1/fixtures/{w.fixture.pk}/start/",
        lambda w: {"rolls": [{"black": 6, "yellow": 2, "green": 1, "red": 3}]},
        allowed=ORGANIZERS,
        # a game started by die roll (a DRR game's start is the regulation's: refused)
        prepare=lambda w: Fixture.objects.filter(pk=w.fixture.pk).update(start_basis="die-roll"),
    ),
    # the world's league is a DRR league: organizers get the service's clear refusal
    Case(
        "event schedule",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/event/schedule/",
        allowed=ORGANIZERS,
        success=400,
    ),
    Case(
        "grand prix extra game",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/grand-prix/extra-game/",
        allowed=ORGANIZERS,
        success=400,
    ),
    Case(
        "open round draw",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/open-rounds/",
        allowed=ORGANIZERS,
        success=400,
    ),
    Case(
        "open final table",
        "post",
        lambda w: f"/api/v1/leagues/{w.league.slug}/open-rounds/final/",
        allowed=ORGANIZERS,
        success=400,
    ),
    Case(
        "tie roll of a game",
        "post",
        lambda w: f"/api/v1/fixtures/{w.fixture.pk}/tie-roll/",
        lambda w: {"rolls": [{"erin": 5, "carol": 2}]},
        allowed=ORGANIZERS,
        success=400,
    ),
    Case(
        "rejected submissions (read)",
        "get",
        lambda w: f"/api/v1/fixtures/{w.fixture.pk}/rejections/",
        allowed=ORGANIZERS | AT_BOARD,
    ),
]


def expected_status(case: Case, role: str, private: bool) -> int:
    if role == "anonymous":
        return 401
    if private and case.league_scoped and role in OUTSIDERS:
        return 404
    if role in case.allowed:
        return case.success
    return case.others.get(role, 403)


def fingerprint() -> dict[str, Any]:
    return {
        "leagues": sorted(League.objects.values_list("slug", "status", "ranking_level", "major")),
        "organizers": League.organizers.through.objects.count(),
        "players": sorted(Player.objects.values_list("pk", "shared")),
        "entries": sorted(Entry.objects.values_list("pk", "withdrawn_at")),
        "cycles": sorted(Cycle.objects.values_list("pk", "late_order")),
        "fixtures": sorted(
            Fixture.objects.values_list("pk", "status", "round", "starting_colour", "start_rolls")
        ),
        "tie_break_rolls": TieBreakRoll.objects.count(),
        "results": sorted(Result.objects.values_list("pk", "state")),
        "analyses": sorted(GameAnalysis.objects.values_list("pk", "status")),
    }


def call(world: World, case: Case, role: str):
    client = world.client(role)
    url, body = case.url(world), case.body(world)
    if case.method == "get":
        return client.get(url)
    if case.content_type == "raw":
        return client.post(url, body, content_type="application/json")
    return getattr(client, case.method)(url, body, format="json")


# every combination in the whole suite; a sample of each case in the fast one (tests/matrix.py)
@pytest.mark.parametrize(("case", "role", "private"), matrix_params(CASES, ROLES))
def test_matrix(world: World, case: Case, role: str, private: bool, settings):
    for name, value in case.settings.items():
        setattr(settings, name, value)
    if private:
        League.objects.filter(pk=world.league.pk).update(is_public=False)
        world.league.refresh_from_db()
    if case.prepare:
        case.prepare(world)
    before = fingerprint()

    response = call(world, case, role)

    expected = expected_status(case, role, private)
    assert response.status_code == expected, (response.status_code, response.content[:300])
    if expected >= 400:
        error = error_of(response)
        assert (
            error["code"]
            == {
                400: "invalid",
                401: "not_authenticated",
                403: "not_allowed",
                404: "not_found",
            }[expected]
        )
        if case.method != "get":
            assert fingerprint() == before, "a refused request changed something"
    elif case.method != "get":
        assert fingerprint() != before, "an accepted write changed nothing"


def test_every_write_endpoint_is_in_the_matrix():
    """A new write route must get a row in CASES (and in docs/permissions.md)."""
    from django.urls import URLResolver, get_resolver

    from tournaments.api.base import ApiView

    covered = {
        "league-list",
        "player-list",
        "player-shared",
        "league-status",
        "league-organizers",
        "league-ranking",
        "entry-list",
        "entry-detail",
        "entry-withdraw",
        "cycle-list",
        "cycle-late-order",
        "playoffs",
        "fixture-log",
        "fixture-report",
        "fixture-result",
        "fixture-forfeit",
        "fixture-void",
        "fixture-analysis-retry",
        "result-confirm",
        "result-dispute",
        "result-resolve",
        "tie-break-rolls",
        "fixture-start",
        "event-schedule",
        "grand-prix-extra-game",
        "open-rounds",
        "open-final-table",
        "fixture-tie-roll",
        "auth-token",  # tests/api/test_auth.py
    }
    writes = set()
    resolver = get_resolver("tournaments.api.urls")
    patterns = list(resolver.url_patterns)
    for pattern in patterns:
        if isinstance(pattern, URLResolver):  # an app's routes included (ratings/api/urls.py)
            patterns.extend(pattern.url_patterns)
            continue
        view = getattr(pattern.callback, "view_class", object)
        if issubclass(view, ApiView) and {"post", "put", "patch", "delete"} & set(dir(view)):
            writes.add(pattern.name)
    assert writes == covered
