"""OpenAPI settings of API v1 (drf-spectacular).

``SCHEMA_SETTINGS`` is applied to the served schema (``docs_urls.py``) and belongs in
``SPECTACULAR_SETTINGS`` too, so that ``manage.py spectacular`` produces the same schema.
"""

from __future__ import annotations

from typing import Any

SCHEMA_SETTINGS: dict[str, Any] = {
    # Three models have a "status" field with different choices: name their enums.
    "ENUM_NAME_OVERRIDES": {
        "LeagueStatusEnum": "tournaments.models.League.Status",
        "FixtureStatusEnum": "tournaments.models.Fixture.Status",
        "SeriesStatusEnum": "tournaments.models.Series.Status",
    },
}
