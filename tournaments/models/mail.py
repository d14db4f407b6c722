"""The mails the platform sent because someone asked (what the mail limits count)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

User = settings.AUTH_USER_MODEL


class MailSent(models.Model):
    """One mail the platform sent because someone asked (an invitation, an address
    confirmation): what the per-sender and per-recipient limits count
    (``tournaments/services/mail_limits.py``)."""

    class Kind(models.TextChoices):
        INVITATION = "invitation", "invitation"
        CONFIRMATION = "confirmation", "address confirmation"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    sender = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recipient = models.CharField(max_length=254, help_text="the address, lower case")
    sent_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-sent_at"]
        indexes = [
            models.Index(fields=["sender", "sent_at"], name="mailsent_sender"),
            models.Index(fields=["recipient", "sent_at"], name="mailsent_recipient"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.recipient} at {self.sent_at:%Y-%m-%d %H:%M}"
