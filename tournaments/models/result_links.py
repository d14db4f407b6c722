"""Private result links of entries without an account."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models.entries import Entry

User = settings.AUTH_USER_MODEL


class ResultLink(models.Model):
    """An entry's private result link: whoever holds it acts as that entry's player in
    that league's games, and only there (upload a log, confirm, dispute: the same services
    and permissions, ``tournaments.actors.LinkHolder``). Made for players without an
    account, whose organizer hands it out (or prints it on the score sheet).

    The token is never stored: it is an HMAC of ``nonce`` under the site's SECRET_KEY
    (like Django's password-reset tokens), so the organizer's page can show it again, while
    the database alone (a backup, a leaked dump) gives no working link. ``token_hash`` (its
    SHA-256) finds the link. Rotating revokes the old link and makes a new one; at most
    one live link per entry (a partial unique index)."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="result_links")
    nonce = models.CharField(max_length=64)
    token_hash = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["entry", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry"],
                condition=Q(revoked_at__isnull=True),
                name="resultlink_one_live_per_entry",
            )
        ]

    def __str__(self) -> str:
        state = "revoked" if self.revoked_at else "live"
        return f"result link of {self.entry_id} ({state})"
