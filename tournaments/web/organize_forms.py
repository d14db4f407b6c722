"""Forms of the organizers' pages: creating a league (format templates, rules preset and
option overrides, DRRs, playoffs, tie-break precedence, points), entries and invitations,
seeding, dates, and the players' own forms (preferred pair, withdrawal).

Each form only checks the shape of what was typed; the services check the meaning (the
same checks as the API) and their errors are put next to the field they name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.board import DEFAULT_COLOURS
from games.engine.rules import OPTIONS, PRESET_OPTIONS, PRESET_TITLES
from tournaments.algorithms.standings import LEAGUE_PRECEDENCE, METRICS
from tournaments.formats import FORMATS
from tournaments.web.forms import parse_rolls


@dataclass(frozen=True)
class Template:
    """A starting point for a new league: values that prefill the form."""

    code: str
    label: Any
    description: Any
    values: dict[str, Any] = field(default_factory=dict)


TEMPLATES: dict[str, Template] = {
    t.code: t
    for t in (
        Template(
            "xleague",
            _("XLeague"),
            _("3 players, 2T+, six double round-robins, qualifying series and final series"),
            {
                "format": "2T+",
                "drr_count": 6,
                "playoffs_kind": "xleague",
            },
        ),
        Template(
            "2T",
            _("Double threat (2T)"),
            _("two players, two colours each, board 4"),
            {"format": "2T"},
        ),
        Template(
            "2T+",
            _("Double threat XL (2T+)"),
            _("2T where a player must finish both colours"),
            {"format": "2T+"},
        ),
        Template(
            "3T", _("Triple threat (3T)"), _("three players at a 6-colour board"), {"format": "3T"}
        ),
        Template(
            "3T+",
            _("Triple threat XL (3T+)"),
            _("3T where both colours must finish"),
            {"format": "3T+"},
        ),
        Template(
            "GP",
            _("Grand Prix (GP)"),
            _("opposite colours, every place scores points"),
            {"format": "GP"},
        ),
        Template(
            "open",
            _("Open tournament"),
            _("one colour each, up to four at a board, placement points"),
            {"format": "open", "playoffs_kind": "none"},
        ),
    )
}

#: what each tie-break metric measures (shown next to the precedence fields)
METRIC_HELP: dict[str, Any] = {
    "games_played": _("games played (more first)"),
    "wins": _("games won"),
    "losses": _("games lost (fewer first)"),
    "won_lost": _("the won–lost record: win percentage, then wins"),
    "win_percentage": _("wins per decided game"),
    "head_to_head": _("results among the tied players only"),
    "counted_pawns_difference": _("own counted pawns minus the opponents', over all games"),
    "completed_colours": _("colours brought home, summed over games (2T+/3T+)"),
    "game_time": _("total time of the player's games, shorter first"),
    "die_roll": _("a recorded die roll among the tied players (the last resort)"),
    "gp_points": _(
        "Grand Prix points: 10/6/4/3/2/1 per colour place, 2 to the first to finish both"
    ),
    "gp_plus_points": _("GP+ points: as GP with 4/2/1 to the first three to finish both"),
    "placement_points": _("open tournaments: points per finishing place (the points scheme)"),
}

YES_NO = {True: _("yes"), False: _("no")}


def _option_field(option) -> forms.Field:
    """A choice for one engine option: blank keeps the preset's value."""
    label = option.name.replace("_", " ")
    if option.values is None:
        return forms.CharField(
            label=label, required=False, max_length=20, help_text=option.description
        )
    choices = [("", _("as the preset"))] + [
        (_encode(v), YES_NO.get(v, v) if isinstance(v, bool) else str(v)) for v in option.values
    ]
    return forms.ChoiceField(
        label=label, required=False, choices=choices, help_text=option.description
    )


def _encode(value) -> str:
    return f"bool:{int(value)}" if isinstance(value, bool) else f"val:{value}"


def _decode(option, text: str):
    for value in option.values or ():
        if _encode(value) == text:
            return value
    raise forms.ValidationError(_("not a value of this option"))


def _int_list(text: str, *, name) -> list[int]:
    text = (text or "").strip()
    if not text:
        return []
    try:
        values = [int(part) for part in text.replace(";", ",").split(",") if part.strip()]
    except ValueError:
        raise forms.ValidationError(
            _("%(name)s: whole numbers separated by commas, e.g. 2, 3, 4"),
            params={"name": name},
        ) from None
    return values


class LeagueForm(forms.Form):
    """Every setting ``league_create`` takes. To add a setting: add a field here and a
    line in :meth:`service_kwargs` (the template's fieldsets list it by name)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address"),
        required=False,
        max_length=120,
        help_text=_("the league's URL name (default: from the name)"),
    )
    format = forms.ChoiceField(
        label=_("Format"), choices=[(f.code, f.label) for f in FORMATS.values()]
    )
    board = forms.TypedChoiceField(
        label=_("Board"),
        choices=[("", _("the format's board")), ("4", _("4 colours")), ("6", _("6 colours"))],
        coerce=int,
        required=False,
        empty_value=None,
    )
    rules_preset = forms.ChoiceField(
        label=_("Rules preset"),
        required=False,
        choices=[("", _("the format's preset"))]
        + [(name, f"{name}: {PRESET_TITLES.get(name, name)}") for name in PRESET_OPTIONS],
    )
    drr_count = forms.IntegerField(
        label=_("Double round-robins"), min_value=1, max_value=20, initial=1
    )
    playoffs_kind = forms.ChoiceField(
        label=_("Playoffs"),
        choices=[
            ("none", _("none: the table decides")),
            ("xleague", _("XLeague: qualifying series (#2 v #3, first to 3), final (first to 4)")),
            ("bracket", _("a bracket of seeds")),
        ],
        initial="none",
    )
    playoffs_seeds = forms.IntegerField(
        label=_("Seeds in the bracket"), min_value=2, max_value=64, required=False
    )
    playoffs_first_to = forms.CharField(
        label=_("First to … wins, per round"),
        required=False,
        max_length=60,
        help_text=_("one number for every round, or one per round from the first: 2, 3, 4"),
    )
    playoffs_head_start = forms.BooleanField(
        label=_("Higher seed starts 1–0 up (unless both had the same won–lost record)"),
        required=False,
        initial=True,
    )
    points_scheme = forms.CharField(
        label=_("Points per place"),
        required=False,
        max_length=100,
        help_text=_("open tournaments and GP: e.g. 5, 3, 1, 0 (blank: the format's)"),
    )
    confirmation_required = forms.BooleanField(
        label=_("A submitted log counts only once the opponent confirms it"),
        required=False,
        initial=True,
    )
    is_public = forms.BooleanField(label=_("Public league"), required=False, initial=True)
    registration_open = forms.BooleanField(
        label=_("Open registration: players may ask to join (else by invitation only)"),
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.option_names = list(OPTIONS)
        for name, option in OPTIONS.items():
            self.fields[f"opt_{name}"] = _option_field(option)
        self.metric_names = list(METRICS)
        for key in METRICS:
            self.fields[f"prec_{key}"] = forms.IntegerField(
                label=key.replace("_", " "),
                required=False,
                min_value=1,
                max_value=len(METRICS),
                help_text=METRIC_HELP.get(key, METRICS[key].label),
            )

    @classmethod
    def initial_for(cls, template: Template | None) -> dict[str, Any]:
        values = dict(template.values if template else {})
        fmt = FORMATS.get(values.get("format", "2T+"))
        initial: dict[str, Any] = {
            "format": fmt.code,
            "drr_count": values.get("drr_count", 1),
            "playoffs_kind": values.get("playoffs_kind", "none"),
            "playoffs_head_start": True,
            "confirmation_required": True,
            "is_public": True,
        }
        for i, key in enumerate(fmt.default_precedence or LEAGUE_PRECEDENCE, start=1):
            initial[f"prec_{key}"] = i
        return initial

    def option_fields(self):
        return [self[f"opt_{name}"] for name in self.option_names]

    def metric_fields(self):
        return [self[f"prec_{key}"] for key in self.metric_names]

    def clean(self):
        data = super().clean()
        overrides = {}
        for name, option in OPTIONS.items():
            raw = data.get(f"opt_{name}")
            if raw in (None, ""):
                continue
            if option.values is None:
                overrides[name] = raw
            else:
                try:
                    overrides[name] = _decode(option, raw)
                except forms.ValidationError as exc:
                    self.add_error(f"opt_{name}", exc)
        data["rules_overrides"] = overrides
        positions = {
            key: data.get(f"prec_{key}") for key in METRICS if data.get(f"prec_{key}") is not None
        }
        taken: dict[int, str] = {}
        for key, pos in positions.items():
            if pos in taken:
                self.add_error(
                    f"prec_{key}",
                    _("position %(n)s is given to %(other)s too") % {"n": pos, "other": taken[pos]},
                )
            taken[pos] = key
        data["precedence"] = [k for k, _p in sorted(positions.items(), key=lambda kv: kv[1])]
        for name, label in (("playoffs_first_to", _("first to")), ("points_scheme", _("points"))):
            try:
                data[name + "_list"] = _int_list(data.get(name, ""), name=label)
            except forms.ValidationError as exc:
                self.add_error(name, exc)
        return data

    def playoffs_config(self) -> dict:
        data = self.cleaned_data
        kind = data.get("playoffs_kind") or "none"
        if kind != "bracket":
            return {"kind": kind}
        config: dict[str, Any] = {"kind": "bracket", "seeds": data.get("playoffs_seeds")}
        first_to = data.get("playoffs_first_to_list") or [1]
        config["first_to"] = first_to if len(first_to) > 1 else first_to[0]
        config["head_start"] = bool(data.get("playoffs_head_start"))
        return config

    def service_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``tournaments.services.leagues.league_create``."""
        data = self.cleaned_data
        return {
            "name": data["name"],
            "slug": data.get("slug") or None,
            "format": data["format"],
            "board": data.get("board"),
            "rules_preset": data.get("rules_preset") or None,
            "rules_overrides": data["rules_overrides"],
            "drr_count": data["drr_count"],
            "playoffs": self.playoffs_config(),
            "precedence": data["precedence"] or None,
            "points_scheme": data.get("points_scheme_list") or None,
            "confirmation_required": data.get("confirmation_required", False),
            "is_public": data.get("is_public", False),
            "registration_open": data.get("registration_open", False),
        }

    #: service error field → form field
    FIELD_MAP = {
        "rules": "rules_preset",
        "playoffs": "playoffs_kind",
        "precedence": None,
        "points_scheme": "points_scheme",
    }

    def add_service_error(self, exc) -> None:
        name = self.FIELD_MAP.get(exc.field, exc.field)
        self.add_error(name if name in self.fields else None, exc.message)


def preset_table() -> tuple[list[dict], list]:
    """The presets and their option values (the rules page's table)."""
    presets = [
        {"name": name, "title": PRESET_TITLES.get(name, name), "options": options}
        for name, options in PRESET_OPTIONS.items()
    ]
    return presets, list(OPTIONS.values())


class AddPlayerForm(forms.Form):
    player = forms.CharField(
        label=_("Existing player"), max_length=100, help_text=_("the player's name")
    )


class NewPlayerForm(forms.Form):
    name = forms.CharField(
        label=_("New player without an account"),
        max_length=100,
        help_text=_("for someone who will never log in; they can claim it later"),
    )


class InviteForm(forms.Form):
    email = forms.EmailField(
        label=_("E-mail"), required=False, help_text=_("blank: make a link to hand out")
    )
    name = forms.CharField(
        label=_("Player name (optional)"),
        required=False,
        max_length=100,
        help_text=_("created on acceptance if the account has no player yet"),
    )
    player = forms.CharField(
        label=_("…or for an existing player without an account"),
        required=False,
        max_length=100,
    )


class OrganizerForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)


class SeedForm(forms.Form):
    method = forms.ChoiceField(
        label=_("Die rolls"),
        choices=[
            ("draw", _("the platform draws them (reproducible from a seed)")),
            ("rolls", _("I enter the rolls of a real die")),
        ],
        initial="draw",
        widget=forms.RadioSelect,
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        help_text=_("blank: a random seed, stored and shown"),
    )
    rolls = forms.CharField(
        label=_("Rolls"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_(
            "one line per roll round, re-rolls of ties on the following lines: "
            "“Anna 5, Ben 3, Cleo 5” then “Anna 2, Cleo 6”"
        ),
    )

    def clean(self):
        data = super().clean()
        if data.get("method") == "rolls":
            try:
                rounds = parse_rolls((data.get("rolls") or "").splitlines())
            except forms.ValidationError as exc:
                self.add_error("rolls", exc)
                return data
            if not rounds:
                self.add_error("rolls", _("enter the rolls, or let the platform draw them"))
            data["rolls_list"] = rounds
        return data


class LateOrderForm(forms.Form):
    late_order = forms.ChoiceField(
        label=_("Order of G4–G6"),
        choices=[
            (",".join(map(str, order)), " → ".join(f"G{n}" for n in order))
            for order in ((4, 5, 6), (4, 6, 5), (5, 4, 6), (5, 6, 4), (6, 4, 5), (6, 5, 4))
        ],
    )

    def order(self) -> list[int]:
        return [int(n) for n in self.cleaned_data["late_order"].split(",")]


class DatesForm(forms.Form):
    scheduled_at = forms.DateTimeField(
        label=_("Date"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d"],
    )
    deadline = forms.DateTimeField(
        label=_("Result due by"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%d"],
    )


class ColoursForm(forms.Form):
    first = forms.ChoiceField(label=_("First colour"), required=False)
    second = forms.ChoiceField(label=_("Second colour"), required=False)

    def __init__(self, *args, board: int = 4, allied: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("no preference"))] + [(c, c) for c in DEFAULT_COLOURS[board]]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices
        if not allied:
            del self.fields["second"]

    def colours(self) -> list[str]:
        return [c for c in (self.cleaned_data.get("first"), self.cleaned_data.get("second")) if c]
