"""One error format for the whole API.

Every error response has the body::

    {"error": {"code": "invalid", "message": "a league needs a name", "field": "name"}}

``code`` is a short machine-readable word (``invalid``, ``not_allowed``,
``not_authenticated``, ``not_found``, ``throttled``, ``method_not_allowed``, …),
``message`` a sentence for people, ``field`` the input field at fault (or null). A rejected
game log adds ``event`` (the 0-based index of the first offending event); a request that
fails input validation adds ``fields`` (every field's messages).

Service errors map to HTTP statuses here: ``ServiceError`` → 400, ``NotAllowed`` → 403.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.storable import storable
from tournaments.services.errors import NotAllowed, ServiceError


def error_body(
    code: str,
    message: str,
    field: str | None = None,
    *,
    event: int | None = None,
    fields: Any = None,
    reason: str | None = None,
) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": storable(message), "field": field}
    if reason:
        error["reason"] = reason
    if event is not None:
        error["event"] = event
    if fields is not None:
        error["fields"] = fields
    return {"error": error}


def _first_message(detail: Any, path: str = "") -> tuple[str | None, str]:
    """The first leaf message of a (nested) DRF validation detail, and its field path."""
    if isinstance(detail, dict):
        return _first_in_dict(detail, path)
    if isinstance(detail, list):
        return _first_in_list(detail, path)
    return path or None, str(detail)


def _first_in_dict(detail: dict, path: str) -> tuple[str | None, str]:
    if not detail:
        return path or None, "invalid input"
    key, value = next(iter(detail.items()))
    return _first_message(value, _key_path(path, key))


def _key_path(path: str, key: Any) -> str:
    """The field path of a detail's key: a form-wide error stays at its path, a list's
    errors are by index, a field's by name."""
    if key in ("non_field_errors", "detail"):
        return path
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else str(key)


def _first_in_list(detail: list, path: str) -> tuple[str | None, str]:
    if not detail:
        return path or None, "invalid input"
    if isinstance(detail[0], dict | list):
        return _first_message(detail[0], f"{path}[0]")
    return path or None, str(detail[0])


def _plain(detail: Any) -> Any:
    if isinstance(detail, dict):
        return {str(k): _plain(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_plain(v) for v in detail]
    return str(detail)


def _code(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    if isinstance(codes, str):
        return codes
    return exc.default_code


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF ``EXCEPTION_HANDLER``: service errors and DRF errors in the one format."""
    if isinstance(exc, ServiceError):
        return _service_error_response(exc)
    if isinstance(exc, Http404):
        message = str(exc) if exc.args and str(exc) else "not found"
        return Response(error_body("not_found", message), status=status.HTTP_404_NOT_FOUND)
    if isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)

    response = drf_exception_handler(exc, context)  # sets WWW-Authenticate, Retry-After
    if response is not None and isinstance(exc, exceptions.APIException):
        response.data = _drf_error_body(exc)
    return response


def _service_error_response(exc: ServiceError) -> Response:
    """A refusal (``NotAllowed``) is 403, any other service error 400. The message is in the
    request's language (Accept-Language) when the error has a code, which is given
    alongside as ``reason``; errors without one stay English."""
    refused = isinstance(exc, NotAllowed)
    return Response(
        error_body(
            "not_allowed" if refused else "invalid",
            exc.localized(),
            exc.field,
            event=exc.event,
            reason=exc.code,
        ),
        status=status.HTTP_403_FORBIDDEN if refused else status.HTTP_400_BAD_REQUEST,
    )


def _drf_error_body(exc: exceptions.APIException) -> dict[str, Any]:
    """A DRF error in the one format: a failed validation names its first field and lists
    every field's messages."""
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_message(exc.detail)
        return error_body(
            "invalid", f"{field}: {message}" if field else message, field, fields=_plain(exc.detail)
        )
    code = "not_allowed" if isinstance(exc, exceptions.PermissionDenied) else _code(exc)
    detail = exc.detail
    message = str(detail) if not isinstance(detail, dict | list) else _first_message(detail)[1]
    return error_body(code, message)
