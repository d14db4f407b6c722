"""The OpenAPI 3 schema: valid without warnings, complete, served with local (CDN-free)
docs. (The API keeping to it: test_schemathesis.py, every check.)"""

from __future__ import annotations

import re

from django.core.management import call_command
from django.urls import URLResolver, get_resolver
from drf_spectacular.plumbing import _load_enum_name_overrides
from drf_spectacular.validation import validate_schema

SCHEMA_URL = "/api/schema/?format=json"


def test_the_schema_validates_without_warnings(db, tmp_path):
    """What ``manage.py spectacular --validate --fail-on-warn`` checks, with our settings."""
    _load_enum_name_overrides.cache_clear()
    call_command(
        "spectacular",
        "--validate",
        "--fail-on-warn",
        "--urlconf",
        "tests.api.urls",
        "--file",
        str(tmp_path / "schema.yaml"),
    )
    _load_enum_name_overrides.cache_clear()
    text = (tmp_path / "schema.yaml").read_text()
    assert "LeagueStatusEnum" in text and "FixtureStatusEnum" in text


def test_the_served_schema_is_valid_and_covers_every_route(client, db):
    response = client.get(SCHEMA_URL)
    assert response.status_code == 200
    schema = response.json()
    validate_schema(schema)
    assert schema["openapi"].startswith("3.")
    documented = {(path, method) for path, item in schema["paths"].items() for method in item}
    routes = set()
    for prefix, pattern in _routes(get_resolver("tournaments.api.urls").url_patterns):
        path = "/api/v1/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", prefix + str(pattern.pattern))
        path = path.replace("{pk}", "{id}")  # drf-spectacular's name for primary keys
        view = getattr(pattern.callback, "view_class", None)
        if view is None:  # the JSON 404 for unknown URLs
            continue
        for method in ("get", "post", "put", "patch", "delete"):
            if hasattr(view, method):
                routes.add((path, method))
    assert routes == documented
    assert set(schema["components"]["securitySchemes"]) == {"tokenAuth", "cookieAuth"}


def _routes(patterns, prefix: str = ""):
    """Every route with the prefix of the includes it is in (the ratings app's routes are
    included: ``ratings/api/urls.py``)."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield prefix, pattern


def test_the_docs_pages_use_no_cdn(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert not re.search(r"""(src|href)=["']https?://""", html)
    assert not re.search(r"https?://(?!localhost|testserver)", html)
    # the start script is a file (no inline script under the Content-Security-Policy)
    assert '<script src="/api/docs/?script=">' in html
    assert "/api/schema/" in client.get("/api/docs/?script=").content.decode()


def test_the_served_schema_equals_the_management_command(client, db, tmp_path):
    """One list of settings: /api/schema/ and ``manage.py spectacular`` name every enum
    alike (they once kept two diverging lists)."""
    import json

    _load_enum_name_overrides.cache_clear()
    call_command("spectacular", "--format", "openapi-json", "--file", str(tmp_path / "s.json"))
    _load_enum_name_overrides.cache_clear()
    command = json.loads((tmp_path / "s.json").read_text())
    served = client.get(SCHEMA_URL).json()
    assert sorted(served["components"]["schemas"]) == sorted(command["components"]["schemas"])
    assert "ResultStateEnum" in served["components"]["schemas"]
