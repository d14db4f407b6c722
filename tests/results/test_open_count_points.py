"""Time-limited open games: an incomplete log is placed by count points."""

import json

import pytest

from games.engine import outcome, simulate_game
from tests.builders import make_fixture, make_league, make_player, make_user, stopped_open_game
from tournaments.services.results import game_log_submit


def points_by_hand(positions, track=40):
    total = 0
    for p in positions:
        if p == "B":
            continue
        total += 75 if p >= track else 10 + p
    return total


@pytest.mark.django_db
def test_an_incomplete_open_game_is_placed_by_count_points():
    organizer = make_user()
    league = make_league(
        organizer, format="open", confirmation_required=False, time_limit_minutes=40
    )
    names = {"red": "Ria", "black": "Sam", "yellow": "Tom", "green": "Uli"}
    players = {c: make_player(n) for c, n in names.items()}
    fixture = make_fixture(league, [(players[c], [c]) for c in names], "red")
    log = simulate_game(
        rules="classic", players={n: [c] for c, n in names.items()}, first="red", seed=11
    )
    log["events"] = log["events"][:160]  # the time limit struck
    result = game_log_submit(fixture=fixture, content=json.dumps(log), by=organizer)

    positions = outcome(log).positions
    expected = {names[c]: points_by_hand(p) for c, p in positions.items()}
    entry_name = {s.entry_id: s.entry.player.name for s in fixture.seats.all()}
    got = {entry_name[int(k)]: v for k, v in result.count_points.items()}
    assert got == expected
    placed = [entry_name[e] for e in result.placings]
    assert [expected[n] for n in placed] == sorted(expected.values(), reverse=True)
    assert entry_name[result.winner_id] == placed[0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("limit", "last_t", "refusal"),
    [
        (None, None, "has no time limit"),
        (40, 15 * 60 + 7, "ends at 15:07, before the 40-minute time limit"),
    ],
)
def test_an_unfinished_open_log_counts_only_when_the_time_limit_ended_it(limit, last_t, refusal):
    from tournaments.models import RejectedSubmission, Result
    from tournaments.services.errors import ServiceError

    organizer, _league, fixture, log = stopped_open_game(limit, last_t)
    with pytest.raises(ServiceError, match=refusal):
        game_log_submit(fixture=fixture, content=log, by=organizer)
    assert not Result.objects.filter(fixture=fixture).exists()
    assert RejectedSubmission.objects.filter(fixture=fixture).count() == 1
