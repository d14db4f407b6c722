"""The parameters of the permission matrices (tests/api/test_permissions_matrix.py,
tests/pages/test_page_permissions.py): every case × role × public/private league.

The whole matrix is a third of the suite's tests, so most of it is marked ``slow``: the
fast suite (``pytest -m "not slow"``, README) keeps a sample that still walks every case
once refused and once allowed — in the public league, a visitor, a logged-in stranger and
the first role (in ``ROLES`` order) the case allows. The whole suite (``make test``, CI)
runs every combination."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

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
