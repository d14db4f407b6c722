"""Private result links (issue 25): an entry's player without an account reports their own
games through a link the organizer hands out or prints on the score sheet.

Whoever opens a live link acts as that entry's player in that league's games, nowhere
else (``tournaments.actors.LinkHolder``; the results services and
``permissions.result_actions`` answer for it). Only the league's organizers (and staff)
make, rotate or withdraw one (``permissions.result_link_refusal``).

The token is ``HMAC-SHA256(SECRET_KEY, nonce)``, cut to 24 bytes (192 bits) and written in
base64url: the database keeps the random nonce and the token's SHA-256, never the token
itself, so a copy of the database gives no working link, while the organizer's page can
show the link again (it recomputes it). Changing ``SECRET_KEY`` stops every link.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from tournaments.models import Entry, ResultLink
from tournaments.permissions import result_link_refusal
from tournaments.services.errors import coded
from tournaments.services.guards import require_no_refusal
from tournaments.services.notify import RESULT_LINK_REVOKED, notify_on_commit

KEY_SALT = "tournaments.result-link"
#: what a token looks like (32 base64url characters): anything else is not looked up
TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{32}$")


def result_link_token(link: ResultLink) -> str:
    """The link's token (recomputed from its nonce and SECRET_KEY; never stored)."""
    digest = salted_hmac(KEY_SALT, link.nonce, algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest[:24]).decode("ascii")


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def link_for_token(token: str) -> ResultLink | None:
    """The live link of ``token``, or None (malformed, unknown, revoked: all alike)."""
    if not isinstance(token, str) or not TOKEN_RE.match(token):
        return None
    return (
        ResultLink.objects.filter(token_hash=_token_hash(token), revoked_at__isnull=True)
        .select_related("entry__league", "entry__player")
        .first()
    )


def revoked_link_for_token(token: str) -> ResultLink | None:
    """The revoked link of ``token`` (only its true holder can name it), or None."""
    if not isinstance(token, str) or not TOKEN_RE.match(token):
        return None
    return (
        ResultLink.objects.filter(token_hash=_token_hash(token), revoked_at__isnull=False)
        .select_related("entry__player")
        .first()
    )


def live_link(entry: Entry) -> ResultLink | None:
    return entry.result_links.filter(revoked_at__isnull=True).first()


def result_link_create(*, entry: Entry, by) -> tuple[ResultLink, str]:
    """Make the entry's result link, or a new one in place of the live one (the old one
    stops working at once). Returns the link and its token."""
    require_no_refusal(result_link_refusal(by, entry))
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update().select_related("league", "player").get(pk=entry.pk)
        )
        require_no_refusal(result_link_refusal(by, entry))  # again, under the entry's lock
        now = timezone.now()
        entry.result_links.filter(revoked_at__isnull=True).update(revoked_at=now, revoked_by=by)
        link = ResultLink(entry=entry, nonce=secrets.token_urlsafe(32), created_by=by)
        token = result_link_token(link)
        link.token_hash = _token_hash(token)
        link.save()
    return link, token


def result_link_revoke(*, entry: Entry, by) -> ResultLink:
    """Withdraw the entry's live result link: it is a 404 from now on. What was recorded
    through it stays, and says so."""
    require_no_refusal(result_link_refusal(by, entry, revoking=True))
    with transaction.atomic():
        entry = (
            Entry.objects.select_for_update().select_related("league", "player").get(pk=entry.pk)
        )
        link = live_link(entry)
        if link is None:
            raise coded("link_none", player=entry.player.name)
        link.revoked_at = timezone.now()
        link.revoked_by = by
        link.save(update_fields=["revoked_at", "revoked_by"])
    return link


def result_links_revoke_for_player(*, player, by=None) -> list[ResultLink]:
    """Who an account-less player is has changed (a claim approved, an invitation of their
    entry accepted): every live result link of theirs stops working at once, and each
    league's organizers are told (``RESULT_LINK_REVOKED``). Call it inside the transaction
    that changes the player; the account reports from now on (issue 32)."""
    links = list(
        ResultLink.objects.select_for_update()
        .filter(entry__player=player, revoked_at__isnull=True)
        .order_by("pk")
    )
    now = timezone.now()
    for link in links:
        link.revoked_at, link.revoked_by = now, by
        link.save(update_fields=["revoked_at", "revoked_by"])
        notify_on_commit(RESULT_LINK_REVOKED, link.pk)
    return links
