"""Forms of the account pages: sign-up."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.services import username_check
from core.errors import ServiceError


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("E-mail"), help_text=_("for resetting your password"), required=True
    )
    player_name = forms.CharField(
        label=_("Player name"),
        max_length=100,
        required=False,
        help_text=_("the name shown in leagues and game logs (default: your user name)"),
    )

    claim = forms.BooleanField(
        label=_("This is me: ask to become the existing player of this name"),
        required=False,
        help_text=_("the organizer who created that player (or staff) approves the request"),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def clean_username(self) -> str:
        """Also refused here (as ``account_signup`` does): invisible, bidirectional and
        control characters, and a look-alike of an existing user name (issue 32)."""
        username = super().clean_username()
        try:
            return username_check(username)
        except ServiceError as exc:
            raise forms.ValidationError(exc.localized()) from None

    def clean_player_name(self) -> str:
        return (self.cleaned_data.get("player_name") or "").strip()
