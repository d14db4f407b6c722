"""The layer order, enforced: no module imports from a layer above its own, and the project's
modules import each other without a circle (lazy imports inside functions included).

    engine ← games ← tournaments (algorithms ← models ← selectors/permissions ← services
    ← tasks) ← ratings, accounts' services ← web / api / accounts' pages (the ratings'
    own pages and API among them) ← config

Read from the source files (``ast``), so it also sees imports that run only on some paths.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "tournaments", "ratings", "accounts", "live", "config")

#: module prefix → rank; the longest matching prefix decides. Higher ranks may import lower.
LAYERS: dict[str, int] = {
    "games.engine": 0,
    "games": 1,
    "tournaments.algorithms": 2,
    "tournaments": 3,  # models, formats, apps
    "tournaments.selectors": 4,
    "tournaments.permissions": 4,
    "tournaments.exports": 4,
    "tournaments.services": 5,
    "tournaments.tasks": 6,
    # ratings: models, algorithms, selectors, services, tasks; told when a result counts
    "ratings": 7,
    "ratings.web": 8,
    "ratings.api": 8,
    "ratings.templatetags": 8,
    "ratings.management": 8,
    "ratings.apps": 8,  # AppConfig.ready registers the Celery task
    "accounts": 7,  # services, tokens, throttles
    "accounts.views": 8,
    "accounts.notification_views": 8,
    "accounts.forms": 8,
    "accounts.urls": 8,
    "tournaments.web": 8,
    "tournaments.api": 8,
    "tournaments.admin": 8,
    "tournaments.management": 8,
    "tournaments.apps": 8,  # AppConfig.ready registers the Celery tasks
    "live": 8,  # live play: rooms join games and leagues (above tournaments' services)
    "config": 9,
}


#: imports that run up the layers for now, each with its reason (to be emptied)
KNOWN_UPWARD: dict[str, set[str]] = {
    # a result that counts tells the ratings by name; the counting registry (h-counting,
    # ``tournaments/services/counting.py``) replaces this
    "tournaments.services.results": {"ratings.services.ratings"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            modules[_module_name(path)] = path
    return modules


MODULES = _project_modules()


def _rank(module: str) -> int:
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def _is_type_checking(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _runtime_nodes(tree: ast.AST):
    """Every node, less the bodies of ``if TYPE_CHECKING:`` (names for type hints only,
    never imported when the program runs)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _imports(module: str, path: Path) -> set[str]:
    """The project modules that ``module`` imports when it runs (anywhere in the file)."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".")
                anchor = anchor if is_package else anchor[:-1]
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
            names = [n if n in MODULES else base for n in names]
        else:
            continue
        for name in names:
            while name and name not in MODULES:  # `import a.b.c` of a name inside a module
                name = name.rpartition(".")[0]
            if name and name != module:
                found.add(name)
    return found


GRAPH = {module: _imports(module, path) for module, path in MODULES.items()}


def test_the_layer_table_covers_every_module():
    assert "games.engine.game" in MODULES and "tournaments.services.results" in MODULES
    for module in MODULES:
        assert _rank(module) >= 0


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_imports_from_a_layer_above(module):
    upward = sorted(
        target
        for target in GRAPH[module]
        if _rank(target) > _rank(module)
        # a package's __init__ may name its own submodules
        and not target.startswith(module + ".")
        and target not in KNOWN_UPWARD.get(module, ())
    )
    assert not upward, f"{module} (layer {_rank(module)}) imports from above: {upward}"


def test_there_is_no_import_circle():
    """Tarjan's strongly connected components over the import graph: every component is a
    single module. (A package importing its submodules is an edge down, never a circle,
    unless a submodule imports the package back.)"""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    assert not circles, f"import circles: {circles}"


def test_the_checker_sees_lazy_and_relative_imports():
    """The graph is what the files say: a lazy import inside a function and a relative
    import are both edges (so neither can hide a wrong-way dependency); an import for type
    hints only (``if TYPE_CHECKING:``) is not, since it never runs."""
    assert "games.engine.board" in GRAPH["games.engine"]  # `from .board import …`
    assert "tournaments.services.standings" in GRAPH["tournaments.tasks"]
    tree = ast.parse("if TYPE_CHECKING:\n    import a\nelse:\n    import b\nimport c\n")
    names = {a.name for n in _runtime_nodes(tree) if isinstance(n, ast.Import) for a in n.names}
    assert names == {"b", "c"}
