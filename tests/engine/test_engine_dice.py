"""Provably fair dice (``maedn-dice/1``, games/engine/dice.py): the rolls derived from a
seed are 1-6, deterministic, uniform and follow the documented recipe exactly; logs played
with the stream verify (and validate); one altered roll is caught at that roll, an altered
seed by its commitment; ``verify-dice`` says so with its exit codes."""

from __future__ import annotations

import copy
import hashlib
import hmac
import io
import json
import secrets
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import validate
from games.engine.cli import main
from games.engine.dice import (
    DIFFERS,
    MALFORMED,
    MISMATCH,
    NO_COMMITMENT,
    NOT_REVEALED,
    VERIFIED,
    commitment,
    dice_meta,
    die,
    play_with_seed,
    verify_dice,
)

seeds = st.binary(min_size=32, max_size=32)


def recipe(seed: bytes, index: int) -> int:
    """docs/live.md's recipe, written out independently of the module."""
    k = 0
    while True:
        msg = f"maedn-dice/1:{index}" + (f":{k}" if k else "")
        for b in hmac.new(seed, msg.encode(), hashlib.sha256).digest():
            if b < 252:
                return b % 6 + 1
        k += 1


@settings(max_examples=200, deadline=None)
@given(seeds, st.integers(0, 10**9))
def test_rolls_are_faces_deterministic_and_the_documented_recipe(seed: bytes, index: int) -> None:
    roll = die(seed, index)
    assert roll in range(1, 7)
    assert die(seed, index) == roll == die(bytes(seed), index)
    assert roll == recipe(seed, index)


def test_a_byte_of_252_or_more_is_skipped_not_folded() -> None:
    """Rejection sampling: where the digest starts with a byte ≥ 252 (which modulo 6 would
    have folded onto faces 1-4), the roll comes from the next byte below 252."""
    seed = bytes(32)
    for index in range(5000):
        digest = hmac.new(seed, f"maedn-dice/1:{index}".encode(), hashlib.sha256).digest()
        if digest[0] >= 252:
            accepted = next(b for b in digest if b < 252)
            assert die(seed, index) == accepted % 6 + 1
            return
    pytest.fail("no digest starting with a byte of 252 or more in 5000 rolls (p ≈ 1e-34)")


def test_a_negative_index_is_refused() -> None:
    with pytest.raises(ValueError, match="0 or more"):
        die(bytes(32), -1)


def test_faces_are_uniform_and_seeds_give_different_streams() -> None:
    seed = b"\x07" * 32
    counts = Counter(die(seed, i) for i in range(60_000))
    n = sum(counts.values())
    chi2 = sum((counts[f] - n / 6) ** 2 / (n / 6) for f in range(1, 7))
    assert set(counts) == set(range(1, 7))
    assert chi2 < 20.5  # chi-square, 5 degrees of freedom: P(> 20.5) = 0.001
    other = [die(b"\x08" * 32, i) for i in range(100)]
    assert other != [die(seed, i) for i in range(100)]


def test_the_commitment_is_the_seeds_sha256_and_the_seed_shows_only_when_revealed() -> None:
    seed = secrets.token_bytes(32)
    assert commitment(seed) == hashlib.sha256(seed).hexdigest()
    hidden = dice_meta(seed, reveal=False)
    assert hidden == {"scheme": "maedn-dice/1", "commitment": commitment(seed)}
    assert seed.hex() not in json.dumps(hidden)
    assert dice_meta(seed, reveal=True)["seed"] == seed.hex()


def test_a_thousand_games_played_with_the_stream_verify_and_validate() -> None:
    rolls = 0
    for k in range(1000):
        seed = hashlib.sha256(f"room {k}".encode()).digest()
        log = play_with_seed(seed, choice_seed=k, rules="online" if k % 2 else "league")
        result = validate(log)
        assert result["valid"] and result["complete"], (k, result)
        check = verify_dice(log)
        assert check.status == VERIFIED, (k, check)
        assert check.rolls == len(log["events"])
        rolls += check.rolls
    assert rolls > 100_000  # whole games, not a few rolls each


@pytest.fixture(scope="module")
def game_log() -> dict:
    return play_with_seed(b"\x2a" * 32, choice_seed=3)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_one_altered_roll_is_caught_at_that_roll(game_log: dict, data) -> None:
    log = copy.deepcopy(game_log)
    i = data.draw(st.integers(0, len(log["events"]) - 1))
    was = log["events"][i]["die"]
    log["events"][i]["die"] = data.draw(st.integers(1, 6).filter(lambda d: d != was))
    check = verify_dice(log)
    assert check.status == DIFFERS
    assert (check.event, check.rolls, check.expected) == (i, i, was)
    assert check.found == log["events"][i]["die"]
    assert f"roll {i} differs" in check.message()


def test_a_roll_that_is_not_an_integer_is_caught() -> None:
    log = play_with_seed(b"\x01" * 32)
    log["events"][3]["die"] = float(log["events"][3]["die"])
    assert (verify_dice(log).status, verify_dice(log).event) == (DIFFERS, 3)


def test_an_altered_seed_misses_its_commitment(game_log: dict) -> None:
    log = copy.deepcopy(game_log)
    seed = bytearray.fromhex(log["meta"]["dice"]["seed"])
    seed[17] ^= 1
    log["meta"]["dice"]["seed"] = seed.hex()
    check = verify_dice(log)
    assert check.status == MISMATCH
    assert "commitment mismatch" in check.message()
    # a seed and commitment both replaced (consistently) do not give the game's dice
    other = secrets.token_bytes(32)
    log["meta"]["dice"] = dice_meta(other, reveal=True)
    assert verify_dice(log).status == DIFFERS


def test_logs_with_nothing_to_verify_say_so() -> None:
    log = play_with_seed(b"\x05" * 32)
    bare = {k: v for k, v in log.items() if k != "meta"}
    assert verify_dice(bare).status == NO_COMMITMENT
    assert "no commitment" in verify_dice(bare).message()
    hidden = copy.deepcopy(log)
    del hidden["meta"]["dice"]["seed"]
    assert verify_dice(hidden).status == NOT_REVEALED
    for bad in (
        {"scheme": "maedn-dice/2", "commitment": "0" * 64},
        {"scheme": "maedn-dice/1", "commitment": "xyz"},
        {"scheme": "maedn-dice/1", "commitment": "0" * 64, "seed": "12"},
        "not an object",
    ):
        broken = copy.deepcopy(log)
        broken["meta"]["dice"] = bad
        assert verify_dice(broken).status == MALFORMED


def test_verify_dice_command(tmp_path) -> None:
    good = play_with_seed(b"\x09" * 32)
    paths = {}
    for name, log in (
        ("good", good),
        ("bare", {k: v for k, v in good.items() if k != "meta"}),
        ("bad", copy.deepcopy(good)),
    ):
        paths[name] = tmp_path / f"{name}.json"
        if name == "bad":
            log["events"][7]["die"] = log["events"][7]["die"] % 6 + 1
        paths[name].write_text(json.dumps(log))
    (tmp_path / "junk.json").write_text("{")

    def run(*names: str) -> tuple[int, str]:
        out = io.StringIO()
        code = main(
            ["verify-dice", *(str(paths.get(n, tmp_path / f"{n}.json")) for n in names)], out=out
        )
        return code, out.getvalue()

    code, text = run("good")
    assert code == 0 and text.strip().endswith(f"verified: {len(good['events'])} rolls")
    code, text = run("good", "bad")
    assert code == 1 and "bad.json: roll 7 differs" in text
    code, text = run("bare")
    assert code == 3 and "no commitment" in text
    code, text = run("junk")
    assert code == 2 and "not a log" in text
