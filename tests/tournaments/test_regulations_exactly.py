"""Issue 34, the regulations exactly (tournament.md, "Starting colour", "Grand Prix"):

1. seeding rolls typed by the organizer do not make the platform's starting-colour dice
   a constant: they roll from the league's recorded seed, and the stored rolls replay;
4. a 3T league of DRRs is one triple-threat tournament: DRR 2's first round is started
   by the colour that clinched the last round of DRR 1 (docs/decisions.md);
5. an earlier 3T game is corrected by hand after the next game has a result, as long as
   the winner stays."""

from __future__ import annotations

import json

import pytest

from games.engine import outcome
from tests.builders import make_user
from tests.tournaments.test_league_starting_colours import games, league_with, log_for
from tournaments.algorithms.starting_colour import decide_starting_colour
from tournaments.models import Fixture
from tournaments.services.errors import ServiceError
from tournaments.services.events import fixture_start_record
from tournaments.services.results import (
    forfeit_record,
    game_log_submit,
    result_enter,
    result_void,
)
from tournaments.services.schedule import cycle_create, start_seed

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(db):
    return make_user("organizer")


def test_typed_seeding_rolls_do_not_fix_the_starting_colour_and_the_roll_replays(organizer):
    firsts = []
    for i in range(8):
        names = [f"Ann{i}", f"Ben{i}", f"Cat{i}"]
        league = league_with(organizer, names, format="3T")
        typed = [dict(zip(names, (6, 4, 2), strict=True))]  # the same rolls in every league
        cycle = cycle_create(league=league, by=organizer, rolls=typed)
        league.refresh_from_db()
        assert cycle.seed is None  # the seeding was rolled by hand, and is shown so
        assert league.draw_seed is not None  # the dice's own seed, recorded
        g1 = games(league)[0]
        assert g1.start_basis == "die-roll" and g1.start_rolls
        seats = {s.entry_id: tuple(s.colours) for s in g1.seats.all()}
        replay = decide_starting_colour(
            "die-roll",
            assignment=seats,
            board_colours=("red", "black", "yellow", "green", "blue", "white"),
            seed=start_seed(cycle, g1.number),
        )
        assert replay.colour == g1.starting_colour
        assert [r.as_dict() for r in replay.rolls.history] == g1.start_rolls
        assert "None" not in start_seed(cycle, g1.number)
        firsts.append(g1.starting_colour)
    # with a constant seed all eight began with the same colour (6 colours: 6**-7 by chance)
    assert len(set(firsts)) > 1


def test_a_two_player_gp_league_with_typed_rolls_does_not_always_start_alike(organizer):
    starts = set()
    for i in range(6):
        league = league_with(organizer, [f"Ann{i}", f"Ben{i}"], format="GP")
        cycle_create(league=league, by=organizer, rolls=[{f"Ann{i}": 5, f"Ben{i}": 3}])
        starts.add(tuple(g.starting_colour for g in games(league)))
    assert len(starts) > 1


def _play(game: Fixture, organizer, seed: int) -> dict:
    log = log_for(game, seed=seed)
    game_log_submit(fixture=game, content=json.dumps(log), by=organizer)
    return log


def test_drr_two_of_a_3t_league_continues_the_clinching_chain(organizer):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="3T", drr_count=2)
    cycle_create(league=league, by=organizer, seed=7)
    last_log = None
    for number, game in enumerate(games(league), start=1):
        game.refresh_from_db()
        last_log = _play(game, organizer, seed=100 + number)
    drr2 = cycle_create(league=league, by=organizer, seed=8)
    first = drr2.fixtures.order_by("number").first()
    last_of_drr1 = league.fixtures.filter(cycle__number=1).order_by("-number").first()
    # seeded after DRR 1 was played: decided at once by game 6's clinching colour
    assert first.start_depends_on_id == last_of_drr1.pk
    assert first.start_basis == "clinching-colour" and not first.start_rolls
    assert first.starting_colour == outcome(last_log).placings[0]


def test_drr_two_seeded_early_waits_for_the_last_game_of_drr_one(organizer):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="3T", drr_count=2)
    cycle_create(league=league, by=organizer, seed=7)
    drr2 = cycle_create(league=league, by=organizer, seed=8)
    first = drr2.fixtures.order_by("number").first()
    assert first.starting_colour == "" and first.start_depends_on.cycle.number == 1
    log = None
    for number, game in enumerate(games(league.cycles.get(number=1)), start=1):
        game.refresh_from_db()
        log = _play(game, organizer, seed=200 + number)
    first.refresh_from_db()
    assert first.starting_colour == outcome(log).placings[0]


def _hand_correction(game: Fixture, organizer, winner_id: int, reason: str):
    others = [s.entry_id for s in game.seats.all() if s.entry_id != winner_id]
    return result_enter(
        fixture=game,
        by=organizer,
        winner=game.seats.get(entry_id=winner_id).entry,
        counted_pawns={winner_id: 4, others[0]: 3, others[1]: 1},
        reason=reason,
    )


def test_an_earlier_3t_game_is_corrected_by_hand_when_its_winner_stays(organizer):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="3T", drr_count=2)
    cycle_create(league=league, by=organizer, seed=7)
    g1, g2, *_ = games(league)
    _play(g1, organizer, seed=11)
    g2.refresh_from_db()
    started_by = g2.starting_colour
    _play(g2, organizer, seed=12)
    winner = g1.results.get(state="confirmed").winner_id
    _hand_correction(g1, organizer, winner, "counted pawns were miscounted")
    g2.refresh_from_db()
    assert g2.starting_colour == started_by
    assert g1.results.get(state="confirmed").source == "organizer"
    # another winner cannot have clinched with g2's start: refused, saying why
    other = next(s.entry_id for s in g1.seats.all() if s.entry_id != winner)
    with pytest.raises(ServiceError, match="leave its start undecided") as refused:
        _hand_correction(g1, organizer, other, "wrong winner")
    assert "undecided its starting colour" not in str(refused.value)
    assert g1.results.get(state="confirmed").winner_id == winner


def test_a_3t_player_who_won_two_games_and_withdrew_is_last_with_four_losses(organizer):
    from tournaments.models import StandingsRow
    from tournaments.services.leagues import entry_withdraw
    from tournaments.services.standings import standings_recompute

    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="3T")
    cycle_create(league=league, by=organizer, seed=7)
    quitter = league.entries.get(player__name="Ann")
    for game in games(league)[:2]:
        _hand_correction(game, organizer, quitter.pk, "played over the board")
    assert entry_withdraw(entry=quitter, by=organizer, reason="moved away") == 4
    standings_recompute(league.pk)
    rows = list(StandingsRow.objects.filter(snapshot__league=league).order_by("position"))
    assert [r.entry.player.name for r in rows][-1] == "Ann"
    assert {(r.entry.player.name, r.wins, r.losses) for r in rows} == {
        ("Ann", 2, 4),
        ("Ben", 4, 2),
        ("Cat", 4, 2),
    }


# --- 2. a start the regulation decides is not set by hand -------------------------------


def _client(user):
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client


def test_a_2t_drr_start_is_refused_by_hand_on_the_api_and_the_page(organizer):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="2T")
    cycle_create(league=league, by=organizer, seed=3)
    game = games(league)[0]
    rule = game.starting_colour
    other = next(c for s in game.seats.all() for c in s.colours if c != rule)
    client = _client(organizer)
    api = client.post(
        f"/api/v1/fixtures/{game.pk}/start/",
        {"colour": other, "reason": "we rolled"},
        content_type="application/json",
    )
    assert api.status_code == 400
    assert "rearguard colour of its first-mentioned player" in api.json()["error"]["message"]
    assert api.json()["error"]["reason"] == "start_rule_drr"
    rolled = client.post(
        f"/api/v1/fixtures/{game.pk}/start/",
        {"rolls": [{c: 6 if c == other else 1 for s in game.seats.all() for c in s.colours}]},
        content_type="application/json",
    )
    assert rolled.status_code == 400
    page = client.post(f"/games/{game.pk}/start/", {"colour": other, "reason": "x"}, follow=True)
    assert "its start is not set by hand" in page.content.decode()
    game.refresh_from_db()
    assert game.starting_colour == rule and not game.start_reason.startswith("set by")


def test_a_3t_start_decided_by_the_previous_log_is_refused_and_one_waiting_too(organizer):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="3T")
    cycle_create(league=league, by=organizer, seed=7)
    g1, g2, g3, *_ = games(league)
    colour = g2.seats.first().colours[0]
    with pytest.raises(ServiceError, match="has no counted result yet"):
        fixture_start_record(fixture=g2, by=organizer, colour=colour, reason="hurry")
    _play(g1, organizer, seed=11)
    g2.refresh_from_db()
    decided = g2.starting_colour
    with pytest.raises(ServiceError, match=f"started by {decided}, decided by the result"):
        fixture_start_record(fixture=g2, by=organizer, colour=colour, reason="why not")
    # the page offers no form where the service would refuse
    assert (
        "Set the starting colour" not in _client(organizer).get(f"/games/{g3.pk}/").content.decode()
    )
    # a forfeit has no clinching colour: then the organizer sets it (as before)
    result_void(fixture=g1, by=organizer, reason="replayed")
    forfeit_record(fixture=g1, by=organizer, loser=g1.seats.first().entry, reason="absent")
    g2.refresh_from_db()
    assert "Set the starting colour" in _client(organizer).get(f"/games/{g2.pk}/").content.decode()
    fixture_start_record(fixture=g2, by=organizer, colour=colour, reason="G1 forfeited")
    g2.refresh_from_db()
    assert g2.starting_colour == colour


def test_a_playoff_start_is_refused_by_hand(organizer):
    from tournaments.models import Fixture as F

    league = league_with(organizer, ["Ann", "Ben"], format="2T")
    cycle_create(league=league, by=organizer, seed=3)
    game = games(league)[0]
    # a playoff game: any fixture of a series (its start is the higher seed's rearguard)
    from tournaments.models import Series

    series = Series.objects.create(league=league, name="Final", round=1, slot=1, first_to=1)
    F.objects.filter(pk=game.pk).update(series=series, cycle=None)
    game.refresh_from_db()
    with pytest.raises(ServiceError, match="is a playoff game"):
        fixture_start_record(fixture=game, by=organizer, colour="red", reason="x")


# --- 6. a Grand Prix league of DRRs: extra games while the top is tied -------------------


def _gp_result(game: Fixture, organizer, first, reason="played"):
    """``first`` finishes both colours first (places 1, 2), the other player 3, 4."""
    places, n = {}, 1
    for seat in sorted(game.seats.all(), key=lambda s: s.entry_id != first.pk):
        for colour in seat.colours:
            places[colour] = n
            n += 1
    return result_enter(fixture=game, by=organizer, colour_places=places, reason=reason)


def test_a_gp_league_tied_for_first_gets_an_extra_game(organizer):
    from tournaments.services.events import grand_prix_add_game
    from tournaments.services.leagues import league_finish

    league = league_with(organizer, ["Ann", "Ben"], format="GP")
    cycle_create(league=league, by=organizer, seed=4)
    ann, ben = (league.entries.get(player__name=n) for n in ("Ann", "Ben"))
    g1, g2 = games(league)
    with pytest.raises(ServiceError, match="games are still to be played"):
        grand_prix_add_game(league=league, by=organizer)
    _gp_result(g1, organizer, ann)
    _gp_result(g2, organizer, ben)  # 25–25
    extra = league.fixtures.filter(cycle__isnull=True)
    assert extra.count() == 1
    game = extra.get()
    assert {s.entry_id for s in game.seats.all()} == {ann.pk, ben.pk}
    assert game.starting_colour and game.start_rolls and "extra" in game.label
    with pytest.raises(ServiceError):
        league_finish(league=league, by=organizer)  # the extra game is still to be played
    # a correction that unties the top cancels it (decided), a tie again brings it back
    _gp_result(g2, organizer, ann, reason="Ann won G2")
    game.refresh_from_db()
    assert game.status == Fixture.Status.CANCELLED and game.cancel_reason == "decided"
    _gp_result(g2, organizer, ben, reason="Ben won G2 after all")
    game.refresh_from_db()
    assert game.status == Fixture.Status.SCHEDULED
    _gp_result(game, organizer, ben)
    assert league.fixtures.filter(cycle__isnull=True).count() == 1  # Ben leads: no more
    with pytest.raises(ServiceError, match="it is not"):
        grand_prix_add_game(league=league, by=organizer)
    league_finish(league=league, by=organizer)


def test_three_tied_gp_league_leaders_play_each_pair_once(organizer):
    league = league_with(organizer, ["Ann", "Ben", "Cat"], format="GP")
    cycle_create(league=league, by=organizer, seed=4)
    # every player wins the two games they are first mentioned in: 2 wins each, all tied
    for game in games(league):
        first = game.seats.order_by("position").first().entry
        _gp_result(game, organizer, first)
    extra = league.fixtures.filter(cycle__isnull=True)
    pairs = {frozenset(s.entry_id for s in g.seats.all()) for g in extra}
    assert len(pairs) == 3 == extra.count()


# --- 7. Challengers "game 0": a decider by default, counted when the organizer says so -----


def _challengers(organizer, suffix: str, **kw):
    from tournaments.services.events import event_schedule
    from tournaments.services.leagues import entry_add, league_create
    from tournaments.services.players import player_create

    league = league_create(
        owner=organizer,
        name=f"Challengers {suffix}",
        format="2T",
        event_kind="challengers",
        game_formats=["2T", "2T", "2T"],
        confirmation_required=False,
        **kw,
    )
    for name in ("Ann", "Ben"):
        entry_add(
            league=league, player=player_create(name=f"{name}{suffix}", shared=True), by=organizer
        )
    event_schedule(league=league, by=organizer, seed=3)
    return league


@pytest.mark.parametrize(
    ("counts", "ann", "ben"), [(False, (1, 1), (1, 1)), (True, (2, 1), (1, 2))]
)
def test_challengers_game_zero_decides_the_start_and_counts_only_if_set(
    organizer, counts, ann, ben
):
    from tournaments.models import StandingsRow
    from tournaments.services.standings import standings_recompute

    league = _challengers(
        organizer, "c" if counts else "d", **({"game0_counts": True} if counts else {})
    )
    assert league.game0_counts is counts
    entries = {e.player.name[:3]: e for e in league.entries.select_related("player")}
    g0, g1, g2 = games(league)
    for game, winner in ((g0, "Ann"), (g1, "Ann"), (g2, "Ben")):
        game.refresh_from_db()
        _hand_correction_2(game, organizer, entries[winner])
    standings_recompute(league.pk)
    rows = {
        r.entry.player.name[:3]: (r.wins, r.losses)
        for r in StandingsRow.objects.filter(snapshot__league=league)
    }
    assert rows == {"Ann": ann, "Ben": ben}


def _hand_correction_2(game: Fixture, organizer, winner):
    return result_enter(fixture=game, by=organizer, winner=winner, reason="over the board")


def test_game_zero_counting_is_a_challengers_setting_only(organizer):
    from tournaments.services.leagues import league_create

    with pytest.raises(ServiceError, match="only a Challengers event has a game 0"):
        league_create(owner=organizer, name="L", format="2T", game0_counts=True)
    client = _client(organizer)
    made = client.post(
        "/api/v1/leagues/",
        {
            "name": "Chall API",
            "format": "2T",
            "event_kind": "challengers",
            "game_formats": ["2T", "2T"],
            "game0_counts": True,
        },
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    assert made.json()["game0_counts"] is True
