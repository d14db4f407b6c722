"""Live play's services: server dice, legal moves only, one event per roll number, timers,
seats taken, left and taken back, the modes, the log."""

from __future__ import annotations

import json
import threading

import pytest
from django.db import connections

from games.engine import final_game, simulate_game, validate
from live import services
from live.models import Room, RoomEvent, Seat
from live.services import moves
from tests.live.conftest import drive, play_until


def _snapshot(room):
    room.refresh_from_db()
    return (room.move_number, room.die, room.status, RoomEvent.objects.filter(room=room).count())


def _computer_room(host, **kw):
    room = services.room_create(host=host, **kw)
    services.room_start(room=room, by=host)
    room.refresh_from_db()
    return room


def test_a_computer_game_is_played_to_the_end_and_its_log_validates(people, scheduled):
    room = _computer_room(people[0], rules="league")
    assert 1 <= room.die <= 6 and room.move_number == 0
    drive(room)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.winner
    log = services.room_log(room)
    verdict = validate(log)
    assert verdict["valid"] and verdict["complete"], verdict
    assert verdict["winner"] == room.winner
    assert verdict["events"] == room.move_number == len(log["events"])
    times = [e["t"] for e in log["events"]]
    assert times == sorted(times) and all(t >= 0 for t in times)
    services.room_finish(room_id=room.pk)
    room.refresh_from_db()
    assert room.game_log is not None and room.game_log.complete


@pytest.mark.parametrize("strength", ["strong", "random"])
def test_computer_seats_of_every_strength_play_a_league_game_to_a_valid_end(
    people, scheduled, strength
):
    room = _computer_room(people[0], rules="league", strength=strength)
    assert set(room.seats.values_list("strength", flat=True)) == {strength}
    drive(room)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.winner
    verdict = validate(services.room_log(room))
    assert verdict["valid"] and verdict["complete"] and verdict["winner"] == room.winner


def test_a_step_for_an_answered_roll_does_nothing(people, scheduled):
    room = _computer_room(people[0])
    number = room.move_number
    assert services.room_step(room_id=room.pk, move_number=number) is not None
    before = _snapshot(room)
    assert services.room_step(room_id=room.pk, move_number=number) is None  # late or twice
    assert _snapshot(room) == before


def _human_room(people, scheduled, *, mode="online", seconds=60):
    """A room where person0 holds red and red is on turn with at least two legal moves."""
    for _ in range(200):
        room = services.room_create(host=people[0], mode=mode, turn_seconds=seconds)
        services.seat_take(room=room, by=people[0], colour="red")
        services.seat_take(room=room, by=people[1], colour="yellow")
        services.room_start(room=room, by=people[0])
        found = play_until(room, lambda game, legal: game.turn == "red" and len(legal) >= 2)
        if found is not None:
            return found, services.room_game(found)
    raise AssertionError("no position with a choice for red")


def test_refused_moves_change_nothing(people, scheduled):
    room, game = _human_room(people, scheduled)
    legal = game.legal_moves(room.die)
    good = [legal[0].from_, legal[0].to]
    before = _snapshot(room)
    cases = [
        (people[1], room.move_number, good, "not yours"),  # a seat not on turn
        (people[2], room.move_number, good, "not yours"),  # a spectator
        (people[0], room.move_number - 1, good, "roll"),  # a replayed or stale message
        (people[0], room.move_number + 1, good, "roll"),
        (people[0], room.move_number, [0, 99], "not a legal move"),  # an illegal move
        (people[0], room.move_number, "e2e4", "a move is"),
        (people[0], "7", good, "move_number"),
    ]
    for user, number, choice, words in cases:
        with pytest.raises(services.Refused, match=words):
            services.move_play(room_id=room.pk, by=user, move_number=number, choice=choice)
        assert _snapshot(room) == before
    last = services.move_play(
        room_id=room.pk, by=people[0], move_number=room.move_number, choice=good
    )
    assert last["by"] == "player" and last["move"] == good
    with pytest.raises(services.Refused, match="roll"):  # the same message again
        services.move_play(room_id=room.pk, by=people[0], move_number=before[0], choice=good)


def test_the_timer_moves_for_a_player_only_when_it_has_run_out(people, scheduled):
    room, _game = _human_room(people, scheduled, seconds=60)
    before = _snapshot(room)
    assert services.room_step(room_id=room.pk, move_number=room.move_number) is None
    assert _snapshot(room) == before
    Room.objects.filter(pk=room.pk).update(turn_deadline=room.turn_deadline.replace(year=2000))
    last = services.room_step(room_id=room.pk, move_number=room.move_number)
    assert last["by"] == "timeout" and last["move"]
    assert services.room_step(room_id=room.pk, move_number=before[0]) is None


def test_around_the_table_has_no_timer_and_the_host_moves_for_everyone(people, scheduled):
    room = services.room_create(host=people[0], mode="table", names=["Ann", "Ben"])
    assert room.turn_seconds is None
    services.room_start(room=room, by=people[0])
    room.refresh_from_db()
    assert room.turn_deadline is None
    assert list(room.seats.values_list("kind", flat=True)) == [
        "human",
        "human",
        "computer",
        "computer",
    ]
    with pytest.raises(services.Refused, match="host plays every seat"):
        services.seat_take(room=room, by=people[1], colour="yellow")


def test_seats_taken_left_and_taken_back(people, scheduled):
    room = services.room_create(host=people[0])
    services.seat_take(room=room, by=people[0], colour="red")
    with pytest.raises(services.Refused, match="taken"):
        services.seat_take(room=room, by=people[1], colour="red")
    with pytest.raises(services.Refused, match="already play"):
        services.seat_take(room=room, by=people[0], colour="black")
    services.room_start(room=room, by=people[0])
    assert services.seat_leave(room=room, by=people[0]) == 1
    red = room.seats.get(colour="red")
    assert red.kind == Seat.Kind.COMPUTER and red.original == people[0]
    # while the computer holds it, anyone may take it; the original player can take it back
    services.seat_take(room=room, by=people[0], colour="red")
    red.refresh_from_db()
    assert red.kind == Seat.Kind.HUMAN and red.user == people[0]


def test_a_dropped_connection_hands_the_seat_over_after_the_grace_period(people, scheduled):
    room = services.room_create(host=people[0])
    services.seat_take(room=room, by=people[0], colour="red")
    services.seat_connected(room_id=room.pk, by=people[0])
    services.seat_disconnected(room_id=room.pk, by=people[0])
    task, args, delay = scheduled[-1]
    assert task == "live.seat_grace" and delay > 0
    services.seat_connected(room_id=room.pk, by=people[0])  # back in time
    assert services.seat_grace_expire(room_id=room.pk, user_id=args[1], since=args[2]) == 0
    services.seat_disconnected(room_id=room.pk, by=people[0])
    _, args, _ = scheduled[-1]
    assert services.seat_grace_expire(room_id=room.pk, user_id=args[1], since=args[2]) == 1
    assert room.seats.get(colour="red").kind == Seat.Kind.COMPUTER


@pytest.mark.parametrize("variant", ["quick", "first-capture"])
def test_the_modes_end_the_game_by_their_condition(people, scheduled, variant):
    room = _computer_room(people[0], variant=variant)
    drive(room)
    room.refresh_from_db()
    log = services.room_log(room)
    verdict = validate(log)
    assert verdict["valid"], verdict
    if room.end_reason == variant:
        assert not verdict["complete"]
        if variant == "quick":
            assert log["rules"]["setup"] == "one-out"
            assert max(verdict["pawns_home"].values()) == 2
            assert verdict["pawns_home"][room.winner] == 2
        else:
            assert sum(verdict["captures"].values()) == 1
            assert verdict["captures"][room.winner] == 1
    else:  # no capture in the whole game: the first colour home wins
        assert verdict["complete"] and variant == "first-capture"
    assert log["meta"]["variant"] == variant


def test_bad_room_settings_are_refused(people):
    for kwargs, words in [
        ({"board": 5}, "board"),
        ({"rules": "chess"}, "cannot be played"),
        ({"variant": "blitz"}, "cannot be played"),
        ({"turn_seconds": 9999}, "timer"),
        ({"strength": "grandmaster"}, "strength"),
        ({"mode": "table"}, "name 1 to 4"),
    ]:
        with pytest.raises(services.Refused, match=words):
            services.room_create(host=people[0], **kwargs)
    assert not Room.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_two_processes_racing_for_one_roll_apply_it_once(scheduled):
    from django.contrib.auth import get_user_model

    host = get_user_model().objects.create_user("racer")
    room = _computer_room(host)
    for _ in range(30):
        room.refresh_from_db()
        number = room.move_number
        results = []
        barrier = threading.Barrier(4)

        def step(barrier=barrier, results=results, number=number):
            barrier.wait()
            try:
                results.append(services.room_step(room_id=room.pk, move_number=number))
            finally:
                connections.close_all()

        threads = [threading.Thread(target=step) for _ in range(4)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert sum(r is not None for r in results) == 1
        assert RoomEvent.objects.filter(room=room).count() == number + 1
    assert json.dumps(services.room_log(room))


def test_the_winner_is_the_engines_not_the_first_colour_home(people, scheduled):
    # 2T+ (end: both-colours), seed 1: carol's red is home first, but erin finishes both —
    # the room stores the engine's winner, a player
    players = {"erin": ["black", "yellow"], "carol": ["green", "red"]}
    rules = {"preset": "league", "end": "both-colours"}
    log = simulate_game(rules, players=players, first="black", seed=1)
    game = final_game(log)
    assert game.placing_colours()[0] == "red" and game.winner == "erin"
    room = services.room_create(host=people[0], rules=rules)
    Room.objects.filter(pk=room.pk).update(players=players, first="black")
    room.refresh_from_db()
    services.room_start(room=room, by=people[0])
    events = log["events"]
    for event in events[:-1]:
        RoomEvent.objects.create(
            room=room, number=len(RoomEvent.objects.filter(room=room)), data=event, by="computer"
        )
    Room.objects.filter(pk=room.pk).update(move_number=len(events) - 1, die=events[-1]["die"])
    room.refresh_from_db()
    last = events[-1]
    move = next(
        m
        for m in services.room_game(room).legal_moves(last["die"])
        if [m.from_, m.to] == last["move"]
    )
    moves.apply(room, services.room_game(room), move, by="computer")
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert room.winner == "erin" and room.end_reason == "finished"


def _at_a_choice(room) -> None:
    """Put a started room (first colour red, a person on red) at a roll where red has a
    real choice: the first such roll of a seeded game under the room's rules."""
    log = simulate_game(room.rules, first=room.first, seed=2)
    game = services.room_game(room)
    for number, event in enumerate(log["events"]):
        if game.turn == "red" and len(game.legal_moves(event["die"])) > 1:
            Room.objects.filter(pk=room.pk).update(move_number=number, die=event["die"])
            return
        RoomEvent.objects.create(room=room, number=number, data=event, by="player")
        game.push_event(event)
    raise AssertionError("no choice for red in the seeded game")


def test_the_sweep_steps_a_room_whose_timer_died_and_nothing_else(people, scheduled):
    from datetime import timedelta

    from django.utils import timezone

    stuck = _computer_room(people[0])  # its scheduled step is recorded, never run: it died
    fresh = _computer_room(people[1])
    thinking = services.room_create(host=people[2], mode="computer")  # a person, no timer
    services.room_start(room=thinking, by=people[2])
    _at_a_choice(thinking)
    long_ago = timezone.now() - timedelta(seconds=60)
    Room.objects.filter(pk__in=[stuck.pk, thinking.pk]).update(rolled_at=long_ago)
    Room.objects.filter(pk=stuck.pk).update(turn_deadline=long_ago)
    before = {r.pk: r.move_number for r in Room.objects.all()}
    assert services.rooms_sweep(older_than=15) == 1
    after = {r.pk: r.move_number for r in Room.objects.all()}
    assert after[stuck.pk] == before[stuck.pk] + 1  # the computer seat moved once
    assert after[fresh.pk] == before[fresh.pk]  # its timer is alive: not the sweep's business
    assert after[thinking.pk] == before[thinking.pk]  # a person is deciding: left alone
    # the step the sweep made rolled anew: a second sweep leaves the room alone
    assert services.rooms_sweep(older_than=15) == 0
