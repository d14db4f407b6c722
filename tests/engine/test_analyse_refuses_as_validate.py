"""Issue 32: ``analyse`` (the function and ``python -m games.engine analyse``) refuses what
``validate`` refuses, with the same message and exit code; deeply nested JSON made both
crash with a RecursionError traceback before."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import InvalidLog, validate
from games.engine.analysis import analyse
from games.engine.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]

REFUSED = [
    "[" * 100_000,
    '{"a":' * 20_000,
    "{" * 5_000 + "}" * 5_000,
    "not json",
    '{"format": "maedn-log/1", "format": "x"}',
    "[NaN]",
    "{}",
    "1" * 5_000,
]


@pytest.mark.parametrize("text", REFUSED, ids=range(len(REFUSED)))
def test_the_function_refuses_with_validates_message(text):
    expected = validate(text)
    assert expected["valid"] is False
    with pytest.raises(InvalidLog) as refused:
        analyse(text)
    assert refused.value.error == expected["error"]


@settings(max_examples=40, deadline=None)
@given(depth=st.integers(1_000, 60_000), opener=st.sampled_from(["[", '{"k":', "[1,"]))
def test_any_deep_nesting_is_refused_alike(depth, opener):
    text = opener * depth
    with pytest.raises(InvalidLog) as refused:
        analyse(text)
    assert refused.value.error == validate(text)["error"]


def _run(command: str, path: Path) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stderr
    sys.stderr = err
    try:
        code = main([command, str(path)] + (["--quiet"] if command == "analyse" else []), out)
    finally:
        sys.stderr = old
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("text", REFUSED[:4], ids=range(4))
def test_the_command_line_exits_as_validate_with_its_message(tmp_path, text):
    path = tmp_path / "deep.json"
    path.write_text(text)
    code_v, out_v, _ = _run("validate", path)
    message = json.loads(out_v)["error"]
    code_a, out_a, err_a = _run("analyse", path)
    assert code_a == code_v == 2
    assert message in err_a and "Traceback" not in err_a and out_a == ""


def test_the_module_run_prints_no_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000)
    run = subprocess.run(
        [sys.executable, "-m", "games.engine", "analyse", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=120,
    )
    assert run.returncode == 2
    assert "nested too deeply" in run.stderr and "Traceback" not in run.stderr
