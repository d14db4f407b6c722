"""The API keeps to its OpenAPI schema under Schemathesis' generated requests (bounded,
derandomized examples for every operation): no server errors, and status codes, content
types, headers and bodies as documented."""

from __future__ import annotations

import json

import pytest
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.db import close_old_connections
from drf_spectacular.plumbing import _load_enum_name_overrides
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

schemathesis = pytest.importorskip(
    "schemathesis", reason="the dev dependency schemathesis is not installed"
)
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


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


@pytest.fixture
def tokens(world, token_auth, settings, in_process_requests) -> dict[str, str]:
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"login": None, "login_account": None, "submissions": None},
    }
    return {
        role: token_auth.objects.create(user=world.users[role]).key for role in ("staff", "player")
    }


@schema.parametrize()
@hypothesis_settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_keeps_to_its_schema(case, tokens):
    """Staff (who may do anything) and a player send generated requests to every
    operation."""
    for role in ("staff", "player"):
        response = case.call(headers={"Authorization": f"Token {tokens[role]}"})
        case.validate_response(response, checks=CHECKS)
