"""The indexes behind the slow reads (issue 31) and no redundant ones: the latest results
and the log admin's order are read from an index (EXPLAIN with sequential scans off: the
index fits the query's shape), and no foreign key has an index of its own where a unique
or composite index already starts with it (every write paid for both)."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import GameLog
from ratings.models import RatingChange
from tests.builders import build_site
from tournaments.models import Entry, Fixture, Seat, StandingsRow
from tournaments.selectors.games import latest_results

pytestmark = pytest.mark.django_db


def _plan(queryset) -> str:
    sql, params = queryset.query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("EXPLAIN " + sql, params)
        return "\n".join(row[0] for row in cursor.fetchall())


def test_the_latest_results_are_read_from_the_decided_at_index():
    from django.db.models import Prefetch  # noqa: F401 (the selector's own query)

    from tournaments.models import Result

    build_site(2)
    assert len(latest_results()) == 10
    query = (
        Result.objects.filter(state=Result.State.CONFIRMED, fixture__league__is_public=True)
        .exclude(fixture__seats__entry__state__in=[Entry.State.INVITED, Entry.State.REQUESTED])
        .order_by("-decided_at", "-created_at")[:10]
    )
    plan = _plan(query)
    assert "result_confirmed_decided" in plan, plan


def test_the_log_admin_order_is_read_from_the_uploaded_at_index():
    build_site(1)
    plan = _plan(GameLog.objects.defer("content").order_by("-uploaded_at")[:100])
    assert "gamelog_uploaded_at" in plan, plan


def _indexes(model) -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, model._meta.db_table)
    return {name: c["columns"] for name, c in found.items() if c["index"] or c["unique"]}


@pytest.mark.parametrize(
    ("model", "column"),
    [
        (Seat, "fixture_id"),
        (Fixture, "league_id"),
        (StandingsRow, "snapshot_id"),
        (RatingChange, "player_id"),
        (RatingChange, "game_id"),
        (Entry, "league_id"),
    ],
)
def test_no_foreign_key_has_an_index_a_composite_one_already_gives(model, column):
    indexes = _indexes(model)
    alone = [name for name, cols in indexes.items() if cols == [column]]
    leading = [name for name, cols in indexes.items() if len(cols) > 1 and cols[0] == column]
    assert leading, f"{model.__name__}.{column} has no composite index starting with it"
    assert not alone, f"{model.__name__}.{column}: redundant {alone}"


def test_the_foreign_keys_read_by_themselves_keep_their_index():
    """A seat's entry (a player's games) and a result's fixture are looked up alone."""
    assert ["entry_id"] in _indexes(Seat).values()
    from tournaments.models import Result

    assert any(cols[0] == "fixture_id" for cols in _indexes(Result).values())
