"""The engine is pure Python: no module under games/engine imports Django."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
ENGINE = REPO_ROOT / "games" / "engine"


def test_no_engine_source_imports_django() -> None:
    sources = sorted(ENGINE.rglob("*.py"))
    assert sources
    for path in sources:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                assert root not in ("django", "rest_framework"), f"{path} imports {name}"


def test_engine_works_with_django_blocked() -> None:
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('django', 'rest_framework'):\n"
        "            raise ImportError('django is blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import pkgutil, importlib, games.engine as e\n"
        "for m in pkgutil.walk_packages(e.__path__, 'games.engine.'):\n"
        "    if m.name != 'games.engine.__main__':\n"
        "        importlib.import_module(m.name)\n"
        "log = e.simulate_game(rules='league', seed=1)\n"
        "assert e.validate(log)['valid']\n"
        "assert not any(k.split('.')[0] == 'django' for k in sys.modules)\n"
        "print('ok')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"
