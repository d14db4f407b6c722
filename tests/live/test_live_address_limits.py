"""Per-address limits (issue 33, point 5): nginx counts an address's page connections and
its live sockets apart, and all the sockets of one address to a server process share a
message budget — over it a read is dropped and a change refused, other addresses unharmed."""

from __future__ import annotations

import asyncio
import re

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connections

from live import consumers, services
from live.routing import websocket_urlpatterns
from tests.processes import REPO_ROOT

APP = URLRouter(websocket_urlpatterns)


def _locations(conf: str) -> dict[str, str]:
    """Each ``location`` block's text by its path."""
    found = {}
    for match in re.finditer(r"location (\S+) \{(.*?)\n        \}", conf, re.S):
        found[match.group(1)] = match.group(2)
    return found


def test_nginx_counts_pages_and_live_sockets_apart():
    conf = (REPO_ROOT / "config" / "nginx.conf.template").read_text()
    zones = re.findall(r"limit_conn_zone \$binary_remote_addr zone=(\w+):", conf)
    blocks = _locations(conf)
    pages = re.findall(r"limit_conn (\w+) (\d+);", blocks["/"])
    sockets = re.findall(r"limit_conn (\w+) (\d+);", blocks["/ws/"])
    assert len(pages) == len(sockets) == 1
    assert pages[0][0] != sockets[0][0] and {pages[0][0], sockets[0][0]} <= set(zones)
    assert (int(pages[0][1]), int(sockets[0][1])) == (100, 300)  # docs/configuration.md
    # no server-wide count that would add both together
    server_part = conf.split("location /", 1)[0]
    assert not re.search(r"^\s*limit_conn \w+ \d+;", server_part, re.M)


def test_nginx_limits_how_fast_an_address_opens_live_sockets():
    conf = (REPO_ROOT / "config" / "nginx.conf.template").read_text()
    zone = r"limit_req_zone \$binary_remote_addr zone=(\w+):\w+ rate=([\w/]+);"
    zones = dict(re.findall(zone, conf))
    blocks = _locations(conf)
    opens = re.findall(r"limit_req zone=(\w+) burst=(\d+) nodelay;", blocks["/ws/"])
    assert opens and zones[opens[0][0]] == "10r/s" and int(opens[0][1]) == 100
    assert "limit_req " not in blocks["/"]  # pages are not slowed by it
    assert re.search(r"^\s*limit_req_status 429;", conf, re.M)


def test_an_address_budget_is_shared_by_its_sockets_and_no_one_else(settings):
    settings.LIVE = {**settings.LIVE, "MESSAGES_PER_ADDRESS": 1, "ADDRESS_BURST": 5}
    consumers._address_budget.clear()
    allowed = [consumers.address_over("10.0.0.1") for _ in range(8)]
    assert allowed == [False] * 5 + [True] * 3
    assert consumers.address_over("10.0.0.2") is False  # another address
    assert consumers.address_over(None) is False  # no address known (in-process tests)


@pytest.mark.django_db(transaction=True)
def test_over_the_budget_a_read_is_dropped_and_a_change_refused(people, scheduled, settings):
    settings.LIVE = {
        **settings.LIVE,
        "MESSAGES_PER_ADDRESS": 0.01,
        "ADDRESS_BURST": 4,
        "ADDRESS_CONNECT_COST": 1,  # the connect takes one of the four
    }
    consumers._address_budget.clear()
    room = services.room_create(host=people[0])

    async def main():
        comm = WebsocketCommunicator(APP, f"/ws/live/{room.token}/")
        comm.scope["user"] = people[1]
        comm.scope["client"] = ("10.0.0.7", 4000)
        assert (await comm.connect())[0]
        await comm.receive_json_from(timeout=5)
        for i in range(5):
            await comm.send_json_to({"type": "ping", "at": i})
        pongs = []
        while not await comm.receive_nothing(timeout=0.3):
            pongs.append(await comm.receive_json_from())
        await comm.send_json_to({"type": "take", "room": room.token, "colour": "red"})
        refused = await comm.receive_json_from(timeout=5)
        await comm.disconnect()
        await database_sync_to_async(connections.close_all)()
        return pongs, refused

    pongs, refused = asyncio.run(main())
    assert [p["at"] for p in pongs] == [0, 1, 2]  # the burst; the rest dropped
    assert refused["type"] == "refused" and "too many messages" in refused["error"]
    assert not room.seats.filter(kind="human").exists()
