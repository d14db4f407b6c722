"""Regressions found in review: playoff corrections, one log per game, winners by colour,
organizers who play, withdrawn players in the playoffs, playoff settings."""

import json

import pytest

from tests.builders import example, make_fixture, make_league, make_user
from tournaments.models import Entry, Fixture, Result, Series
from tournaments.selectors.playoffs import series_score
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.leagues import entry_add, entry_withdraw, league_create
from tournaments.services.players import player_create
from tournaments.services.playoffs import playoffs_generate
from tournaments.services.results import (
    game_log_submit,
    result_confirm,
    result_enter,
    result_report,
    result_void,
)
from tournaments.services.schedule import cycle_create
from tournaments.services.standings import standings_recompute

LOG = "valid-league-2tplus.json"
STRENGTH = {"Ann": 3, "Ben": 2, "Cat": 1}


def xleague(org):
    league = league_create(owner=org, name="X", format="2T", playoffs={"kind": "xleague"})
    for name in STRENGTH:
        entry_add(league=league, player=player_create(name=name, shared=True), by=org)
    cycle_create(league=league, by=org, seed=5)
    for fixture in Fixture.objects.filter(league=league, series__isnull=True):
        seats = {s.entry.player.name: s.entry for s in fixture.seats.all()}
        best = max(seats, key=STRENGTH.get)
        result_enter(fixture=fixture, by=org, winner=seats[best], reason="OTB")
    standings_recompute(league.pk)
    return league


@pytest.mark.django_db
def test_voiding_the_deciding_playoff_game_reopens_the_series():
    org = make_user("org")
    qualifying, final = playoffs_generate(league=xleague(org), by=org)
    games = []
    for _ in range(2):
        game = qualifying.fixtures.get(status=Fixture.Status.SCHEDULED)
        result_enter(fixture=game, by=org, winner=qualifying.higher, reason="won")
        games.append(game)
    final.refresh_from_db()
    assert final.lower_id == qualifying.higher_id and final.fixtures.count() == 1

    result_void(fixture=games[-1], by=org, reason="wrong log")
    qualifying.refresh_from_db()
    final.refresh_from_db()
    assert qualifying.winner_id is None and series_score(qualifying).score == "2–0"
    assert final.lower_id is None and not final.fixtures.exists()
    # the replayed game goes to the lower seed: 2–1, and game 3 is scheduled
    result_enter(fixture=games[-1], by=org, winner=qualifying.lower, reason="replayed")
    qualifying.refresh_from_db()
    assert qualifying.status == Series.Status.PLAYING
    assert qualifying.fixtures.filter(status=Fixture.Status.SCHEDULED).count() == 1


@pytest.mark.django_db
def test_a_series_cannot_change_hands_once_the_next_series_has_results():
    org = make_user("org")
    qualifying, final = playoffs_generate(league=xleague(org), by=org)
    for _ in range(2):
        game = qualifying.fixtures.get(status=Fixture.Status.SCHEDULED)
        result_enter(fixture=game, by=org, winner=qualifying.higher, reason="won")
    final.refresh_from_db()
    result_enter(fixture=final.fixtures.get(), by=org, winner=final.higher, reason="won")
    deciding = qualifying.fixtures.filter(status=Fixture.Status.CONFIRMED).last()
    with pytest.raises(ServiceError, match="Final Series has results already"):
        result_void(fixture=deciding, by=org, reason="oops")
    assert Result.objects.filter(fixture=deciding, state="confirmed").exists()


@pytest.fixture
def two_games(db):
    org, erin_user, carol_user = make_user("org"), make_user("e"), make_user("c")
    league = make_league(org, format="2T+", confirmation_required=False)
    erin = player_create(name="erin", user=erin_user)
    carol = player_create(name="carol", user=carol_user)
    seats = [(erin, ["black", "yellow"]), (carol, ["green", "red"])]
    return make_fixture(league, seats, "black"), make_fixture(league, seats, "black"), carol_user


def test_one_log_is_the_result_of_one_game_only(two_games):
    first, second, carol = two_games
    text = json.dumps(example(LOG))
    game_log_submit(fixture=first, content=text, by=carol)
    with pytest.raises(ServiceError, match="already the result of game"):
        game_log_submit(fixture=second, content=text, by=carol)
    assert not second.results.exists()


@pytest.mark.django_db
def test_the_winner_is_found_by_colours_not_by_a_name_that_looks_alike():
    org = make_user("org")
    league = make_league(org, format="2T+")
    x = player_create(name="Carol 2", shared=True)  # slug carol-2, holds green+red and wins the log
    y = player_create(name="carol-2", shared=True)  # slug carol-2-2
    fixture = make_fixture(league, [(y, ["black", "yellow"]), (x, ["green", "red"])], "black")
    log = example(LOG)
    log["players"] = {"carol-2-2": ["schwarz", "gelb"], "carol-2": ["grün", "rot"]}
    result = game_log_submit(fixture=fixture, content=json.dumps(log), by=org)
    assert result.winner.player == x
    assert result.placings[0] == result.winner_id


@pytest.mark.django_db
def test_an_organizer_who_plays_is_a_player_in_their_own_game():
    org, other = make_user("org"), make_user("opp")
    league = league_create(owner=org, name="L", format="2T+")
    me = player_create(name="Me", user=org)
    opponent = player_create(name="Opp", user=other)
    fixture = make_fixture(
        league, [(me, ["black", "yellow"]), (opponent, ["green", "red"])], "black"
    )
    mine = Entry.objects.get(league=league, player=me)
    report = result_report(fixture=fixture, by=org, winner=mine)
    assert report.state == Result.State.PENDING
    with pytest.raises(NotAllowed, match="your opponent must confirm"):
        result_confirm(result=report, by=org)
    with pytest.raises(NotAllowed, match="another organizer"):
        result_enter(fixture=fixture, by=org, winner=mine, reason="I won")
    assert result_confirm(result=report, by=other).state == Result.State.CONFIRMED


@pytest.mark.django_db
def test_withdrawn_players_are_not_seeded_into_the_playoffs():
    org = make_user("org")
    league = xleague(org)
    cat = Entry.objects.get(league=league, player__name="Cat")
    entry_withdraw(entry=cat, by=org)
    with pytest.raises(ServiceError, match="need 3 players; the table has 2"):
        playoffs_generate(league=league, by=org)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "config",
    [
        {"kind": "bracket", "seeds": 4, "first_to": None},
        {"kind": "bracket", "seeds": 4, "first_to": [2, 2, 2]},
        {"kind": "bracket", "seeds": 4, "first_to": 1, "head_start": True},
    ],
)
def test_bad_playoff_settings_are_refused_at_creation(config):
    with pytest.raises(ServiceError, match=r"first_to|first-to-1|round"):
        league_create(owner=make_user(), name="B", format="2T", playoffs=config)


@pytest.mark.django_db
def test_the_default_bracket_settings_work_for_single_games():
    org = make_user()
    league = league_create(
        owner=org, name="B", format="2T", playoffs={"kind": "bracket", "seeds": 4}
    )
    # stored per round (issue 13 point 5): two rounds, first to 1, no head start in either
    assert league.playoffs == {
        "kind": "bracket",
        "seeds": 4,
        "first_to": [1, 1],
        "head_start": [False, False],
    }
