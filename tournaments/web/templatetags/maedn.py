"""Template filters and tags of the public pages: labels in the active language, colour
chips that do not rely on colour alone, durations, metric values, admin links.

``{% load maedn %}``
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from django import template
from django.conf import settings
from django.shortcuts import resolve_url
from django.urls import NoReverseMatch, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from games.engine.rules import RuleSet, explain
from games.geometry import SHAPES, SYMBOLS, shape_path
from games.replay import colour_label
from ratings.algorithms import Rating, is_provisional
from ratings.config import PLATFORM_RATINGS
from tournaments.algorithms.standings import MAX_GAME_SECONDS
from tournaments.formats import FORMATS
from tournaments.models import Fixture, League, Result, Series
from tournaments.notes import note_text
from tournaments.services.errors import error_text

from .rules_text import translate_sentence

register = template.Library()

#: the statuses the pages label, each labelled once on its model (the first that knows a
#: value names it: a fixture's and a result's "confirmed" read the same)
STATUS_CHOICES = (League.Status, Fixture.Status, Result.State, Series.Status)

SOURCE_LABELS = {
    "log": _("validated game log"),
    "report": _("reported by hand (unverified)"),
    "organizer": _("entered by an organizer"),
    "forfeit": _("forfeit"),
}

FORMAT_LABELS = {
    "2T": _("Double threat (2T)"),
    "2T+": _("Double threat XL (2T+)"),
    "3T": _("Triple threat (3T)"),
    "3T+": _("Triple threat XL (3T+)"),
    "GP": _("Grand Prix (GP)"),
    "GP+": _("Grand Prix plus (GP+)"),
    "open": _("Open tournament"),
}

#: column heading, and the words of the "how ties are broken" note
METRICS = {
    "won_lost": (_("W–L"), _("the won–lost record (more wins first)")),
    "wins": (_("Won"), _("more games won")),
    "head_to_head": (
        _("H2H"),
        _(
            "the head-to-head score among the players tied on the metrics before it: +1 for each "
            "game "
            "finished ahead of one of them, −1 for each behind; – when not tied"
        ),
    ),
    "counted_pawns_difference": (_("Pawn diff."), _("the counted-pawns difference")),
    "counted_pawns_diff": (_("Pawn diff."), _("the counted-pawns difference")),
    "win_percentage": (_("Win %"), _("the share of games won")),
    "games_played": (_("Played"), _("more games played")),
    "counted_pawns": (_("Pawns"), _("more counted pawns")),
    "completed_colours": (_("Colours done"), _("more completed colours")),
    "game_time": (_("Game time"), _("less total game time")),
    "die_roll": (_("Die roll"), _("a die roll recorded by the organizer")),
    "gp_points": (_("GP points"), _("more Grand Prix points")),
    "gp_plus_points": (_("GP+ points"), _("more Grand Prix plus points")),
    "placement_points": (_("Points"), _("more placement points")),
    "points": (_("Points"), _("more points")),
}


@register.filter
def submitter(result) -> str:
    """Who sent a result: the player of the private result link it came through, else the
    account's name ("–" when neither is known, e.g. the account was deleted)."""
    if getattr(result, "submitted_via_id", None):
        return result.submitted_via.entry.player.name
    if getattr(result, "submitted_by_id", None):
        return result.submitted_by.get_username()
    return "–"


_SERIES_NUMBERED = re.compile(r"^(Semi-final|Quarter-final) (\d+)$")
_SERIES_ROUND_OF = re.compile(r"^Round of (\d+)(?: – (\d+))?$")


@register.filter
def series_name(name: str) -> str:
    """A playoff series' name (stored in English by the bracket: "Final", "Semi-final 2",
    "Round of 16 – 3", "Qualifying Series") in the reader's language; an organizer's own
    name as it is."""
    fixed = {
        "Final": pgettext("series", "Final"),
        "Final Series": pgettext("series", "Final Series"),
        "Qualifying Series": pgettext("series", "Qualifying Series"),
    }
    if name in fixed:
        return fixed[name]
    if m := _SERIES_NUMBERED.match(name or ""):
        words = {
            "Semi-final": pgettext("series", "Semi-final %(n)s"),
            "Quarter-final": pgettext("series", "Quarter-final %(n)s"),
        }
        return words[m.group(1)] % {"n": m.group(2)}
    if m := _SERIES_ROUND_OF.match(name or ""):
        text = pgettext("series", "Round of %(n)s") % {"n": m.group(1)}
        return f"{text} – {m.group(2)}" if m.group(2) else text
    return name


@register.filter
def status_label(value: str) -> str:
    for choices in STATUS_CHOICES:
        if value in choices.values:
            return choices(value).label
    return value


@register.filter
def source_label(value: str) -> str:
    return SOURCE_LABELS.get(value, value)


@register.filter
def format_label(code: str) -> str:
    if code in FORMAT_LABELS:
        return FORMAT_LABELS[code]
    fmt = FORMATS.get(code)
    return fmt.label if fmt else code


@register.filter
def colour_name(value: str) -> str:
    return colour_label(value)


def _humanize(key: str) -> str:
    return key.replace("_", " ").capitalize()


@register.filter
def metric_label(key: str) -> str:
    return METRICS[key][0] if key in METRICS else _humanize(key)


@register.filter
def metric_rule(key: str) -> str:
    return METRICS[key][1] if key in METRICS else _humanize(key)


@register.filter
def metric_value(metrics: dict | None, key: str) -> str:
    """A metric of a standings row, readable: numbers as numbers, pairs as "3–1", game
    times as durations, anything else compact."""
    if not metrics or key not in metrics:
        return "–"
    return _show_metric(metrics[key], key)


def _show_metric(value: Any, key: str = "") -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, int | float):
        return _show_number(value, key)
    if isinstance(value, list | tuple):
        return _show_sequence(value)
    if isinstance(value, dict):
        return _show_mapping(value, key)
    return str(value)


def _signed_gap(value: float) -> str:
    """A head-to-head difference: always signed, zero plain."""
    if value > 0:
        return f"+{value:g}"
    return f"−{-value:g}" if value < 0 else "0"


def _show_sequence(value: list | tuple) -> str:
    """A pair of numbers as "3–1", any other sequence listed."""
    if len(value) == 2 and all(isinstance(v, int | float) for v in value):
        return f"{_show_metric(value[0])}–{_show_metric(value[1])}"
    return ", ".join(_show_metric(v) for v in value)


#: the won–lost pairs a metric may be stored as
_RECORD_KEYS = (("wins", "losses"), ("won", "lost"))


def _show_mapping(value: dict, key: str) -> str:
    """A metric stored as an object: its text, its won–lost record, its value, else every
    part listed."""
    if "text" in value:
        return str(value["text"])
    for won, lost in _RECORD_KEYS:
        if won in value and lost in value:
            return f"{value[won]}–{value[lost]}"
    if "value" in value:
        return _show_metric(value["value"], key)
    return ", ".join(f"{k} {_show_metric(v)}" for k, v in value.items())


def _minus(text: str) -> str:
    """One minus sign on every page: U+2212, as ``signed`` and the head-to-head column
    write it, never the hyphen Python prints."""
    return "\u2212" + text[1:] if text.startswith("-") else text


@register.filter
def minus(value) -> str:
    """A formatted number with the true minus sign (``{{ x|floatformat:2|minus }}``)."""
    return _minus(str(value))


@register.filter
def duration(seconds: float | int | None) -> str:
    """Seconds as ``m:ss`` or ``h:mm:ss``; "–" for no time, and for a stored time no real
    game has (infinite, NaN, negative, beyond game-log.md's 10,000,000 s: a log stored
    before that bound)."""
    if seconds is None or seconds == "":
        return "–"
    try:
        seconds = float(seconds)
    except (TypeError, ValueError):
        return "–"
    if not 0 <= seconds <= MAX_GAME_SECONDS:  # NaN fails both comparisons
        return "–"
    total = round(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


@register.filter
def get_item(mapping: dict | None, key: Any) -> Any:
    """``mapping[key]`` trying the key as given and as a string (JSON keys are strings)."""
    if not mapping:
        return None
    if key in mapping:
        return mapping[key]
    return mapping.get(str(key))


@register.filter
def percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f} %"


@register.filter
def one_decimal(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"


#: the metrics whose numbers are not plain counts, and how each is written
_NUMBER_BY_KEY = {"game_time": duration, "win_percentage": percent, "head_to_head": _signed_gap}


def _show_number(value: float, key: str) -> str:
    """A number: in its metric's own way, else whole numbers without a decimal point."""
    if key in _NUMBER_BY_KEY:
        return _NUMBER_BY_KEY[key](value)
    if isinstance(value, float):
        return _minus(f"{value:g}" if value != int(value) else str(int(value)))
    return _minus(str(value))


def _chip(colour: str) -> str:
    return _chip_in(colour, get_language())


@lru_cache(maxsize=512)
def _chip_in(colour: str, language: str | None) -> str:
    """A chip's HTML, the same for a colour and language every time: kept (a page of
    games shows dozens, each a translated name and an SVG path)."""
    known = colour in SYMBOLS
    css = colour if known else "other"
    return format_html(
        '<span class="chip"><svg viewBox="-10 -10 20 20" aria-hidden="true" focusable="false">'
        '<path class="pawn-shape fill-{css}" d="{path}"/>'
        '<text class="pawn-letter ink-{css}" y="1">{symbol}</text></svg>'
        '<span class="chip-name">{label}</span></span>',
        css=css,
        path=shape_path(SHAPES[list(SYMBOLS).index(colour)] if known else "circle", 9),
        symbol=SYMBOLS.get(colour, colour[:1].upper()),
        label=colour_label(colour),
    )


@register.simple_tag
def colour_chip(colour: str) -> str:
    """A colour shown by swatch, shape, letter and name (readable without colour vision)."""
    return _chip(colour)


@register.simple_tag
def colour_chips(colours) -> str:
    """Chips for a list of colours, joined by "+" (an allied pair)."""
    return format_html_join(
        mark_safe('<span class="plus" aria-hidden="true">+</span>'),
        "{}",
        ((_chip(c),) for c in colours or []),
    )


@register.simple_tag
def admin_change_url(obj) -> str:
    """The admin page of ``obj``, or "" when its model has none."""
    meta = obj._meta
    try:
        return reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    except NoReverseMatch:
        return ""


@register.simple_tag
def url_or_empty(name: str) -> str:
    """``reverse(name)``, or "" where no such URL is configured (yet)."""
    try:
        return reverse(name)
    except NoReverseMatch:
        return ""


@register.simple_tag
def games_count(n: int) -> str:
    return ngettext("%(n)s game", "%(n)s games", n) % {"n": n}


@register.filter
def rules_sentences(spec) -> list[str]:
    """The engine's description of a rule set, one sentence each, in the active language."""

    return [translate_sentence(s) for s in explain(RuleSet.from_spec(spec))]


@register.filter
def first_sentence_rest(sentences: list[str]) -> list[str]:
    return sentences[1:]


_SLUG = re.compile(r"[^a-z0-9-]")


@register.filter
def css_token(value: str) -> str:
    return _SLUG.sub("-", str(value).lower())


@register.simple_tag
def login_url() -> str:

    return resolve_url(settings.LOGIN_URL)


@register.filter
def place_in(entry_id: int, placings: list | None) -> int | None:
    """1-based place of ``entry_id`` in a result's ``placings``, or None."""
    if not placings or entry_id not in placings:
        return None
    return placings.index(entry_id) + 1


@register.filter
def upload_error(rejection) -> str:
    """A refused upload's reason (a ``RejectedSubmission``) in the reader's language: its
    code and parameters rendered (``services.errors.error_text``); an uncoded one (older
    rows, rare refusals) as it was worded, in English."""
    text = error_text(rejection.error_code, rejection.error_params or {}, rejection.error or "")
    return text[:1].upper() + text[1:]  # shown as a sentence (the messages start in lower case)


@register.filter
def note(text: str) -> str:
    """A stored note (a result's reason or decision note, a game's start reason) in the
    reader's language when a service wrote it (``core.reasons``), else as a person typed it."""
    return note_text(text)


@register.simple_tag
def player_rating(player) -> str:
    """The player's displayed rating as a small badge ("1234", "1000?" while provisional),
    or nothing for a player without rated games. Reads ``player.rating`` (select it with the
    player: ``select_related("…player__rating")``, no extra query)."""

    try:
        rating = player.rating
    except Exception:  # no rated game yet (the reverse one-to-one is missing)
        return ""
    if rating is None:
        return ""
    provisional = is_provisional(Rating(rating.mu, rating.sigma), PLATFORM_RATINGS)
    title = gettext("rating (provisional)") if provisional else gettext("rating")
    return format_html(
        '<span class="rating" title="{}"><span class="visually-hidden">{}: </span>{}{}</span>',
        title,
        title,
        rating.display,
        "?" if provisional else "",
    )


@register.filter
def signed(value: int | None) -> str:
    """+12, −7, ±0."""
    if value is None:
        return "–"
    if value > 0:
        return f"+{value}"
    return f"−{-value}" if value < 0 else "±0"


@register.filter
def lost_points(loss_mw: float | None) -> str:
    """Milli-wins lost as percentage points of winning chance: 123.4 → "12.3 pp"."""
    if not isinstance(loss_mw, int | float) or isinstance(loss_mw, bool):
        return "–"
    return f"{loss_mw / 10:.1f} pp"


@register.filter
def swing(value: float | None) -> str:
    """A change in chance to win as signed percentage points: +12 pp, −7 pp, ±0 pp."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "–"
    points = round(100 * value)
    if points == 0:
        return "±0 pp"
    return f"+{points} pp" if points > 0 else f"−{-points} pp"


@register.simple_tag(takes_context=True)
def query_with(context, name: str, value, drop: str = "") -> str:
    """This page's query string with ``name`` set to ``value`` (the other parameters kept:
    a pager's links keep the filters; ``drop``: a parameter left out, e.g. the page of
    another list), starting with ``?``."""
    params = context["request"].GET.copy()
    params.pop(drop, None)
    params[name] = value
    return "?" + params.urlencode()
