"""Issue 24: round dates in one step wherever games are scheduled, not only in DRRs: an
event's games (triple threat, Grand Prix, Challengers), an open tournament's drawn rounds
and the playoffs' games, with a preview first; every game stays editable."""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from tests.pages.test_event_kinds_on_site import (  # noqa: F401
    act,
    client,
    create,
    enter,
    forfeit_all,
    org,
)
from tournaments.models import Fixture
from tournaments.services.schedule import fixture_reschedule, league_date_groups

pytestmark = pytest.mark.django_db

BERLIN = ZoneInfo("Europe/Berlin")


def dates(c, league, apply=False, **fields):
    post = {"first": "2027-03-16T19:00", "every_days": "7", "due_hours": "48", **fields}
    post["apply" if apply else "preview"] = "1"
    return c.post(reverse("tournaments:manage-dates", args=[league.slug]), post)


def local(game: Fixture) -> str:
    return game.scheduled_at.astimezone(BERLIN).strftime("%a %d.%m. %H:%M")


def test_a_triple_threat_events_games_are_dated_weekly_after_a_preview(client, settings):  # noqa: F811
    settings.TIME_ZONE = "Europe/Berlin"
    league = create(
        client,
        name="Berlin 3T Open",
        event_kind="triple-threat",
        format="3T",
        game_formats="3T, GP, 3T+",
        ranking_level="2",
    )
    enter(client, league, "Ann", "Ben", "Cat")
    page = client.get(reverse("tournaments:manage", args=[league.slug])).content.decode()
    assert "Date the games in one step" not in page  # nothing scheduled yet
    act(client, league, "schedule-event")
    assert (
        "Date the games in one step"
        in client.get(reverse("tournaments:manage", args=[league.slug])).content.decode()
    )
    preview = dates(client, league)
    assert preview.status_code == 200
    rows = re.findall(
        r"<tr><th scope=\"row\">([^<]+)</th><td>([^<]+)</td>",
        re.search(r'id="dates-preview".*?</table>', preview.content.decode(), re.S).group(0),
    )
    assert [label for label, _ in rows] == ["Game 1", "Game 2", "Game 3"]
    assert not Fixture.objects.filter(scheduled_at__isnull=False).exists()  # a preview only
    response = dates(client, league, apply=True)
    assert response.status_code == 302
    games = list(league.fixtures.order_by("number"))
    # summer time began on 28 March: 19:00 stays 19:00
    assert [local(g) for g in games] == ["Tue 16.03. 19:00", "Tue 23.03. 19:00", "Tue 30.03. 19:00"]
    assert games[0].deadline.astimezone(BERLIN).strftime("%a %H:%M") == "Thu 19:00"
    # each game stays editable afterwards, and one that counts keeps its date
    fixture_reschedule(fixture=games[1], by=league.owner, scheduled_at=games[2].scheduled_at)
    Fixture.objects.filter(pk=games[0].pk).update(status=Fixture.Status.CONFIRMED)
    dates(client, league, apply=True, first="2027-05-04T18:30")
    games = list(league.fixtures.order_by("number"))
    assert local(games[0]) == "Tue 16.03. 19:00"  # counted: untouched
    assert [local(g) for g in games[1:]] == ["Tue 04.05. 18:30", "Tue 11.05. 18:30"]


def test_an_open_tournaments_drawn_round_gets_one_date_for_all_its_tables(client, settings):  # noqa: F811
    settings.TIME_ZONE = "Europe/Berlin"
    league = create(
        client,
        name="Club Open",
        event_kind="open",
        format="open",
        games_planned="2",
        final_table_size="4",
    )
    enter(client, league, "Ann", "Ben", "Cat", "Dan", "Eva", "Fay", "Gus")
    act(client, league, "draw-round")
    groups = league_date_groups(league)
    assert len(groups) == 1 and len(groups[0][1]) == 2  # round 1: two tables, one date
    assert dates(client, league, apply=True, first="2027-01-09T10:00").status_code == 302
    assert {local(g) for g in league.fixtures.all()} == {"Sat 09.01. 10:00"}
    # the rounds drawn later continue the rhythm: round 2 a week on, the final table after
    forfeit_all(league, league.owner)
    act(client, league, "draw-round")
    assert {local(g) for g in league.fixtures.filter(round=2)} == {"Sat 16.01. 10:00"}
    forfeit_all(league, league.owner)
    act(client, league, "final-table")
    final = league.fixtures.get(stage=Fixture.Stage.FINAL)
    assert local(final) == "Sat 23.01. 10:00" and final.deadline is not None


def test_the_playoffs_games_are_grouped_by_round_and_game_number(db):
    from tests.builders import make_user
    from tournaments.models import Series
    from tournaments.services.leagues import league_create

    owner = make_user("olga")
    league = league_create(owner=owner, name="Cup", format="2T")
    semis = [
        Series.objects.create(league=league, round=1, slot=s, name=f"Semi-final {s}", first_to=2)
        for s in (1, 2)
    ]
    final = Series.objects.create(league=league, round=2, slot=1, name="Final", first_to=2)
    for series, numbers in ((semis[0], (1, 2)), (semis[1], (1, 2)), (final, (1,))):
        for n in numbers:
            Fixture.objects.create(
                league=league, series=series, round=series.round, number=n, label=f"G{n}"
            )
    labels = [label for label, _games in league_date_groups(league)]
    assert labels == [
        "Semi-final 1 G1, Semi-final 2 G1",
        "Semi-final 1 G2, Semi-final 2 G2",
        "Final G1",
    ]


def test_playoff_games_needed_later_continue_the_rhythm(db, settings):
    from datetime import datetime

    from tests.builders import make_user
    from tournaments.models import Series
    from tournaments.services.leagues import league_create
    from tournaments.services.schedule import date_new_games, league_dates_recur

    settings.TIME_ZONE = "Europe/Berlin"
    owner = make_user("olga")
    league = league_create(owner=owner, name="Cup", format="2T")
    semis = [
        Series.objects.create(league=league, round=1, slot=s, name=f"Semi-final {s}", first_to=3)
        for s in (1, 2)
    ]

    def game(series, n):
        return Fixture.objects.create(
            league=league, series=series, round=series.round, number=n, label=f"G{n}"
        )

    firsts = [game(s, 1) for s in semis]
    league_dates_recur(league=league, by=owner, first=datetime(2027, 3, 16, 19), due_hours=48)
    assert {local(Fixture.objects.get(pk=g.pk)) for g in firsts} == {"Tue 16.03. 19:00"}
    second = game(semis[0], 2)  # the series goes on: game 2 a week later
    date_new_games(league, [second])
    assert local(second) == "Tue 23.03. 19:00"
    other = game(semis[1], 2)  # the other semi-final's game 2: the same date
    date_new_games(league, [other])
    assert local(other) == local(second) and other.deadline == second.deadline
    third = game(semis[0], 3)
    date_new_games(league, [third])
    assert local(third) == "Tue 30.03. 19:00"  # after summer time began: still 19:00


def test_a_german_organizer_sees_the_card_in_german(client):  # noqa: F811
    league = create(
        client, name="GP Night", event_kind="grand-prix", format="GP", board="6", games_planned="2"
    )
    enter(client, league, "Ann", "Ben", "Cat")
    act(client, league, "schedule-event")
    page = client.get(
        reverse("tournaments:manage", args=[league.slug]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Alle Partien in einem Schritt terminieren" in page
