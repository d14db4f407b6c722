"""Issue 22, points 1 and 2: nobody takes over or enters a player without an account who
is not theirs. Only the player's recorded creator or staff hand it to an account (a claim,
an invitation to become it); only they enter it in a league, or any organizer once they
shared it; the admin records its staff member as the creator."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.builders import make_user
from tournaments.models import Entry, League, Player, PlayerClaim
from tournaments.services.entries import claim_create, claim_decide
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create, player_set_shared


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def maker(db):
    return make_user("maker")


@pytest.fixture
def mallory(db):
    return make_user("mallory")


@pytest.fixture
def staff(db):
    return make_user("staffer", staff=True)


def draft(owner, name="Draft") -> League:
    return league_create(owner=owner, name=name, format="2T")


# --- point 1: claims ----------------------------------------------------------------------


def test_an_organizer_who_entered_a_creatorless_player_cannot_hand_it_to_a_claimant(mallory, staff):
    """The issue's attack: A enters "anna" (no recorded creator), B signs up as Anna with
    "this is me", A approves. Now only staff may decide that claim."""
    anna = player_create(name="Anna")  # no recorded creator (demo, import, creator gone)
    league = draft(mallory, "Mallory's")
    Entry.objects.create(league=league, player=anna)  # however it got there
    sock = make_user("sock")
    claim = claim_create(player=anna, by=sock)
    with pytest.raises(NotAllowed, match="no recorded creator: only staff"):
        claim_decide(claim=claim, by=mallory, approve=True)
    anna.refresh_from_db()
    claim.refresh_from_db()
    assert anna.user_id is None and claim.state == PlayerClaim.State.OPEN
    claim_decide(claim=claim, by=staff, approve=True)
    anna.refresh_from_db()
    assert anna.user == sock


def test_a_co_organizer_of_the_creators_league_cannot_approve_a_claim(maker, mallory):
    rosa = player_create(name="Rosa", created_by=maker)
    league = draft(maker)
    league.organizers.add(mallory)
    entry_add(league=league, player=rosa, by=maker)
    claim = claim_create(player=rosa, by=make_user("rosa-ish"))
    with pytest.raises(NotAllowed, match="only the organizer who created Rosa"):
        claim_decide(claim=claim, by=mallory, approve=True)
    claim_decide(claim=claim, by=maker, approve=True)
    rosa.refresh_from_db()
    assert rosa.user.get_username() == "rosa-ish"


def test_the_manage_page_offers_a_claim_only_to_who_may_decide_it(maker, mallory):
    rosa = player_create(name="Rosa", created_by=maker)
    league = draft(maker)
    league.organizers.add(mallory)
    entry_add(league=league, player=rosa, by=maker)
    claim = claim_create(player=rosa, by=make_user("claimant"))
    url = reverse("tournaments:manage", args=[league.slug])
    assert "claimant" in client_for(maker).get(url).content.decode()
    assert "claimant" not in client_for(mallory).get(url).content.decode()
    decide = reverse("tournaments:manage-claim-decide", args=[league.slug, claim.pk])
    assert client_for(mallory).post(decide, {"approve": "1"}).status_code == 403
    rosa.refresh_from_db()
    assert rosa.user_id is None


@pytest.fixture
def superuser(db):
    return make_user("root", staff=True, is_superuser=True)


def test_a_player_made_in_the_admin_records_the_staff_member_as_its_creator(superuser, mallory):
    staff = superuser
    admin = client_for(staff)
    response = admin.post(
        "/admin/tournaments/player/add/",
        {"name": "Imported Ida", "preferred_colours": "[]", "user": ""},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    ida = Player.objects.get(name="Imported Ida")
    assert ida.created_by == staff and ida.slug == "imported-ida" and not ida.shared
    # so an organizer who enters nothing of hers cannot take her over
    claim = claim_create(player=ida, by=make_user("ida-claimant"))
    with pytest.raises(NotAllowed):
        claim_decide(claim=claim, by=mallory, approve=True)


def test_the_admin_refuses_a_name_with_a_line_break(superuser):
    response = client_for(superuser).post(
        "/admin/tournaments/player/add/", {"name": "Ida\r\nBcc: x", "preferred_colours": "[]"}
    )
    assert response.status_code == 200 and "one line" in response.content.decode()
    assert not Player.objects.exists()


# --- point 2: entering without consent ----------------------------------------------------


def test_only_the_creator_enters_an_unshared_player(maker, mallory):
    rosa = player_create(name="Rosa", created_by=maker)
    theirs = draft(mallory, "Mallory's")
    with pytest.raises(NotAllowed, match="Rosa has no account and was created by another"):
        entry_add(league=theirs, player=rosa, by=mallory)
    assert not Entry.objects.filter(player=rosa).exists()
    assert entry_add(league=draft(maker), player=rosa, by=maker).state == Entry.State.ACCEPTED


def test_sharing_lets_other_organizers_enter_and_unsharing_stops_them(maker, mallory):
    rosa = player_create(name="Rosa", created_by=maker)
    player_set_shared(player=rosa, by=maker, shared=True)
    entry_add(league=draft(mallory, "First"), player=rosa, by=mallory)
    player_set_shared(player=rosa, by=maker, shared=False)
    with pytest.raises(NotAllowed):
        entry_add(league=draft(mallory, "Second"), player=rosa, by=mallory)
    # the entry made while shared stays
    assert Entry.objects.filter(player=rosa, league__name="First").exists()


def test_a_creatorless_player_is_entered_by_staff_or_once_staff_shares_it(mallory, staff):
    ben = player_create(name="Ben")
    with pytest.raises(NotAllowed, match="no recorded creator: only staff"):
        entry_add(league=draft(mallory), player=ben, by=mallory)
    entry_add(league=draft(staff, "Staff's"), player=ben, by=staff)
    player_set_shared(player=ben, by=staff, shared=True)
    entry_add(league=draft(mallory, "Now"), player=ben, by=mallory)


def test_only_the_creator_or_staff_shares(maker, mallory, staff):
    rosa = player_create(name="Rosa", created_by=maker)
    with pytest.raises(NotAllowed):
        player_set_shared(player=rosa, by=mallory, shared=True)
    rosa.refresh_from_db()
    assert not rosa.shared
    player_set_shared(player=rosa, by=staff, shared=True)
    rosa.refresh_from_db()
    assert rosa.shared
    with_account = player_create(name="Has Account", user=make_user("holder"))
    with pytest.raises(ServiceError, match="has an account"):
        player_set_shared(player=with_account, by=staff, shared=True)


def test_a_player_with_an_account_is_still_only_invited(maker, mallory):
    holder = player_create(name="Holder", user=make_user("holder"))
    entry = entry_add(league=draft(mallory), player=holder, by=mallory)
    assert entry.state == Entry.State.INVITED


def test_the_api_refuses_to_enter_another_organizers_player(maker, mallory):
    from rest_framework.test import APIClient

    player_create(name="Rosa", created_by=maker)
    league = draft(mallory)
    api = APIClient()
    api.force_authenticate(mallory)
    response = api.post(f"/api/v1/leagues/{league.slug}/entries/", {"player": "rosa"}, "json")
    assert response.status_code == 403
    assert "created by another organizer" in response.json()["error"]["message"]
    assert not league.entries.exists()


def test_the_manage_page_refuses_to_enter_another_organizers_player(maker, mallory):
    player_create(name="Rosa", created_by=maker)
    league = draft(mallory)
    response = client_for(mallory).post(
        reverse("tournaments:manage-entry-add", args=[league.slug]), {"player": "Rosa"}
    )
    assert response.status_code == 403
    assert "created by another organizer" in response.content.decode()
    assert not league.entries.exists()


def test_the_player_page_shows_the_sharing_control_to_the_creator_only(maker, mallory):
    rosa = player_create(name="Rosa", created_by=maker)
    url = reverse("tournaments:player", args=[rosa.slug])
    share = reverse("tournaments:player-share", args=[rosa.slug])
    assert "Share with other organizers" in client_for(maker).get(url).content.decode()
    assert "Share with other organizers" not in client_for(mallory).get(url).content.decode()
    assert "Share with other organizers" not in Client().get(url).content.decode()
    # a stranger's POST is refused and changes nothing
    assert client_for(mallory).post(share, {"shared": "1"}).status_code == 403
    rosa.refresh_from_db()
    assert not rosa.shared
    response = client_for(maker).post(share, {"shared": "1"}, follow=True)
    rosa.refresh_from_db()
    assert rosa.shared and "Stop sharing" in response.content.decode()
    assert client_for(maker).post(share, {"shared": "0"}).status_code == 302
    rosa.refresh_from_db()
    assert not rosa.shared
    # anonymous: log in first
    assert Client().post(share, {"shared": "1"}).status_code == 302
    rosa.refresh_from_db()
    assert not rosa.shared


def test_the_sharing_control_is_in_german(maker):
    rosa = player_create(name="Rosa", created_by=maker)
    c = client_for(maker)
    html = c.get(
        reverse("tournaments:player", args=[rosa.slug]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Für andere Veranstalter freigeben" in html


def test_the_api_shares_for_the_creator_and_refuses_others_before_reading_the_body(maker, mallory):
    from rest_framework.test import APIClient

    rosa = player_create(name="Rosa", created_by=maker)
    stranger = APIClient()
    stranger.force_authenticate(mallory)
    url = f"/api/v1/players/{rosa.slug}/shared/"
    assert stranger.post(url, {"shared": "maybe"}, "json").status_code == 403
    creator = APIClient()
    creator.force_authenticate(maker)
    assert creator.post(url, {"shared": "maybe"}, "json").status_code == 400
    response = creator.post(url, {"shared": True}, "json")
    assert response.status_code == 200 and response.json()["shared"] is True
    rosa.refresh_from_db()
    assert rosa.shared
