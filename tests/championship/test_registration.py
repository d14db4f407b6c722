"""Issue 36, registration of a championship day: a capacity with a waitlist that moves up
by itself (a withdrawal, the check-in deadline), late entries playing from the next round,
the final table seated from the checked-in players only, teams and categories."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.builders import make_user
from tests.concurrently import run_concurrently
from tournaments.models import Entry, Fixture, League
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
from tournaments.services.entries import accountless_player_create
from tournaments.services.errors import ServiceError
from tournaments.services.leagues import entry_add, entry_withdraw, league_create
from tournaments.services.open_tournaments import open_final_table, open_round_draw
from tournaments.services.players import player_create
from tournaments.services.results import result_enter


def make_event(n: int, capacity: int | None = None, rounds: int = 1):
    org = make_user("olga")
    league = league_create(
        owner=org,
        name="Championship",
        format="open",
        games_planned=rounds,
        points_scheme=[5, 3, 1, 0],
        time_limit_minutes=40,
        confirmation_required=False,
    )
    if capacity is not None:
        champ.league_set_registration(
            league=league, by=org, capacity=capacity, checkin_deadline=None
        )
    entries = [
        entry_add(league=league, player=player_create(name=f"P{i:02d}", shared=True), by=org)
        for i in range(n)
    ]
    return org, League.objects.get(pk=league.pk), entries


def states(entries):
    fresh = {e.pk: e for e in Entry.objects.filter(pk__in=[e.pk for e in entries])}
    return [fresh[e.pk].state for e in entries]


def test_entries_beyond_the_capacity_wait_in_order_and_move_up_on_a_withdrawal(db):
    org, league, entries = make_event(10, capacity=8)
    assert states(entries) == ["accepted"] * 8 + ["waitlisted"] * 2
    assert [e.pk for e in champ_reads.checkin_list(league).waiting] == [
        entries[8].pk,
        entries[9].pk,
    ]
    entry_withdraw(entry=Entry.objects.get(pk=entries[2].pk), by=org)
    assert states(entries)[8:] == ["accepted", "waitlisted"]  # the first waiting moves up
    assert league.entries.playing().count() == 8
    # a waiting player withdraws: nobody else moves
    entry_withdraw(entry=Entry.objects.get(pk=entries[9].pk), by=org)
    assert league.entries.playing().count() == 8


def test_a_larger_capacity_promotes_at_once_and_a_waiting_player_is_not_drawn(db):
    org, league, entries = make_event(10, capacity=8)
    open_round_draw(league=league, by=org, seed=3)
    seated = set(Fixture.objects.filter(league=league).values_list("seats__entry", flat=True))
    assert seated == {e.pk for e in entries[:8]}
    champ.league_set_registration(league=league, by=org, capacity=10, checkin_deadline=None)
    assert states(entries)[8:] == ["accepted", "accepted"]
    # promoted after round 1 was drawn: late, they play from round 2
    assert set(
        Entry.objects.filter(pk__in=[entries[8].pk, entries[9].pk]).values_list(
            "joined_round", flat=True
        )
    ) == {2}


@pytest.mark.django_db(transaction=True)
def test_two_entries_at_once_never_both_take_the_last_place():
    org, league, _ = make_event(7, capacity=8)
    players = [player_create(name=f"Late {i}", shared=True) for i in range(2)]
    outcomes = run_concurrently(
        *(lambda p=p: entry_add(league=league, player=p, by=org) for p in players)
    )
    assert all(isinstance(o, Entry) for o in outcomes), outcomes
    assert sorted(o.state for o in outcomes) == ["accepted", "waitlisted"]
    assert league.entries.playing().count() == 8


def test_the_deadline_releases_the_absent_and_promotes_the_present_waiting_in_order(db):
    org, league, entries = make_event(11, capacity=8)
    champ.checkin_open(league=league, by=org)
    for e in entries[:6]:  # two of the eight are not here
        champ.entry_check_in(entry=e, by=org)
    for e in (entries[9], entries[10]):  # the 2nd and 3rd waiting are here, the 1st is not
        champ.entry_check_in(entry=e, by=org)
    deadline = timezone.now()  # after everyone above was entered
    champ.league_set_registration(league=league, by=org, capacity=8, checkin_deadline=deadline)
    released, promoted = champ.checkin_deadline_apply(league=league)
    assert released == [entries[6].pk, entries[7].pk]
    assert promoted == [entries[9].pk, entries[10].pk]  # the absent waiting one passed over
    assert champ.checkin_deadline_apply(league=league) == ([], [])  # once
    # the absent first waiting player arrives: no place is free
    champ.entry_check_in(entry=Entry.objects.get(pk=entries[8].pk), by=org)
    assert Entry.objects.get(pk=entries[8].pk).state == "waitlisted"
    round1 = open_round_draw(league=league, by=org, seed=5)
    seated = set(
        Fixture.objects.filter(league=league, round=round1.number).values_list(
            "seats__entry", flat=True
        )
    )
    assert seated == {e.pk for e in entries[:6]} | {entries[9].pk, entries[10].pk}
    # a place comes free after the deadline: the waiting player present takes it at once
    entry_withdraw(entry=Entry.objects.get(pk=entries[0].pk), by=org)
    assert Entry.objects.get(pk=entries[8].pk).state == "accepted"
    assert Entry.objects.get(pk=entries[8].pk).joined_round == 2


def test_the_draw_applies_a_passed_deadline_and_a_player_who_played_is_never_released(db):
    org, league, entries = make_event(9, capacity=8, rounds=2)
    champ.checkin_open(league=league, by=org)
    for e in entries[:8]:
        champ.entry_check_in(entry=e, by=org)
    open_round_draw(league=league, by=org, seed=1)
    champ.entry_check_in(entry=entries[0], by=org, checked_in=False)  # left after round 1
    champ.entry_check_in(entry=entries[8], by=org)
    for table in league.fixtures.filter(round=1):
        seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        result_enter(fixture=table, by=org, placings=seats, reason="sheet")
    League.objects.filter(pk=league.pk).update(checkin_deadline=timezone.now())
    open_round_draw(league=League.objects.get(pk=league.pk), by=org, seed=1)
    assert Entry.objects.get(pk=entries[0].pk).withdrawn_at is None  # has played
    assert Entry.objects.get(pk=entries[8].pk).state == "waitlisted"  # no place came free


def test_a_late_entry_plays_from_the_next_round_until_the_final_table(db):
    org, league, _entries = make_event(8, rounds=1)
    open_round_draw(league=league, by=org, seed=2)
    league.refresh_from_db()
    late = accountless_player_create(league=league, by=org, name="Lena Late")
    assert late.state == "accepted" and late.joined_round == 2
    for table in league.fixtures.filter(round=1):
        seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        result_enter(fixture=table, by=org, placings=seats, reason="sheet")
    open_final_table(league=league, by=org)
    with pytest.raises(ServiceError):
        accountless_player_create(league=League.objects.get(pk=league.pk), by=org, name="Too")


def test_the_final_table_is_seated_from_the_checked_in_only(db):
    org, league, entries = make_event(8, rounds=1)
    champ.checkin_open(league=league, by=org)
    for e in entries:
        champ.entry_check_in(entry=e, by=org)
    open_round_draw(league=league, by=org, seed=4)
    for table in league.fixtures.filter(round=1):
        seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        result_enter(fixture=table, by=org, placings=seats, reason="sheet")
    winners = list(
        league.fixtures.filter(round=1)
        .values_list("seats__entry", flat=True)
        .order_by("number", "seats__position")
    )
    best = winners[0]  # won table 1: a finalist on points
    champ.entry_check_in(entry=Entry.objects.get(pk=best), by=org, checked_in=False)
    final = open_final_table(league=League.objects.get(pk=league.pk), by=org)
    finalists = set(final.seats.values_list("entry_id", flat=True))
    assert best not in finalists and len(finalists) == 4


def test_teams_and_categories_from_pasted_lines_and_the_team_classification(db):
    org, league, entries = make_event(8, rounds=1)
    text = "\n".join(
        f"p{i:02d}; {'Kassel' if i < 4 else 'Mainz'}; {'youth' if i % 2 else ''}" for i in range(8)
    )
    assert champ.entries_set_teams(league=league, by=org, text=text) == 8
    assert champ.entries_set_teams(league=league, by=org, text=text) == 0  # nothing new
    with pytest.raises(ServiceError) as refused:
        champ.entries_set_teams(league=league, by=org, text="Nobody; X\np00; Y")
    assert "line 1" in str(refused.value)
    assert Entry.objects.get(pk=entries[0].pk).team == "Kassel"  # nothing changed
    open_round_draw(league=league, by=org, seed=2)
    for table in league.fixtures.filter(round=1):
        seats = list(table.seats.order_by("position").values_list("entry_id", flat=True))
        result_enter(fixture=table, by=org, placings=seats, reason="sheet")
    board = champ_reads.classification(league)
    assert sorted(r.team for r, _counted in board.teams) == ["Kassel", "Mainz"]
    assert sum(r.points for r, _counted in board.teams) == 2 * (5 + 3 + 1 + 0)
    youth = champ_reads.classification(league, category="youth")
    assert {r.entry.pk for r in youth.rows} == {e.pk for e in entries[1::2]}
    assert youth.categories == ["youth"]


def test_the_desk_sets_capacity_and_pastes_teams_through_the_page(client, db):
    org, league, entries = make_event(3)
    client.force_login(org)
    url = reverse("tournaments:desk-registration", args=[league.slug])
    assert client.get(url).status_code == 200
    client.post(
        url, {"action": "settings", "capacity": "2", "checkin_deadline": "", "team_best": "0"}
    )
    assert League.objects.get(pk=league.pk).capacity == 2
    assert states(entries) == ["accepted"] * 3  # a lower capacity moves nobody down
    client.post(url, {"action": "teams", "text": "P00;Kassel;youth"})
    assert Entry.objects.get(pk=entries[0].pk).category == "youth"
    page = client.get(reverse("tournaments:classification", args=[league.slug]))
    assert "Kassel" in page.content.decode()


def test_phones_behind_one_address_each_have_their_own_allowance(db, settings):
    """A venue's phones share the Wi-Fi's address: a player acting through their private
    link is throttled per link, not per address (30 writes a minute for the whole hall
    would stop the day)."""
    from django.test import Client

    from tests.championship.test_tables import make_day
    from tournaments.services.result_links import result_link_create

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "submissions": "2/min",
        },
    }
    org, league, _ = make_day(accounts=False)
    table = league.fixtures.get(round=1, number=1)
    page = reverse("tournaments:table", args=[table.pk])
    phones = []
    for seat in table.seats.order_by("position")[:2]:
        _, token = result_link_create(entry=seat.entry, by=org)
        phone = Client(REMOTE_ADDR="192.0.2.7")  # the same address for both
        phone.get(reverse("tournaments:result-link", args=[token]))
        phones.append(phone)
    for phone in phones:
        for _ in range(2):
            assert phone.post(page, {"do": "referee"}).status_code == 302
    assert phones[0].post(page, {"do": "referee"}).status_code == 429  # its own limit
    stranger = Client(REMOTE_ADDR="192.0.2.7")  # no link: per address, as before
    assert [stranger.post(page, {"do": "referee"}).status_code for _ in range(3)][-1] == 429


def test_projectors_share_one_rendering_per_change_and_language(db):
    """The full fragment is rendered once per change and language and shared by every
    projector polling; a change (a new version) is never served from the old rendering."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tests.championship.test_tables import make_day
    from tournaments.models import Fixture

    org, league, _users = make_day()
    url = reverse("tournaments:projector-panels", args=[league.slug])
    first = Client().get(url)
    with CaptureQueriesContext(connection) as again:
        second = Client().get(url)  # another projector, no ETag yet
    assert second.content == first.content
    assert len(again) <= 2  # the league and the version: no rendering
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get(url).content.decode()
    assert "Finde deinen Tisch" in german
    assert "Find your table" in Client().get(url).content.decode()
    table = league.fixtures.get(round=1, number=1)
    order = list(table.seats.order_by("position").values_list("entry_id", flat=True))
    result_enter(fixture=table, by=org, placings=order, reason="sheet")
    assert Fixture.objects.get(pk=table.pk).status == "confirmed"
    changed = Client().get(url)
    assert changed["ETag"] != first["ETag"] and changed.content != first.content
