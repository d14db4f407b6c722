"""The site's OpenAPI schema as Schemathesis sees it, served in-process (the test's own
transaction holds the data): shared by tests/api/test_schemathesis.py."""

from __future__ import annotations

import json

import pytest
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from drf_spectacular.plumbing import _load_enum_name_overrides

schemathesis = pytest.importorskip(
    "schemathesis", reason="the dev dependency schemathesis is not installed"
)


def _load_schema():
    """The schema as served, generated at collection (no database needed) and bound to the
    site as a WSGI app: Schemathesis calls it in-process, inside each test's transaction."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    _load_enum_name_overrides.cache_clear()
    try:
        generated = SchemaGenerator(urlconf="tests.api.urls").get_schema(public=True)
    finally:
        _load_enum_name_overrides.cache_clear()
    loaded = schemathesis.openapi.from_dict(json.loads(OpenApiJsonRenderer().render(generated)))
    loaded.app = WSGIHandler()
    return loaded


schema = _load_schema()


@pytest.fixture
def in_process_requests():
    """Like Django's test client: requests must not close the test's database connection
    (its transaction holds the test data)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)
