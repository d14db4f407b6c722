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
