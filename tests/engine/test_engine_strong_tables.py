"""The file cache of the strong player's solo-race tables (games/engine/strong.py): a table
computed once is stored and the next process (or a cleared cache) loads the same floats;
a missing, corrupt, truncated or foreign file is computed again and replaced, never an
error; an unusable directory only means computing.

Most tests use a small board (``T = 12``: 2,517 placements, milliseconds to compute); the
second-process test uses the real board 4.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import Game, StrongBot, strong
from games.engine.strong import (
    set_table_dir,
    solo_table,
    solo_table_store,
    solo_table_stored,
    table_dir,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
SMALL = (12, True, False, True, True, 0.05)  # a board of 12 track fields, the league's rules


@pytest.fixture
def tables(tmp_path, monkeypatch):
    """An empty table directory of this test's own, and cleared in-process caches."""
    monkeypatch.setattr(strong, "_table_dir", strong._UNSET)
    set_table_dir(tmp_path)
    solo_table.cache_clear()
    yield tmp_path
    solo_table.cache_clear()


def bits(table: dict) -> list[tuple[tuple[int, ...], bytes]]:
    """The table as placements and the exact bytes of their floats."""
    return [(k, struct.pack("<d", v)) for k, v in sorted(table.items())]


def no_computing(monkeypatch):
    strong._code_digest()  # of the real code (the file names carry it)

    def refuse(*args, **kwargs):
        raise AssertionError("the table was computed, not loaded")

    monkeypatch.setattr(strong, "_solve", refuse)


def path_of(directory: Path, hazard: float) -> Path:
    [path] = [p for p in directory.glob("solo-*.bin") if p.name.endswith(f"-h{hazard!r}.bin")]
    return path


def test_a_computed_table_is_stored_and_a_cleared_cache_loads_the_same_floats(tables, monkeypatch):
    computed = solo_table(*SMALL)
    assert len(computed) == strong._state_count(12) == 2517
    assert solo_table_stored(*SMALL)
    assert sorted(p.name.split("-h")[-1] for p in tables.glob("*.bin")) == ["0.0.bin", "0.05.bin"]
    assert not list(tables.glob("*.tmp"))  # written atomically: no temporary file left
    solo_table.cache_clear()
    no_computing(monkeypatch)
    loaded = solo_table(*SMALL)
    assert bits(loaded) == bits(computed)


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],  # truncated
        lambda raw: raw[:-9] + bytes([raw[-9] ^ 1]) + raw[-8:],  # one bit of one value
        lambda raw: b"\xff\xfe not a header\n" + raw,  # not JSON
        lambda raw: b"",  # empty
        lambda raw: raw.replace(b'"format": 1', b'"format": 0', 1),  # another layout
    ],
    ids=["truncated", "bit-flip", "garbage", "empty", "format"],
)
def test_a_damaged_file_is_computed_again_and_replaced(tables, damage):
    good = bits(solo_table(*SMALL))
    path = path_of(tables, 0.05)
    path.write_bytes(damage(path.read_bytes()))
    solo_table.cache_clear()
    assert bits(solo_table(*SMALL)) == good
    assert solo_table_stored(*SMALL) and strong._load(path, SMALL, 2517) is not None


def test_a_file_of_other_parameters_is_not_loaded(tables):
    league = bits(solo_table(*SMALL))
    jumping = (12, True, True, True, True, 0.05)
    path_of(tables, 0.05).rename(strong._table_path(jumping))  # the league's, misnamed
    assert not solo_table_stored(*jumping)
    assert bits(solo_table(*jumping)) != league  # computed, not the misnamed file
    assert solo_table_stored(*jumping)  # which its own table replaced


def test_an_unusable_directory_only_means_computing(tmp_path, monkeypatch):
    monkeypatch.setattr(strong, "_table_dir", strong._UNSET)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    set_table_dir(blocker / "tables")
    solo_table.cache_clear()
    try:
        assert len(solo_table(*SMALL)) == 2517
        assert not solo_table_stored(*SMALL)
        assert solo_table_store(*SMALL) is False
    finally:
        solo_table.cache_clear()


def test_storing_keeps_nothing_in_the_process_and_a_later_load_agrees(tables, monkeypatch):
    assert solo_table_store(*SMALL) is True
    assert solo_table.cache_info().currsize == 0
    assert solo_table_stored(*SMALL) and solo_table_stored(*SMALL[:5], 0.0)
    stored = path_of(tables, 0.05).stat().st_mtime_ns
    assert solo_table_store(*SMALL) is True  # stored already: not computed again
    assert path_of(tables, 0.05).stat().st_mtime_ns == stored
    monkeypatch.setattr(strong, "_table_dir", strong._UNSET)
    set_table_dir(None)
    computed = bits(solo_table(*SMALL))  # no file cache: computed here
    solo_table.cache_clear()
    set_table_dir(tables)
    no_computing(monkeypatch)
    assert bits(solo_table(*SMALL)) == computed


def test_the_directory_comes_from_the_environment_or_the_temporary_directory(monkeypatch):
    import tempfile

    monkeypatch.setattr(strong, "_table_dir", strong._UNSET)
    monkeypatch.delenv(strong.TABLE_DIR_ENV, raising=False)
    assert table_dir() == Path(tempfile.gettempdir()) / "maedn-tables"
    monkeypatch.setenv(strong.TABLE_DIR_ENV, "/srv/tables")
    assert table_dir() == Path("/srv/tables")
    monkeypatch.setenv(strong.TABLE_DIR_ENV, "off")
    assert table_dir() is None
    set_table_dir("/elsewhere")  # a plain path argument wins
    assert table_dir() == Path("/elsewhere")


def test_a_second_process_loads_the_table_of_board_4_instead_of_computing_it(tables):
    """A real table: computed and stored by one process, loaded (never computed: the
    second process refuses to) by the next, the same floats."""
    args = StrongBot().table_args(Game.new("online", 4))
    code = (
        "import hashlib, struct, sys\n"
        "from games.engine import strong\n"
        "if sys.argv[1] == 'load':\n"
        "    strong._code_digest()\n"
        "    def refuse(*a, **k): raise SystemExit('computed instead of loaded')\n"
        "    strong._solve = refuse\n"
        f"table = strong.solo_table(*{args!r})\n"
        "raw = b''.join(struct.pack('<4bd', *k, v) for k, v in sorted(table.items()))\n"
        "print(hashlib.sha256(raw).hexdigest(), len(table))\n"
    )
    env = {**os.environ, strong.TABLE_DIR_ENV: str(tables)}

    def run(mode: str) -> tuple[str, int]:
        proc = subprocess.run(
            [sys.executable, "-c", code, mode],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        digest, count = proc.stdout.split()
        return digest, int(count)

    computed, loaded = run("compute"), run("load")
    assert computed == loaded and computed[1] == 149986
