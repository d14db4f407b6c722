"""The header's unread-notification count (one query for a signed-in visitor)."""

from __future__ import annotations

from accounts.notifications import unread_count


def notifications(request) -> dict:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": unread_count(user)}
