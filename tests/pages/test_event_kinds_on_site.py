"""An organizer creates, runs and finishes every event kind from the site: the create form
has the event kind, the manage page's "next step" is always the right one (never "Finish"
with nobody entered, never "Seed DRR 2" while DRR 1 is being played, the open
tournament's rounds and final table in order), and the finish action ends a triple-threat
or Challengers event."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.builders import make_user
from tournaments.models import Fixture, League
from tournaments.services.results import forfeit_record, result_enter

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(db):
    return make_user("organizer-olga")


@pytest.fixture
def client(org):
    c = Client()
    c.force_login(org)
    return c


def create(client, **fields) -> League:
    post = {"playoffs_kind": "none", "confirmation_required": "", "is_public": "on", **fields}
    response = client.post(reverse("tournaments:league-create"), post)
    assert response.status_code == 302, response.content.decode()[:3000]
    return League.objects.get(name=fields["name"])


def enter(client, league, *names):
    for name in names:
        response = client.post(
            reverse("tournaments:manage-player-new", args=[league.slug]), {"name": name}
        )
        assert response.status_code == 302


def step(client, league) -> str:
    html = client.get(reverse("tournaments:manage", args=[league.slug])).content.decode()
    section = re.search(
        r'<section class="card" aria-labelledby="next-heading">(.*?)</section>', html, re.S
    )
    text = html_lib.unescape(re.sub(r"<[^>]+>", " ", section.group(1)))
    return re.sub(r"\s+", " ", text).strip().removeprefix("Next step ")


def act(client, league, action):
    response = client.post(
        reverse("tournaments:league-action", args=[league.slug, action]), {"next": "manage"}
    )
    assert response.status_code == 302
    assert response.url == reverse("tournaments:manage", args=[league.slug])


def finish(client, league):
    response = client.post(reverse("tournaments:manage-finish", args=[league.slug]))
    assert response.status_code == 302, step(client, league)
    league.refresh_from_db()
    assert league.status == League.Status.FINISHED


def forfeit_all(league, org):
    """Decide every open game (the first-mentioned player forfeits), in order."""
    while True:
        game = (
            league.fixtures.filter(status=Fixture.Status.SCHEDULED).order_by("number", "pk").first()
        )
        if game is None:
            return
        loser = game.seats.order_by("position").first().entry
        forfeit_record(fixture=game, by=org, loser=loser, reason="did not come")


def test_a_triple_threat_event_from_creation_to_its_end(client, org):
    league = create(
        client,
        name="Berlin 3T Open",
        event_kind="triple-threat",
        format="3T",
        game_formats="3t, GP, 3T+",
        ranking_level="2",
    )
    assert league.game_formats == ["3T", "GP", "3T+"] and league.ranking_level == 2
    assert "Entered so far: 0" in step(client, league)
    enter(client, league, "Ann", "Ben")
    assert "exactly 3 players" in step(client, league)
    enter(client, league, "Cat")
    assert "Schedule the event's games" in step(client, league)
    act(client, league, "schedule-event")
    assert league.fixtures.count() == 3
    assert "3 games wait for a result" in step(client, league)
    forfeit_all(league, org)
    # issue 34: it finishes by itself once every game is decided (as a Grand Prix does)
    league.refresh_from_db()
    assert league.status == "finished"
    assert "Finish the league" not in step(client, league)
    assert step(client, league) == "The season is over."


def test_a_challengers_event_finishes_from_the_site(client, org):
    league = create(
        client, name="Challengers", event_kind="challengers", format="2T", game_formats="2T 2T 2T+"
    )
    enter(client, league, "Ann", "Ben")
    act(client, league, "schedule-event")
    labels = list(league.fixtures.order_by("number").values_list("label", flat=True))
    assert labels == ["Game 0", "Game 1", "Game 2"]
    # the finish action waits for the games (it used to ask for DRRs that never come)
    response = client.post(reverse("tournaments:manage-finish", args=[league.slug]))
    assert "still wait for a result" in response.content.decode()
    forfeit_all(league, org)
    league.refresh_from_db()
    assert league.status == "finished"  # by itself, with the last game decided


def test_a_grand_prix_event_on_board_six_ends_when_the_winner_is_certain(client, org):
    league = create(
        client, name="GP Night", event_kind="grand-prix", format="GP", board="6", games_planned="2"
    )
    enter(client, league, "Ann", "Ben", "Cat")
    act(client, league, "schedule-event")
    entries = {s.colours[0]: s for s in league.fixtures.first().seats.all()}
    assert len(entries) == 3
    for game in league.fixtures.order_by("number"):
        places = {
            c: n for n, c in enumerate(("red", "green", "black", "blue", "yellow", "white"), 1)
        }
        result_enter(fixture=game, by=org, reason="sheet", colour_places=places)
        league.refresh_from_db()
        if league.status == League.Status.FINISHED:
            break
    assert league.status == League.Status.FINISHED
    assert step(client, league) == "The season is over."


def test_an_open_tournament_draws_its_rounds_then_the_final_table(client, org):
    league = create(
        client,
        name="Club Open",
        event_kind="open",
        format="open",
        games_planned="2",
        final_table_size="4",
    )
    enter(client, league, "Ann", "Ben", "Cat", "Dan", "Eva")
    assert "Five players cannot be split" in step(client, league)
    enter(client, league, "Fay", "Gus")
    # no "Finish" and no final table before any round is played
    text = step(client, league)
    assert "Draw round 1 of 2" in text and "final table" not in text
    league_page = client.get(reverse("tournaments:league", args=[league.slug])).content.decode()
    assert "Draw the next round" in league_page and "Seat the final table" not in league_page
    act(client, league, "draw-round")
    assert "Round 1: 2 games wait for a result" in step(client, league)
    forfeit_all(league, org)
    act(client, league, "draw-round")
    forfeit_all(league, org)
    assert "the best 4 play the final table" in step(client, league)
    act(client, league, "final-table")
    final = league.fixtures.get(stage=Fixture.Stage.FINAL)
    assert "The final table: 1 game waits" in step(client, league)
    seats = list(final.seats.order_by("position"))
    result_enter(
        fixture=final,
        by=org,
        reason="sheet",
        winner=seats[0].entry,
        placings=[s.entry_id for s in seats],
    )
    league.refresh_from_db()
    assert league.status == League.Status.FINISHED  # the final table ends it
    assert step(client, league) == "The season is over."


def test_a_drr_league_never_offers_the_next_drr_while_one_is_played(client, org):
    league = create(
        client,
        name="3T League",
        event_kind="league",
        format="3T",
        drr_count="2",
        prec_won_lost="1",
    )
    enter(client, league, "Ann", "Ben")
    assert "At least 3 players" in step(client, league)
    enter(client, league, "Cat")
    assert "Seed DRR 1 of 2" in step(client, league)
    response = client.post(
        reverse("tournaments:seed", args=[league.slug]), {"method": "draw", "seed": "3"}
    )
    assert response.status_code == 302
    text = step(client, league)
    assert "DRR 1 is being played: 6 games wait" in text and "Seed DRR 2" not in text
    forfeit_all(league, org)
    assert "Seed DRR 2 of 2" in step(client, league)


def test_an_open_tournaments_tie_across_the_final_table_cut_is_settled_by_a_recorded_roll(
    client, org
):
    """tournament.md: "After the preliminary rounds the best four play a final table";
    the preliminary ranking is placement points → wins → a recorded die roll (platform
    rule). Nine players at three tables of three, each table won by its first-seated
    player: three players have 5 points, three have 3 (no win) and share fourth place
    with two of them below the cut. The organizer is told to record a roll, seating is
    refused until then, and the roll decides who plays the final table and the order of
    those left out."""
    league = create(
        client,
        name="Cut Open",
        event_kind="open",
        format="open",
        games_planned="1",
        final_table_size="4",
        points_scheme="5,3,2,1",
    )
    enter(client, league, "Ann", "Ben", "Cat", "Dan", "Eva", "Fay", "Gus", "Hal", "Ida")
    act(client, league, "draw-round")
    tables = list(league.fixtures.filter(round=1).prefetch_related("seats__entry__player"))
    assert sorted(len(t.seats.all()) for t in tables) == [3, 3, 3]
    second = []
    for table in tables:
        seats = list(table.seats.order_by("position"))
        result_enter(
            fixture=table,
            by=org,
            reason="score sheet",
            winner=seats[0].entry,
            placings=[s.entry_id for s in seats],
        )
        second.append(seats[1].entry.player.name)
    text = step(client, league)
    assert "tied for the last place at the final table" in text, text
    assert all(name in text for name in second)
    assert "Seat the final table" not in text  # not offered while it would be refused
    # the action is refused with the same reason, and nothing is seated
    response = client.post(
        reverse("tournaments:league-action", args=[league.slug, "final-table"]), follow=True
    )
    assert "record a tie-break roll between them first" in response.content.decode()
    assert not league.fixtures.filter(stage=Fixture.Stage.FINAL).exists()
    # the roll-off: first, second and third of the tied players, a re-roll of a tie
    a, b, c = second
    response = client.post(
        reverse("tournaments:league-action", args=[league.slug, "tie-break-roll"]),
        {"rolls": f"{a} 3, {b} 3, {c} 1; {a} 6, {b} 2"},
        follow=True,
    )
    assert "The tie-break roll is recorded." in response.content.decode()
    assert "the best 4 play the final table" in step(client, league)
    act(client, league, "final-table")
    final = league.fixtures.get(stage=Fixture.Stage.FINAL)
    finalists = [s.entry.player.name for s in final.seats.order_by("position")]
    winners = {t.seats.order_by("position").first().entry.player.name for t in tables}
    assert set(finalists[:3]) == winners and finalists[3] == a  # the roll's winner is fourth
    seats = list(final.seats.order_by("position"))
    result_enter(
        fixture=final,
        by=org,
        reason="score sheet",
        winner=seats[-1].entry,
        placings=[s.entry_id for s in reversed(seats)],
    )
    league.refresh_from_db()
    assert league.status == League.Status.FINISHED
    from tournaments.services.open_tournaments import open_final_ranking

    names = dict(league.entries.values_list("pk", "player__name"))
    order = [names[e] for e in open_final_ranking(league)]
    assert order[:4] == list(reversed(finalists))  # the final table decides places 1–4
    assert order[4:6] == [b, c]  # those left out keep the roll's order
    page = client.get(reverse("tournaments:standings", args=[league.slug])).content.decode()
    assert page.index(f">{b}<") < page.index(f">{c}<")
