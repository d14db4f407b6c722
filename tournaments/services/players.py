"""Creating players: a player profile (linked to an account) or a player without one."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from tournaments.models import Player
from tournaments.permissions import organizes_any_league
from tournaments.services.errors import NotAllowed, ServiceError


def unique_slug(model, text: str) -> str:
    base = slugify(text)[:90] or "item"
    slug, n = base, 2
    while model.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


def player_create(*, name: str, user=None, preferred_colours=None) -> Player:
    name = (name or "").strip()
    if not name:
        raise ServiceError("a player needs a name", field="name")
    if Player.objects.filter(name__iexact=name).exists():
        raise ServiceError(f"there is already a player called {name}", field="name")
    try:
        with transaction.atomic():
            return Player.objects.create(
                name=name,
                user=user,
                slug=unique_slug(Player, name),
                preferred_colours=list(preferred_colours or []),
            )
    except IntegrityError:
        raise ServiceError(f"there is already a player called {name}", field="name") from None


def player_create_by(*, by, name: str, link_to_me: bool = False, preferred_colours=None) -> Player:
    """``by`` creates their own player profile (``link_to_me``, once per account), or, as an
    organizer of any league or staff, a player without an account."""
    if not getattr(by, "is_authenticated", False):
        raise NotAllowed("log in to create a player")
    if link_to_me:
        if Player.objects.filter(user=by).exists():
            raise ServiceError("your account already has a player profile", field="link_to_me")
    elif not organizes_any_league(by):
        raise NotAllowed(
            "only league organizers may create players without an account; to create your "
            "own profile send link_to_me: true"
        )
    return player_create(
        name=name, user=by if link_to_me else None, preferred_colours=preferred_colours
    )
