"""Issue 22, point 8: one account, one client address may not fill the lobby with rooms."""

from __future__ import annotations

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
