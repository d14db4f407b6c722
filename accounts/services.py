"""Account writes: signing up (an account and its player profile in one transaction)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from tournaments.services.errors import ServiceError
from tournaments.services.players import player_create


def account_signup(*, username: str, email: str, password: str, player_name: str = ""):
    """Create an account and its player profile (named ``player_name``, else the user
    name). Two sign-ups racing for one user name: one wins, the other gets a clear error."""
    user_model = get_user_model()
    try:
        with transaction.atomic():
            user = user_model.objects.create_user(username=username, email=email, password=password)
            player_create(name=player_name or username, user=user)
    except IntegrityError:
        raise ServiceError(
            f"the user name {username!r} was taken a moment ago; choose another",
            field="username",
        ) from None
    return user
