"""The standings never fail on a stored game time, whatever it is: rows stored before
game-log.md bounded ``"t"`` (1.7e308 twice once overflowed the time sum and froze the
league), or infinite, NaN or negative ones, only leave that entry's time total unknown."""

import math

import pytest
from django.db.models import F

from tournaments.models import League, Result, StandingsRow
from tournaments.selectors.standings_inputs import stored_game_time
from tournaments.services.standings import standings_recompute

from .test_standings_recompute import league_with_results


@pytest.mark.parametrize("stored", [1.7e308, math.inf, math.nan, -5.0, 10_000_000.5], ids=str)
@pytest.mark.django_db
def test_impossible_stored_times_do_not_stop_the_recompute(stored: float) -> None:
    league = league_with_results(4, players=4)
    counted = Result.objects.filter(fixture__league=league, state=Result.State.CONFIRMED)
    assert counted.count() == 4
    Result.objects.filter(pk__in=list(counted.values_list("pk", flat=True))).update(
        game_time=stored
    )
    League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
    outcome = standings_recompute(league.pk)
    assert outcome["status"] == "recomputed", outcome
    rows = list(StandingsRow.objects.filter(snapshot__league=league))
    assert sum(r.wins for r in rows) == 4
    assert all(r.metrics.get("game_time") is None for r in rows)


@pytest.mark.django_db
def test_real_stored_times_still_add_up() -> None:
    league = league_with_results(4, players=4)
    Result.objects.filter(fixture__league=league).update(game_time=600.0)
    League.objects.filter(pk=league.pk).update(results_revision=F("results_revision") + 1)
    assert standings_recompute(league.pk)["status"] == "recomputed"
    times = {
        r.metrics.get("game_time") for r in StandingsRow.objects.filter(snapshot__league=league)
    }
    assert times <= {0, 600.0, 1200.0, 1800.0, 2400.0, None} and times & {600.0, 1200.0}


def test_stored_game_time_reads_only_real_times() -> None:
    assert stored_game_time(10_000_000) == 10_000_000.0
    assert stored_game_time(0) == 0.0
    for bad in (None, True, "12", 1.7e308, math.inf, -math.inf, math.nan, -0.5):
        assert stored_game_time(bad) is None


@pytest.mark.parametrize("stored", [1.7e308, math.inf, math.nan, -5.0], ids=str)
@pytest.mark.django_db
def test_the_game_page_shows_an_impossible_stored_time_as_unknown(client, stored: float):
    league = league_with_results(1, players=4)
    result = Result.objects.get(fixture__league=league, state=Result.State.CONFIRMED)
    Result.objects.filter(pk=result.pk).update(game_time=stored)
    response = client.get(f"/games/{result.fixture_id}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Game time" in page and "<dd>–</dd>" in page


def test_durations_of_real_times_are_shown() -> None:
    from tournaments.web.templatetags.maedn import duration

    assert [duration(v) for v in (65, 3725.4, 10_000_000)] == ["1:05", "1:02:05", "2777:46:40"]
    assert [duration(v) for v in (None, 1.7e308, math.inf, math.nan, -1)] == ["–"] * 5
