"""The layer order, enforced: no module imports from a layer above its own, and the project's
modules import each other without a circle (lazy imports inside functions included).

    core ← engine ← games ← tournaments (algorithms ← models ← selectors/permissions ← services
    ← tasks) ← ratings, accounts ← notifications ← pages (tournaments.web, tournaments.api,
    the ratings' own pages and API, the apps' views, forms, urls, API, admin, management
    commands) and live ← config

And between apps: no two apps import each other (nor any longer circle of apps). Only the
pages layer, documented as the top, may import any app, so a door's imports do not count:
``tournaments/api/urls.py`` mounting ``accounts/api.py`` is a door calling a door, while
``accounts`` (sign-up) importing tournaments' services is an app on top of another.

Read from the source files (``ast``), so it also sees imports that run only on some paths.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = (
    "core",
    "games",
    "tournaments",
    "ratings",
    "accounts",
    "notifications",
    "live",
    "config",
)

#: module prefix → rank; the longest matching prefix decides. Higher ranks may import lower.
LAYERS: dict[str, int] = {
    "core": 0,  # shared request infrastructure: throttles, the ServiceError base, retries
    "games.engine": 1,
    "games": 2,
    "tournaments.algorithms": 3,
    "tournaments": 4,  # models, formats, apps
    "tournaments.selectors": 5,
    "tournaments.permissions": 5,
    "tournaments.exports": 5,
    "tournaments.services": 6,
    "tournaments.tasks": 7,
    # ratings: models, algorithms, selectors, services, tasks; told when a result counts
    "ratings": 8,
    "ratings.web": 10,
    "ratings.api": 10,
    "ratings.templatetags": 10,
    "ratings.management": 10,
    "ratings.admin": 10,
    "ratings.apps": 10,  # AppConfig.ready registers the Celery task and the subscriber
    "accounts": 8,  # sign-up (on tournaments' services), tokens, the account's settings
    "notifications": 9,  # who is told of which tournament event; reads accounts' settings
    # the pages layer (the top, below config): views, forms, urls, the API, the admin
    "accounts.views": 10,
    "accounts.forms": 10,
    "accounts.urls": 10,
    "accounts.api": 10,
    "notifications.views": 10,
    "notifications.urls": 10,
    "notifications.context_processors": 10,
    "tournaments.web": 10,
    "tournaments.api": 10,
    "tournaments.admin": 10,
    "tournaments.management": 10,
    "tournaments.apps": 10,  # AppConfig.ready registers the Celery tasks
    "live": 10,  # live play: rooms join games and leagues (above tournaments' services)
    "config": 11,
}

#: the apps whose imports of each other are checked pairwise (``ratings`` once it is an app)
APPS = ("core", "games", "tournaments", "ratings", "notifications", "accounts", "live")

#: the pages layer, documented as the top (docs/architecture.md): a door may import any
#: app, so its imports are left out of the app graph
PAGE_PARTS = frozenset(
    {"web", "api", "views", "urls", "forms", "admin", "management", "context_processors"}
)


#: imports that run up the layers for now, each with its reason (to be emptied)
KNOWN_UPWARD: dict[str, set[str]] = {}


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


def _app(module: str) -> str:
    return module.split(".", 1)[0]


def _is_page(module: str) -> bool:
    """A module of the pages layer: a door (``tournaments.web``, ``tournaments.api``, an
    app's ``views``, ``forms``, ``urls``, ``api``, ``admin``, ``management``, its
    ``context_processors``)."""
    return any(part in PAGE_PARTS for part in module.split(".")[1:])


def _app_graph() -> dict[str, set[str]]:
    """app → the apps its modules import, less the imports of the pages layer."""
    graph: dict[str, set[str]] = {app: set() for app in APPS}
    for module, targets in GRAPH.items():
        if _app(module) not in graph or _is_page(module):
            continue
        graph[_app(module)] |= {_app(t) for t in targets if _app(t) in graph} - {_app(module)}
    return graph


def _app_circles(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The pairs of apps that import each other, directly or through other apps."""

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            app = todo.pop()
            if app == goal:
                return True
            if app not in seen:
                seen.add(app)
                todo.extend(graph[app])
        return False

    return sorted({tuple(sorted((a, b))) for a in graph for b in graph[a] if reaches(b, a)})


def test_no_two_apps_import_each_other():
    """The rule (docs/architecture.md, "Layers"): among core, games, tournaments, ratings,
    notifications, accounts and live, no app imports an app that imports it back, directly
    or through others; notifications sit above tournaments and accounts, accounts above
    tournaments. The pages layer (``tournaments.web``, ``tournaments.api``, ``*.views``,
    ``*.forms``, ``*.urls``, ``*.api``, ``admin``, ``management``) is the documented top
    and may import any app, so its imports are not counted."""
    circles = _app_circles(_app_graph())
    assert not circles, f"apps importing each other (directly or around): {circles}"


def test_the_app_check_sees_a_pair_and_leaves_the_pages_out():
    """A tournaments service importing the notifications (instead of asking by task name)
    would close circles with every app above tournaments that the notifications read; the
    API's routes mounting ``accounts/api.py`` are a door's import and do not count."""
    graph = _app_graph()
    assert "accounts" in graph["notifications"] and "tournaments" in graph["accounts"]
    slipped = {app: set(targets) for app, targets in graph.items()}
    slipped["tournaments"].add("notifications")
    assert _app_circles(slipped) == [
        ("accounts", "notifications"),
        ("accounts", "tournaments"),
        ("notifications", "tournaments"),
    ]
    assert "accounts.api" in GRAPH["tournaments.api.urls"]
    assert "accounts" not in graph["tournaments"]
    assert _is_page("accounts.views") and _is_page("tournaments.api.urls")
    assert not _is_page("accounts.services") and not _is_page("notifications.services")
