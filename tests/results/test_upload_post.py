"""What an upload's POST costs and holds (issue 31, docs/results.md "A burst of results"):
the game read once under its lock, the league's row locked by the last statement of the
transaction, and concurrent uploads of one league's games each counted exactly once on
real PostgreSQL connections."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.engine import simulate_game
from tests.builders import erin_against_carol, example_bytes, make_fixture
from tests.concurrently import run_concurrently
from tournaments.models import Entry, League, Result, StandingsSnapshot
from tournaments.services import standings
from tournaments.services.results import game_log_upload

SEATS = {"erin": ["black", "yellow"], "carol": ["green", "red"]}


def _games(world, count: int):
    league = world["league"]
    entries = {
        e.player.name: e for e in Entry.objects.filter(league=league).select_related("player")
    }
    return [
        make_fixture(league, [(entries[name], colours) for name, colours in SEATS.items()], "black")
        for _ in range(count)
    ]


def _log(league, seed: int) -> bytes:
    """A valid log of erin against carol, different for each seed."""
    game = simulate_game(
        rules=league.rules_spec, players=SEATS, first="black", bots="heuristic", seed=seed
    )
    return json.dumps(game).encode()


def _post(world, fixture, content: bytes):
    client = APIClient()
    client.force_authenticate(world["erin"])
    with CaptureQueriesContext(connection) as queries:
        response = client.post(
            f"/api/v1/fixtures/{fixture.pk}/log/", content, content_type="application/json"
        )
    assert response.status_code == 201, response.content
    return [q["sql"] for q in queries.captured_queries]


def _reads(queries: list[str], table: str) -> int:
    return sum(q.startswith("SELECT") and f'FROM "{table}"' in q for q in queries)


@pytest.mark.django_db
def test_an_upload_reads_the_game_once_under_its_lock():
    """The seats and the result versions are read with the locked fixture (one query each)
    and not again by the permission checks, the result's fields, the ratings' places or the
    notification: an upload of a new game read the seats six times and ran 42 queries."""
    world = erin_against_carol(counts_at_once=True)
    queries = _post(world, world["fixture"], example_bytes())
    locked = next(i for i, q in enumerate(queries) if "FOR NO KEY UPDATE" in q)
    after_lock = queries[locked:]
    assert _reads(after_lock, "tournaments_seat") == 1, after_lock
    # the versions under the lock, the identical-log check, the log used elsewhere, the
    # ratings' counted result; the answer's read of the new result
    assert _reads(after_lock, "tournaments_result") <= 5, after_lock
    assert len(queries) <= 34, len(queries)


@pytest.mark.django_db
def test_the_league_row_is_locked_by_the_last_statement_of_an_upload():
    """The revision bump locks the league's row until the commit, and every counted result
    of the league takes that row: the ratings' and the analyses' statements run before it,
    so after it nothing runs (on_commit work runs after the commit; the answer is the
    stored version as written, not read back)."""
    world = erin_against_carol(counts_at_once=True)
    queries = _post(world, world["fixture"], example_bytes())
    bump = next(
        i
        for i, q in enumerate(queries)
        if q.startswith('UPDATE "tournaments_league" SET "results_revision"')
    )
    # (the test's own transaction makes the upload's a savepoint, released at its end)
    after = [q for q in queries[bump + 1 :] if not q.startswith("RELEASE SAVEPOINT")]
    assert after == [], after
    assert any('"tournaments_ratinggame"' in q for q in queries[:bump])


@pytest.mark.django_db(transaction=True)
def test_concurrent_uploads_of_one_leagues_games_count_once_each():
    """Six players' phones upload six games of one league at the same moment, on six
    PostgreSQL connections: every upload creates its result, each game counts once, the
    revision rises by exactly six, and the table then equals one computed from scratch."""
    world = erin_against_carol(counts_at_once=True)
    league = world["league"]
    games = _games(world, 6)
    logs = [_log(league, seed) for seed in range(len(games))]
    outcomes = run_concurrently(
        *[
            (lambda f=f, log=log: game_log_upload(fixture=f, content=log, by=world["erin"]))
            for f, log in zip(games, logs, strict=True)
        ]
    )
    assert all(not isinstance(o, Exception) and o.created for o in outcomes), outcomes
    counted = Result.objects.filter(fixture__league=league, state=Result.State.CONFIRMED)
    assert sorted(counted.values_list("fixture_id", flat=True)) == sorted(g.pk for g in games)
    assert Result.objects.filter(fixture__league=league).count() == len(games)
    league.refresh_from_db()
    assert league.results_revision == len(games)
    standings.standings_recompute(league.pk)  # (eager Celery ran one per upload already)
    snapshot = StandingsSnapshot.objects.get(league=league)
    assert snapshot.results_revision == league.results_revision
    assert snapshot.games_played == len(games)
    stored = list(snapshot.rows.order_by("position").values_list("entry_id", "played", "wins"))
    games_played, table = standings._computed_table(League.objects.get(pk=league.pk))
    assert games_played == len(games)
    assert stored == [(r.entry, r.values["games_played"], r.values["wins"]) for r in table]


def test_an_accepted_log_is_parsed_once_on_its_way_to_storage(monkeypatch):
    """The validation's parse is the one the stored statistics are counted from: the text
    is not parsed (nor replayed with every step's board) a second time."""
    from games.engine import log as engine_log
    from games.services import game_log_check, game_log_fields

    real, parses = engine_log._load, []

    def counting(data):
        parses.append(len(data))
        return real(data)

    monkeypatch.setattr(engine_log, "_load", counting)
    fields = game_log_fields(game_log_check(example_bytes()))
    assert len(parses) == 1
    assert fields["seat_stats"] and fields["seat_faces"]


@pytest.mark.django_db
def test_an_upload_post_asks_who_organizes_the_league_once():
    """The view's who-may-submit check is passed to the service: neither its check before
    the validation nor the one under the lock asks again (issue 31, h-upload5: three
    identical queries of the league's organizers), and the view's read of the game takes
    no result versions (they are read under the lock)."""
    world = erin_against_carol(counts_at_once=True)
    queries = _post(world, world["fixture"], example_bytes())
    organizers = ' AS "a" FROM "auth_user" INNER JOIN "tournaments_league_organizers"'
    assert sum(organizers in q for q in queries) == 1, queries
    locked = next(i for i, q in enumerate(queries) if "FOR NO KEY UPDATE" in q)
    assert _reads(queries[:locked], "tournaments_result") == 1, queries[:locked]  # log used?
    assert len(queries) <= 28, len(queries)


@pytest.mark.django_db
def test_an_upload_answers_the_version_as_a_read_of_it_shows_it():
    """The 201 answer is the new version serialized as written (not read back): the same
    body as the result's own GET."""
    world = erin_against_carol(counts_at_once=True)
    client = APIClient()
    client.force_authenticate(world["erin"])
    fixture = world["fixture"]
    posted = client.post(
        f"/api/v1/fixtures/{fixture.pk}/log/", example_bytes(), content_type="application/json"
    )
    assert posted.status_code == 201, posted.content
    read = client.get(f"/api/v1/results/{posted.json()['id']}/")
    assert read.status_code == 200
    assert posted.json() == read.json()
    again = client.post(  # the identical log again: 200 with the same version
        f"/api/v1/fixtures/{fixture.pk}/log/", example_bytes(), content_type="application/json"
    )
    assert again.status_code == 200 and again.json() == read.json()


@pytest.mark.django_db
def test_an_upload_of_a_log_counted_at_another_game_is_refused_under_the_lock(monkeypatch):
    """The one read of the log's standing results under the lock refuses a log another
    game's result took after the check before the validation."""
    from tournaments.services import results as result_services

    world = erin_against_carol(counts_at_once=True)
    league = world["league"]
    first, second = _games(world, 2)
    log = _log(league, 7)
    assert game_log_upload(fixture=first, content=log, by=world["erin"]).created
    # as if the other game's upload had committed after this one's validation
    monkeypatch.setattr(result_services, "_log_problems", lambda fixture, checked: [])
    with pytest.raises(result_services.ServiceError) as refused:
        game_log_upload(fixture=second, content=log, by=world["erin"])
    assert refused.value.code == "log_used"
    assert not Result.objects.filter(fixture=second).exists()
