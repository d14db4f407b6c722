"""Digits that ``str.isdigit`` accepts but ``int`` refuses ("²") or reads as another
script's digit ("٣"): the roll forms answer a clear form error, never a server error."""

from __future__ import annotations

import pytest

from tournaments.web.forms import TieBreakRollForm
from tournaments.web.organize_forms import SeedForm


@pytest.mark.parametrize("roll", ["²", "٣", "３"])
def test_a_tie_break_roll_must_be_a_plain_number(roll):
    form = TieBreakRollForm(data={"rolls": f"Ann {roll}, Ben 5"})
    assert not form.is_valid() and "rolls" in form.errors


@pytest.mark.parametrize("roll", ["²", "٣", "３"])
def test_a_seeding_roll_must_be_a_plain_number(roll):
    form = SeedForm(data={"method": "rolls", "rolls": f"Ann {roll}, Ben 5"})
    assert not form.is_valid() and "rolls" in form.errors


def test_plain_rolls_still_pass():
    assert TieBreakRollForm(data={"rolls": "Ann 5, Ben 3"}).is_valid()
    assert SeedForm(data={"method": "rolls", "rolls": "Ann 5, Ben 3"}).is_valid()
