"""Players: a person, with or without an account."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext

from tournaments.algorithms.names import name_keys

User = settings.AUTH_USER_MODEL


class Player(models.Model):
    """A person. Linked to a user account when they have one; leagues may list players
    without accounts."""

    user = models.OneToOneField(
        User, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    name = models.CharField(max_length=100)  # h-trust: unique per organizer, not on the site
    #: the name's confusable skeletons (``tournaments.algorithms.names.name_keys``: as it
    #: looks, and case-folded), kept by ``save``: names that look alike share a key (issue 32)
    name_key = models.CharField(max_length=400, db_index=True, editable=False, default="")
    name_key_folded = models.CharField(max_length=400, db_index=True, editable=False, default="")
    slug = models.SlugField(max_length=100, unique=True)
    name_suffix = models.CharField(max_length=160, blank=True, editable=False)  # h-trust
    preferred_colours = models.JSONField(
        default=list, blank=True, help_text='preferred allied pair, e.g. ["green", "red"]'
    )
    created_by = models.ForeignKey(
        User,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text="the organizer (or staff member) who created this player without an account",
    )
    shared = models.BooleanField(
        default=False,
        help_text="other organizers may enter this player without an account (set by the "
        "creator or staff; otherwise only the creator may)",
    )
    calendar_version = models.PositiveIntegerField(
        default=0,
        help_text="part of the signed calendar link of My games; raising it (a new link) "
        "stops the old one",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [  # h-trust: one name per organizer among players without an account
            models.UniqueConstraint(
                fields=["created_by", "name"],
                condition=Q(user__isnull=True),
                name="player_unique_name_per_organizer",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.name_key, self.name_key_folded = name_keys(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key", "name_key_folded"}
        super().save(*args, **kwargs)

    @property
    def label(self) -> str:  # h-trust
        """The name, with what tells it apart where another player's looks the same
        (``name_suffix``, kept by ``tournaments.services.players.player_names_distinguish``):
        ``Anna (@anna_k)`` for an account, ``Anna (olga's player)`` for one an organizer made."""

        if not self.name_suffix:
            return self.name
        if self.user_id is None and self.created_by_id is not None:
            return gettext("%(name)s (%(organizer)s’s player)") % {
                "name": self.name,
                "organizer": self.name_suffix,
            }
        return f"{self.name} ({self.name_suffix})"
