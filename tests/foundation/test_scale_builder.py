"""bench/scale.py's site builder at a tiny size (0.05× the demo): what it says it built is
in the database, stored as the upload service stores it (so the benchmark's figures are the
platform's, and the builder cannot rot unnoticed)."""

from __future__ import annotations

import hashlib
import json

import pytest

from bench.scale import BIG, OPEN, XLEAGUE, build_site
from games.models import GameLog
from ratings.models import PlayerRating, RatingChange, RatingGame
from tournaments.models import Fixture, League, Result, Series, StandingsSnapshot
from tournaments.services.log_check import fixture_log_mismatches

pytestmark = pytest.mark.django_db


def test_the_tiny_site_holds_what_the_builder_claims():
    built = build_site(0.05, quiet=True)

    counted = Result.objects.filter(state=Result.State.CONFIRMED)
    assert built.counted == counted.count() > 50
    assert built.logs == GameLog.objects.count() == built.counted
    assert built.leagues == League.objects.count() >= 7
    assert sum(built.league_slugs.values()) == built.counted
    assert {BIG, OPEN, XLEAGUE} <= set(built.league_slugs)
    assert {"2T", "3T", "GP", "open"} <= set(League.objects.values_list("format", flat=True))
    assert built.by_service > 0 and built.counted > built.by_service  # both paths ran

    # every counted game has a validated log stored by games' conventions
    assert not counted.filter(game_log__isnull=True).exists()
    assert not counted.filter(verified=False).exists()
    assert not Fixture.objects.filter(results__state="confirmed").exclude(status="confirmed")
    for log in GameLog.objects.all():
        assert log.sha256 == hashlib.sha256(log.content.encode()).hexdigest()
        assert log.size == len(log.content.encode()) and log.seat_faces and log.seat_stats
    # the bulk-stored games are the ones the upload service would accept for their fixture
    for result in counted.filter(fixture__league__slug=BIG).select_related("game_log"):
        assert fixture_log_mismatches(result.fixture, json.loads(result.game_log.content)) == []
        assert result.winner_id is not None and result.placings

    # the standings are current for every league with a counted game
    for league in League.objects.filter(slug__in=[s for s, n in built.league_slugs.items() if n]):
        snapshot = StandingsSnapshot.objects.get(league=league, stage="league")
        assert snapshot.results_revision == league.results_revision
    big = StandingsSnapshot.objects.get(league__slug=BIG, stage="league")
    assert big.games_played == built.league_slugs[BIG]
    assert Series.objects.filter(league__slug=XLEAGUE).exists()  # a bracket
    assert League.objects.get(slug=OPEN).status == League.Status.FINISHED  # final played

    # the ratings: every counted game rated once, one history row per player and game
    rated = RatingGame.objects.filter(applied=True, places__isnull=False)
    assert rated.count() == built.counted
    assert RatingChange.objects.count() == sum(len(g.places) for g in rated)
    assert PlayerRating.objects.filter(games__gt=0).count() > 10
