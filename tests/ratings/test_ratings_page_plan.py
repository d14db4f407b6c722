"""The ratings table's "played a rated game in a public league" filter is an index probe per
rated player, whatever the planner's statistics say (issue 31: at 100× the page's
``EXISTS`` had become a hash join over the whole history, 642 ms on a bloated table): the
plan keeps it a sub-plan even when nested loops are priced out, and the table is the same
as before (only players with a public rated game, ranked among them). The filtered tables
(a format, a board, recent months) keep the planner's semi-join: a probe there may walk a
player's whole history (docs/ratings.md)."""

from __future__ import annotations

import json

import pytest
from django.db import connection

from ratings.models import PlayerRating
from ratings.selectors.ratings import RatingFilters, ratings_queryset
from ratings.services.ratings import ratings_update
from tournaments.models import League

pytestmark = pytest.mark.django_db


def _plan_nodes(plan: dict) -> list[dict]:
    nodes = [plan]
    for child in plan.get("Plans", []):
        nodes += _plan_nodes(child)
    return nodes


def test_the_public_game_filter_is_a_probe_per_player_whatever_the_planner_prefers(world):
    filters = RatingFilters()  # the default table (filtered ones keep the planner's choice)
    if connection.vendor != "postgresql":
        pytest.skip("a PostgreSQL plan")
    public = world.league(name="Open")
    hidden = world.league(name="Club", is_public=False)
    world.play(public, ["ann", "bob", "cid"])
    world.play(hidden, ["dee", "eve", "fay"])  # rated, but never listed
    ratings_update()
    queryset = ratings_queryset(filters)
    assert {r.player.name for r in queryset} == {"ann", "bob", "cid"}
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        # what made the planner choose a join over the whole history: nested loops priced
        # out (as on a table whose statistics promise millions of rows)
        cursor.execute("SET LOCAL enable_nestloop = off")
        cursor.execute("EXPLAIN (FORMAT JSON) " + sql, params)
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    nodes = _plan_nodes(plan[0]["Plan"])
    joins = [n for n in nodes if n.get("Join Type") in ("Semi", "Anti", "Right Semi")]
    assert not joins, [n["Node Type"] for n in nodes]
    # the history is read only inside the per-row sub-plan (the probe), never joined
    probes = [n for n in nodes if n.get("Parent Relationship") == "SubPlan"]
    inside = {id(n) for probe in probes for n in _plan_nodes(probe)}
    history = [n for n in nodes if n.get("Relation Name") == "tournaments_ratingchange"]
    assert history and all(id(n) in inside for n in history), [n["Node Type"] for n in nodes]


def test_a_player_only_in_private_leagues_is_left_out_and_ranks_close_up(world):
    public = world.league(name="Open")
    hidden = world.league(name="Club", is_public=False)
    world.play(hidden, ["dee", "ann", "bob"])  # dee wins, but only in a private league
    world.play(public, ["ann", "bob", "cid"])
    ratings_update()
    rows = list(ratings_queryset())
    assert "dee" not in {r.player.name for r in rows}
    assert PlayerRating.objects.filter(player__name="dee").exists()
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    League.objects.filter(pk=hidden.pk).update(is_public=True)
    assert "dee" in {r.player.name for r in ratings_queryset()}
