"""Template words of a championship day (issue 36)."""

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

TABLE_STATE_LABELS = {
    "referee": _("referee called"),
    "disputed": _("disputed"),
    "entered": _("entered"),
    "playing": _("playing"),
    "confirmed": _("confirmed"),
}


@register.filter
def table_state_label(state: str) -> str:
    return str(TABLE_STATE_LABELS.get(state, state))


@register.filter
def clock_time(seconds) -> str:
    """Seconds left as the clock shows them: ``m:ss`` (``h:mm:ss`` from an hour)."""
    if seconds is None:
        return ""
    hours, rest = divmod(int(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
