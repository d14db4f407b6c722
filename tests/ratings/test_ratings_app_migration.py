"""The ratings' models moved from ``tournaments`` to the ratings app with their tables
(tournaments 0013 and ratings 0001, state only): a database holding ratings before the move
keeps every row, read through the ratings app after it, and the content types (with their
permissions) follow the models."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType as ContentTypeCache
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0012_rated_leagues"), ("ratings", None)]
AFTER = [("tournaments", "0013_ratings_move_to_ratings_app"), ("ratings", "0001_initial")]


@pytest.mark.django_db(transaction=True)
def test_the_ratings_move_to_their_app_with_their_rows():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        executor = MigrationExecutor(connection)
        executor.migrate(BEFORE)
        old = executor.loader.project_state(BEFORE[0]).apps
        assert "ratings" not in old.app_configs
        ContentType = old.get_model("contenttypes", "ContentType")
        ct = ContentType.objects.get_or_create(app_label="tournaments", model="playerrating")[0]
        ContentType.objects.filter(app_label="ratings").delete()
        player = old.get_model("tournaments", "Player").objects.create(name="Anna", slug="anna")
        old.get_model("tournaments", "PlayerRating").objects.create(
            player=player, mu=25.0, sigma=8.0, display=1000, games=3
        )
        old.get_model("tournaments", "RatingState").objects.create(applied_through=7)

        executor = MigrationExecutor(connection)
        executor.migrate(AFTER)
        new = executor.loader.project_state(AFTER).apps
        with pytest.raises(LookupError):
            new.get_model("tournaments", "PlayerRating")
        rating = new.get_model("ratings", "PlayerRating").objects.get(player_id=player.pk)
        assert (rating.display, rating.games) == (1000, 3)
        assert new.get_model("ratings", "RatingState").objects.get().applied_through == 7
        moved = new.get_model("contenttypes", "ContentType").objects.get(pk=ct.pk)
        assert (moved.app_label, moved.model) == ("ratings", "playerrating")
    finally:
        MigrationExecutor(connection).migrate(latest)
        ContentTypeCache.objects.clear_cache()
