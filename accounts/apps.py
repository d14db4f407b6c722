"""The accounts app: sign-up, log-in with its throttles, password reset, API tokens."""

from django.apps import AppConfig
from django.contrib.auth import get_user_model
from django.db.models.signals import post_save


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:

        from accounts.signals import username_key_keep  # noqa: PLC0415 (accounts.signals loads models: only in ready())

        post_save.connect(
            username_key_keep, sender=get_user_model(), dispatch_uid="accounts.username_key"
        )
