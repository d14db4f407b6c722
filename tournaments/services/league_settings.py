"""The league settings, specified once: each setting's label, help text, choices, bounds,
which event kinds it belongs to, and when it may still change.

The create and settings forms (``web/organize_forms.py``), the API serializer
(``api/leagues.py``) and the services ``league_create`` / ``league_update`` all read this
module: a form field's bounds, the serializer's and the service's check come from the same
:class:`Setting`, so they cannot drift. ``clean(name, value, kind=…)`` is the one check of a
plain value (a whole number that is not a boolean, inside its bounds; a choice among its
choices; a list of formats or of points); the compound settings (rules, playoffs,
tie-break precedence) keep their own validators in ``services/leagues.py``.

It also holds the **event kinds** (how a league's games are made) and the **templates**:
every format of the regulations as a starting point for the create form.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.engine.board import DEFAULT_COLOURS
from games.engine.rules import PRESET_OPTIONS, PRESET_TITLES
from tournaments.formats import FORMAT_CHOICES, FORMATS
from tournaments.services.errors import ServiceError, coded
from tournaments.services.text import single_line

LEAGUE = "league"
TRIPLE_THREAT = "triple-threat"
CHALLENGERS = "challengers"
GRAND_PRIX = "grand-prix"
OPEN = "open"

#: how a league's games are made (``League.EventKind`` has the same values)
EVENT_KINDS: dict[str, tuple[Any, Any]] = {
    LEAGUE: (
        _("League of double round-robins"),
        _("every pairing twice per DRR, seeded by die roll; optional playoffs"),
    ),
    TRIPLE_THREAT: (
        _("Triple-threat event"),
        _("three players, a sequence of games, each 3T, 3T+, GP or GP+"),
    ),
    CHALLENGERS: (
        _("Double-threat Challengers"),
        _("two players, game 0 then games 1, 2, …, each 2T, 2T+, GP or GP+"),
    ),
    GRAND_PRIX: (
        _("Grand Prix event"),
        _("a set number of GP games at one board; extra games while the top is tied"),
    ),
    OPEN: (
        _("Open tournament"),
        _("tables of 3–4 drawn each round, placement points, a final table"),
    ),
}

#: the formats each event kind plays (its league format and its games' formats)
KIND_FORMATS: dict[str, tuple[str, ...]] = {
    LEAGUE: ("2T", "2T+", "3T", "3T+", "GP", "GP+"),
    TRIPLE_THREAT: ("3T", "3T+"),
    CHALLENGERS: ("2T", "2T+"),
    GRAND_PRIX: ("GP", "GP+"),
    OPEN: ("open",),
}
#: the formats of single games inside a triple-threat or Challengers event
GAME_FORMATS: dict[str, tuple[str, ...]] = {
    TRIPLE_THREAT: ("3T", "3T+", "GP", "GP+"),
    CHALLENGERS: ("2T", "2T+", "GP", "GP+"),
}

#: when a setting may change after creation
NEVER, ANYTIME, BEFORE_SCHEDULE = "never", "anytime", "before-schedule"


@dataclass(frozen=True)
class Setting:
    """One league setting. ``kind``: text, slug, choice, int, bool, int-list, format-list,
    object. ``bounds``: (lowest, highest) of an int, or of a list's length; per event kind
    in ``bounds_by_kind``. ``kinds``: the event kinds it belongs to (empty: all)."""

    name: str
    label: Any
    help: Any = ""
    kind: str = "text"
    choices: tuple = ()
    bounds: tuple[int, int] | None = None
    bounds_by_kind: dict[str, tuple[int, int]] = field(default_factory=dict)
    default: Any = None
    nullable: bool = False
    changeable: str = BEFORE_SCHEDULE
    kinds: tuple[str, ...] = ()
    max_length: int = 0

    def bounds_for(self, event_kind: str | None) -> tuple[int, int] | None:
        return self.bounds_by_kind.get(event_kind or "", self.bounds)

    @property
    def widest(self) -> tuple[int, int] | None:
        """The bounds a form or serializer field can know before the event kind is chosen."""
        spans = [b for b in (self.bounds, *self.bounds_by_kind.values()) if b]
        if not spans:
            return None
        return min(b[0] for b in spans), max(b[1] for b in spans)

    def choice_values(self) -> list:
        return [value for value, _label in self.choices]


def _presets() -> tuple:
    return tuple((name, f"{name}: {PRESET_TITLES.get(name, name)}") for name in PRESET_OPTIONS)


SETTINGS: dict[str, Setting] = {
    s.name: s
    for s in (
        Setting("name", _("Name"), kind="text", changeable=ANYTIME, max_length=120),
        Setting(
            "slug",
            _("Address"),
            _("the league's URL name (default: from the name)"),
            kind="slug",
            nullable=True,
            changeable=NEVER,
            max_length=120,
        ),
        Setting(
            "event_kind",
            _("Event kind"),
            _("how the games are made"),
            kind="choice",
            choices=tuple((code, label) for code, (label, _help) in EVENT_KINDS.items()),
            nullable=True,
            changeable=NEVER,
        ),
        Setting(
            "format",
            _("Format"),
            _("the format of the games (of an event: its main format)"),
            kind="choice",
            choices=tuple(FORMAT_CHOICES),
            changeable=NEVER,
        ),
        Setting(
            "board",
            _("Board"),
            _("blank: the format's board"),
            kind="choice",
            choices=((4, _("4 colours")), (6, _("6 colours"))),
            nullable=True,
            changeable=NEVER,
        ),
        Setting(
            "rules_preset",
            _("Rules preset"),
            _("blank: the format's preset"),
            kind="choice",
            choices=_presets(),
            nullable=True,
        ),
        Setting(
            "drr_count",
            _("Double round-robins"),
            _("leagues: how many DRRs, each seeded by its own die roll"),
            kind="int",
            bounds=(1, 20),
            default=1,
            kinds=(LEAGUE,),
        ),
        Setting(
            "game_formats",
            _("Games and their formats"),
            _(
                "triple-threat: e.g. 3T, 3T, GP, 3T+ (game 1 first); Challengers: e.g. 2T, "
                "2T, 2T+ (game 0 first)"
            ),
            kind="format-list",
            bounds=(1, 50),
            kinds=(TRIPLE_THREAT, CHALLENGERS),
            max_length=400,
        ),
        Setting(
            "game0_counts",
            _("Game 0 counts in the table"),
            _(
                "Challengers: off (the default), game 0 only decides who starts game 1; on, "
                "it counts like games 1, 2, …"
            ),
            kind="bool",
            default=False,
            kinds=(CHALLENGERS,),
        ),
        Setting(
            "games_planned",
            _("Games (Grand Prix) or preliminary rounds (open)"),
            _("Grand Prix: 1 to 50 games; open tournament: 1 to 30 rounds (default 5)"),
            kind="int",
            bounds_by_kind={GRAND_PRIX: (1, 50), OPEN: (1, 30)},
            nullable=True,
            kinds=(GRAND_PRIX, OPEN),
        ),
        Setting(
            "time_limit_minutes",
            _("Time limit (minutes)"),
            _("open tournaments: 5 to 240 (championships 25–60); blank: none"),
            kind="int",
            bounds=(5, 240),
            nullable=True,
            kinds=(OPEN,),
        ),
        Setting(
            "final_table_size",
            _("Players at the final table"),
            _("open tournaments: 2 to the board's colours, 0 for none (default 4)"),
            kind="int",
            bounds=(0, 6),
            nullable=True,
            kinds=(OPEN,),
        ),
        Setting(
            "points_scheme",
            _("Points per place"),
            _("open tournaments: e.g. 5, 3, 1, 0 (blank: the format's)"),
            kind="int-list",
            bounds=(0, 20),
            nullable=True,
            max_length=100,
        ),
        Setting(
            "ranking_level",
            _("3T World Rankings level"),
            _(
                "triple-threat leagues and events: 1 to 4 (the basic points are multiplied "
                "by it); blank: not ranked"
            ),
            kind="int",
            bounds=(1, 4),
            nullable=True,
            changeable=ANYTIME,
        ),
        Setting(
            "confirmation_required",
            _("A submitted log counts only once the opponent confirms it"),
            kind="bool",
            default=True,
            changeable=ANYTIME,
        ),
        Setting("is_public", _("Public league"), kind="bool", default=True, changeable=ANYTIME),
        Setting(
            "registration_open",
            _("Open registration: players may ask to join (else by invitation only)"),
            kind="bool",
            default=False,
            changeable=ANYTIME,
        ),
        Setting(
            "draw_seed",
            _("Seed"),
            _("the seed of the platform's dice and draws (blank: random, stored and shown)"),
            kind="int",
            bounds=(0, 2**62),
            nullable=True,
            changeable=NEVER,
        ),
        Setting("rules_overrides", _("Rule options"), kind="object"),
        Setting("playoffs", _("Playoffs"), kind="object", kinds=(LEAGUE,)),
        Setting("precedence", _("Tie-breaks, in order"), kind="object"),
    )
}

#: settings an organizer may change after creation
SETTINGS_ANYTIME = tuple(n for n, s in SETTINGS.items() if s.changeable == ANYTIME)
SETTINGS_BEFORE_SCHEDULE = tuple(n for n, s in SETTINGS.items() if s.changeable == BEFORE_SCHEDULE)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _words(name: str) -> str:
    """A setting's name as a word of a message (``drr_count`` → ``drr count``)."""
    return name.replace("_", " ")


def clean(name: str, value, *, event_kind: str | None = None, board: int | None = None):
    """``value`` checked against the setting's specification (normalised), or a
    ServiceError naming the setting. ``None`` is accepted where the setting is nullable."""
    s = SETTINGS[name]
    if value is None or (value == "" and s.kind != "text"):
        return _blank(s)
    check = _CHECKS.get(s.kind)
    if check is None:  # an object: checked by its own validator (services/leagues.py)
        return value
    return check(s, value, event_kind=event_kind, board=board)


def _blank(s: Setting):
    """A setting left blank: none where it may be, else its default, else refused."""
    if s.nullable:
        return None
    if s.default is not None:
        return s.default
    raise _required(s)


def _clean_bool(s: Setting, value, **_context):
    if not isinstance(value, bool):
        raise coded("setting_bool", field=s.name, setting=_words(s.name))
    return value


def _clean_text(s: Setting, value, **_context):
    if not isinstance(value, str) or not value.strip():
        raise _required(s)
    value = value.strip()
    if s.kind == "text":  # a league's name is a mail subject: one line, no control chars
        value = single_line(value, field=s.name, what=f"a league's {_words(s.name)}")
    if s.max_length and len(value) > s.max_length:
        raise coded("setting_too_long", field=s.name, setting=_words(s.name), most=s.max_length)
    return value


def _clean_choice(s: Setting, value, **_context):
    if value not in s.choice_values():
        raise coded(
            "setting_choice_unknown",
            field=s.name,
            setting=_words(s.name),
            given=repr(value),
            known=", ".join(str(v) for v in s.choice_values()),
        )
    return value


def _clean_int(s: Setting, value, *, event_kind=None, board=None):
    low, high = _int_bounds(s, event_kind, board)
    in_bounds = _is_int(value) and (low is None or low <= value <= high)
    if not in_bounds or (s.name == "final_table_size" and value == 1):  # a table of one
        raise _int_error(s, low, high)
    return value


def _int_bounds(s: Setting, event_kind, board) -> tuple:
    """A whole number's bounds for the event kind; the final table seats at most the
    board's colours."""
    low, high = s.bounds_for(event_kind) or (None, None)
    if s.name == "final_table_size" and board in DEFAULT_COLOURS:
        high = len(DEFAULT_COLOURS[board])
    return low, high


def _clean_int_list(s: Setting, value, **_context):
    _low, high = s.bounds or (0, 50)
    if not _whole_numbers(value) or len(value) > high:
        raise coded("points_whole_numbers", field=s.name)
    return list(value)


def _whole_numbers(value) -> bool:
    """A list of whole numbers of at least 0."""
    return isinstance(value, list) and all(_is_int(p) and p >= 0 for p in value)


def _clean_format_list(s: Setting, value, *, event_kind=None, **_context):
    low, high = s.bounds or (1, 50)
    allowed = GAME_FORMATS.get(event_kind or "", tuple(FORMATS))
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise coded("event_formats_count", field=s.name, low=low, high=high)
    check_game_formats(event_kind, value, allowed, field=s.name)
    return list(value)


def check_game_formats(event_kind, formats: list, allowed, *, field: str) -> None:
    """Each game of an event is of a format it plays (Challengers: game 0 first)."""
    first = 0 if event_kind == CHALLENGERS else 1
    for number, code in enumerate(formats, start=first):
        if code not in allowed:
            raise game_format_error(event_kind, number, code, allowed, field=field)


#: the check of each kind of plain setting (an object has its own validator)
_CHECKS = {
    "bool": _clean_bool,
    "text": _clean_text,
    "slug": _clean_text,
    "choice": _clean_choice,
    "int": _clean_int,
    "int-list": _clean_int_list,
    "format-list": _clean_format_list,
}

#: the refusal of a game format an event does not play, by event kind
_GAME_FORMAT_CODES = {
    TRIPLE_THREAT: "event_game_format_3t",
    CHALLENGERS: "event_game_format_challengers",
}


def game_format_error(event_kind, number: int, code, allowed, *, field: str):
    """Game ``number`` of an event of ``event_kind`` is of a format it does not play."""
    return coded(
        _GAME_FORMAT_CODES.get(event_kind or "", "event_game_format_other"),
        field=field,
        number=number,
        formats=", ".join(allowed),
        given=repr(code),
    )


def _required(s: Setting):
    if s.name == "name":
        return coded("league_name_missing", field=s.name)
    return coded("setting_required", field=s.name, setting=_words(s.name))


#: how a whole-number setting is named in its refusal
_INT_NAMES = {
    "drr_count": "the number of DRRs",
    "games_planned": "the number of games",
    "ranking_level": "the ranking level",
    "draw_seed": "the seed",
}


def _int_error(s: Setting, low, high) -> ServiceError:
    if s.name == "final_table_size":
        return coded("final_table_bounds", field=s.name, high=high)
    if s.name == "time_limit_minutes":
        return coded("time_limit_bounds", field=s.name)
    what = _INT_NAMES.get(s.name, _words(s.name))
    return coded("setting_bounds", field=s.name, setting=what, low=low, high=high)


def parse_formats(text: str) -> list[str]:
    """``"3T, 3T, GP, 3T+"`` (commas, semicolons or spaces) → ``["3T", "3T", "GP", "3T+"]``;
    letters are matched without regard to case (``3t+`` is 3T+)."""
    by_upper = {code.upper(): code for code in FORMATS}
    parts = [p for p in text.replace(";", ",").replace(",", " ").split() if p]
    return [by_upper.get(p.upper(), p) for p in parts]


def applies(name: str, event_kind: str) -> bool:
    kinds = SETTINGS[name].kinds
    return not kinds or event_kind in kinds


def default_kind(format_code: str) -> str:
    return OPEN if format_code == "open" else LEAGUE


@dataclass(frozen=True)
class Template:
    """A starting point for a new league (a format of the regulations): the values that
    prefill the create form."""

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
            {"event_kind": LEAGUE, "format": "2T+", "drr_count": 6, "playoffs_kind": "xleague"},
        ),
        Template(
            "2T",
            _("Double threat (2T)"),
            _("two players, two colours each, board 4"),
            {"event_kind": LEAGUE, "format": "2T"},
        ),
        Template(
            "2T+",
            _("Double threat XL (2T+)"),
            _("2T where a player must finish both colours"),
            {"event_kind": LEAGUE, "format": "2T+"},
        ),
        Template(
            "3T",
            _("Triple threat (3T)"),
            _("a DRR league of three players at a 6-colour board"),
            {"event_kind": LEAGUE, "format": "3T"},
        ),
        Template(
            "3T+",
            _("Triple threat XL (3T+)"),
            _("3T where both colours must finish"),
            {"event_kind": LEAGUE, "format": "3T+"},
        ),
        Template(
            "triple-threat",
            _("Triple-threat event"),
            _("three players, a sequence of 3T, 3T+ and GP games; ranked in the 3T World Rankings"),
            {
                "event_kind": TRIPLE_THREAT,
                "format": "3T",
                "game_formats": "3T, 3T, GP, 3T+, 3T",
                "ranking_level": 1,  # ranked, as the description says (level 1 to 4)
            },
        ),
        Template(
            "challengers",
            _("Double-threat Challengers"),
            _("two players: game 0 decides who starts game 1"),
            {"event_kind": CHALLENGERS, "format": "2T", "game_formats": "2T, 2T, 2T, 2T+"},
        ),
        Template(
            "GP",
            _("Grand Prix (GP)"),
            _("opposite colours, every place scores points: a DRR league on board 4"),
            {"event_kind": LEAGUE, "format": "GP", "board": 4},
        ),
        Template(
            "grand-prix",
            _("Grand Prix event"),
            _("two or three players at one board, a set number of GP games"),
            {"event_kind": GRAND_PRIX, "format": "GP", "board": 6, "games_planned": 6},
        ),
        Template(
            "GP+",
            _("Grand Prix plus (GP+) event"),
            _("as GP, with 4/2/1 to the first three players to finish both colours"),
            {"event_kind": GRAND_PRIX, "format": "GP+", "board": 6, "games_planned": 6},
        ),
        Template(
            "open",
            _("Open tournament"),
            _("one colour each, up to four at a board, placement points"),
            {
                "event_kind": OPEN,
                "format": "open",
                "playoffs_kind": "none",
                "games_planned": 5,
                "final_table_size": 4,
            },
        ),
    )
}
