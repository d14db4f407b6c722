"""Account writes: signing up (an account and its player profile in one transaction); the
account's language (its pages and its e-mails)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q

from accounts.models import AccountSettings
from core.errors import ServiceError
from tournaments.algorithms.names import BadName, name_keys, normalise_name
from tournaments.models import Player
from tournaments.services.entries import claim_create
from tournaments.services.errors import coded, from_algorithm
from tournaments.services.players import player_create


def account_signup(
    *,
    username: str,
    email: str,
    password: str,
    player_name: str = "",
    claim: bool = False,
    invitation=None,
):
    """Create an account and its player profile (named ``player_name``, else the user
    name). Two sign-ups racing for one user name: one wins, the other gets a clear error.

    Signing up through an open ``invitation`` (the invitation page's "sign up"): the
    player the organizer named is kept. An invitation to become a player created without
    an account creates the account without a player (accepting makes it that player); an
    invitation naming a new player makes that name the default of ``player_name``.

    Player names repeat across organizers (issue 34): the account's player may share its
    name with others (its user name tells it apart). ``claim`` ("this is me") creates the
    account without a player and asks to become the one player without an account of that
    name (its creator approves); none, or several (from different organizers), is refused
    with a way forward (``field="claim"``)."""
    username = username_check(username)
    if invitation is not None and not invitation.is_open:
        invitation = None
    if invitation is not None and invitation.entry_id:
        # they become the invitation's player on accepting: an account without a player
        return _account_create(username, email, password, lambda user: None)
    default = (invitation.name if invitation is not None else "") or username
    try:
        name = normalise_name(player_name or default, what="a player's name")
    except BadName as exc:
        raise from_algorithm(exc, field="name") from None
    # issue 34: a player name repeats across the site (an account's player is told apart by
    # its user name); only "this is me" looks for the organizer's player of that name
    if claim:
        taken = _claimed_player(name)
        return _account_create(
            username, email, password, lambda user: claim_create(player=taken, by=user)
        )
    return _account_create(
        username, email, password, lambda user: player_create(name=name, user=user)
    )


def _claimed_player(name: str) -> Player:
    """The one player without an account named ``name`` (or a look-alike of it); none,
    or several (from different organizers), is refused with a way forward."""
    key, folded = name_keys(name)
    accountless = list(
        Player.objects.filter(user__isnull=True)
        .filter(Q(name_key=key) | Q(name_key_folded=folded) | Q(name__iexact=name))
        .select_related("created_by")
        .order_by("pk")[:6]
    )
    if not accountless:
        raise coded("signup_claim_none", field="claim", name=name)
    if len(accountless) > 1:
        raise coded("signup_claim_several", field="claim", name=name, count=len(accountless))
    return accountless[0]


def _account_create(username: str, email: str, password: str, then: Callable) -> Any:
    """The account and (``then``) its player or claim, in one transaction; a user name
    taken by a sign-up racing this one is refused."""
    try:
        with transaction.atomic():
            user = get_user_model().objects.create_user(
                username=username, email=email, password=password
            )
            then(user)
    except IntegrityError:
        raise _name_taken(username) from None
    return user


def username_clash(username: str):
    """The account whose user name is ``username`` or looks like it (equal confusable
    skeletons: ``alice`` and ``аlice`` with a Cyrillic а, ``ALICE``), or None. User names
    are unique on the whole site."""
    user_model = get_user_model()
    key, folded = name_keys(username)
    found = user_model.objects.filter(
        Q(username__iexact=username) | Q(username_key__key=key) | Q(username_key__key_folded=folded)
    )
    return found.order_by("pk").first()


def username_check(username: str) -> str:
    """The validator of a new user name: NFKC, no control, tab, zero-width or
    bidirectional characters, and no look-alike of an existing one (ServiceError naming
    which)."""
    try:
        username = normalise_name(username, what="a user name")
    except BadName as exc:
        raise from_algorithm(exc, field="username") from None
    clash = username_clash(username)
    if clash is not None:
        if clash.get_username().casefold() == username.casefold():
            raise coded("username_taken", field="username", username=username)
        raise coded(
            "username_lookalike", field="username", username=username, other=clash.get_username()
        )
    return username


def _name_taken(username: str) -> ServiceError:
    return coded("username_raced", field="username", username=username)


# --- the account's language (its pages and its e-mails) ---------------------------------


def languages_of(users: Iterable) -> dict[int, str]:
    """Each user's language (``AccountSettings``; the site's default without one)."""
    users = list(users)
    chosen = dict(
        AccountSettings.objects.filter(user__in=users)
        .exclude(language="")
        .values_list("user_id", "language")
    )
    return {u.pk: chosen.get(u.pk, settings.LANGUAGE_CODE) for u in users}


def language_of(user) -> str:
    return languages_of([user])[user.pk]


def language_set(user, language: str) -> None:
    """Store the account's language (one of ``settings.LANGUAGES``)."""
    if language not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")
    AccountSettings.objects.update_or_create(user=user, defaults={"language": language})
