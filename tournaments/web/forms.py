"""Forms of the public pages: uploading a game log, confirming, disputing, resolving."""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.services import MAX_LOG_BYTES


class LogUploadForm(forms.Form):
    """A ``maedn-log/1`` log as a file or pasted text (one of the two)."""

    file = forms.FileField(
        label=_("Log file"),
        required=False,
        help_text=format_lazy(
            _("a .json file as your game client saved it (at most {size} MB)"),
            size=f"{MAX_LOG_BYTES / (1024 * 1024):g}",
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    content = forms.CharField(
        label=_("…or paste the log"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "class": "code"}),
    )

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        text = data.get("content") or ""
        if upload and text.strip():
            raise forms.ValidationError(_("Upload a file or paste the log, not both."), code="both")
        if not upload and not text.strip():
            raise forms.ValidationError(
                _("Choose a log file or paste the log's text."), code="empty"
            )
        if upload:
            if upload.size > MAX_LOG_BYTES:
                raise forms.ValidationError(
                    _("The file is larger than %(size)s MB; a game log is much smaller.")
                    % {"size": f"{MAX_LOG_BYTES / (1024 * 1024):g}"},
                    code="size",
                )
            data["log"] = upload.read()
        else:
            data["log"] = text
        return data


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label=_("What is wrong with this result?"),
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class ResolveForm(forms.Form):
    accept = forms.TypedChoiceField(
        label=_("Decision"),
        choices=[("1", _("accept: the result counts")), ("0", _("reject: the result is void"))],
        coerce=lambda v: v == "1",
        widget=forms.RadioSelect,
    )
    note = forms.CharField(
        label=_("Note"), required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 2})
    )


class TieBreakRollForm(forms.Form):
    """A roll-off typed as rounds: ``Ann 5, Ben 5; Ann 2, Ben 6`` (re-rolls after ``;``)."""

    rolls = forms.CharField(
        label=_("Rolls, round by round"),
        max_length=500,
        help_text=_('e.g. "Ann 5, Ben 5; Ann 2, Ben 6": a round per ";", re-rolls of ties after'),
    )
    note = forms.CharField(label=_("Note"), max_length=200, required=False)

    def clean_rolls(self) -> list[dict[str, int]]:
        rounds = []
        for number, text in enumerate(self.cleaned_data["rolls"].split(";"), start=1):
            round_: dict[str, int] = {}
            for item in filter(None, (part.strip() for part in text.split(","))):
                name, _sep, value = item.rpartition(" ")
                if not name.strip() or not value.strip().isdigit():
                    raise forms.ValidationError(
                        _("round %(n)s: write each roll as a name and a number, e.g. Ann 5"),
                        params={"n": number},
                    )
                round_[name.strip()] = int(value)
            if round_:
                rounds.append(round_)
        if not rounds:
            raise forms.ValidationError(_("enter at least one round of rolls"))
        return rounds
