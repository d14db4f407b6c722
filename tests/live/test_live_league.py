"""League games played online: a room for a scheduled game (reserved seats, the league's
rules, the fixture's starting colour), its log counted at once through the results service
and the standings updated by a real Celery worker; a no-show as a forfeit."""

from __future__ import annotations

import time

import pytest

from core.errors import ServiceError
from games.engine import validate
from live import services
from live.models import Room, Seat
from tests.builders import (
    erin_against_carol,
    example_text,
    make_league,
    make_player,
    make_user,
)
from tournaments.models import Entry, Fixture, Result, StandingsSnapshot
from tournaments.services.results import game_log_submit


def _table():
    t = erin_against_carol()
    return t["organizer"], t["erin"], t["carol"], t["league"], t["fixture"]


@pytest.mark.django_db
def test_played_online_counts_without_confirmation(db):
    _organizer, erin, _carol, league, fixture = _table()
    assert league.confirmation_required
    log = example_text("valid-league-2tplus.json")
    result = game_log_submit(fixture=fixture, content=log, by=erin, played_online=True)
    assert result.state == Result.State.CONFIRMED


@pytest.mark.django_db
def test_an_upload_by_a_player_still_waits_for_confirmation(db):
    _organizer, erin, _carol, _league, fixture = _table()
    log = example_text("valid-league-2tplus.json")
    assert game_log_submit(fixture=fixture, content=log, by=erin).state == Result.State.PENDING


@pytest.mark.django_db
def test_a_league_room_reserves_the_seats_and_takes_the_league_rules(scheduled):
    _organizer, erin, carol, league, fixture = _table()
    room = services.fixture_room_create(fixture=fixture, by=erin)
    assert room.rules == league.rules_spec and room.first == "black" and room.board == 4
    assert room.players == {"erin": ["black", "yellow"], "carol": ["green", "red"]}
    seats = {s.colour: s for s in room.seats.all()}
    assert all(s.reserved for s in seats.values())
    assert seats["black"].original == erin and seats["red"].original == carol
    stranger = make_user("stranger")
    with pytest.raises(services.Refused, match="reserved"):
        services.seat_take(room=room, by=stranger, colour="red")
    with pytest.raises(services.Refused, match="open room"):
        services.fixture_room_create(fixture=fixture, by=carol)
    with pytest.raises(ServiceError):  # the results' own refusal
        services.fixture_room_create(fixture=fixture, by=stranger)
    taken = services.seat_take(room=room, by=erin, colour="black")
    assert {s.colour for s in taken} == {"black", "yellow"}
    room.refresh_from_db()
    assert room.status == Room.Status.WAITING  # carol is not here yet
    with pytest.raises(services.Refused, match="every player"):
        services.room_start(room=room, by=erin)


@pytest.mark.django_db
def test_a_no_show_is_the_leagues_forfeit(scheduled):
    organizer, erin, _carol, _league, fixture = _table()
    room = services.fixture_room_create(fixture=fixture, by=organizer)
    services.seat_take(room=room, by=erin, colour="yellow")
    carol_entry = fixture.seats.get(entry__player__name="carol").entry
    erin_entry = fixture.seats.get(entry__player__name="erin").entry
    with pytest.raises(services.Refused, match="organizer"):
        services.fixture_no_show(room=room, by=erin, absent=carol_entry)
    with pytest.raises(services.Refused, match="is here"):
        services.fixture_no_show(room=room, by=organizer, absent=erin_entry)
    result = services.fixture_no_show(room=room, by=organizer, absent=carol_entry)
    assert result.source == Result.Source.FORFEIT and result.winner == erin_entry
    room.refresh_from_db()
    assert room.status == Room.Status.ABANDONED
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.FORFEITED


def _plays_her_turn(room, user) -> bool:
    """``user`` plays her first legal move if the roll waits for her choice (two moves or
    more), as a person at the board does, instead of the test waiting out her turn's timer
    for every roll of the game (a second each). Her timer still plays for her if she is
    too late: her move is then refused as stale and changes nothing."""
    if room.status != Room.Status.PLAYING:
        return False
    game = services.room_game(room)
    seat = room.seats.get(colour=game.turn)
    legal = game.legal_moves(room.die)
    if seat.kind != Seat.Kind.HUMAN or seat.user_id != user.pk or len(legal) < 2:
        return False
    try:
        services.move_play(
            room_id=room.pk,
            by=user,
            move_number=room.move_number,
            choice=[legal[0].from_, legal[0].to],
        )
    except services.Refused:
        return False
    return True


@pytest.mark.django_db(transaction=True)
@pytest.mark.celery_worker
def test_a_league_game_played_online_counts_and_the_standings_follow(celery_worker):
    _organizer, erin, carol, league, fixture = _table()
    room = services.fixture_room_create(fixture=fixture, by=carol, turn_seconds=1)
    services.seat_take(room=room, by=erin, colour="black")
    services.seat_take(room=room, by=carol, colour="red")  # both here: the game starts
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    # they play a few rolls (the 1 s timer moves for them), then erin leaves: the computer
    # plays her colours on, carol stays at the board and plays her choices herself
    deadline = time.monotonic() + 30
    while Room.objects.get(pk=room.pk).move_number < 10:
        assert time.monotonic() < deadline, "the worker did not move"
        time.sleep(0.1)
    services.seat_leave(room=room, by=erin)
    deadline = time.monotonic() + 300
    while True:
        room.refresh_from_db()
        if room.game_log_id:
            break
        assert time.monotonic() < deadline, f"the game did not end ({room.move_number} rolls)"
        if not _plays_her_turn(room, carol):
            time.sleep(0.05)
    assert set(room.seats.filter(kind=Seat.Kind.HUMAN).values_list("user", flat=True)) == {carol.pk}
    verdict = validate(services.room_log(room))
    assert verdict["valid"] and verdict["complete"]
    result = Result.objects.get(fixture=fixture, state=Result.State.CONFIRMED)
    assert result.game_log_id == room.game_log_id and result.verified
    # the result says who left and from which roll the computer played her colours
    assert result.reason.startswith("played online; erin left the board: the computer played")
    assert "carol" not in result.reason
    assert result.winner.player.name == room.winner == verdict["winner"]
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.CONFIRMED
    deadline = time.monotonic() + 30
    while True:
        snapshot = StandingsSnapshot.objects.filter(league=league).first()
        if snapshot and snapshot.games_played == 1:
            break
        assert time.monotonic() < deadline, "the worker did not recompute the standings"
        time.sleep(0.2)
    rows = {r.entry.player.name: r for r in snapshot.rows.select_related("entry__player")}
    loser = "carol" if room.winner == "erin" else "erin"
    assert rows[room.winner].wins == 1 and rows[room.winner].rank == 1
    assert rows[loser].losses == 1


@pytest.mark.django_db
def test_no_room_while_the_starting_colour_waits_for_an_earlier_game(scheduled):
    _organizer, erin, _carol, _league, fixture = _table()
    Fixture.objects.filter(pk=fixture.pk).update(starting_colour="")
    fixture.refresh_from_db()
    with pytest.raises(services.Refused, match="decided by an earlier game"):
        services.fixture_room_create(fixture=fixture, by=erin)
    assert not Room.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_open_one_room_for_a_game(scheduled):
    from tests.concurrently import run_concurrently

    _organizer, erin, carol, _league, fixture = _table()
    outcomes = run_concurrently(
        lambda: services.fixture_room_create(fixture=fixture, by=erin),
        lambda: services.fixture_room_create(fixture=fixture, by=carol),
    )
    rooms = [o for o in outcomes if isinstance(o, Room)]
    refused = [o for o in outcomes if isinstance(o, services.Refused)]
    assert len(rooms) == 1 and len(refused) == 1, outcomes
    assert "already has an open room" in refused[0].message
    assert Room.objects.filter(fixture=fixture).count() == 1


@pytest.mark.django_db
def test_a_no_show_form_for_another_leagues_entry_is_refused_not_a_server_error(client, scheduled):
    organizer, _erin, _carol, _league, fixture = _table()
    room = services.fixture_room_create(fixture=fixture, by=organizer)
    elsewhere = make_league(organizer, "elsewhere", format="2T+")
    stranger = Entry.objects.create(league=elsewhere, player=make_player("stranger"))
    client.force_login(organizer)
    answer = client.post(f"/live/{room.token}/no-show/", {"entry": stranger.pk}, follow=True)
    assert answer.status_code == 200
    room.refresh_from_db()
    assert room.status == Room.Status.WAITING
    assert not Result.objects.filter(fixture=fixture).exists()


@pytest.mark.django_db(transaction=True)  # the consumer's thread sees what the test wrote
def test_a_private_leagues_room_is_not_found_by_outsiders(client, scheduled):
    import asyncio

    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.db import connections

    from live.routing import websocket_urlpatterns

    _organizer, erin, _carol, league, fixture = _table()
    league.is_public = False
    league.save(update_fields=["is_public"])
    room = services.fixture_room_create(fixture=fixture, by=erin)
    outsider = make_user("outsider")
    for user, status in ((None, 404), (outsider, 404), (erin, 200)):
        client.logout()
        if user is not None:
            client.force_login(user)
        assert client.get(f"/live/{room.token}/").status_code == status, user
        assert client.get(f"/live/{room.token}/replay.json").status_code == 404  # not over
    client.force_login(outsider)

    async def knock(user):
        comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/live/{room.token}/")
        comm.scope["user"] = user
        connected, code = await comm.connect()
        await comm.disconnect()
        return connected, code

    async def both():
        try:
            return await knock(outsider), await knock(erin)
        finally:
            await database_sync_to_async(connections.close_all)()

    from channels.db import database_sync_to_async

    (out_ok, out_code), (erin_ok, _) = asyncio.run(both())
    assert not out_ok and out_code == 4404
    assert erin_ok, _
