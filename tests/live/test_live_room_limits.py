"""Issue 22, point 8: one account, one client address may not fill the lobby with rooms."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from live import services
from live.models import Room

pytestmark = pytest.mark.django_db

LIMITS = {"ROOMS_PER_ACCOUNT": 3, "ROOMS_PER_ADDRESS": 4}


def _live(**over):
    from django.conf import settings

    return override_settings(LIVE={**settings.LIVE, **LIMITS, **over})


def test_an_account_hosts_a_bounded_number_of_open_rooms(people):
    with _live():
        rooms = [services.room_create(host=people[0]) for _ in range(3)]
        with pytest.raises(services.Refused, match="3 open rooms already"):
            services.room_create(host=people[0])
        assert Room.objects.filter(host=people[0]).count() == 3
        # a finished room frees its place, and so does a day
        Room.objects.filter(pk=rooms[0].pk).update(status=Room.Status.FINISHED)
        services.room_create(host=people[0])
        Room.objects.filter(pk=rooms[1].pk).update(created_at=timezone.now() - timedelta(days=2))
        services.room_create(host=people[0])


def test_an_address_opens_a_bounded_number_of_rooms_whatever_the_account(people):
    with _live():
        for i in range(4):
            services.room_create(host=people[i % 2], address="203.0.113.9")
        with pytest.raises(services.Refused, match="from your address"):
            services.room_create(host=people[2], address="203.0.113.9")
        services.room_create(host=people[2], address="198.51.100.1")  # another address


def test_the_lobby_says_why_it_refused_and_records_the_address(client, people):
    client.force_login(people[0])
    with _live():
        for _ in range(3):
            assert client.post("/live/", {"mode": "online"}).status_code == 302
        response = client.post("/live/", {"mode": "online"})
    assert response.status_code == 400
    assert "3 open rooms already" in response.content.decode()
    assert set(Room.objects.values_list("host_address", flat=True)) == {"127.0.0.1"}


def test_two_accounts_racing_from_one_address_for_its_last_place_get_one_room(
    transactional_db, monkeypatch
):
    """Real concurrent connections. The race window between the count and the insert is
    widened (a pause after the check): without a lock on the address both requests see
    one place left and both rooms open; with it the second waits for the first to commit,
    counts its room and is refused."""
    from django.contrib.auth import get_user_model

    from live.services import rooms
    from tests.concurrently import run_concurrently

    User = get_user_model()
    a, b = (User.objects.create_user(f"racer{i}", password="pw-long-enough-1") for i in (1, 2))
    with _live(ROOMS_PER_ADDRESS=1):
        checked = rooms.open_rooms_limit

        def check_then_pause(host, address):
            checked(host, address)
            time.sleep(0.5)  # the other request runs its check meanwhile

        monkeypatch.setattr(rooms, "open_rooms_limit", check_then_pause)
        outcomes = run_concurrently(
            *[(lambda u=u: services.room_create(host=u, address="203.0.113.7")) for u in (a, b)]
        )
    refused = [o for o in outcomes if isinstance(o, services.Refused)]
    assert len(refused) == 1 and "from your address" in refused[0].message, outcomes
    assert Room.objects.filter(host_address="203.0.113.7").count() == 1


def test_one_account_racing_itself_gets_its_last_place_once(transactional_db, monkeypatch):
    from django.contrib.auth import get_user_model

    from live.services import rooms
    from tests.concurrently import run_concurrently

    host = get_user_model().objects.create_user("racer", password="pw-long-enough-1")
    with _live(ROOMS_PER_ACCOUNT=1):
        checked = rooms.open_rooms_limit

        def check_then_pause(host, address):
            checked(host, address)
            time.sleep(0.5)

        monkeypatch.setattr(rooms, "open_rooms_limit", check_then_pause)
        outcomes = run_concurrently(
            *[(lambda a=a: services.room_create(host=host, address=a)) for a in ("1.1.1.1", "")]
        )
    refused = [o for o in outcomes if isinstance(o, services.Refused)]
    assert len(refused) == 1 and "open rooms already" in refused[0].message, outcomes
    assert Room.objects.filter(host=host).count() == 1
