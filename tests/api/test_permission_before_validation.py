"""Issue 22: organizer-only writes answer 403 to a non-organizer before looking at the
body, so a stranger learns nothing from validation errors (tie-break rolls, ranking)."""

from __future__ import annotations

import pytest

from tests.api.conftest import error_of

BODIES = [{}, {"rolls": "not a list"}, {"level": "x"}, {"rolls": [{"nobody": 7}]}]


@pytest.mark.parametrize("path", ["tie-break-rolls", "ranking"])
@pytest.mark.parametrize("body", BODIES)
def test_a_stranger_gets_403_whatever_the_body(world, path, body):
    response = world.client("stranger").post(
        f"/api/v1/leagues/{world.league.slug}/{path}/", body, format="json"
    )
    assert response.status_code == 403, response.content
    assert "organizers" in error_of(response)["message"]


@pytest.mark.parametrize("path", ["tie-break-rolls", "ranking"])
def test_an_organizer_still_gets_the_validation_error(world, path):
    response = world.client("organizer").post(
        f"/api/v1/leagues/{world.league.slug}/{path}/", {"rolls": "x", "level": "x"}, format="json"
    )
    assert response.status_code == 400
