"""The parameters of the permission matrices (tests/api/test_permissions_matrix.py,
tests/pages/test_page_permissions.py): every case × role × public/private league.

The whole matrix is a third of the suite's tests, so most of it is marked ``slow``: the
fast suite (``pytest -m "not slow"``, README) keeps a sample that still walks every case
once refused and once allowed — in the public league, a visitor, a logged-in stranger and
the first role (in ``ROLES`` order) the case allows. The whole suite (``make test``, CI)
runs every combination.

Both matrices build their world of roles once per module (``built_once``) and run each case
in its own savepoint (pytest-django's ``db``) on a deep copy of it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

import pytest
from django.db import transaction

T = TypeVar("T")

#: the roles every case runs for in the fast suite (with the first role it allows)
SAMPLE_ROLES = ("anonymous", "stranger")


def _in_sample(case: Any, role: str, private: bool, roles: Sequence[str]) -> bool:
    if private:
        return False
    first_allowed = next((r for r in roles if r in case.allowed), None)
    return role in SAMPLE_ROLES or role == first_allowed


def matrix_params(cases: Iterable[Any], roles: Sequence[str]) -> list[Any]:
    """``pytest.param(case, role, private)`` for ``parametrize("case, role, private", …)``,
    with the ids a stacked parametrize gave (``case name-role-public``); all but the
    sample marked ``slow``."""
    return [
        pytest.param(
            case,
            role,
            private,
            id=f"{case.name}-{role}-{'private' if private else 'public'}",
            marks=() if _in_sample(case, role, private, roles) else pytest.mark.slow,
        )
        for case in cases
        for role in roles
        for private in (False, True)
    ]


def built_once(django_db_blocker, build: Callable[[], T]) -> Iterator[T]:
    """For a module-scoped fixture: ``build()`` written once in a transaction that stays
    open while the module runs and is rolled back at its end (each case's writes are
    rolled back with its own savepoint)."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
