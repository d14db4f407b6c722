"""System checks of the deployment settings that Django's own ``check --deploy`` lacks."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register

CONSOLE_EMAIL = "django.core.mail.backends.console.EmailBackend"


@register(Tags.security, deploy=True)
def check_email_backend(app_configs, **kwargs):
    """The console e-mail backend writes password-reset links into the server's log."""
    if settings.DEBUG or settings.EMAIL_BACKEND != CONSOLE_EMAIL:
        return []
    return [
        Warning(
            "EMAIL_BACKEND is `console` with DEBUG off: every mail, password-reset links "
            "included, is written to the server's log.",
            hint="Set EMAIL_BACKEND=smtp and EMAIL_HOST unless nobody else can read the log.",
            id="maedn.W001",
        )
    ]


@register(Tags.security, deploy=True)
def check_plain_http(app_configs, **kwargs):
    """ALLOW_PLAIN_HTTP turns off the HTTPS redirect, HSTS and secure cookies."""
    if settings.DEBUG or not getattr(settings, "ALLOW_PLAIN_HTTP", False):
        return []
    return [
        Warning(
            "ALLOW_PLAIN_HTTP is on with DEBUG off: no HTTPS redirect, no HSTS, session and "
            "CSRF cookies sent over plain HTTP.",
            hint="Only for a local production-like run (make prod-local).",
            id="maedn.W002",
        )
    ]


@register(Tags.security, deploy=True)
def check_from_address(app_configs, **kwargs):
    """Every mail (notifications, invitations, password resets) is sent from
    DEFAULT_FROM_EMAIL; Django's default, webmaster@localhost, is refused or sorted as spam
    by most receiving servers and cannot be answered."""
    sender = (settings.DEFAULT_FROM_EMAIL or "").strip()
    if settings.DEBUG or settings.EMAIL_BACKEND == CONSOLE_EMAIL:
        return []
    if sender.rstrip(">").lower().endswith(("@localhost", "@localhost.localdomain")):
        return [
            Warning(
                f"DEFAULT_FROM_EMAIL is {sender!r}: every mail of the site is sent from an "
                "address no one can answer, which receiving servers often refuse.",
                hint="Set DEFAULT_FROM_EMAIL to an address of the site's domain, e.g. "
                '"MÄDN League <noreply@example.org>".',
                id="maedn.W003",
            )
        ]
    return []
