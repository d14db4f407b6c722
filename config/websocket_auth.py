"""The WebSocket's user, from the Django session (channels' ``AuthMiddlewareStack``), without
a thread hop for a visitor who has no session: an anonymous spectator's connect is one
database read (the room), not two thread hops (docs/live.md, "Connect cost")."""

from __future__ import annotations

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.contrib.auth.models import AnonymousUser


class SessionUserMiddleware(AuthMiddleware):
    """channels' ``AuthMiddleware``; a connection without a session cookie is anonymous at
    once (its session is empty: channels' ``get_user`` would answer the same)."""

    async def resolve_scope(self, scope) -> None:
        if scope["session"].session_key is None:
            scope["user"]._wrapped = AnonymousUser()
            return
        await super().resolve_scope(scope)


def SessionUserMiddlewareStack(inner):  # named like channels' AuthMiddlewareStack
    return CookieMiddleware(SessionMiddleware(SessionUserMiddleware(inner)))
