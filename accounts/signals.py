"""Keeping ``UsernameKey`` in step with each account's user name, however it is saved
(sign-up, the admin, ``createsuperuser``)."""

from __future__ import annotations

from accounts.models import UsernameKey
from tournaments.algorithms.names import name_keys


def username_key_keep(sender, instance, raw=False, update_fields=None, **kwargs) -> None:
    if raw or instance.pk is None:
        return
    if update_fields is not None and "username" not in update_fields:
        return  # a log-in's last_login, a password change: the name stands
    key, folded = name_keys(instance.get_username())
    UsernameKey.objects.update_or_create(
        user_id=instance.pk, defaults={"key": key, "key_folded": folded}
    )
