"""An account's own records: its settings (language, daily digest) and the skeleton of
its user name. (The notifications, which were here, are the ``notifications`` app's.)"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AccountSettings(models.Model):
    """An account's own settings: the language it reads the site and its e-mails in (set by
    the site's language switch while logged in, editable on the notification settings
    page; blank: the site's default) and whether its e-mails come as one daily digest. No
    row: the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="account_settings",
    )
    language = models.CharField(max_length=10, choices=settings.LANGUAGES, blank=True)
    daily_digest = models.BooleanField(
        default=False, help_text="e-mails held and sent together once a day"
    )

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language or '-'}{' digest' if self.daily_digest else ''}"


class UsernameKey(models.Model):
    """The confusable skeletons of an account's user name
    (``tournaments.algorithms.names.name_keys``: as it looks, and case-folded), kept by a
    signal whenever a user is saved (``accounts.signals``): a new user name whose key is
    taken looks like an existing one (``alice`` and ``аlice`` with a Cyrillic а) and is
    refused (issue 32)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="username_key",
    )
    key = models.CharField(max_length=600, db_index=True)
    key_folded = models.CharField(max_length=600, db_index=True, default="")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.key}"
