"""The strong computer in the rooms never computes its solo-race table inside a decision
(live/computer.py): without the table it plays the heuristic's move and the table is
prepared in the background; with the table stored its first decision loads it; a worker or
the ASGI server starting computes the missing tables of every preset in the background.
(How long loading takes is measured in bench/bots.py and docs/engine.md, not asserted.)"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time

import pytest

from games.engine import PRESETS, Game, HeuristicBot, StrongBot
from games.engine import strong as engine_strong
from games.engine.strong import set_table_dir, solo_table, solo_table_store, solo_table_stored
from live import computer
from tests.processes import REPO_ROOT


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """This test's own (empty) table directory and no table prepared in this process."""
    monkeypatch.setattr(engine_strong, "_table_dir", engine_strong._UNSET)
    set_table_dir(tmp_path)
    monkeypatch.setattr(computer, "_held", set())
    monkeypatch.setattr(computer, "_queued", {})
    solo_table.cache_clear()
    yield tmp_path
    solo_table.cache_clear()


def a_choice(seed: int = 3) -> tuple[Game, int, list]:
    """A game of the online rules on board 4 where red has a real choice."""
    rng = random.Random(seed)
    game = Game.new("online", 4, first="red")
    while True:
        die = rng.randint(1, 6)
        moves = game.legal_moves(die)
        if len(moves) > 1 and game.turn == "red":
            return game, die, moves
        game.push(die, rng.choice(moves) if moves else None)


def heuristic_move(game: Game, die: int, moves: list):
    raws = [computer._raw(game, m) for m in moves]
    seat = game.seat_of[game.turn]
    return moves[raws.index(tuple(HeuristicBot().choose(game, seat, die, raws, random.Random())))]


def no_computing(monkeypatch) -> None:
    """Computing a table in this thread fails the test."""
    engine_strong._code_digest()  # of the real code (the file names carry it)

    def refuse(*args, **kwargs):
        raise AssertionError("a table was computed inside a decision")

    monkeypatch.setattr(engine_strong, "_solve", refuse)


def test_without_its_table_a_strong_seat_plays_the_heuristic_move_at_once(fresh, monkeypatch):
    asked = []
    monkeypatch.setattr(computer, "_prepare", lambda keys, hold: asked.append((list(keys), hold)))
    no_computing(monkeypatch)
    game, die, moves = a_choice()
    move = computer.choose(game, die, moves, "strong")
    assert move == heuristic_move(game, die, moves)
    assert asked == [([StrongBot().table_args(game)], True)]  # its table is on its way


def test_with_its_table_stored_the_first_strong_decision_loads_it(fresh, monkeypatch):
    game, die, moves = a_choice()
    key = StrongBot().table_args(game)
    assert solo_table_store(*key)  # what warming a server did before
    solo_table.cache_clear()  # a process that never held it
    no_computing(monkeypatch)
    move = computer.choose(game, die, moves, "strong")
    assert solo_table.cache_info().currsize == 1  # loaded, and kept for the next decision
    raws = [computer._raw(game, m) for m in moves]
    seat = game.seat_of[game.turn]
    best = moves[raws.index(tuple(StrongBot().choose(game, seat, die, raws, random.Random())))]
    assert move == best


def wait_for(condition, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "not prepared in time"
        time.sleep(0.02)


def test_the_background_thread_stores_a_table_or_holds_it_without_a_cache(fresh, monkeypatch):
    small = (12, True, False, True, True, 0.05)  # a 12-field board: milliseconds
    computer._prepare([small], hold=False)
    wait_for(lambda: small not in computer._queued)
    assert solo_table_stored(*small) and small not in computer._held
    assert solo_table.cache_info().currsize == 0  # stored, not kept in the process

    set_table_dir(None)  # no file cache: a room's table is kept in the process instead
    other = (12, False, True, True, True, 0.05)
    computer._prepare([other], hold=True)
    wait_for(lambda: other not in computer._queued)
    assert other in computer._held and not solo_table_stored(*other)


def test_warming_asks_for_every_offered_table_the_cache_lacks(fresh, monkeypatch):
    asked = []
    monkeypatch.setattr(computer, "_prepare", lambda keys, hold: asked.append((list(keys), hold)))
    offered = computer.offered_tables()
    bot = StrongBot()
    every = {bot.table_args(Game.new(p, b)) for p in PRESETS for b in computer.BOARDS}
    assert set(offered) == every and len(offered) == len(every) == 6
    assert offered[0] == bot.table_args(Game.new("online", 4))  # the rooms' default first
    computer.warm_tables()
    assert asked == [(offered, False)]  # stored, not kept in this process

    stored = set(offered[:4])
    monkeypatch.setattr(computer, "solo_table_stored", lambda *key: key in stored)
    asked.clear()
    computer.warm_tables()
    assert asked == [(offered[4:], False)]
    stored = set(offered)
    asked.clear()
    computer.warm_tables()
    assert asked == []


def test_a_worker_starting_warms_the_tables_unless_switched_off(monkeypatch, settings):
    from celery.signals import worker_ready

    warmed = []
    monkeypatch.setattr(computer, "warm_tables", lambda: warmed.append(1))
    settings.LIVE = {**settings.LIVE, "WARM_TABLES": True}
    worker_ready.send(sender=None)
    assert warmed == [1]
    settings.LIVE = {**settings.LIVE, "WARM_TABLES": False}
    worker_ready.send(sender=None)
    assert warmed == [1]


def test_the_asgi_server_starting_warms_the_tables():
    code = (
        "import live.computer as c\n"
        "c.warm_tables = lambda: print('warmed')\n"
        "import config.asgi\n"
        "print('ready')\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "LIVE_WARM_TABLES": "1"}
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["warmed", "ready"]


def test_a_stored_table_is_looked_for_once_not_on_every_move(fresh, monkeypatch):
    looked = []

    def stored(*key):
        looked.append(key)
        return True

    monkeypatch.setattr(computer, "solo_table_stored", stored)
    monkeypatch.setattr(computer, "_prepare", lambda *a, **k: pytest.fail("nothing to prepare"))
    bot, game = StrongBot(), Game.new("online", 4, first="red")
    assert all(computer.table_ready(bot, game) for _ in range(5))
    assert looked == [bot.table_args(game)]  # the file's header read once, then held
