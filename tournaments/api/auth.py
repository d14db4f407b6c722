"""Authentication of the API: session authentication for the site's own pages (with
CSRF), token authentication (``Authorization: Token <key>``, DRF authtoken) for bots and
scripts. Throttles are ``core.throttles`` (one policy for pages and API)."""

from __future__ import annotations

from rest_framework import authentication

from accounts.tokens import token_auth_available


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF token authentication; inert while ``rest_framework.authtoken`` is not installed
    (instead of failing on the missing model)."""

    def authenticate(self, request):
        if not token_auth_available():
            return None
        return super().authenticate(request)


#: Token first: an anonymous request is answered 401 with ``WWW-Authenticate: Token``.
#: Session authentication enforces CSRF for logged-in unsafe requests.
AUTHENTICATION_CLASSES = [TokenAuthentication, authentication.SessionAuthentication]
