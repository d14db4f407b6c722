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


# --- the one parser both forms read their rolls with ----------------------------------------


def test_the_parser_reads_rounds_of_name_roll_pairs():
    from tournaments.web.forms import parse_rolls

    rounds = parse_rolls(["Anna Lena 5, Ben 3 ,", "  ", "Anna Lena\t2, Ben 06"])
    assert rounds == [{"Anna Lena": 5, "Ben": 3}, {"Anna Lena": 2, "Ben": 6}]
    assert parse_rolls(["", " , "]) == []


@pytest.mark.parametrize(
    ("rounds", "message"),
    [
        (["Ann five"], "round 1: write each roll as a name and a number, e.g. Ann 5"),
        (["Ann 5, Ben 5", "Ann ²"], "round 2: write each roll as a name and a number, e.g. Ann 5"),
        (["Ann ٣"], "round 1: write each roll as a name and a number, e.g. Ann 5"),
        (["Ann 5, 6"], "round 1: write each roll as a name and a number, e.g. Ann 5"),
        (["Ann -1"], "round 1: write each roll as a name and a number, e.g. Ann 5"),
        (["Ann 7, Ben 5"], "round 1: Ann rolled 7, but a die shows 1 to 6"),
        (["Ann 5", "Ben 0"], "round 2: Ben rolled 0, but a die shows 1 to 6"),
        (["Ann 5, ann 6"], "round 1: ann rolls once per round"),
    ],
)
def test_the_parser_says_what_is_wrong_and_both_forms_show_it(rounds, message):
    from django.core.exceptions import ValidationError

    from tournaments.web.forms import parse_rolls

    with pytest.raises(ValidationError) as raised:
        parse_rolls(rounds)
    assert raised.value.messages == [message]
    tie_break = TieBreakRollForm(data={"rolls": "; ".join(rounds)})
    assert not tie_break.is_valid() and tie_break.errors["rolls"] == [message]
    seeding = SeedForm(data={"method": "rolls", "rolls": "\n".join(rounds)})
    assert not seeding.is_valid() and seeding.errors["rolls"] == [message]


def test_the_parser_speaks_german():
    from django.core.exceptions import ValidationError
    from django.utils import translation

    from tournaments.web.forms import parse_rolls

    with translation.override("de"):
        with pytest.raises(ValidationError) as raised:
            parse_rolls(["Ann 9"])
        assert raised.value.messages == ["Runde 1: Ann hat 9 gewürfelt, ein Würfel zeigt 1 bis 6"]
