"""Issue 36, a phone's result post at a championship table costs a fixed, small number of
queries: entering the placings and the second phone's confirmation run the same queries
for 16 and for 64 players (nothing per player or table), and fewer than before the table
path was tuned (28 and 32 here). Counts, never times (the timings are bench/championship.py's)."""

from __future__ import annotations

import os

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.builders import make_user
from tournaments.models import Entry, Result
from tournaments.services.entries import accountless_player_create
from tournaments.services.leagues import league_create
from tournaments.services.open_tournaments import open_round_draw
from tournaments.services.result_links import result_link_create

#: a phone's post at the table (tests run inside a transaction: savepoints count, the tasks
#: enqueued on commit do not run); 28 and 32 before the table path was tuned; confirming
#: reads the ratings update's claim too (16 → 17, docs/ratings.md "A burst of results")
ENTER_QUERIES, CONFIRM_QUERIES = 13, 17


def _day(players: int, tag: str):
    """An open tournament of account-less players with private links, round 1 drawn; the
    first table, its seats' entries in order and two phones (its first two players)."""
    org = make_user(f"desk{tag}")
    league = league_create(
        owner=org,
        name=f"Day {tag}",
        format="open",
        games_planned=2,
        points_scheme=[5, 3, 1, 0],
        time_limit_minutes=40,
    )
    tokens = {}
    for i in range(players):
        entry = accountless_player_create(league=league, by=org, name=f"{tag} Player {i:03d}")
        tokens[entry.pk] = result_link_create(entry=entry, by=org)[1]
    Entry.objects.filter(league=league).update(state="accepted")
    open_round_draw(league=league, by=org, seed=3)
    table = league.fixtures.filter(round=1).order_by("number").first()
    seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    phones = []
    for entry in seats[:2]:
        phone = Client()
        phone.get(reverse("tournaments:result-link", args=[tokens[entry]]))
        phones.append(phone)
    return table, seats, phones


def _posted(phone: Client, page: str, form: dict):
    """The phone's post and the number of queries it ran."""
    with CaptureQueriesContext(connection) as ctx:
        response = phone.post(page, form)
    if os.environ.get("SHOW_QUERIES"):  # to see them: SHOW_QUERIES=1 pytest -s …
        print(*(q["sql"][:200] for q in ctx.captured_queries), sep="\n")
    return response, len(ctx.captured_queries)


@pytest.mark.django_db
def test_entering_and_confirming_at_a_table_cost_the_same_few_queries_at_any_size():
    counts = {}
    for players in (16, 64):
        table, seats, phones = _day(players, str(players))
        page = reverse("tournaments:table", args=[table.pk])
        form = {"do": "enter", **{f"place_{e}": i + 1 for i, e in enumerate(seats)}}
        entered, enter_queries = _posted(phones[0], page, form)
        confirmed, confirm_queries = _posted(phones[1], page, form)
        assert entered.status_code == confirmed.status_code == 302
        result = Result.objects.get(fixture=table)
        assert result.state == "confirmed" and result.placings == seats
        counts[players] = (enter_queries, confirm_queries)
    assert counts[16] == counts[64]  # nothing per player or per table
    enter, confirm = counts[64]
    # the session, the table with its seats, the link; one locked read of the table with
    # its seats and versions; the writes (and, confirming, the counted result's
    # consequences: starts, standings, the rated game)
    assert enter <= ENTER_QUERIES and confirm <= CONFIRM_QUERIES, counts


#: the table page a phone opens (and follows after each post): the session, the link, the
#: table with its seats and result versions read once, the round clock; 10 when the table
#: was read twice and its open result a third time (before h-champday)
PAGE_QUERIES = 6


@pytest.mark.django_db
def test_the_table_page_reads_the_table_once_and_shows_the_entered_result():
    table, seats, phones = _day(16, "page")
    page = reverse("tournaments:table", args=[table.pk])
    form = {"do": "enter", **{f"place_{e}": i + 1 for i, e in enumerate(seats)}}
    assert phones[0].post(page, form).status_code == 302
    phones[1].get(page)  # the session's first read of the link
    with CaptureQueriesContext(connection) as ctx:
        response = phones[1].get(page)
    result = Result.objects.get(fixture=table)
    # the other player sees the entry and its confirm button, with the entered version's id
    assert f'name="result" value="{result.pk}"' in response.content.decode()
    assert len(ctx.captured_queries) <= PAGE_QUERIES, [q["sql"][:80] for q in ctx.captured_queries]


@pytest.mark.django_db
def test_drawing_a_round_costs_the_same_queries_for_4_and_16_tables():
    """The next round comes after the last result: its tables and seats are two inserts,
    not two per table (100 statements for 50 tables before h-champday)."""
    counts = {}
    for players in (16, 64):
        org = make_user(f"drawdesk{players}")
        league = league_create(owner=org, name=f"Draw {players}", format="open", games_planned=2)
        for i in range(players):
            accountless_player_create(league=league, by=org, name=f"D{players} P{i:03d}")
        Entry.objects.filter(league=league).update(state="accepted")
        with CaptureQueriesContext(connection) as ctx:
            open_round_draw(league=league, by=org, seed=5)
        counts[players] = len(ctx.captured_queries)
        tables = league.fixtures.filter(round=1).order_by("number")
        assert [t.number for t in tables] == list(range(1, players // 4 + 1))
        assert all(t.seats.count() == 4 and t.starting_colour for t in tables)
        seated = [s.entry_id for t in tables for s in t.seats.all()]
        assert sorted(seated) == sorted(league.entries.values_list("pk", flat=True))
    assert counts[16] == counts[64], counts
