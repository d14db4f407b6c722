"""The OpenAPI schema class of API v1 (drf-spectacular): operations tagged by resource.

Every schema setting, the enum names included, is in ``SPECTACULAR_SETTINGS``
(config/settings/base.py) only, so the served schema and ``manage.py spectacular`` agree.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema


class ApiAutoSchema(AutoSchema):
    """Operations are tagged by resource: the path segment after /api/v1/."""

    def get_tags(self) -> list[str]:
        parts = [part for part in self.path.split("/") if part]
        if len(parts) >= 3 and parts[:2] == ["api", "v1"]:
            return [parts[2]]
        return super().get_tags()
