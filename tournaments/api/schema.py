"""OpenAPI settings of API v1 (drf-spectacular).

``SCHEMA_SETTINGS`` is applied to the served schema (``docs_urls.py``) and belongs in
``SPECTACULAR_SETTINGS`` too, so that ``manage.py spectacular`` produces the same schema.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema


class ApiAutoSchema(AutoSchema):
    """Operations are tagged by resource: the path segment after /api/v1/."""

    def get_tags(self) -> list[str]:
        parts = [part for part in self.path.split("/") if part]
        if len(parts) >= 3 and parts[:2] == ["api", "v1"]:
            return [parts[2]]
        return super().get_tags()


SCHEMA_SETTINGS: dict[str, Any] = {
    # Three models have a "status" field with different choices: name their enums.
    "ENUM_NAME_OVERRIDES": {
        "LeagueStatusEnum": "tournaments.models.League.Status",
        "FixtureStatusEnum": "tournaments.models.Fixture.Status",
        "SeriesStatusEnum": "tournaments.models.Series.Status",
    },
}
