"""The OpenAPI schema class of API v1 (drf-spectacular): operations tagged by resource.

Every schema setting, the enum names included, is in ``SPECTACULAR_SETTINGS``
(config/settings/base.py) only, so the served schema and ``manage.py spectacular`` agree.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema

#: the list pages' size parameter and its bound (``tournaments.api.base.Pagination``)
PAGE_SIZE_QUERY_PARAM = "page_size"
MAX_PAGE_SIZE = 200


class ApiAutoSchema(AutoSchema):
    """Operations are tagged by resource: the path segment after /api/v1/."""

    def get_tags(self) -> list[str]:
        parts = [part for part in self.path.split("/") if part]
        if len(parts) >= 3 and parts[:2] == ["api", "v1"]:
            return [parts[2]]
        return super().get_tags()


def declare_query_bounds(result, generator, request, public):
    """Postprocessing hook (``SPECTACULAR_SETTINGS``): the query parameters say what the API
    takes (issue 32, Schemathesis): a string parameter is never empty (a list filter's
    ``?q=`` is refused with 400: ``tournaments.api.base.refuse_undeclared_filter_values``),
    ``page`` starts at 1 and ``page_size`` is 1 to 200 (``Pagination.get_page_size``); an
    operation with such a parameter says that it answers 400 (the Error body) when one is
    out of bounds, even where its view declares no 400 of its own."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict):
                _declare_operation_bounds(operation)
    return result


def _declare_operation_bounds(operation: dict) -> None:
    queries = [p for p in operation.get("parameters", []) if p.get("in") == "query"]
    responses = operation.get("responses", {})
    if queries and "400" not in responses and "404" in responses:
        responses["400"] = {**responses["404"], "description": ""}
    for parameter in queries:
        _bound_query_parameter(parameter)


#: the paging parameters' bounds
PAGING_BOUNDS = {
    "page": {"minimum": 1},
    PAGE_SIZE_QUERY_PARAM: {"minimum": 1, "maximum": MAX_PAGE_SIZE},
}


def _bound_query_parameter(parameter: dict) -> None:
    """A query parameter's schema: paging within its bounds, free text never empty."""
    schema = parameter.setdefault("schema", {})
    schema.update(PAGING_BOUNDS.get(parameter["name"], {}))
    if schema.get("type") == "array":
        schema = schema.get("items", {})
    if schema.get("type") == "string" and "enum" not in schema:
        schema.setdefault("minLength", 1)
