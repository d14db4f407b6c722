"""API tokens of accounts (DRF authtoken): whether they are enabled, creating and
replacing one."""

from __future__ import annotations

from django.apps import apps
from django.db import transaction


def token_auth_available() -> bool:
    return apps.is_installed("rest_framework.authtoken")


def _token_model():
    return apps.get_model("authtoken", "Token")


def api_token_get(user):
    """The account's token, or ``None`` (also when tokens are not enabled)."""
    if not token_auth_available():
        return None
    return _token_model().objects.filter(user=user).first()


def api_token_issue(user):
    """The account's token, created when it has none (the token endpoint's log-in)."""
    token, _created = _token_model().objects.get_or_create(user=user)
    return token


def api_token_rotate(user):
    """Replace the account's token with a new one (the old one stops working at once)."""
    with transaction.atomic():
        _token_model().objects.filter(user=user).delete()
        return _token_model().objects.create(user=user)


def api_token_revoke(user) -> None:
    if token_auth_available():
        _token_model().objects.filter(user=user).delete()
