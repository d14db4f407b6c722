"""Starting colours in DRR leagues, from tournament.md's "Starting colour":

- triple-threat: "from game 2 on, the colour that clinched victory in the previous 3T/3T+
  game starts" — also in a 3T league of DRRs, where game R2 used to keep the double-threat
  rule (the rearguard of its first-named player) and a correct log was refused;
- GP games of a DRR league start by die roll, and the rolls are kept (as in a GP event);
- a GP league on board 6 seats two players on four colours: a log that lists the other two
  as unused is accepted, one that does not is refused with that advice."""

from __future__ import annotations

import json

import pytest

from games.engine import outcome, simulate_game
from tests.builders import make_user
from tournaments.algorithms.colours import rearguard
from tournaments.formats import get_format
from tournaments.models import Fixture
from tournaments.services.errors import ServiceError
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.players import player_create
from tournaments.services.results import game_log_submit
from tournaments.services.schedule import cycle_create

pytestmark = pytest.mark.django_db
BOARD6 = ("red", "black", "yellow", "green", "blue", "white")


@pytest.fixture
def organizer(db):
    return make_user("organizer")


def league_with(organizer, names, **kw):
    league = league_create(owner=organizer, name="L", confirmation_required=False, **kw)
    for name in names:
        entry_add(league=league, player=player_create(name=name, shared=True), by=organizer)
    return league


def log_for(fixture: Fixture, seed: int, first: str | None = None, **kw) -> dict:
    seats = list(fixture.seats.select_related("entry__player"))
    return simulate_game(
        rules=get_format(fixture.game_format).preset,
        board=fixture.league.board,
        players={s.entry.player.name: list(s.colours) for s in seats},
        first=first or fixture.starting_colour,
        bots="heuristic",
        seed=seed,
        **kw,
    )


def games(league) -> list[Fixture]:
    return list(league.fixtures.order_by("number").prefetch_related("seats__entry__player"))


def test_a_three_player_3t_league_starts_each_game_with_the_colour_that_clinched_the_last(
    organizer,
):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="3T")
    cycle_create(league=league, by=organizer, seed=7)
    g1, g2, *rest = games(league)
    # game 1 by die roll, the rolls kept; every later game waits for the one before
    assert g1.starting_colour and g1.start_rolls and g1.start_basis == "die-roll"
    assert g2.starting_colour == "" and g2.start_depends_on_id == g1.pk
    assert all(g.start_depends_on_id == prev.pk for prev, g in zip([g2, *rest], rest, strict=False))

    log1 = log_for(g1, seed=11)
    game_log_submit(fixture=g1, content=json.dumps(log1), by=organizer)
    g2.refresh_from_db()
    clinched = outcome(log1).placings[0]  # 3T: the first colour home clinches victory
    assert g2.starting_colour == clinched
    # the double-threat rule (rearguard of the first-named player) is not this game's
    first_named = g2.seats.order_by("position").first()
    old_rule = rearguard(BOARD6, first_named.colours)
    if old_rule != clinched:
        with pytest.raises(ServiceError, match=f"starting colour is {clinched}"):
            game_log_submit(
                fixture=g2, content=json.dumps(log_for(g2, 3, first=old_rule)), by=organizer
            )
    game_log_submit(fixture=g2, content=json.dumps(log_for(g2, seed=12)), by=organizer)
    g2.refresh_from_db()
    assert g2.status == Fixture.Status.CONFIRMED


def test_with_two_boards_a_round_follows_the_same_board_of_the_round_before(organizer):
    league = league_with(organizer, [f"P{i}" for i in range(6)], format="3T+")
    cycle_create(league=league, by=organizer, seed=3)
    by_round: dict[int, list[Fixture]] = {}
    for game in games(league):
        by_round.setdefault(game.round, []).append(game)
    assert all(len(boards) == 2 for boards in by_round.values())
    for number, boards in by_round.items():
        for index, game in enumerate(boards):
            if number == 1:
                assert game.starting_colour and game.start_depends_on_id is None
            else:
                assert game.start_depends_on_id == by_round[number - 1][index].pk


def test_gp_games_of_a_drr_league_keep_their_starting_rolls(organizer):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="GP")
    cycle_create(league=league, by=organizer, seed=5)
    for game in games(league):
        assert game.start_basis == "die-roll" and game.start_rolls
        last = game.start_rolls[-1]
        assert last[game.starting_colour] == max(last.values())


def test_a_gp_league_on_board_six_accepts_a_log_that_lists_the_empty_colours(organizer):
    league = league_with(organizer, ["Ann", "Ben"], format="GP", board=6)
    cycle_create(league=league, by=organizer, seed=9)
    game = games(league)[0]
    assert sorted(game.unused_colours) == sorted(
        set(BOARD6) - {c for s in game.seats.all() for c in s.colours}
    )
    without = log_for(game, seed=1)  # the other colours play as their own players
    with pytest.raises(ServiceError, match='list it under "unused"'):
        game_log_submit(fixture=game, content=json.dumps(without), by=organizer)
    log = log_for(game, seed=1, unused=game.unused_colours)
    game_log_submit(fixture=game, content=json.dumps(log), by=organizer)
    game.refresh_from_db()
    assert game.status == Fixture.Status.CONFIRMED


def test_after_a_forfeit_the_organizer_sets_the_next_start_on_the_game_page(organizer):
    from django.test import Client

    from tournaments.services.results import forfeit_record

    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="3T")
    cycle_create(league=league, by=organizer, seed=7)
    g1, g2, *_ = games(league)
    forfeit_record(fixture=g1, by=organizer, loser=g1.seats.first().entry, reason="absent")
    g2.refresh_from_db()
    assert g2.starting_colour == ""  # a forfeit has no colour that clinched it
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/games/{g2.pk}/").content.decode()
    assert "Set the starting colour" in page
    colour = g2.seats.order_by("position").first().colours[0]
    client.post(f"/games/{g2.pk}/start/", {"colour": colour, "reason": "G1 was forfeited"})
    g2.refresh_from_db()
    assert g2.starting_colour == colour and "G1 was forfeited" in g2.start_reason
    # a stranger cannot
    other = make_user("stranger")
    client.force_login(other)
    assert client.post(f"/games/{g2.pk}/start/", {"colour": colour, "reason": "x"}).status_code in (
        403,
        404,
    )
