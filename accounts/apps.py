"""The accounts app: sign-up, log-in with its throttles, password reset, API tokens."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts import tasks  # noqa: F401  (registers accounts.notify with Celery)
