"""Issue 32 (left over): the game page says why *this game* is or is not rated, not only
its league's status — in English and German."""

from __future__ import annotations

import pytest

from ratings.services.rated_leagues import league_rating_decide
from ratings.services.ratings import ratings_update
from tests.builders import make_fixture, make_league, make_player, make_user
from tests.ratings.test_rated_leagues import PAIRS, simulated_game, verified
from tournaments.models import Entry
from tournaments.services.results import forfeit_record, result_enter

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _sanctioned_leagues(settings):
    settings.RATED_LEAGUES = "sanctioned"


def game_page(client, fixture, language="en") -> str:
    client.cookies["django_language"] = language
    return client.get(f"/games/{fixture.pk}/").content.decode()


def test_each_game_says_why_it_is_or_is_not_rated(client, django_capture_on_commit_callbacks):
    owner = verified("owner")
    league = make_league(owner, format="2T", confirmation_required=False)
    ann, bo = make_player("Ann", user=make_user("ann")), make_player("Bo", user=make_user("bo"))
    xena = make_player("Xena", created_by=owner)  # no account
    unrated_game = simulated_game(league, owner, ann, bo, 1)
    html = game_page(client, unrated_game)
    assert 'data-game-rated="false"' in html
    assert "This game is unrated: its league is not sanctioned by a rating officer." in html
    assert "Diese Partie ist ungewertet: ihre Liga ist von keinem Wertungsreferenten anerkannt" in (
        game_page(client, unrated_game, "de")
    )

    with django_capture_on_commit_callbacks(execute=True):
        league_rating_decide(
            league=league, by=make_user("boss", staff=True), rated=True, reason="ok"
        )
    ratings_update()
    html = game_page(client, unrated_game)
    assert 'data-game-rated="true"' in html
    assert "This game is rated: its result moved the players&#x27; ratings" in html
    assert "Diese Partie ist gewertet" in game_page(client, unrated_game, "de")

    # in the same rated league: a hand result with a player without an account
    ea, ex = (
        Entry.objects.get(league=league, player=ann),
        Entry.objects.create(league=league, player=xena),
    )
    hand = make_fixture(league, list(zip([ea, ex], PAIRS, strict=True)), "black")
    scheduled = game_page(client, hand)
    assert "This game will be rated once its result counts." in scheduled
    result_enter(
        fixture=hand, by=owner, winner=ea, counted_pawns={ea.pk: 4, ex.pk: 1}, reason="paper"
    )
    html = game_page(client, hand)
    assert 'data-game-rated="false"' in html
    assert "entered without a validated log and a player at the board has no account" in html
    assert 'data-rated="true"' in html  # while the league itself is rated

    # a forfeit
    eb = Entry.objects.get(league=league, player=bo)
    forfeited = make_fixture(league, list(zip([ea, eb], PAIRS, strict=True)), "black")
    forfeit_record(fixture=forfeited, by=owner, loser=eb, reason="did not come")
    html = game_page(client, forfeited)
    assert "This game is unrated: a forfeit is not a game played." in html
    assert "kampflos entschieden, also nicht gespielt" in game_page(client, forfeited, "de")


def test_a_game_of_an_unrated_league_says_so_before_it_is_played(client):
    owner = verified("owner")
    league = make_league(owner, format="2T", confirmation_required=False)
    ea = Entry.objects.create(league=league, player=make_player("Ann", created_by=owner))
    eb = Entry.objects.create(league=league, player=make_player("Bo", created_by=owner))
    fixture = make_fixture(league, list(zip([ea, eb], PAIRS, strict=True)), "black")
    html = game_page(client, fixture)
    assert "This game will not be rated: its league is unrated." in html
    assert "Diese Partie wird nicht gewertet: ihre Liga ist ungewertet." in (
        game_page(client, fixture, "de")
    )
