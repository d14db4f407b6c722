"""Provably fair dice in live rooms (docs/live.md, "Provably fair dice"): every roll of a room
is the stream of its secret seed — players', automatic, timer and computer moves alike — the
commitment is published from the start, the seed only in the finished room's log; the room
page and a league game's page check every roll. Nothing served during play holds the seed."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games.engine import validate
from games.engine.dice import commitment, die, verify_dice
from games.fair_dice import dice_check
from live import dispatch, services
from live.models import Room, RoomEvent, Seat
from tests.builders import erin_against_carol
from tests.live.conftest import drive


def _seed(room: Room) -> bytes:
    return bytes(Room.objects.get(pk=room.pk).dice_seed)


def _rolls_are_the_seeds(room: Room) -> int:
    """Every event's die and the die on turn are the stream of the room's seed."""
    room.refresh_from_db()
    seed = _seed(room)
    dice = list(RoomEvent.objects.filter(room=room).order_by("number").values_list("data__die"))
    assert [d for (d,) in dice] == [die(seed, i) for i in range(len(dice))]
    if room.status == Room.Status.PLAYING:
        assert room.die == die(seed, room.move_number)
    return len(dice)


def test_every_room_gets_its_own_seed_and_publishes_its_commitment(people, scheduled):
    a = services.room_create(host=people[0])
    b = services.room_create(host=people[1])
    assert len(_seed(a)) == 32 and _seed(a) != _seed(b)
    state = services.room_state(Room.objects.get(pk=a.pk))
    assert state["dice"] == {"scheme": "maedn-dice/1", "commitment": commitment(_seed(a))}


def test_a_computer_games_rolls_are_the_seeds_and_its_log_reveals_it_at_the_end(people, scheduled):
    room = services.room_create(host=people[0], rules="league")
    services.room_start(room=room, by=people[0])
    drive(room)
    n = _rolls_are_the_seeds(room)
    log = services.room_log(room)
    assert log["meta"]["dice"]["seed"] == _seed(room).hex()
    assert validate(log)["valid"] and validate(log)["complete"]
    check = verify_dice(log)
    assert check.verified and check.rolls == n == room.move_number
    services.room_finish(room_id=room.pk)
    room.refresh_from_db()
    assert verify_dice(json.loads(room.game_log.content)).verified  # the stored log too


def test_players_automatic_and_timer_moves_take_their_rolls_from_the_same_stream(people, scheduled):
    room = services.room_create(host=people[0], turn_seconds=60)
    services.seat_take(room=room, by=people[0], colour="red")
    services.seat_take(room=room, by=people[1], colour="yellow")
    services.room_start(room=room, by=people[0])
    by = set()
    for step in range(5000):
        room.refresh_from_db()
        if room.status != Room.Status.PLAYING:
            break
        game = services.room_game(room)
        legal = game.legal_moves(room.die)
        seat = room.seats.get(colour=game.turn)
        if seat.kind == Seat.Kind.HUMAN and len(legal) >= 2 and step % 3:
            last = services.move_play(
                room_id=room.pk,
                by=seat.user,
                move_number=room.move_number,
                choice=[legal[-1].from_, legal[-1].to],
            )
        else:
            if seat.kind == Seat.Kind.HUMAN:  # the timer runs out
                Room.objects.filter(pk=room.pk).update(
                    turn_deadline=room.turn_deadline.replace(year=2000)
                )
            last = services.room_step(room_id=room.pk, move_number=room.move_number)
        by.add(last["by"])
    assert by == {"player", "auto", "timeout", "computer"}
    _rolls_are_the_seeds(room)
    assert verify_dice(services.room_log(room)).verified


def test_many_rooms_verify(people, scheduled):
    """Rooms of both boards and several rules, played by the computer through the services
    (1,000 whole games played with the stream: tests/engine/test_engine_dice.py)."""
    seeds = set()
    for k, (rules, board) in enumerate(
        [("online", 4), ("league", 4), ("online", 6), ("classic", 4)]
    ):
        room = services.room_create(host=people[k], rules=rules, board=board, strength="random")
        services.room_start(room=room, by=people[k])
        drive(room)
        log = services.room_log(room)
        assert validate(log)["valid"] and validate(log)["complete"], k
        assert verify_dice(log).verified, k
        seeds.add(log["meta"]["dice"]["seed"])
    assert len(seeds) == 4


def test_nothing_served_during_play_holds_the_seed(client, people, scheduled):
    """The state sent to every connection (broadcasts and the page's copy), the room page,
    the log so far, the lobby, the log and replay URLs: the commitment, never the seed (nor
    a roll to come). Once the game is over, the seed is in the log and on the page."""
    room = services.room_create(host=people[0])
    seed = _seed(room)
    secret = (seed.hex(), seed.hex().upper(), repr(seed)[2:-1])
    client.force_login(people[1])

    def served() -> list[str]:
        r = Room.objects.get(pk=room.pk)
        texts = [
            json.dumps(services.room_state(r)),
            json.dumps(services.room_log(r)),
            client.get(f"/live/{room.token}/").content.decode(),
            client.get("/live/").content.decode(),
        ]
        for url in ("log.json", "replay/", "replay.json"):
            response = client.get(f"/live/{room.token}/{url}")
            assert response.status_code == 404
            texts.append(response.content.decode())
        return texts

    def clean(texts: list[str]) -> None:
        for text in texts:
            assert not any(s in text for s in secret)

    clean(served())
    services.room_start(room=room, by=people[0])
    for _ in range(40):  # the broadcasts of 40 rolls, each checked when made
        room.refresh_from_db()
        services.room_step(room_id=room.pk, move_number=room.move_number)
        clean(served())
    page = client.get(f"/live/{room.token}/").content.decode()
    assert commitment(seed) in page and 'data-dice-verdict="not-revealed"' in page
    drive(room)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    services.room_finish(room_id=room.pk)
    log = client.get(f"/live/{room.token}/log.json").json()
    assert log["meta"]["dice"]["seed"] == seed.hex()
    page = client.get(f"/live/{room.token}/").content.decode()
    assert seed.hex() in page and 'data-dice-verdict="verified"' in page
    assert "Dice verified" in page


def test_the_broadcast_states_hold_the_commitment_only(
    people, scheduled, monkeypatch, django_capture_on_commit_callbacks
):
    sent: list[dict] = []
    monkeypatch.setattr(dispatch, "group_send", lambda group, message: sent.append(message))
    room = services.room_create(host=people[0])
    seed = _seed(room)
    with django_capture_on_commit_callbacks(execute=True):
        services.room_start(room=room, by=people[0])
    for _ in range(30):
        room.refresh_from_db()
        with django_capture_on_commit_callbacks(execute=True):
            services.room_step(room_id=room.pk, move_number=room.move_number)
    assert len(sent) >= 30
    for message in sent:
        text = json.dumps(message)
        assert seed.hex() not in text
        assert message["state"]["dice"]["commitment"] == commitment(seed)
        assert "seed" not in message["state"]["dice"]


def test_an_abandoned_room_reveals_its_seed_and_its_rolls_verify(db, scheduled):
    t = erin_against_carol()
    room = services.fixture_room_create(fixture=t["fixture"], by=t["erin"])
    services.seat_take(room=room, by=t["erin"], colour="black")
    services.seat_take(room=room, by=t["carol"], colour="red")
    for _ in range(10):
        room.refresh_from_db()
        Room.objects.filter(pk=room.pk).update(turn_deadline=room.turn_deadline.replace(year=2000))
        services.room_step(room_id=room.pk, move_number=room.move_number)
    assert "seed" not in services.room_log(Room.objects.get(pk=room.pk))["meta"]["dice"]
    services.seat_leave(room=room, by=t["erin"])
    services.seat_leave(room=room, by=t["carol"])
    room.refresh_from_db()
    assert room.status == Room.Status.ABANDONED
    log = services.room_log(room)
    assert log["meta"]["dice"]["seed"] == _seed(room).hex()
    assert verify_dice(log).verified and verify_dice(log).rolls == room.move_number >= 10


def test_a_league_game_played_online_shows_its_dice_verified_on_its_page(client, db, scheduled):
    t = erin_against_carol()
    room = services.fixture_room_create(fixture=t["fixture"], by=t["erin"])
    services.seat_take(room=room, by=t["erin"], colour="black")
    services.seat_take(room=room, by=t["carol"], colour="red")
    for _ in range(5000):
        room.refresh_from_db()
        if room.status != Room.Status.PLAYING:
            break
        if room.turn_deadline:
            Room.objects.filter(pk=room.pk).update(
                turn_deadline=room.turn_deadline.replace(year=2000)
            )
        services.room_step(room_id=room.pk, move_number=room.move_number)
    services.room_finish(room_id=room.pk)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.game_log_id, room.result_note
    url = reverse("tournaments:game", args=[t["fixture"].pk])
    html = client.get(url).content.decode()
    assert 'data-dice-verdict="verified"' in html and "Dice verified" in html
    assert f"all {room.move_number} rolls" in html
    assert _seed(room).hex() in html and commitment(_seed(room)) in html
    assert "maedn-dice/1:i" in html and "verify-dice" in html
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Würfel geprüft" in german and "Nachweisbar faire Würfel" in german


@pytest.fixture
def game_log_text():
    from games.engine.dice import play_with_seed

    return play_with_seed(hashlib.sha256(b"page").digest(), choice_seed=1)


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_card_names_the_first_roll_that_differs_and_a_seed_off_its_commitment(
    game_log_text, language
):
    log = json.loads(json.dumps(game_log_text))
    was = log["events"][41]["die"]
    log["events"][41]["die"] = was % 6 + 1
    with translation.override(language):
        html = render_to_string("games/_dice_check.html", {"dice": dice_check(json.dumps(log))})
    assert 'data-dice-verdict="differs"' in html
    words = {"en": ("Roll 42 differs", "event 41"), "de": ("Wurf 42 weicht ab", "Ereignis 41")}
    assert all(w in html for w in words[language]), html
    assert f"{log['events'][41]['die']}" in html and str(was) in html
    log["events"][41]["die"] = was
    log["meta"]["dice"]["seed"] = "00" * 32
    with translation.override(language):
        html = render_to_string("games/_dice_check.html", {"dice": dice_check(log)})
    assert 'data-dice-verdict="commitment-mismatch"' in html
    del log["meta"]["dice"]
    assert dice_check(log) is None  # no commitment: no card


def test_a_room_opened_before_seeds_rolls_as_before_and_shows_no_card(client, people, scheduled):
    room = services.room_create(host=people[0])
    Room.objects.filter(pk=room.pk).update(dice_seed=None)
    services.room_start(room=room, by=people[0])
    drive(room)
    room.refresh_from_db()
    log = services.room_log(room)
    assert "dice" not in log["meta"] and validate(log)["valid"]
    assert services.room_state(room)["dice"] is None
    assert "data-dice-check" not in client.get(f"/live/{room.token}/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_socket_sends_the_commitment_and_never_the_seed_during_play(people, scheduled):
    """Over the real consumer and Redis channel layer: the connect message (the state), the
    events the page asks for and the state after a move carry the commitment, never the
    seed."""
    import asyncio

    from channels.db import database_sync_to_async
    from django.db import connections

    from tests.live.test_live_consumer import _connect, _events, _next_state
    from tests.live.test_live_services import _human_room

    room, game = _human_room(people, scheduled)
    seed = _seed(room)
    legal = game.legal_moves(room.die)

    async def main():
        red, state = await _connect(room, people[0])
        watcher, _ = await _connect(room, people[2])
        events = await _events(watcher, 0)
        texts = [json.dumps(state), json.dumps(events)]
        await red.send_json_to(
            {
                "type": "move",
                "room": room.token,
                "move_number": room.move_number,
                "move": [legal[0].from_, legal[0].to],
            }
        )
        texts.append(json.dumps(await _next_state(watcher, room.move_number + 1)))
        await red.disconnect()
        await watcher.disconnect()
        return state, events, texts

    try:
        state, events, texts = asyncio.run(main())
    finally:
        asyncio.run(database_sync_to_async(connections.close_all)())
    assert state["dice"]["commitment"] == commitment(seed) and len(events["events"]) > 0
    for text in texts:
        assert seed.hex() not in text and seed.hex().upper() not in text
