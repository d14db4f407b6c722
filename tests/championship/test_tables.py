"""Issue 36, rounds and results from the table: the table cards (a QR code per table),
the table's page (a player at the table enters, another confirms, nobody else can; a
result entered twice counts once, also when two phones race), the referee call and the
desk's table states, and the projector's fragment with its ETag."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.builders import make_user
from tests.concurrently import run_concurrently
from tournaments.actors import LinkHolder
from tournaments.models import Entry, Fixture, Result, ResultLink
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
from tournaments.services.errors import NotAllowed, ServiceError
from tournaments.services.leagues import entry_add, league_create
from tournaments.services.open_tournaments import open_round_draw
from tournaments.services.players import player_create
from tournaments.services.result_links import result_link_create

NAMES = ["Anna", "Bert", "Cleo", "Dora", "Emil", "Fritz", "Gina", "Hugo"]


def make_day(accounts: bool = True):
    org = make_user("olga")
    league = league_create(
        owner=org,
        name="Open Day",
        format="open",
        games_planned=2,
        points_scheme=[5, 3, 1, 0],
        time_limit_minutes=40,
    )
    users = {}
    for name in NAMES:
        player = player_create(name=name, shared=True)
        if accounts:
            users[name] = make_user(name.lower())
            player.user = users[name]
            player.save()
        entry_add(league=league, player=player, by=org)
    Entry.objects.filter(league=league).update(state="accepted")
    open_round_draw(league=league, by=org, seed=11)
    return org, league, users


@pytest.fixture
def day(db):
    org, league, users = make_day()
    table = league.fixtures.get(round=1, number=1)
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    return {
        "org": org,
        "league": league,
        "users": users,
        "table": table,
        "seats": seats,
        "sitters": [users[s.entry.player.name] for s in seats],
        "outsider": next(users[n] for n in NAMES if n not in {s.entry.player.name for s in seats}),
    }


def placings(day):
    return [s.entry_id for s in day["seats"]]


def test_the_second_player_entering_the_same_placings_confirms_the_first(day):
    a, b = day["sitters"][:2]
    first = champ.table_result_enter(fixture=day["table"], by=a, placings=placings(day))
    assert first.state == "pending"
    again = champ.table_result_enter(fixture=day["table"], by=a, placings=placings(day))
    assert again.pk == first.pk and again.state == "pending"  # the same phone twice
    confirmed = champ.table_result_enter(fixture=day["table"], by=b, placings=placings(day))
    assert confirmed.pk == first.pk and confirmed.state == "confirmed"
    assert Result.objects.filter(fixture=day["table"]).count() == 1
    assert Fixture.objects.get(pk=day["table"].pk).status == "confirmed"


def test_nobody_enters_a_result_for_a_table_they_do_not_sit_at(day):
    with pytest.raises(NotAllowed, match="only the players at table 1"):
        champ.table_result_enter(fixture=day["table"], by=day["outsider"], placings=placings(day))
    with pytest.raises(NotAllowed):
        champ.table_referee_call(fixture=day["table"], by=day["outsider"])
    assert not Result.objects.filter(fixture=day["table"]).exists()


@pytest.mark.django_db(transaction=True)
def test_two_phones_entering_at_the_same_moment_count_once():
    _org, league, users = make_day()
    table = league.fixtures.get(round=1, number=1)
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    a, b = (users[s.entry.player.name] for s in seats[:2])
    order = [s.entry_id for s in seats]
    outcomes = run_concurrently(
        lambda: champ.table_result_enter(fixture=table, by=a, placings=order),
        lambda: champ.table_result_enter(fixture=table, by=b, placings=order),
    )
    assert all(isinstance(o, Result) for o in outcomes), outcomes
    counted = Result.objects.filter(fixture=table).exclude(state="superseded")
    assert [r.state for r in counted] == ["confirmed"]  # one result, counted once
    assert counted[0].placings == order


def test_a_link_holder_acts_at_their_own_table_through_the_table_page(client, db):
    org, league, _ = make_day(accounts=False)
    table = league.fixtures.get(round=1, number=1)
    seat = table.seats.order_by("position").first()
    _, token = result_link_create(entry=seat.entry, by=org)
    page = reverse("tournaments:table", args=[table.pk])
    assert "Only the players at this table" in client.get(page).content.decode()
    client.get(reverse("tournaments:result-link", args=[token]))  # this phone's player
    assert "Call the referee" in client.get(page).content.decode()
    client.post(page, {"do": "referee"})
    assert Fixture.objects.get(pk=table.pk).referee_called_at is not None
    other = league.fixtures.get(round=1, number=2)
    answer = client.post(reverse("tournaments:table", args=[other.pk]), {"do": "referee"})
    assert answer.status_code == 403
    assert Fixture.objects.get(pk=other.pk).referee_called_at is None
    holder = LinkHolder(seat.entry.result_links.get())
    assert champ.sits_at(holder, table) and not champ.sits_at(holder, other)


def test_the_table_page_enters_confirms_and_the_desk_sees_the_states(client, day):
    page = reverse("tournaments:table", args=[day["table"].pk])
    a, b = day["sitters"][:2]
    client.force_login(a)
    form = {f"place_{s.entry_id}": i + 1 for i, s in enumerate(day["seats"])}
    assert client.post(page, form).status_code == 302
    client.force_login(day["org"])
    tables = reverse("tournaments:desk-tables", args=[day["league"].slug])
    assert "entered" in client.get(tables).content.decode()
    client.force_login(b)
    body = client.get(page).content.decode()
    assert "Confirm: this is right" in body and len(body) < 100_000
    result = Result.objects.get(fixture=day["table"])
    client.post(page, {"do": "confirm", "result": result.pk})
    assert Result.objects.get(pk=result.pk).state == "confirmed"
    client.force_login(day["sitters"][2])
    client.post(page, {"do": "referee"})
    client.force_login(day["org"])
    states = dict(
        (f.number, champ_reads.table_state(f)) for f in champ_reads.round_tables(day["league"], 1)
    )
    assert states == {1: "referee", 2: "playing"}
    assert client.get(tables).status_code == 200
    client.force_login(day["outsider"])
    assert client.get(tables).status_code == 403


def test_table_cards_have_a_qr_code_per_table(client, day):
    cards = client.get(reverse("tournaments:table-cards", args=[day["league"].slug]))
    body = cards.content.decode()
    assert cards.status_code == 200 and body.count('class="table-card"') == 2
    assert body.count("<svg") >= 2 and f"/tables/{day['table'].pk}/" in body
    assert all(n in body for n in NAMES) and len(body) < 100_000
    missing = client.get(
        reverse("tournaments:table-cards", args=[day["league"].slug]), {"round": 9}
    )
    assert missing.status_code == 404


def test_the_projector_fragment_is_304_until_something_changes(client, day):
    url = reverse("tournaments:projector-panels", args=[day["league"].slug])
    first = client.get(url)
    etag = first["ETag"]
    body = first.content.decode()
    assert first.status_code == 200 and "Find your table" in body
    assert body.index("Anna") < body.index("Bert") < body.index("Hugo")  # alphabetical
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    a, b = day["sitters"][:2]
    champ.table_result_enter(fixture=day["table"], by=a, placings=placings(day))
    champ.table_result_enter(fixture=day["table"], by=b, placings=placings(day))
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    page = client.get(reverse("tournaments:projector", args=[day["league"].slug]))
    assert page.status_code == 200 and len(page.content) < 100_000


def _league_of(n: int, tag: str):
    org = make_user(f"org{tag}")
    league = league_create(owner=org, name=f"Day {tag}", format="open", games_planned=2)
    for i in range(n):
        entry_add(league=league, player=player_create(name=f"P{tag}-{i:03d}", shared=True), by=org)
    Entry.objects.filter(league=league).update(state="accepted")
    open_round_draw(league=league, by=org, seed=1)
    return league


def test_an_unchanged_projector_costs_the_same_queries_at_any_size(client, db):
    """The projectors poll every 3 s: a 304 costs the same few queries for 8 and for 200
    players, and the check-in list a fixed number of queries."""
    counts = {}
    for n in (8, 200):
        league = _league_of(n, str(n))
        url = reverse("tournaments:projector-panels", args=[league.slug])
        etag = client.get(url)["ETag"]
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as polled:
            assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
        with CaptureQueriesContext(connection) as full:
            body = client.get(url).content
        counts[n] = (len(polled), len(full), len(body))
    assert counts[8][0] == counts[200][0]
    assert counts[8][1] == counts[200][1]  # the full fragment: no query per player
    assert counts[200][2] < 100_000


def test_the_desk_confirms_an_entered_result_on_the_table_page(client, day):
    a = day["sitters"][0]
    result = champ.table_result_enter(fixture=day["table"], by=a, placings=placings(day))
    page = reverse("tournaments:table", args=[day["table"].pk])
    client.force_login(day["org"])
    body = client.get(page).content.decode()
    assert "Confirm: this is right" in body and "Enter the paper sheet by hand" in body
    client.post(page, {"do": "confirm", "result": result.pk})
    assert Result.objects.get(pk=result.pk).state == "confirmed"
    client.force_login(day["outsider"])
    assert "Confirm: this is right" not in client.get(page).content.decode()


def test_different_placings_from_another_player_dispute_the_table(day):
    a, b = day["sitters"][:2]
    order = placings(day)
    first = champ.table_result_enter(fixture=day["table"], by=a, placings=order)
    with pytest.raises(ServiceError, match="already awaiting confirmation"):
        champ.table_result_enter(fixture=day["table"], by=a, placings=order[::-1])
    disputed = champ.table_result_enter(fixture=day["table"], by=b, placings=order[::-1])
    assert disputed.pk == first.pk and disputed.state == "disputed"
    assert "different placings" in disputed.decision_note
    table = Fixture.objects.get(pk=day["table"].pk)
    assert champ_reads.table_state(table) == "disputed"
    counting = Result.objects.filter(fixture=table, state__in=["pending", "confirmed"])
    assert not counting.exists()  # nothing counts until the desk decides


def test_the_page_warns_the_second_phone_whose_placings_differ(client, day):
    """The page tells the second player their entry disputed the table (from the service's
    answer, not a second read of the table)."""
    page = reverse("tournaments:table", args=[day["table"].pk])
    a, b = day["sitters"][:2]
    order = placings(day)
    client.force_login(a)
    form = {f"place_{e}": i + 1 for i, e in enumerate(order)}
    assert "The result is entered." in client.post(page, form, follow=True).content.decode()
    client.force_login(b)
    backwards = {f"place_{e}": i + 1 for i, e in enumerate(order[::-1])}
    body = client.post(page, backwards, follow=True).content.decode()
    assert "the table is disputed" in body
    assert champ_reads.table_state(Fixture.objects.get(pk=day["table"].pk)) == "disputed"


def test_a_link_revoked_after_the_page_was_opened_enters_nothing(db):
    """The table's lock checks the link again, in the same query."""
    org, league, _ = make_day(accounts=False)
    table = league.fixtures.get(round=1, number=1)
    seats = list(table.seats.order_by("position"))
    link, _token = result_link_create(entry=seats[0].entry, by=org)
    holder = LinkHolder(link)  # the page's actor, read before the desk revokes the link
    ResultLink.objects.filter(pk=link.pk).update(revoked_at=timezone.now())
    with pytest.raises(NotAllowed):
        champ.table_result_enter(fixture=table, by=holder, placings=[s.entry_id for s in seats])
    assert not Result.objects.filter(fixture=table).exists()
