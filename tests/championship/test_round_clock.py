"""Issue 36, the round clock: the desk starts it with the event's time limit, pauses it (a
referee at a table) and resumes it; the state is stored on the round, so every phone, the
desk and the projector show the same time left. Services with a frozen clock (``now``
given), the plain rule with hypothesis, and the pages (server-rendered time left; the
JavaScript only counts it down)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.builders import make_user
from tests.championship.test_tables import make_day
from tournaments.algorithms.championship import (
    RoundClock,
    clock_left,
    clock_pause,
    clock_resume,
    clock_start,
)
from tournaments.models import OpenRound
from tournaments.selectors import championship as champ_reads
from tournaments.services import championship as champ
from tournaments.services.errors import NotAllowed, ServiceError

T0 = datetime(2026, 12, 6, 10, 0, tzinfo=UTC)


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)


@pytest.fixture
def day(db):
    org, league, users = make_day()
    return org, league, users


def stored(league) -> OpenRound:
    return league.open_rounds.order_by("-number").first()


# --- the plain rule ---------------------------------------------------------------------


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)  # a shared machine
@given(
    limit=st.integers(1, 120),
    steps=st.lists(
        st.tuples(st.sampled_from(["pause", "resume"]), st.integers(0, 3000)), max_size=12
    ),
)
def test_paused_time_never_counts(limit, steps):
    """However the desk pauses and resumes, the time left is the limit minus the time the
    clock ran (never below zero), and a paused clock does not move."""
    now, ran = T0, 0
    clock = clock_start(limit, now)
    for action, wait in steps:
        if clock.state == "running":
            ran += wait
        now += timedelta(seconds=wait)
        before = clock_left(clock, now)
        clock = (clock_pause if action == "pause" else clock_resume)(clock, now)
        assert clock_left(clock, now) == before  # pausing or resuming loses no second
    assert clock_left(clock, now) == max(0, limit * 60 - ran)
    if clock.state == "paused":
        assert clock_left(clock, now + timedelta(hours=5)) == clock_left(clock, now)


def test_an_idle_clock_stays_idle_and_a_bad_limit_is_refused():
    idle = RoundClock()
    assert idle.state == "idle" and clock_left(idle, T0) is None
    assert clock_pause(idle, T0) == idle and clock_resume(idle, T0) == idle
    for bad in (0, -5, True, 2.5):
        with pytest.raises(ValueError):
            clock_start(bad, T0)


# --- the services, with a frozen clock ------------------------------------------------------


def test_the_desk_starts_pauses_and_resumes_the_clock(day):
    org, league, _users = day
    assert champ_reads.round_clock(league, now=T0).state == "idle"
    champ.round_clock_start(league=league, by=org, now=T0)
    view = champ_reads.round_clock(league, now=T0 + minutes(10))
    assert (view.state, view.left, view.ends_at) == ("running", 30 * 60, T0 + minutes(40))
    champ.round_clock_pause(league=league, by=org, now=T0 + minutes(12))
    # a referee at a table: five minutes pass, the clock does not move
    view = champ_reads.round_clock(league, now=T0 + minutes(17))
    assert (view.state, view.left) == ("paused", 28 * 60)
    champ.round_clock_resume(league=league, by=org, now=T0 + minutes(17))
    view = champ_reads.round_clock(league, now=T0 + minutes(20))
    assert (view.state, view.left) == ("running", 25 * 60)
    assert stored(league).clock_ends_at == T0 + minutes(45)
    assert champ_reads.round_clock(league, now=T0 + minutes(46)).left == 0  # time is up


def test_pausing_twice_or_resuming_a_running_clock_changes_nothing(day):
    org, league, _users = day
    champ.round_clock_start(league=league, by=org, now=T0)
    champ.round_clock_resume(league=league, by=org, now=T0 + minutes(5))  # already running
    assert stored(league).clock_ends_at == T0 + minutes(40)
    champ.round_clock_pause(league=league, by=org, now=T0 + minutes(10))
    champ.round_clock_pause(league=league, by=org, now=T0 + minutes(15))  # a second press
    record = stored(league)
    assert (record.clock_left_seconds, record.clock_changed_at) == (30 * 60, T0 + minutes(10))


def test_the_clock_is_started_once_per_round_and_only_by_the_desk(day):
    org, league, users = day
    with pytest.raises(NotAllowed):
        champ.round_clock_start(league=league, by=users["Anna"], now=T0)
    with pytest.raises(ServiceError) as not_started:
        champ.round_clock_pause(league=league, by=org, now=T0)
    assert not_started.value.code == "clock_not_started"
    champ.round_clock_start(league=league, by=org, now=T0)
    with pytest.raises(ServiceError) as again:
        champ.round_clock_start(league=league, by=org, now=T0 + minutes(1))
    assert again.value.code == "clock_started"
    assert stored(league).clock_ends_at == T0 + minutes(40)


def test_no_clock_without_a_time_limit_or_a_round(db):
    from tournaments.services.leagues import league_create

    org = make_user("owen")
    league = league_create(owner=org, name="No Limit", format="open", games_planned=2)
    with pytest.raises(ServiceError) as no_round:
        champ.round_clock_start(league=league, by=org, now=T0)
    assert no_round.value.code == "clock_no_round"
    _org, timed, _users = make_day()
    timed.time_limit_minutes = None
    timed.save(update_fields=["time_limit_minutes"])
    with pytest.raises(ServiceError) as no_limit:
        champ.round_clock_start(league=timed, by=_org, now=T0)
    assert no_limit.value.code == "clock_no_time_limit"
    assert champ_reads.round_clock(timed).state == "none"


# --- the pages ----------------------------------------------------------------------------


def test_the_desk_presses_start_pause_and_resume(client, day):
    org, league, _users = day
    client.force_login(org)
    url = reverse("tournaments:desk-tables", args=[league.slug])
    page = client.get(url).content.decode()
    assert "has not started yet" in page and 'value="start"' in page
    assert client.post(url, {"clock": "start"}).status_code == 302
    page = client.get(url).content.decode()
    assert 'value="pause"' in page and "data-ends=" in page and 'role="timer"' in page
    client.post(url, {"clock": "pause"})
    page = client.get(url).content.decode()
    assert 'value="resume"' in page and "paused" in page and "data-ends=" not in page
    client.post(url, {"clock": "resume"})
    assert stored(league).clock_ends_at is not None
    assert client.post(url, {"clock": "explode"}).status_code == 404


def test_a_player_cannot_press_the_desks_clock(client, day):
    _org, league, users = day
    client.force_login(users["Anna"])
    url = reverse("tournaments:desk-tables", args=[league.slug])
    assert client.post(url, {"clock": "start"}).status_code in (403, 404)
    assert stored(league).clock_ends_at is None


def test_phones_desk_and_projector_show_the_same_time_left(client, day):
    """A paused clock shows the same minutes everywhere, rendered by the server."""
    org, league, _users = day
    start = timezone.now() - minutes(20)
    champ.round_clock_start(league=league, by=org, now=start)
    champ.round_clock_pause(league=league, by=org, now=start + minutes(7) + timedelta(seconds=5))
    table = league.fixtures.get(round=1, number=1)
    pages = [
        client.get(reverse("tournaments:table", args=[table.pk])),
        client.get(reverse("tournaments:projector", args=[league.slug])),
        client.get(reverse("tournaments:projector-panels", args=[league.slug])),
    ]
    client.force_login(org)
    pages.append(client.get(reverse("tournaments:desk-tables", args=[league.slug])))
    for page in pages:
        body = page.content.decode()
        assert page.status_code == 200 and "32:55" in body and "paused" in body


def test_a_running_clock_counts_down_in_the_page_and_time_up_is_said(client, day):
    org, league, _users = day
    start = timezone.now() - minutes(5)
    champ.round_clock_start(league=league, by=org, now=start)
    table = league.fixtures.get(round=1, number=1)
    body = client.get(reverse("tournaments:table", args=[table.pk])).content.decode()
    ends = timezone.localtime(start + minutes(40)).isoformat()
    assert f'data-ends="{ends}"' in body and "js/clock.js" in body
    OpenRound.objects.filter(pk=stored(league).pk).update(clock_ends_at=timezone.now() - minutes(1))
    body = client.get(reverse("tournaments:table", args=[table.pk])).content.decode()
    assert "Time is up: finish the move, then count points." in body


def test_the_projector_changes_its_etag_when_the_clock_does(client, day):
    org, league, _users = day
    url = reverse("tournaments:projector-panels", args=[league.slug])
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    champ.round_clock_start(league=league, by=org)
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and "data-ends=" in changed.content.decode()
    champ.round_clock_pause(league=league, by=org)
    assert client.get(url, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == 200


def test_the_clock_speaks_german(client, day):
    org, league, _users = day
    champ.round_clock_start(league=league, by=org, now=T0)
    champ.round_clock_pause(league=league, by=org, now=T0 + minutes(1))
    client.force_login(org)
    body = client.get(
        reverse("tournaments:desk-tables", args=[league.slug]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Rundenuhr" in body and "angehalten" in body and "Uhr weiterlaufen lassen" in body
    with pytest.raises(ServiceError) as again:
        champ.round_clock_start(league=league, by=org)
    from django.utils import translation

    with translation.override("de"):
        assert "bereits gestartet" in again.value.localized()
