"""Issue 32: names that look alike. Player and user names are NFKC-normalised; control,
tab, zero-width and bidirectional characters are refused with a reason naming the
character; a name whose confusable skeleton (Unicode TR39) equals an existing one in the
same scope is refused."""

from __future__ import annotations

import re
import unicodedata

import pytest
from confusable_homoglyphs.utils import load
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.services import account_signup
from tests.builders import PASSWORD, make_league, make_user
from tournaments.algorithms.names import (
    BadName,
    look_alike,
    name_skeleton,
    name_skeleton_folded,
    normalise_name,
)
from tournaments.models import Player
from tournaments.services.entries import accountless_player_create
from tournaments.services.errors import ServiceError
from tournaments.services.players import player_create

#: single characters the Unicode data lists as confusable with each ASCII letter or digit
_DATA = load("confusables.json")
VARIANTS = {
    ch: sorted(
        {
            g["c"].strip("\u200e\u200f")
            for g in _DATA.get(ch, [])
            if len(g["c"].strip("\u200e\u200f")) == 1
            # names are stored and compared in NFKC: a look-alike NFKC turns into something
            # else (ͺ into a space and a combining mark) is never shown as itself
            and unicodedata.normalize("NFKC", g["c"].strip("\u200e\u200f"))
            in (g["c"].strip("\u200e\u200f"), ch)
        }
    )
    for ch in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
}
VARIANTS = {ch: v for ch, v in VARIANTS.items() if v}


def _case_free(ch: str, glyph: str) -> bool:
    """Whether ``glyph`` looks like ``ch`` whatever the case: its likeness does not hang on
    a capital (TR39 takes a capital I for an l, and Ƨ for a 2 while ƨ is not one)."""
    return name_skeleton_folded(glyph) == name_skeleton_folded(ch)


@st.composite
def name_and_lookalike(draw, *, case: bool, glyphs: bool):
    name = draw(st.text(alphabet=sorted(VARIANTS), min_size=1, max_size=12))
    ways = ["same", "fullwidth"] + (["case"] if case else []) + (["homoglyph"] if glyphs else [])
    out = []
    for ch in name:
        how = draw(st.sampled_from(ways))
        variants = VARIANTS[ch]
        if case:  # mixed with case changes: only look-alikes that do not hang on case
            variants = [g for g in variants if _case_free(ch, g)]
        if how == "homoglyph" and variants:
            out.append(draw(st.sampled_from(variants)))
        elif how == "fullwidth":
            out.append(chr(ord(ch) + 0xFEE0))  # Ａ..Ｚ, ａ..ｚ, ０..９
        elif how == "case":
            out.append(ch.swapcase())
        else:
            out.append(ch)
    return name, "".join(out)


@settings(max_examples=300, deadline=None)
@given(name_and_lookalike(case=False, glyphs=True))
def test_a_name_and_its_confusable_variants_have_one_skeleton(pair):
    name, lookalike = pair
    assert name_skeleton(name) == name_skeleton(lookalike)
    assert look_alike(name, lookalike)
    assert name_skeleton(name_skeleton(name)) == name_skeleton(name)  # idempotent


@settings(max_examples=200, deadline=None)
@given(name_and_lookalike(case=True, glyphs=False))
def test_a_name_in_another_case_has_the_same_folded_skeleton(pair):
    name, other = pair
    assert name_skeleton_folded(name) == name_skeleton_folded(other)


@settings(max_examples=300, deadline=None)
@given(name_and_lookalike(case=True, glyphs=True))
def test_a_name_and_its_variants_in_any_case_look_alike(pair):
    name, lookalike = pair
    assert look_alike(name, lookalike)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=10))
def test_names_that_differ_in_a_plain_letter_do_not_collide(name):
    other = name[:-1] + ("q" if name[-1] != "q" else "x")
    assert not look_alike(name, other)


@pytest.mark.parametrize(
    "text, code",
    [
        ("An\u200bna", "U+200B"),  # zero-width space
        ("An\u200dna", "U+200D"),  # zero-width joiner
        ("\ufeffAnna", "U+FEFF"),  # zero-width no-break space
        ("Anna\u202e", "U+202E"),  # right-to-left override
        ("\u2067Anna\u2069", "U+2067"),  # right-to-left isolate
        ("An\u200fna", "U+200F"),  # right-to-left mark
        ("An\tna", "U+0009"),
        ("An\x07na", "U+0007"),
    ],
)
def test_invisible_and_direction_characters_are_refused_by_name(text, code):
    with pytest.raises(BadName, match=re.escape(code)):
        normalise_name(text, what="a player's name")


def test_names_are_nfkc_normalised():
    assert normalise_name("  Ａｎｎａ   Lee ") == "Anna Lee"
    assert normalise_name("ﬁona") == "fiona"
    assert normalise_name("Müller") == unicodedata.normalize("NFC", "Müller")


@pytest.mark.django_db
def test_five_annas_are_one(settings):
    organizer = make_user("olga")
    league = make_league(organizer, "club", status="draft")
    accountless_player_create(league=league, by=organizer, name="Anna")
    for lookalike, why in [
        ("Anna\u200b", "U\\+200B"),
        ("\u202eAnna", "U\\+202E"),
        ("Ann\ta", "U\\+0009"),
        ("Ａｎｎａ", "there is already a player called Anna"),
        ("\u0391nna", "looks like the existing player Anna"),  # Greek capital Alpha
        ("Аnna", "looks like the existing player Anna"),  # Cyrillic А
        ("ANNA", "there is already a player called Anna in your leagues"),
    ]:
        with pytest.raises(ServiceError, match=why):
            accountless_player_create(league=league, by=organizer, name=lookalike)
    assert list(Player.objects.values_list("name", flat=True)) == ["Anna"]
    # a name that only shares letters is fine
    assert player_create(name="Annabel").name == "Annabel"


@pytest.mark.django_db
def test_a_cyrillic_alice_cannot_sign_up_beside_alice():
    make_user("alice")
    with pytest.raises(ServiceError, match="looks like the existing alice") as exc:
        account_signup(username="\u0430lice", email="a2@example.org", password=PASSWORD)
    assert exc.value.field == "username"
    with pytest.raises(ServiceError, match="U\\+200B"):
        account_signup(username="bob\u200b", email="b@example.org", password=PASSWORD)
    # the page says so at the user name field, and nothing is created
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "\u0430lice",
            "email": "a3@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert "looks like the existing alice" in response.content.decode()
    from django.contrib.auth import get_user_model

    assert list(get_user_model().objects.values_list("username", flat=True)) == ["alice"]


@pytest.mark.django_db
def test_a_renamed_or_new_user_keeps_its_key():
    from accounts.models import UsernameKey

    user = make_user("carol")
    assert UsernameKey.objects.get(user=user).key == name_skeleton("carol")
    assert UsernameKey.objects.get(user=user).key_folded == name_skeleton_folded("carol")
    user.username = "c4rol"
    user.save()
    assert UsernameKey.objects.get(user=user).key == name_skeleton("c4rol")
    with pytest.raises(ServiceError, match="taken"):
        account_signup(username="C4ROL", email="x@example.org", password=PASSWORD)
