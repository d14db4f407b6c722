"""The results desk lists what needs attention, and its actions work from the pages: a GP
result entered by hand scores, the game's history says who did what, when and why."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.builders import example_text, make_fixture, make_league, make_player, make_user
from tournaments.models import Entry, Result
from tournaments.services.errors import ServiceError
from tournaments.services.results import (
    game_log_submit,
    result_dispute,
    result_report,
)


@pytest.fixture
def desk_world(db):
    org = make_user("olga")
    erin_u, carol_u = make_user("erin_u"), make_user("carol_u")
    league = make_league(org, "desk")
    erin = Entry.objects.create(league=league, player=make_player("erin", erin_u))
    carol = Entry.objects.create(league=league, player=make_player("carol", carol_u))
    seats = [(erin, ["black", "yellow"]), (carol, ["green", "red"])]
    disputed = make_fixture(league, seats, "black", label="G1")
    pending = make_fixture(league, seats, "black", label="G2", number=2)
    overdue = make_fixture(
        league,
        seats,
        "black",
        label="G3",
        number=3,
        scheduled_at=timezone.now() - timedelta(days=2),
    )
    future = make_fixture(
        league,
        seats,
        "black",
        label="G4",
        number=4,
        scheduled_at=timezone.now() + timedelta(days=2),
    )
    r = result_report(fixture=disputed, by=erin_u, winner=erin)
    result_dispute(result=r, by=carol_u, reason="carol had 7 pawns home")
    result_report(fixture=pending, by=carol_u, winner=carol)
    bad = json.loads(example_text("valid-league-2tplus.json"))
    bad["events"][3]["die"] = 7
    with pytest.raises(ServiceError):
        game_log_submit(fixture=future, content=json.dumps(bad), by=erin_u)
    return {
        "org": org,
        "league": league,
        "games": (disputed, pending, overdue, future),
        "erin": erin,
        "carol": carol,
    }


def test_the_desk_lists_disputes_pending_overdue_and_rejections(client, desk_world):
    client.force_login(desk_world["org"])
    page = client.get(reverse("tournaments:desk", args=[desk_world["league"].slug])).text
    _disputed, pending, overdue, future = desk_world["games"]
    section = lambda name: page.split(f'id="{name}"')[1].split("</section>")[0]  # noqa: E731
    assert "carol had 7 pawns home" in section("disputed")
    assert reverse("tournaments:game", args=[pending.pk]) in section("awaiting")
    assert reverse("tournaments:game", args=[overdue.pk]) in section("overdue")
    assert reverse("tournaments:game", args=[future.pk]) not in section("overdue")
    assert "rolled 7, but a die shows" in section("rejected")
    assert "style=" not in page and "<script>" not in page


def test_the_desk_in_german(client, desk_world):
    client.force_login(desk_world["org"])
    page = client.get(
        reverse("tournaments:desk", args=[desk_world["league"].slug]), HTTP_ACCEPT_LANGUAGE="de"
    ).text
    assert "Ergebnisschalter" in page and "Einsprüche" in page
    assert "würfelte 7, aber ein Würfel zeigt" in page


def test_a_gp_result_entered_on_the_page_and_the_history(client, db):
    org = make_user("gpo")
    league = make_league(org, "gp-desk", format="GP")
    a = Entry.objects.create(league=league, player=make_player("anna"))
    b = Entry.objects.create(league=league, player=make_player("bert"))
    game = make_fixture(league, [(a, ["black", "green"]), (b, ["yellow", "red"])], "black")
    client.force_login(org)
    url = reverse("tournaments:game-enter", args=[game.pk])
    form = client.get(url).text
    assert 'name="colour_black"' in form and 'name="counted_' not in form
    bad = client.post(
        url,
        {
            "colour_black": "1",
            "colour_yellow": "1",
            "colour_green": "3",
            "colour_red": "4",
            "reason": "sheet",
        },
    )
    assert bad.status_code == 400 and "1 to 4" in bad.text
    assert not Result.objects.exists()
    ok = client.post(
        url,
        {
            "colour_black": "2",
            "colour_yellow": "1",
            "colour_green": "3",
            "colour_red": "4",
            "reason": "paper score sheet",
        },
    )
    assert ok.status_code == 302
    result = Result.objects.get()
    assert result.colour_places == [b.pk, a.pk, a.pk, b.pk] and result.winner_id == a.pk
    page = client.get(reverse("tournaments:game", args=[game.pk])).text
    history = page.split('id="history"')[1]
    assert "paper score sheet" in history and "gpo" in history
    assert "through the API" not in page
    assert reverse("tournaments:game-void", args=[game.pk]) in page


def test_the_desk_reads_a_fixed_number_of_queries(client, desk_world):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("tournaments:desk", args=[desk_world["league"].slug])
    client.force_login(desk_world["org"])

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    before = queries()
    league, erin, carol = desk_world["league"], desk_world["erin"], desk_world["carol"]
    seats = [(erin, ["black", "yellow"]), (carol, ["green", "red"])]
    for n in range(5, 10):
        game = make_fixture(
            league,
            seats,
            "black",
            label=f"G{n}",
            number=n,
            scheduled_at=timezone.now() - timedelta(hours=n),
        )
        pending = result_report(fixture=game, by=erin.player.user, winner=erin)
        result_dispute(result=pending, by=carol.player.user, reason=f"reason {n}")
        make_fixture(
            league,
            seats,
            "black",
            label=f"L{n}",
            number=20 + n,
            scheduled_at=timezone.now() - timedelta(hours=n),
        )
    assert queries() == before


def test_an_organizer_who_plays_sees_no_decision_forms_for_that_game(client, desk_world):
    league = desk_world["league"]
    erin_user = desk_world["erin"].player.user
    league.organizers.add(erin_user)
    client.force_login(erin_user)
    page = client.get(reverse("tournaments:desk", args=[league.slug])).text
    disputed, pending = desk_world["games"][:2]
    assert "another organizer decides it" in page
    for game in (disputed, pending):  # no resolve or confirm form for their own games
        assert f'action="/games/{game.pk}/results/' not in page
    assert "Confirm this result" not in page


def test_confirming_from_the_desk_returns_to_the_desk(client, desk_world):
    league = desk_world["league"]
    pending_game = desk_world["games"][1]
    result = Result.objects.get(fixture=pending_game, state="pending")
    desk = reverse("tournaments:desk", args=[league.slug])
    client.force_login(desk_world["org"])
    response = client.post(
        reverse("tournaments:result-confirm", args=[pending_game.pk, result.pk]), {"next": desk}
    )
    assert response.status_code == 302 and response["Location"] == desk
    result.refresh_from_db()
    assert result.state == "confirmed"
