"""Player names per organizer (issue 34, item 8): two organizers each have an Ida, a
sign-up may be a third; the names stay unique (exact, case and confusable skeleton) among
one organizer's players and those in the organizer's leagues, and are told apart where
they meet (page titles, search, the ratings and world rankings: a suffix); claims work."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.services import account_signup
from tests.builders import PASSWORD, make_league, make_user
from tournaments.models import Entry, Player, PlayerClaim
from tournaments.services.entries import accountless_player_create, claim_decide
from tournaments.services.errors import ServiceError
from tournaments.services.players import player_create, player_names_distinguish

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def new_player(client, league, name):
    return client.post(reverse("tournaments:manage-player-new", args=[league.slug]), {"name": name})


@pytest.fixture
def two_clubs():
    olga, peter = make_user("olga"), make_user("peter")
    return (
        (olga, make_league(olga, "olgas-club", status="draft")),
        (peter, make_league(peter, "peters-club", status="draft")),
    )


def test_two_organizers_each_have_an_ida_and_the_pages_tell_them_apart(two_clubs):
    (olga, olgas), (peter, peters) = two_clubs
    assert new_player(client_for(olga), olgas, "Ida").status_code == 302
    # on main: 400 "there is already a player called Ida", printed twice, no way forward
    response = new_player(client_for(peter), peters, "Ida")
    assert response.status_code == 302, response.content.decode()[:3000]
    ida_o, ida_p = Player.objects.filter(name="Ida").order_by("pk")
    assert (ida_o.created_by, ida_p.created_by) == (olga, peter)
    assert Entry.objects.get(player=ida_p).league == peters
    assert (ida_o.label, ida_p.label) == ("Ida (olga’s player)", "Ida (peter’s player)")
    assert ida_o.slug != ida_p.slug
    # page titles and search say which Ida (issue 34: "unambiguous where they meet")
    page = Client().get(reverse("tournaments:player", args=[ida_p.slug])).content.decode()
    assert (
        "<title>Ida (peter’s player)" in page
        or "<title>Ida (peter&#x27;s" in page
        or ("Ida (peter’s player)</h1>" in page)
    )
    found = Client().get(reverse("tournaments:search"), {"q": "Ida"}).content.decode()
    assert "Ida (olga’s player)" in found and "Ida (peter’s player)" in found
    # in German too
    german = Client().get(reverse("tournaments:search"), {"q": "Ida"}, HTTP_ACCEPT_LANGUAGE="de")
    assert "Ida (Spieler von olga)" in german.content.decode()


def test_one_organizer_cannot_have_two_idas_nor_a_look_alike_and_is_told_once(two_clubs):
    (olga, olgas), _peter = two_clubs
    c = client_for(olga)
    new_player(c, olgas, "Ida")
    for lookalike, why in [
        ("Ida", "there is already a player called Ida in your leagues"),
        ("IDA", "there is already a player called Ida in your leagues"),
        ("Ｉｄａ", "there is already a player called Ida in your leagues"),  # fullwidth: NFKC
        ("\u0406da", "looks like the existing player Ida"),  # Cyrillic І
        ("\u0399da", "looks like the existing player Ida"),  # Greek Ι
        ("ldа", "looks like the existing player Ida"),  # small L and a Cyrillic а
        ("Ida\u200b", "U+200B"),  # zero-width space
    ]:
        response = new_player(c, olgas, lookalike)
        assert response.status_code == 400, lookalike
        html = response.content.decode()
        assert why in html, (lookalike, html[:200])
        assert html.count(why) == 1  # said once, at the field
    assert Player.objects.filter(created_by=olga).count() == 1
    # the way forward the message names: a name that tells her apart
    assert new_player(c, olgas, "Ida B.").status_code == 302


def test_the_scope_includes_players_entered_in_the_organizers_leagues(two_clubs):
    (olga, olgas), _peter = two_clubs
    ida_account = player_create(name="Ida", user=make_user("ida"))
    Entry.objects.create(league=olgas, player=ida_account)
    with pytest.raises(ServiceError, match="already a player called Ida in your leagues"):
        accountless_player_create(league=olgas, by=olga, name="ida")
    with pytest.raises(ServiceError, match="looks like the existing player Ida"):
        accountless_player_create(league=olgas, by=olga, name="\u0406da")
    # a co-organizer meets the same players
    carl = make_user("carl")
    olgas.organizers.add(carl)
    with pytest.raises(ServiceError, match="in your leagues"):
        accountless_player_create(league=olgas, by=carl, name="Ida")


def test_the_database_keeps_one_name_per_organizer():
    olga = make_user("olga")
    Player.objects.create(name="Ida", slug="ida", created_by=olga)
    Player.objects.create(name="Ida", slug="ida-2", created_by=make_user("peter"))
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(name="Ida", slug="ida-3", created_by=olga)


def test_a_sign_up_named_like_organizers_players_is_a_third_ida(two_clubs):
    (olga, olgas), (peter, peters) = two_clubs
    accountless_player_create(league=olgas, by=olga, name="Ida")
    user = account_signup(
        username="ida_k", email="ida@example.org", password=PASSWORD, player_name="Ida"
    )
    mine = Player.objects.get(user=user)
    assert mine.name == "Ida" and mine.label == "Ida (@ida_k)"
    assert Player.objects.get(created_by=olga).label == "Ida (olga’s player)"
    # "this is me" with two organizers' Idas: which one is not guessed
    accountless_player_create(league=peters, by=peter, name="Ida")
    with pytest.raises(ServiceError, match="2 organizers have a player called Ida") as exc:
        account_signup(
            username="ida2",
            email="i2@example.org",
            password=PASSWORD,
            player_name="Ida",
            claim=True,
        )
    assert exc.value.field == "claim"
    assert not PlayerClaim.objects.exists()
    with pytest.raises(ServiceError, match="no organizer has created a player called Zoe"):
        account_signup(
            username="zoe", email="z@example.org", password=PASSWORD, player_name="Zoe", claim=True
        )


def test_claims_keep_working_and_the_suffix_follows_the_account(two_clubs):
    (olga, olgas), (peter, peters) = two_clubs
    accountless_player_create(league=olgas, by=olga, name="Rosa")
    user = account_signup(
        username="rosa_m",
        email="rosa@example.org",
        password=PASSWORD,
        player_name="Rosa",
        claim=True,
    )
    claim = PlayerClaim.objects.get(user=user)
    assert not Player.objects.filter(user=user).exists()
    # another organizer's Rosa appears meanwhile: both are told apart
    accountless_player_create(league=peters, by=peter, name="Rosa")
    rosa = Player.objects.get(created_by=olga)
    assert rosa.label == "Rosa (olga’s player)"
    claim_decide(claim=claim, by=olga, approve=True)
    rosa.refresh_from_db()
    assert rosa.user == user and rosa.label == "Rosa (@rosa_m)"
    # her organizer cannot make a new account-less Rosa (she is olga's still: created by her)
    with pytest.raises(ServiceError, match="already a player called Rosa"):
        accountless_player_create(league=olgas, by=olga, name="Rosa")


def test_a_name_alone_again_loses_its_suffix():
    olga, peter = make_user("olga"), make_user("peter")
    first = player_create(name="Ida", created_by=olga)
    second = player_create(name="Ida", created_by=peter)
    first.refresh_from_db()
    assert first.name_suffix == "olga" and second.name_suffix == "peter"
    Player.objects.filter(pk=second.pk).update(name="Ines")
    Player.objects.get(pk=second.pk).save()  # the keys follow the name
    player_names_distinguish("Ida", "Ines")
    first.refresh_from_db()
    assert first.label == "Ida" and Player.objects.get(pk=second.pk).label == "Ines"


def test_entering_an_existing_player_by_a_shared_name_asks_which(two_clubs):
    (olga, olgas), (peter, peters) = two_clubs
    accountless_player_create(league=olgas, by=olga, name="Ida")
    accountless_player_create(league=peters, by=peter, name="Ida")
    Player.objects.update(shared=True)
    carl = make_user("carl")
    carls = make_league(carl, "carls-club", status="draft")
    url = reverse("tournaments:manage-entry-add", args=[carls.slug])
    response = client_for(carl).post(url, {"player": "Ida"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "2 players are called Ida" in html
    assert "Ida (olga’s player) [ida]" in html and "Ida (peter’s player) [ida-2]" in html
    assert client_for(carl).post(url, {"player": "ida-2"}).status_code == 302
    assert Entry.objects.get(league=carls).player.created_by == peter
    # among her own players the name is unique: olga's "Ida" is hers
    olgas2 = make_league(olga, "olgas-second", status="draft")
    url2 = reverse("tournaments:manage-entry-add", args=[olgas2.slug])
    assert client_for(olga).post(url2, {"player": "ida"}).status_code == 302
    assert Entry.objects.get(league=olgas2).player.created_by == olga


def test_the_migration_tells_apart_look_alikes_made_before_the_check():
    """0013 gives the suffixes to names that already looked alike (made before issue 32's
    check): a Cyrillic Іda beside Ida."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("tournaments.migrations.0013_player_names_per_organizer")
    olga = make_user("olga")
    ida = Player.objects.create(name="Ida", slug="ida", created_by=olga)
    legacy = Player.objects.create(name="\u0406da", slug="ida-legacy")
    alone = Player.objects.create(name="Ines", slug="ines")
    Player.objects.update(name_suffix="")
    migration.fill_suffixes(apps, None)
    labels = {p.pk: p.label for p in Player.objects.all()}
    assert labels == {
        ida.pk: "Ida (olga’s player)",
        legacy.pk: "\u0406da (ida-legacy)",
        alone.pk: "Ines",
    }


def test_two_idas_in_one_league_are_told_apart_on_its_pages(client, two_clubs):
    """Where two organizers' Idas meet in a third league (both shared), the schedule and
    the game page say which is which."""
    from tests.builders import make_fixture

    (olga, olgas), (peter, peters) = two_clubs
    ida_o = accountless_player_create(league=olgas, by=olga, name="Ida").player
    ida_p = accountless_player_create(league=peters, by=peter, name="Ida").player
    carl = make_user("carl")
    cup = make_league(carl, "cup", format="2T")
    seats = [Entry.objects.create(league=cup, player=p) for p in (ida_o, ida_p)]
    fixture = make_fixture(
        cup, list(zip(seats, (["black", "yellow"], ["green", "red"]), strict=True)), "black"
    )
    for url in (f"/leagues/{cup.slug}/schedule/", f"/games/{fixture.pk}/"):
        html = client.get(url).content.decode()
        assert "Ida (olga’s player)" in html and "Ida (peter’s player)" in html, url


def test_names_made_in_transactions_that_could_not_see_each_other_are_told_apart_on_commit(
    django_capture_on_commit_callbacks,
):
    olga, peter = make_user("olga"), make_user("peter")
    with django_capture_on_commit_callbacks(execute=True):
        first = player_create(name="Ida", created_by=olga)
        Player.objects.create(name="Ida", slug="ida-2", created_by=peter)  # beside the service
    first.refresh_from_db()
    assert first.label == "Ida (olga’s player)"
    assert Player.objects.get(slug="ida-2").label == "Ida (peter’s player)"
