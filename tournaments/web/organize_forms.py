"""Forms of the organizers' pages: creating a league (format templates, rules preset and
option overrides, DRRs, playoffs, tie-break precedence, points), entries and invitations,
seeding, dates, and the players' own forms (preferred pair, withdrawal).

Each form only checks the shape of what was typed; the services check the meaning (the
same checks as the API) and their errors are put next to the field they name.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.board import DEFAULT_COLOURS
from games.engine.rules import OPTIONS, PRESET_OPTIONS, PRESET_TITLES
from games.replay import colour_label
from tournaments.algorithms.standings import LEAGUE_PRECEDENCE, METRICS
from tournaments.formats import FORMATS
from tournaments.services import league_settings as spec
from tournaments.services.leagues import league_scheduled
from tournaments.web.forms import parse_rolls, split_roll_rounds

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


def _bool_field(s, common: dict) -> forms.Field:
    return forms.BooleanField(required=False, initial=s.default, **common)


def _slug_field(s, common: dict) -> forms.Field:
    return forms.SlugField(required=False, max_length=s.max_length, **common)


def _choice_field(s, common: dict) -> forms.Field:
    """The setting's choices (numbers typed back to numbers); blank for a setting that may
    be unset."""
    blank = [("", s.help)] if s.nullable else []
    numeric = all(isinstance(v, int) for v in s.choice_values())
    return forms.TypedChoiceField(
        choices=blank + [(str(v), label) for v, label in s.choices],
        coerce=int if numeric else str,
        required=not s.nullable,
        empty_value=None,
        **common,
    )


def _int_field(s, common: dict) -> forms.Field:
    low, high = s.widest or (None, None)
    return forms.IntegerField(
        min_value=low,
        max_value=high,
        required=not s.nullable and s.default is None,
        initial=s.default,
        **common,
    )


def _list_field(s, common: dict) -> forms.Field:
    """A list typed as text, separated by commas (read by ``clean``)."""
    return forms.CharField(required=False, max_length=s.max_length or 200, **common)


def _text_field(s, common: dict) -> forms.Field:
    return forms.CharField(max_length=s.max_length or 200, **common)


#: a setting's kind → its form field (``_text_field`` for any other kind)
FIELD_BY_KIND = {
    "bool": _bool_field,
    "slug": _slug_field,
    "choice": _choice_field,
    "int": _int_field,
    "int-list": _list_field,
    "format-list": _list_field,
}


def setting_field(name: str) -> forms.Field:
    """The form field of a league setting, from its one specification
    (``tournaments.services.league_settings``): label, help text, choices, bounds, default."""
    s = spec.SETTINGS[name]
    build = FIELD_BY_KIND.get(s.kind, _text_field)
    return build(s, {"label": s.label, "help_text": s.help})


#: the settings the form shows, each built by ``setting_field``
FORM_SETTINGS = (
    "name",
    "slug",
    "event_kind",
    "format",
    "board",
    "drr_count",
    "game_formats",
    "game0_counts",
    "games_planned",
    "time_limit_minutes",
    "final_table_size",
    "rules_preset",
    "points_scheme",
    "ranking_level",
    "confirmation_required",
    "is_public",
    "registration_open",
)


#: ``league_create``'s arguments a blank leaves unset (None): argument → cleaned field
BLANK_IS_UNSET = {
    "slug": "slug",
    "rules_preset": "rules_preset",
    "precedence": "precedence",
    "points_scheme": "points_scheme_list",
}

#: the yes/no settings (unticked: no)
FLAGS = ("confirmation_required", "is_public", "registration_open")

#: the settings only some event kinds have (``spec.applies``): each one's value for
#: ``league_create``, from the cleaned data
KIND_SETTINGS = {
    "game_formats": lambda data: data.get("game_formats_list") or None,
    "game0_counts": lambda data: data.get("game0_counts", False),
    "games_planned": lambda data: data.get("games_planned"),
    "time_limit_minutes": lambda data: data.get("time_limit_minutes"),
    "final_table_size": lambda data: data.get("final_table_size"),
}


class LeagueForm(forms.Form):
    """Every setting ``league_create`` takes. The plain settings are built from their
    specification (``FORM_SETTINGS``); rules options, playoffs and tie-break positions are
    compound fields of their own. To add a setting: specify it in
    ``tournaments.services.league_settings``, list it in ``FORM_SETTINGS`` and in the template."""

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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in FORM_SETTINGS:
            self.fields[name] = setting_field(name)
        self.order_fields(FORM_SETTINGS)
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
    def initial_for(cls, template: spec.Template | None) -> dict[str, Any]:
        values = dict(template.values if template else {})
        fmt = FORMATS.get(values.get("format", "2T+"))
        initial: dict[str, Any] = {
            "event_kind": values.get("event_kind", spec.default_kind(fmt.code)),
            "format": fmt.code,
            "drr_count": values.get("drr_count", 1),
            "playoffs_kind": values.get("playoffs_kind", "none"),
            "playoffs_head_start": True,
            "confirmation_required": True,
            "is_public": True,
        }
        for key in ("board", "game_formats", "games_planned", "final_table_size"):
            if key in values:
                initial[key] = values[key]
        initial.update(_positions(fmt.default_precedence or LEAGUE_PRECEDENCE))
        return initial

    def option_fields(self):
        return [self[f"opt_{name}"] for name in self.option_names]

    def metric_fields(self):
        return [self[f"prec_{key}"] for key in self.metric_names]

    def clean(self):
        data = super().clean()
        data["rules_overrides"] = self._clean_overrides(data)
        data["precedence"] = self._clean_precedence(data)
        self._clean_number_lists(data)
        data["game_formats_list"] = spec.parse_formats(data.get("game_formats") or "")
        return data

    def _clean_overrides(self, data: dict) -> dict[str, Any]:
        """The rules options chosen (blank keeps the preset's value), as the engine's values."""
        overrides = {}
        for name, option in OPTIONS.items():
            raw = data.get(f"opt_{name}")
            if raw in (None, ""):
                continue
            try:
                overrides[name] = raw if option.values is None else _decode(option, raw)
            except forms.ValidationError as exc:
                self.add_error(f"opt_{name}", exc)
        return overrides

    def _clean_precedence(self, data: dict) -> list[str]:
        """The tie-break metrics in the order of the positions given; a position given to
        two metrics is an error at the second."""
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
        return [k for k, _p in sorted(positions.items(), key=lambda kv: kv[1])]

    def _clean_number_lists(self, data: dict) -> None:
        """The playoffs' first-to and the points scheme as lists of numbers (``…_list``)."""
        for name, label in (("playoffs_first_to", _("first to")), ("points_scheme", _("points"))):
            try:
                data[name + "_list"] = _int_list(data.get(name, ""), name=label)
            except forms.ValidationError as exc:
                self.add_error(name, exc)

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
        """The keyword arguments of ``tournaments.services.leagues.league_create``: only
        the settings of the chosen event kind (the others stay at their defaults)."""
        data = self.cleaned_data
        kind = data.get("event_kind") or spec.default_kind(data.get("format") or "")
        kwargs: dict[str, Any] = {
            "name": data["name"],
            "event_kind": kind,
            "format": data["format"],
            "board": data.get("board"),
            "rules_overrides": data["rules_overrides"],
            "ranking_level": data.get("ranking_level"),
            **{arg: data.get(key) or None for arg, key in BLANK_IS_UNSET.items()},
            **{flag: data.get(flag, False) for flag in FLAGS},
        }
        if kind == spec.LEAGUE:
            kwargs["drr_count"] = data.get("drr_count") or 1
            kwargs["playoffs"] = self.playoffs_config()
        kwargs.update(
            {key: value(data) for key, value in KIND_SETTINGS.items() if spec.applies(key, kind)}
        )
        return kwargs

    def update_kwargs(self) -> dict[str, Any]:
        """The changes for ``league_update`` (``LeagueSettingsForm``): every shown setting
        except the ones fixed at creation or by the schedule."""
        fixed = self._fixed_settings()
        return {k: v for k, v in self.service_kwargs().items() if k not in fixed}

    def _fixed_settings(self) -> set[str]:
        """The settings fixed at creation, and the ones shown disabled: a compound setting
        (rules overrides, precedence, playoffs) is fixed when its fields are."""
        fixed = {name for name, f in self.fields.items() if f.disabled}
        if "opt_" + next(iter(OPTIONS)) in fixed:
            fixed.add("rules_overrides")
        if any(name.startswith("prec_") for name in fixed):
            fixed.add("precedence")
        if "playoffs_kind" in fixed or "playoffs_kind" not in self.fields:
            fixed.add("playoffs")
        return fixed | {"slug", "event_kind", "format", "board"}

    #: service error field → form field
    FIELD_MAP = {
        "rules": "rules_preset",
        "playoffs": "playoffs_kind",
        "precedence": None,
        "points_scheme": "points_scheme",
        "games": "games_planned",
        "entries": None,
    }

    def add_service_error(self, exc) -> None:
        name = self.FIELD_MAP.get(exc.field, exc.field)
        self.add_error(name if name in self.fields else None, exc.localized())


class LeagueSettingsForm(LeagueForm):
    """The same form for an existing league (``league_update``): the address, event kind,
    format and board are shown but fixed; what shapes the games is fixed once they exist;
    the playoffs until they are drawn."""

    def __init__(self, *args, league, **kwargs):
        kwargs.setdefault("initial", self.initial_from(league))
        super().__init__(*args, **kwargs)

        scheduled = league_scheduled(league)
        self._disable(("slug", "event_kind", "format", "board"))
        self._fit_settings(league.event_kind, scheduled)
        if scheduled:
            self._disable([name for name in self.fields if name.startswith(("opt_", "prec_"))])
        if league.format not in ("3T", "3T+"):
            del self.fields["ranking_level"]  # only triple-threat leagues are ranked
        self._fit_playoffs(league)

    def _disable(self, names) -> None:
        for name in names:
            self.fields[name].disabled = True

    def _fit_settings(self, kind: str, scheduled: bool) -> None:
        """Drop the settings the event kind has not; fix the ones the schedule fixed."""
        for name in FORM_SETTINGS:
            if not spec.applies(name, kind):
                del self.fields[name]
            elif scheduled and spec.SETTINGS[name].changeable == spec.BEFORE_SCHEDULE:
                self.fields[name].disabled = True

    def _fit_playoffs(self, league) -> None:
        """Playoffs are a league's only; fixed once drawn."""
        playoffs = [name for name in self.fields if name.startswith("playoffs_")]
        if league.event_kind != spec.LEAGUE:
            for name in playoffs:
                del self.fields[name]
        elif league.series.exists():
            self._disable(playoffs)

    @staticmethod
    def initial_from(league) -> dict[str, Any]:
        initial: dict[str, Any] = {
            name: getattr(league, name) for name in FORM_SETTINGS if hasattr(league, name)
        }
        initial["board"] = str(league.board)
        initial["game_formats"] = _listed(league.game_formats)
        initial["points_scheme"] = _listed(league.points_scheme)
        initial["rules_preset"] = league.rules_preset
        initial.update(_rules_initial(league.rules_overrides or {}))
        initial.update(_positions(league.precedence or []))
        initial.update(_playoffs_initial(league.playoffs or {}))
        return initial


def _listed(values: list | None) -> str:
    """A list setting as it is typed: separated by commas."""
    return ", ".join(str(v) for v in values or [])


def _positions(precedence) -> dict[str, int]:
    """The precedence fields of tie-break metrics in order: their positions from 1."""
    return {f"prec_{key}": i for i, key in enumerate(precedence, start=1)}


def _rules_initial(overrides: dict) -> dict[str, Any]:
    """The rules options' fields of a league's overrides (options the engine no longer has
    are left out)."""
    return {
        f"opt_{name}": _encode(value) if OPTIONS[name].values is not None else value
        for name, value in overrides.items()
        if name in OPTIONS
    }


def _playoffs_initial(playoffs: dict) -> dict[str, Any]:
    """The playoffs' fields of a league's playoffs configuration."""
    initial = {
        "playoffs_kind": playoffs.get("kind", "none"),
        "playoffs_seeds": playoffs.get("seeds"),
    }
    first_to = playoffs.get("first_to")
    if isinstance(first_to, list):
        initial["playoffs_first_to"] = ", ".join(map(str, first_to))
    head = playoffs.get("head_start")
    initial["playoffs_head_start"] = any(head) if isinstance(head, list) else head is not False
    return initial


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
                rounds = parse_rolls(split_roll_rounds(data.get("rolls") or ""))
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


class RecurrenceForm(forms.Form):
    """Every round of a DRR dated in one step: the first round's date and time (its weekday
    and time repeat), the interval, and when each result is due."""

    first = forms.DateTimeField(
        label=_("Round 1 on"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    every_days = forms.IntegerField(
        label=_("then every … days"), min_value=1, max_value=60, initial=7
    )
    due_hours = forms.IntegerField(
        label=_("result due … hours after the round"),
        min_value=1,
        max_value=24 * 60,
        required=False,
        help_text=_("blank: no deadline"),
    )


class ColoursForm(forms.Form):
    first = forms.ChoiceField(label=_("First colour"), required=False)
    second = forms.ChoiceField(label=_("Second colour"), required=False)

    def __init__(self, *args, board: int = 4, allied: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("no preference"))] + [
            (c, colour_label(c)) for c in DEFAULT_COLOURS[board]
        ]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices
        if not allied:
            del self.fields["second"]

    def colours(self) -> list[str]:
        return [c for c in (self.cleaned_data.get("first"), self.cleaned_data.get("second")) if c]
