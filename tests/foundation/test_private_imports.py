"""No module of the project imports another module's private name (``from x import _y``):
what one module offers another is public, named and documented where it lives (e.g.
``results.fixture_lock``, ``results.result_version_create``). Read from the source files
(``ast``), lazy imports inside functions and relative imports included. A private module
(``games/engine/_text.py``) is its package's own: its siblings may import from it, no one
else. Imports from outside the project (a library's private helper) are not this test's
business.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: top-level directories that are not the platform's packages
NOT_PROJECT = {"tests", "bench", "docs", "static", "templates", "locale", "var", "node_modules"}


def _project_packages() -> list[str]:
    """Every top-level Python package of the checkout (a new app is covered without
    editing this test)."""
    return sorted(
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in NOT_PROJECT and not path.parent.name.startswith(".")
    )


PACKAGES = _project_packages()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(module: str, source: str, is_package: bool = False) -> list[str]:
    """``from <project module> import _name`` in ``source`` (the module ``module``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        base = node.module or ""
        if node.level:
            anchor = module.split(".")
            anchor = anchor if is_package else anchor[:-1]
            anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, base] if base else anchor)
        if base.split(".")[0] not in PACKAGES:
            continue
        for alias in node.names:
            if _is_private(alias.name) or _outside_private_module(module, base):
                found.append(f"{module}:{node.lineno}: from {base} import {alias.name}")
    return found


def _outside_private_module(module: str, base: str) -> bool:
    """``base`` lies in a private module (``games.engine._text``) and ``module`` is not in
    the package that holds it: a private module is its package's own business."""
    parts = base.split(".")
    for i, part in enumerate(parts):
        if _is_private(part):
            package = ".".join(parts[:i])
            return not (module == package or module.startswith(package + "."))
    return False


def test_the_project_packages_are_found():
    assert {"games", "tournaments", "accounts", "live", "config"} <= set(PACKAGES)
    assert "tests" not in PACKAGES


def test_no_module_imports_a_private_name_of_another():
    offenders = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            offenders += private_imports(
                _module_name(path), path.read_text(), is_package=path.name == "__init__.py"
            )
    assert not offenders, "private names imported across modules:\n" + "\n".join(offenders)


def test_the_checker_sees_lazy_relative_and_absolute_imports():
    source = (
        "from tournaments.services.results import _locked_fixture, open_ties\n"
        "def f():\n"
        "    from .results import _new_version\n"
        "from drf_spectacular.plumbing import _load_enum_name_overrides\n"
        "from tournaments.services.results import __all__\n"
        "from games.engine._text import describe\n"
    )
    found = private_imports("tournaments.services.tie_breaks", source)
    assert found == [
        "tournaments.services.tie_breaks:1: from tournaments.services.results "
        "import _locked_fixture",
        "tournaments.services.tie_breaks:6: from games.engine._text import describe",
        "tournaments.services.tie_breaks:3: from tournaments.services.results import _new_version",
    ]
    # a private module is its own package's business
    assert private_imports("games.engine.log", "from games.engine._text import describe") == []
