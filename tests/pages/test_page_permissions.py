"""The permission matrix of the organizer pages and the players' own forms: every new page
and form action against anonymous, a stranger, an entrant, the game's player and
opponent, another league's organizer, a co-organizer, the owner and staff — in a public
league and in a private one (outsiders get 404 there). A refused request changes nothing
(a fingerprint of the database); an accepted write changes something.

The world is built once for the module (``tests/matrix.py: built_once``); each case runs in
its own savepoint on a copy of it."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from tests.api.conftest import ROLES, make_fixture, make_league, make_player, make_user
from tests.matrix import built_once, matrix_params
from tournaments.models import (
    Cycle,
    Entry,
    Fixture,
    Invitation,
    League,
    Player,
    PlayerClaim,
    Result,
)
from tournaments.services.entries import invitation_token
from tournaments.services.schedule import cycle_create

ORGANIZERS = {"organizer", "co_organizer", "staff"}
#: who may enter or hand over a player without an account: its creator (here the league's
#: owner) and staff; a co-organizer only once the creator shares the player
CREATOR = {"organizer", "staff"}
LOGGED_IN = set(ROLES) - {"anonymous"}
OUTSIDERS = {"stranger", "other_organizer"}


@dataclass
class World:
    users: dict[str, Any]
    league: League
    fixture: Fixture
    entries: dict[str, Entry]
    extra: dict[str, Any] = field(default_factory=dict)


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(scope="module")
def module_world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """The world below, written once in a transaction that stays open while the module
    runs and is rolled back at its end."""
    yield from built_once(django_db_blocker, _build_world)


@pytest.fixture
def world(module_world: World, db) -> World:
    """This case's own copy of the module's world; whatever the case writes is rolled back
    with its savepoint."""
    return copy.deepcopy(module_world)


def _build_world() -> World:
    users: dict[str, Any] = {"anonymous": None}
    for role in ROLES[1:]:
        users[role] = make_user(role, staff=role == "staff")
    league = make_league(users["organizer"], "xleague")
    league.organizers.add(users["co_organizer"])
    make_league(users["other_organizer"], "other-league")
    players = {
        "erin": make_player("erin", users["player"]),
        "carol": make_player("carol", users["opponent"]),
        "dave": make_player("dave", users["entrant"]),
    }
    entries = {n: Entry.objects.create(league=league, player=p) for n, p in players.items()}
    fixture = make_fixture(
        league,
        [(entries["erin"], ["black", "yellow"]), (entries["carol"], ["green", "red"])],
        "black",
        label="G1",
    )
    return World(users, league, fixture, entries)


def _draft(w: World) -> None:
    """The league before its schedule: no games yet, entries open."""
    w.league.fixtures.all().delete()
    League.objects.filter(pk=w.league.pk).update(status=League.Status.DRAFT)
    w.extra["frank"] = Player.objects.create(
        name="frank", slug="frank", created_by=w.users["organizer"]
    )


def _cycle(w: World) -> None:
    w.league.fixtures.all().delete()
    cycle_create(league=w.league, by=w.users["organizer"], seed=7)


def _invited(w: World) -> None:
    """carol (the opponent's account) invited to a draft league of the organizer."""
    draft = make_league(w.users["organizer"], "draft-league", status=League.Status.DRAFT)
    w.extra["invited"] = Entry.objects.create(
        league=draft, player=w.entries["carol"].player, state=Entry.State.INVITED
    )


def _own_entry(w: World) -> None:
    draft = make_league(w.users["organizer"], "draft-league", status=League.Status.DRAFT)
    w.extra["own"] = Entry.objects.create(league=draft, player=w.entries["erin"].player)


def _requested(w: World) -> None:
    _draft(w)
    w.extra["request"] = Entry.objects.create(
        league=w.league, player=w.extra["frank"], state=Entry.State.REQUESTED
    )


def _claim(w: World) -> None:
    _draft(w)
    Entry.objects.create(league=w.league, player=w.extra["frank"])
    claimant = make_user("claimant")
    w.extra["claim"] = PlayerClaim.objects.create(player=w.extra["frank"], user=claimant)


def _open_registration(w: World) -> None:
    _draft(w)
    League.objects.filter(pk=w.league.pk).update(registration_open=True)
    # the stranger and both organizers get a player profile (so they could ask)
    for role in ("stranger", "other_organizer", "organizer", "co_organizer", "staff"):
        make_player(f"p-{role}", w.users[role])


def _invitation_link(w: World) -> None:
    draft = make_league(w.users["organizer"], "draft-league", status=League.Status.DRAFT)
    inv = Invitation.objects.create(league=draft, name="", created_by=w.users["organizer"])
    w.extra["token"] = invitation_token(inv)


@dataclass
class Case:
    name: str
    method: str
    url: Callable[[World], str]
    data: Callable[[World], dict] = lambda w: {}
    allowed: set[str] = field(default_factory=set)
    success: int = 302
    prepare: Callable[[World], None] | None = None
    league_scoped: bool = True
    #: status for roles neither allowed nor anonymous (default 403)
    refused: int = 403
    others: dict[str, int] = field(default_factory=dict)


def lg(w: World) -> str:
    return w.league.slug


CASES = [
    Case(
        "create page",
        "get",
        lambda w: "/leagues/new/",
        allowed=LOGGED_IN,
        success=200,
        league_scoped=False,
    ),
    Case(
        "create league",
        "post",
        lambda w: "/leagues/new/",
        lambda w: {
            "name": "New Cup",
            "format": "2T",
            "drr_count": "1",
            "playoffs_kind": "none",
            "prec_won_lost": "1",
        },
        allowed=LOGGED_IN,
        league_scoped=False,
    ),
    Case(
        "my leagues",
        "get",
        lambda w: "/me/leagues/",
        allowed=LOGGED_IN,
        success=200,
        league_scoped=False,
    ),
    Case(
        "manage page", "get", lambda w: f"/leagues/{lg(w)}/manage/", allowed=ORGANIZERS, success=200
    ),
    Case(
        "seed page",
        "get",
        lambda w: f"/leagues/{lg(w)}/manage/seed/",
        allowed=ORGANIZERS,
        success=200,
    ),
    Case(
        "playoffs page",
        "get",
        lambda w: f"/leagues/{lg(w)}/manage/playoffs/",
        allowed=ORGANIZERS,
        success=200,
    ),
    Case(
        "enter a player",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/entries/",
        lambda w: {"player": "frank"},
        allowed=CREATOR,
        prepare=_draft,
    ),
    Case(
        "new player",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/players/",
        lambda w: {"name": "Zoe"},
        allowed=ORGANIZERS,
        prepare=_draft,
    ),
    Case(
        "invite",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/invite/",
        lambda w: {"name": "Newbie"},
        allowed=ORGANIZERS,
        prepare=_draft,
    ),
    Case(
        "remove entry",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/entries/{w.entries['dave'].pk}/remove/",
        allowed=ORGANIZERS,
        prepare=_draft,
    ),
    Case(
        "join decision",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/requests/{w.extra['request'].pk}/",
        lambda w: {"approve": "1"},
        allowed=ORGANIZERS,
        prepare=_requested,
    ),
    Case(
        "claim decision",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/claims/{w.extra['claim'].pk}/",
        lambda w: {"approve": "1"},
        allowed=CREATOR,
        prepare=_claim,
    ),
    Case(
        "add co-organizer",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/organizers/",
        lambda w: {"username": "stranger"},
        allowed={"organizer", "staff"},
    ),
    Case(
        "settings page",
        "get",
        lambda w: f"/leagues/{lg(w)}/manage/settings/",
        allowed=ORGANIZERS,
        success=200,
    ),
    Case(
        "settings",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/settings/",
        lambda w: {"name": "Renamed", "registration_open": "on", "playoffs_kind": "none"},
        allowed=ORGANIZERS,
    ),
    Case(
        "access",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/access/",
        lambda w: {"registration_open": "1"},
        allowed=ORGANIZERS,
    ),
    Case(
        "finish (games left: refused)",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/finish/",
        allowed=ORGANIZERS,
        success=400,
    ),
    Case(
        "delete (games exist: refused)",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/delete/",
        lambda w: {"confirm": "1"},
        allowed={"organizer", "staff"},
        success=400,
        others={"co_organizer": 403},
    ),
    Case(
        "archive (running: refused)",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/archive/",
        allowed=ORGANIZERS,
        success=400,
    ),
    Case(
        "seed",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/seed/",
        lambda w: {"method": "draw", "seed": "3"},
        allowed=ORGANIZERS,
        prepare=lambda w: w.league.fixtures.all().delete(),
    ),
    Case(
        "round dates",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/drr/1/rounds/1/dates/",
        lambda w: {"scheduled_at": "2026-12-10T19:00"},
        allowed=ORGANIZERS,
        prepare=_cycle,
    ),
    Case(
        "late order",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/drr/1/late-order/",
        lambda w: {"late_order": "6,4,5"},
        allowed=ORGANIZERS,
        prepare=_cycle,
    ),
    Case(
        "date every round",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/drr/1/dates/",
        lambda w: {"first": "2027-03-16T19:00", "every_days": "7", "apply": "1"},
        allowed=ORGANIZERS,
        prepare=_cycle,
    ),
    Case(
        "date the games outside DRRs",
        "post",
        lambda w: f"/leagues/{lg(w)}/manage/dates/",
        lambda w: {"first": "2027-03-16T19:00", "every_days": "7", "apply": "1"},
        allowed=ORGANIZERS,
    ),
    Case(
        "reschedule",
        "post",
        lambda w: f"/games/{w.fixture.pk}/reschedule/",
        lambda w: {"scheduled_at": "2026-12-10T19:00"},
        allowed=ORGANIZERS,
    ),
    Case(
        "set the starting colour",
        "post",
        lambda w: f"/games/{w.fixture.pk}/start/",
        lambda w: {"colour": w.fixture.seats.first().colours[-1], "reason": "game 1 forfeited"},
        allowed=ORGANIZERS,
        prepare=lambda w: Fixture.objects.filter(pk=w.fixture.pk).update(
            starting_colour="", start_basis="die-roll"
        ),
    ),
    Case(
        "forfeit",
        "post",
        lambda w: f"/games/{w.fixture.pk}/forfeit/",
        lambda w: {"loser": str(w.entries["carol"].pk), "reason": "no-show"},
        allowed=ORGANIZERS,
    ),
    Case(
        "withdraw",
        "post",
        lambda w: f"/entries/{w.entries['dave'].pk}/withdraw/",
        lambda w: {"reason": "moving"},
        allowed=ORGANIZERS | {"entrant"},
    ),
    Case(
        "answer invitation",
        "post",
        lambda w: f"/me/entries/{w.extra['invited'].pk}/answer/",
        lambda w: {"accept": "1"},
        allowed={"opponent"},
        prepare=_invited,
        league_scoped=False,
        refused=404,
    ),
    Case(
        "own colours",
        "post",
        lambda w: f"/me/entries/{w.extra['own'].pk}/colours/",
        lambda w: {f"e{w.extra['own'].pk}-first": "green", f"e{w.extra['own'].pk}-second": "red"},
        allowed={"player"},
        prepare=_own_entry,
        league_scoped=False,
        refused=404,
    ),
    Case(
        "join request",
        "post",
        lambda w: f"/leagues/{lg(w)}/join/",
        allowed={"stranger", "other_organizer", "organizer", "co_organizer", "staff"},
        prepare=_open_registration,
        refused=302,
    ),
    Case(
        "accept a link",
        "post",
        lambda w: f"/invitations/{w.extra['token']}/",
        allowed=LOGGED_IN,
        prepare=_invitation_link,
        league_scoped=False,
    ),
]


def expected_status(case: Case, role: str, private: bool) -> int:
    if role == "anonymous":
        # to the log-in page; the game page's own forms look the game up first, and a
        # private league's game does not exist for a visitor
        return 404 if private and case.name == "forfeit" else 302
    if private and case.league_scoped and role in OUTSIDERS:
        return 404
    if role in case.allowed:
        return case.success
    return case.others.get(role, case.refused)


def fingerprint() -> dict[str, Any]:
    return {
        "leagues": sorted(
            League.objects.values_list("slug", "status", "is_public", "registration_open")
        ),
        "organizers": League.organizers.through.objects.count(),
        "players": sorted(Player.objects.values_list("name", "user_id")),
        "entries": sorted(
            Entry.objects.values_list("pk", "state", "withdrawn_at", "preferred_colours")
        ),
        "cycles": sorted(Cycle.objects.values_list("pk", "late_order")),
        "fixtures": sorted(
            Fixture.objects.values_list("pk", "status", "round", "scheduled_at", "starting_colour")
        ),
        "results": sorted(Result.objects.values_list("pk", "state")),
        "invitations": sorted(Invitation.objects.values_list("pk", "accepted_at", "revoked_at")),
        "claims": sorted(PlayerClaim.objects.values_list("pk", "state")),
    }


# every combination in the whole suite; a sample of each case in the fast one (tests/matrix.py)
@pytest.mark.parametrize(("case", "role", "private"), matrix_params(CASES, ROLES))
def test_page_matrix(world: World, case: Case, role: str, private: bool):
    if private:
        League.objects.filter(pk=world.league.pk).update(is_public=False)
        world.league.refresh_from_db()
    if case.prepare:
        case.prepare(world)
        world.league.refresh_from_db()
    before = fingerprint()
    client = Client()
    if world.users.get(role) is not None:
        client.force_login(world.users[role])
    url, data = case.url(world), case.data(world)
    response = client.get(url) if case.method == "get" else client.post(url, data)

    expected = expected_status(case, role, private)
    assert response.status_code == expected, (response.status_code, response.content[:400])
    if case.method == "get":
        return
    allowed = role in case.allowed and expected == case.success and case.success < 400
    if allowed:
        assert fingerprint() != before, "an accepted write changed nothing"
    else:
        assert fingerprint() == before, "a refused request changed something"


def test_every_organizer_route_is_in_the_matrix():
    """A new page route of the organizer pages must get a row in CASES."""
    from django.urls import get_resolver

    covered = {
        "league-create",
        "my-leagues",
        "manage",
        "seed",
        "playoffs-setup",
        "manage-entry-add",
        "manage-player-new",
        "manage-invite",
        "manage-entry-remove",
        "manage-join-decide",
        "manage-claim-decide",
        "manage-organizer",
        "manage-access",
        "manage-settings",
        "manage-finish",
        "manage-delete",
        "manage-archive",
        "round-dates",
        "late-order",
        "drr-dates",
        "manage-dates",
        "game-reschedule",
        "game-start",
        "game-forfeit",
        "entry-withdraw",
        "entry-answer",
        "entry-colours",
        "join",
        "invitation",
        # tested in tests/pages/test_organizing.py
        "manage-invitation-revoke",
        "confirm-email",
    }
    from tournaments.web import entries, league_setup, organize, playoffs_setup, seeding

    modules = {m.__name__ for m in (entries, league_setup, organize, playoffs_setup, seeding)}
    names = set()
    for pattern in get_resolver("tournaments.web.urls").url_patterns:
        callback = getattr(pattern, "callback", None)
        if callback is not None and callback.__module__ in modules:
            names.add(pattern.name)
    names.add("game-forfeit")
    assert names == covered
