"""A field's specialist model (``evaluator_of``): the league's own games — four single
colours under the league preset on board 4 — are valued by the manifest's specialist where
one ships, every other game by the model of every field; the strong player and the
analysis ask for the game's model, not the rules'."""

from __future__ import annotations

import hashlib
import json
import random
import shutil

import numpy as np
import pytest

from games.engine import evaluator as ev_module
from games.engine.evaluator import LEAGUE_B4, evaluator_for, evaluator_of, field_of
from games.engine.evaluator.model import Network
from games.engine.game import Game
from games.engine.strong import StrongBot


def test_the_league_field_is_four_single_colours_under_league_rules_on_board_4():
    assert field_of(Game.new("league")) == LEAGUE_B4
    assert field_of(Game.new("league", first="yellow")) == LEAGUE_B4
    others = [
        Game.new("league", unused=["black", "green"]),
        Game.new("league", unused=["green"]),
        Game.new("online"),
        Game.new("classic"),
        Game.new("league", board=6),
        Game.new("league", variant="quick"),
        Game.new("league", players={"ann": ["red", "yellow"], "bob": ["black", "green"]}),
        Game.new({"preset": "league", "jump_in_goal": True}),
    ]
    assert [field_of(g) for g in others] == [None] * len(others)


@pytest.fixture
def models_dir(tmp_path, monkeypatch):
    """The evaluator's model directory in ``tmp_path`` (the shipped model copied), its
    caches cleared before and after."""
    shutil.copy(ev_module.MODELS / ev_module.MODEL_FILE, tmp_path / ev_module.MODEL_FILE)
    shutil.copy(ev_module.MANIFEST, tmp_path / "manifest.json")
    monkeypatch.setattr(ev_module, "MODELS", tmp_path)
    monkeypatch.setattr(ev_module, "MANIFEST", tmp_path / "manifest.json")
    caches = (ev_module.specialist_network, ev_module._specialist)
    for c in caches:
        c.cache_clear()
    yield tmp_path
    for c in caches:
        c.cache_clear()


def _ship_specialist(directory, digest: str | None = None) -> Network:
    w = np.zeros((35, 1))
    w[27, 0] = -3.0  # "remaining": a plain race model, unlike the shipped one
    net = Network([(w, np.zeros(1))], {"name": "league-special"})
    blob = net.to_bytes()
    (directory / "special.npz").write_bytes(blob)
    manifest = json.loads((directory / "manifest.json").read_text())
    manifest["specialists"] = {
        LEAGUE_B4: {"file": "special.npz", "sha256": digest or hashlib.sha256(blob).hexdigest()}
    }
    (directory / "manifest.json").write_text(json.dumps(manifest))
    return net


def test_without_a_specialist_every_game_gets_the_model_of_every_field(models_dir):
    league = Game.new("league")
    assert evaluator_of(league) is evaluator_for("league")
    assert StrongBot().evaluator(league) is evaluator_for("league")


def test_the_manifests_specialist_values_the_league_field_and_only_it(models_dir):
    _ship_specialist(models_dir)
    league, online = Game.new("league"), Game.new("online")
    special = evaluator_of(league)
    assert special.name == "league-special" and special is not evaluator_for("league")
    assert evaluator_of(Game.new("league", first="green")) is special  # cached
    assert evaluator_of(online) is evaluator_for("online")
    assert StrongBot().evaluator(league) is special
    assert StrongBot().evaluator(online) is evaluator_for("online")
    mid = Game.new("league")
    rng = random.Random(1)
    for _ in range(40):
        die = rng.randint(1, 6)
        moves = mid.legal_moves(die)
        mid.push(die, moves[0] if moves else None)
    assert special.win_chances(mid) != evaluator_for("league").win_chances(mid)
    given = evaluator_for("league")
    assert StrongBot(given).evaluator(league) is given  # a bot given a model keeps it


def test_a_specialist_with_another_digest_is_refused(models_dir):
    _ship_specialist(models_dir, digest="0" * 64)
    with pytest.raises(ValueError, match="SHA-256"):
        evaluator_of(Game.new("league"))
