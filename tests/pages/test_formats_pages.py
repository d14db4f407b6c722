"""Issue 13 on the public pages: a game whose start depends on an earlier game says
"decided by game N" (schedule and game page), a Grand Prix game's starting die rolls are
shown, games cancelled once the winner is certain say so, recorded tie-break rolls are on
the standings (who rolled what, when), and the league page's organizer forms run the
format's actions through the services."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.builders import make_user
from tournaments.models import Fixture, OpenRound
from tournaments.services.events import event_schedule
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.standings import standings_recompute
from tournaments.services.tie_breaks import tie_break_roll_record


@pytest.fixture
def organizer(db):
    return make_user("organizer")


def league_with(organizer, names, **kw):
    league = league_create(owner=organizer, name=kw.pop("name", "Event"), **kw)
    for name in names:
        entry_add(league=league, player=player_create(name=name, shared=True), by=organizer)
    return league


def test_schedule_and_game_page_say_decided_by_game_n(organizer, client):
    league = league_with(
        organizer,
        ["Ann", "Ben", "Cat"],
        format="3T",
        event_kind="triple-threat",
        game_formats=["3T", "GP"],
    )
    event_schedule(league=league, by=organizer, seed=2)
    g1, g2 = league.fixtures.order_by("number")
    schedule = client.get(f"/leagues/{league.slug}/schedule/").content.decode()
    assert "decided by game 1" in schedule
    game = client.get(f"/games/{g2.pk}/").content.decode()
    assert "decided by game 1" in game and "Grand Prix (GP)" in game  # the game's own format
    first = client.get(f"/games/{g1.pk}/").content.decode()
    assert "Starting-colour die rolls" in first  # game 1 was started by die roll
    client.post("/i18n/setlang/", {"language": "de", "next": "/"})
    german = client.get(f"/leagues/{league.slug}/schedule/").content.decode()
    assert "entschieden durch Spiel 1" in german


def test_a_game_cancelled_because_the_winner_is_certain_says_so(organizer, client):
    league = league_with(
        organizer, ["Ann", "Ben"], format="GP", event_kind="grand-prix", games_planned=2
    )
    event_schedule(league=league, by=organizer, seed=2)
    game = league.fixtures.order_by("number").last()
    Fixture.objects.filter(pk=game.pk).update(status="cancelled", cancel_reason="decided")
    page = client.get(f"/leagues/{league.slug}/schedule/").content.decode()
    assert "cancelled: the winner is certain" in page


def test_recorded_tie_break_rolls_are_shown_on_the_standings(organizer, client):
    league = league_with(organizer, ["Ann", "Ben"], format="2T")
    tie_break_roll_record(
        league=league, by=organizer, rolls=[{"Ann": 4, "Ben": 4}, {"Ann": 6, "Ben": 1}]
    )
    standings_recompute(league.pk)
    page = client.get(f"/leagues/{league.slug}/standings/").content.decode()
    assert "Recorded tie-break rolls" in page
    assert "Ann 4, Ben 4" in page and "Ann 6, Ben 1" in page and "organizer" in page


def test_organizers_draw_an_open_round_and_record_a_roll_from_the_league_page(organizer):
    league = league_with(
        organizer, ["P1", "P2", "P3", "P4"], format="open", games_planned=1, final_table_size=0
    )
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    stranger.post(f"/leagues/{league.slug}/actions/draw-round/")
    assert not OpenRound.objects.filter(league=league).exists()  # refused: not an organizer

    client = Client()
    client.force_login(organizer)
    page = client.get(f"/leagues/{league.slug}/").content.decode()
    assert "Draw the next round" in page and "Record a tie-break roll" in page
    response = client.post(f"/leagues/{league.slug}/actions/draw-round/", follow=True)
    assert "The next round is drawn." in response.content.decode()
    assert OpenRound.objects.filter(league=league, number=1).exists()
    again = client.post(f"/leagues/{league.slug}/actions/draw-round/", follow=True)
    assert "all 1 preliminary rounds are drawn" in again.content.decode()

    recorded = client.post(
        f"/leagues/{league.slug}/actions/tie-break-roll/",
        {"rolls": "P1 5, P2 5; P1 2, P2 6", "note": "cut"},
        follow=True,
    )
    assert "The tie-break roll is recorded." in recorded.content.decode()
    roll = league.tie_break_rolls.get()
    assert len(roll.rounds) == 2 and roll.note == "cut"
    bad = client.post(
        f"/leagues/{league.slug}/actions/tie-break-roll/", {"rolls": "P1 five"}, follow=True
    )
    assert "write each roll as a name and a number" in bad.content.decode()
    assert league.tie_break_rolls.count() == 1
