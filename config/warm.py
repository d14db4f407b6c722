"""Work a web process does when it starts rather than in its first request."""

from __future__ import annotations

from django.urls import reverse


def load_urls() -> None:
    """Import the URL configuration, and with it every view module, now: Django does it in
    the first request otherwise (about a second here), which then waited that long before
    ``/healthz`` even started its probes (docs/configuration.md, "/healthz")."""
    reverse("healthz")
