"""Creating leagues, registering players and managing a league's life cycle."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.reasons import WITHDREW
from games.engine.rules import RulesError, RuleSet
from tournaments.algorithms import brackets, open_draw
from tournaments.algorithms.errors import AlgorithmError
from tournaments.algorithms.standings import METRICS
from tournaments.formats import get_format
from tournaments.models import Entry, Fixture, League, Player, Result
from tournaments.permissions import (
    enter_refusal,
    entry_refusal,
    is_organizer,
    organize_refusal,
)
from tournaments.services import league_settings as spec
from tournaments.services.championship import entry_admit, waitlist_promote
from tournaments.services.errors import (
    MESSAGES,
    NotAllowed,
    ServiceError,
    coded,
    coded_text,
    from_engine,
    why_of,
)
from tournaments.services.events import check_event
from tournaments.services.guards import require_no_refusal, require_organizer
from tournaments.services.notify import ENTRY_INVITED, notify_on_commit
from tournaments.services.players import check_pair, fitting_pair, unique_slug
from tournaments.services.results import forfeit_record
from tournaments.services.standings import standings_invalidate

#: words the site's routes use right after ``leagues/`` (``/leagues/new/``) and a few more
#: a route may want: never a league's address (tests/tournaments/test_identity_smaller.py
#: checks every literal segment of the URL configuration is here)
RESERVED_LEAGUE_SLUGS = frozenset(
    {"new", "create", "edit", "me", "mine", "manage", "search", "feed", "export", "api", "admin"}
)

Status = League.Status

#: Which status may follow which (draft → registration → running → playoffs → finished).
TRANSITIONS = {
    Status.DRAFT: {Status.REGISTRATION, Status.RUNNING},
    Status.REGISTRATION: {Status.DRAFT, Status.RUNNING},
    Status.RUNNING: {Status.PLAYOFFS, Status.FINISHED},
    Status.PLAYOFFS: {Status.FINISHED},
    Status.FINISHED: set(),
}


def _kind_name(kind: str):
    """An event kind's name as a message parameter (shown in the reader's language)."""
    return coded_text(f"kind_{kind!s}")


def _status_name(status) -> object:
    """A league status as a message parameter (an unknown one as it was given)."""
    code = f"status_{status!s}"
    return coded_text(code) if code in MESSAGES else str(status)


def validate_rules(preset: str, overrides: dict | None) -> RuleSet:
    spec = {"preset": preset, **(overrides or {})}
    try:
        return RuleSet.from_spec(spec)
    except RulesError as exc:
        raise from_engine(exc.args[0], field="rules") from None


def validate_precedence(precedence: list[str]) -> list[str]:

    unknown = [name for name in precedence if name not in METRICS]
    if unknown:
        raise coded(
            "metrics_unknown",
            field="precedence",
            given=", ".join(unknown),
            metrics=", ".join(METRICS),
        )
    if len(set(precedence)) != len(precedence):
        raise coded("tie_break_twice", field="precedence")
    return list(precedence)


def validate_playoffs(config: dict | None) -> dict:
    config = dict(config or {})
    kind = config.get("kind", "none")
    if kind in ("none", None):
        return {}
    if kind == "xleague":
        return {"kind": "xleague"}
    if kind == "bracket":
        return _bracket_playoffs(config)
    raise coded("playoff_kind_unknown", field="playoffs", given=str(kind))


def _bracket_playoffs(config: dict) -> dict:
    """A bracket of 2 to 64 seeds, with one value per round (or one for every round),
    normalised and validated by the algorithm: head_start [false, true] stays per round."""
    seeds = config.get("seeds")
    if isinstance(seeds, bool) or not isinstance(seeds, int) or not 2 <= seeds <= 64:
        raise coded("bracket_seeds", field="playoffs")
    try:
        rounds = brackets.playoff_rounds(seeds, config.get("first_to", 1), config.get("head_start"))
    except AlgorithmError as exc:
        raise coded("playoffs_invalid", field="playoffs", why=why_of(exc)) from None
    return {
        "kind": "bracket",
        "seeds": seeds,
        "first_to": list(rounds.first_to),
        "head_start": list(rounds.head_start),
    }


def league_create(
    *,
    owner,
    name: str,
    format: str,
    board: int | None = None,
    rules_preset: str | None = None,
    rules_overrides: dict | None = None,
    drr_count: int = 1,
    playoffs: dict | None = None,
    precedence: list[str] | None = None,
    points_scheme: list[int] | None = None,
    confirmation_required: bool = True,
    is_public: bool = True,
    registration_open: bool = False,
    slug: str | None = None,
    event_kind: str | None = None,
    game_formats: list[str] | None = None,
    games_planned: int | None = None,
    time_limit_minutes: int | None = None,
    final_table_size: int | None = None,
    draw_seed: int | None = None,
    ranking_level: int | None = None,
    game0_counts: bool = False,
) -> League:
    """Create a league in the draft state, owned (and organized) by ``owner``. Every value
    is checked by its specification in ``tournaments.services.league_settings`` (the forms and the
    API serializer are built from the same one).

    ``event_kind``: ``league`` (DRRs, the default; an open format defaults to ``open``),
    ``triple-threat`` / ``challengers`` (``game_formats``: each game's format),
    ``grand-prix`` (``games_planned`` games), ``open`` (``games_planned`` preliminary
    rounds, ``time_limit_minutes``, ``final_table_size``, ``points_scheme``).
    """
    if not getattr(owner, "is_authenticated", False):
        raise coded("league_log_in")
    require_no_refusal(organize_refusal(owner))
    name = spec.clean("name", name)
    fmt = get_format(spec.clean("format", format))
    board = _checked_board(fmt, board)
    event_kind = spec.clean("event_kind", event_kind) or spec.default_kind(fmt.code)
    preset = _checked_rules(fmt, rules_preset, rules_overrides)
    drr_count = spec.clean("drr_count", drr_count)
    precedence = validate_precedence(list(precedence or fmt.default_precedence))
    points_scheme = spec.clean("points_scheme", points_scheme or None)
    draw_seed = spec.clean("draw_seed", draw_seed)
    ranking_level = _check_ranking_level(spec.clean("ranking_level", ranking_level), fmt)
    _check_flags(event_kind, confirmation_required, is_public, registration_open, game0_counts)
    event = _check_event_settings(
        fmt,
        board,
        event_kind,
        game_formats,
        games_planned,
        time_limit_minutes,
        final_table_size,
        points_scheme,
        playoffs,
    )
    slug = _free_slug(slug)
    try:
        with transaction.atomic():
            return League.objects.create(
                name=name,
                slug=slug or unique_slug(League, name, reserved=RESERVED_LEAGUE_SLUGS),
                owner=owner,
                format=fmt.code,
                board=board,
                rules_preset=preset,
                rules_overrides=dict(rules_overrides or {}),
                drr_count=drr_count,
                playoffs=validate_playoffs(playoffs),
                precedence=precedence,
                points_scheme=list(points_scheme or []),
                confirmation_required=confirmation_required,
                is_public=is_public,
                draw_seed=draw_seed,
                ranking_level=ranking_level,
                **event,
                registration_open=bool(registration_open),
                game0_counts=bool(game0_counts),
            )
    except IntegrityError:
        raise coded("slug_taken_race", field="slug", address=repr(slug or name)) from None


def _checked_board(fmt, board: int | None) -> int:
    """The league's board (blank: the format's); a side-by-side format has only its own."""
    board = spec.clean("board", board) or fmt.board
    if fmt.layout == "side-by-side" and board != fmt.board:
        raise coded("board_fixed", field="board", format=fmt.label, board=fmt.board, given=board)
    return board


def _checked_rules(fmt, rules_preset: str | None, rules_overrides: dict | None) -> str:
    """The rules preset (blank: the format's), checked with its overrides."""
    preset = spec.clean("rules_preset", rules_preset or None) or fmt.preset
    validate_rules(preset, rules_overrides)
    return preset


def _check_flags(event_kind: str, *flags: bool) -> None:
    """The yes/no settings (confirmation, public, registration, game 0 counts), of which
    game 0 counting belongs to a Challengers event only."""
    names = ("confirmation_required", "is_public", "registration_open", "game0_counts")
    for name, value in zip(names, flags, strict=True):
        spec.clean(name, value)
    if flags[-1] and event_kind != spec.CHALLENGERS:
        raise coded("game_zero_challengers", field="game0_counts")


def _free_slug(slug: str | None) -> str | None:
    """A chosen address, checked (not reserved, not taken); None: made from the name."""
    slug = spec.clean("slug", slug or None)
    if not slug:
        return None
    if slug.lower() in RESERVED_LEAGUE_SLUGS:
        raise coded("slug_reserved", field="slug", address=repr(slug), path=slug)
    if League.objects.filter(slug=slug).exists():
        raise coded("slug_taken", field="slug", address=repr(slug))
    return slug


def _check_ranking_level(level: int | None, fmt) -> int | None:
    if level is not None and fmt.code not in ("3T", "3T+"):
        raise coded("rankings_3t_only", field="ranking_level")
    return level


def _check_event_settings(
    fmt,
    board: int,
    kind: str,
    game_formats,
    games_planned,
    time_limit_minutes,
    final_table_size,
    points_scheme,
    playoffs,
) -> dict:
    """The event fields of a league, validated; refuses what cannot be run."""
    _check_kind_format(fmt, kind)
    if _has_playoffs(playoffs):
        _check_playoffs_fit(fmt, kind)
    fields = {"event_kind": kind, "game_formats": [], "games_planned": 0}
    check = _EVENT_CHECKS.get(kind)
    if check is None:  # a league of DRRs
        if game_formats or games_planned:
            raise coded("formats_need_kind", field="event_kind")
        return fields
    given = {
        "game_formats": game_formats,
        "games_planned": games_planned,
        "time_limit_minutes": time_limit_minutes,
        "final_table_size": final_table_size,
        "points_scheme": points_scheme,
    }
    fields.update(check(fmt, board, kind, given))
    return fields


def _check_kind_format(fmt, kind: str) -> None:
    """Each event kind plays its own formats."""
    if fmt.code not in spec.KIND_FORMATS[kind]:
        raise coded(
            "kind_formats",
            field="format",
            kind=_kind_name(kind),
            formats=", ".join(spec.KIND_FORMATS[kind]),
            format=fmt.code,
        )


def _check_playoffs_fit(fmt, kind: str) -> None:
    """Playoffs are for a league of DRRs, not of Grand Prix games (the points decide)."""
    if fmt.code in ("GP", "GP+"):
        raise coded("gp_no_playoffs", field="playoffs")
    if kind != League.EventKind.LEAGUE:
        raise coded("playoffs_drr_only", field="playoffs")


def _sequence_event_fields(fmt, board: int, kind: str, given: dict) -> dict:
    """A triple-threat or Challengers event: its games' formats, among them its own."""
    formats = spec.clean("game_formats", given["game_formats"], event_kind=kind)
    formats = check_event(kind, fmt.code, board, formats, 0)
    if fmt.code not in formats:
        raise coded("event_format_missing", field="format", format=fmt.code)
    return {"game_formats": formats}


def _grand_prix_fields(fmt, board: int, kind: str, given: dict) -> dict:
    """A Grand Prix event: its number of games."""
    games = spec.clean("games_planned", given["games_planned"], event_kind=kind)
    if games is None:
        raise coded("gp_games_range", field="games_planned")
    check_event(kind, fmt.code, board, [], games)
    return {"games_planned": games}


def _open_fields(fmt, board: int, kind: str, given: dict) -> dict:
    """An open tournament: rounds, time limit, final table and placement points."""
    rounds = spec.clean("games_planned", given["games_planned"], event_kind=kind)
    limit = spec.clean("time_limit_minutes", given["time_limit_minutes"], event_kind=kind)
    size = spec.clean("final_table_size", given["final_table_size"], event_kind=kind, board=board)
    if given["points_scheme"]:
        try:
            open_draw.check_placement_scheme(given["points_scheme"])
        except AlgorithmError as exc:
            raise coded(
                "placement_points_invalid", field="points_scheme", why=why_of(exc)
            ) from None
    return {
        "games_planned": 5 if rounds is None else rounds,
        "time_limit_minutes": limit,
        "final_table_size": 4 if size is None else size,
    }


#: the fields each kind of event checks (a league of DRRs has none of them)
_EVENT_CHECKS = {
    League.EventKind.TRIPLE_THREAT: _sequence_event_fields,
    League.EventKind.CHALLENGERS: _sequence_event_fields,
    League.EventKind.GRAND_PRIX: _grand_prix_fields,
    League.EventKind.OPEN: _open_fields,
}


def league_add_organizer(*, league: League, user, by) -> None:
    """The owner (or staff) adds a co-organizer."""
    if not (getattr(by, "is_staff", False) or league.owner_id == getattr(by, "pk", None)):
        require_organizer(by, league)  # a stranger is told they are not an organizer
        raise coded("owner_adds_organizers", cls=NotAllowed, league=league.name)
    if user is None:
        raise coded("username_unknown", field="username")
    if user.pk == league.owner_id or league.organizers.filter(pk=user.pk).exists():
        raise coded(
            "organizes_already", field="username", user=user.get_username(), league=league.name
        )
    league.organizers.add(user)


def league_delete(*, league: League, by) -> None:
    """The owner (or staff) deletes a league that has no games yet (a draft, an accidental
    duplicate): its entries, invitations and settings go with it. A league with games is
    archived instead (``league_archive``): its results stay."""
    if not (getattr(by, "is_staff", False) or league.owner_id == getattr(by, "pk", None)):
        require_organizer(by, league)
        raise coded("owner_deletes", cls=NotAllowed, league=league.name)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.fixtures.exists() or league.cycles.exists():
            raise coded("league_has_games", league=league.name)
        league.delete()


def league_archive(*, league: League, by) -> League:
    """An organizer archives a finished league: it leaves the public lists, the search and
    the rankings (private: its organizers and players still see it), registration closes.
    Reversible on the manage page (Access: public)."""
    require_organizer(by, league)
    if league.status != Status.FINISHED:
        raise coded("archive_unfinished", league=league.name)
    return league_update(league=league, by=by, is_public=False, registration_open=False)


def league_remove_organizer(*, league: League, user, by) -> None:
    if not (getattr(by, "is_staff", False) or league.owner_id == getattr(by, "pk", None)):
        require_organizer(by, league)
        raise coded("owner_removes_organizers", cls=NotAllowed, league=league.name)
    league.organizers.remove(user)


#: settings an organizer may change after creation, and until when (league_settings)
SETTINGS_ANYTIME = spec.SETTINGS_ANYTIME
SETTINGS_BEFORE_SCHEDULE = spec.SETTINGS_BEFORE_SCHEDULE


def league_scheduled(league: League) -> bool:
    """Whether games exist (a DRR seeded, an event scheduled, a round drawn): from then on
    the settings that shape the games are fixed."""
    return league.cycles.exists() or league.fixtures.exists()


def league_update(*, league: League, by, **changes) -> League:
    """Change a league's settings with the checks of ``league_create`` (the same
    specifications, ``tournaments.services.league_settings``): the name, privacy, registration,
    confirmation and ranking level at any time; rules, DRRs, the event's games, playoffs,
    tie-breaks and points only before the first game exists (the playoffs also later,
    until drawn); format, board, event kind and address never (create another league)."""
    require_organizer(by, league)
    _drop_frozen(league, changes)
    unknown = set(changes) - set(SETTINGS_ANYTIME) - set(SETTINGS_BEFORE_SCHEDULE)
    if unknown:
        raise coded("settings_unknown", given=", ".join(sorted(unknown)))
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        fmt = get_format(league.format)
        _clean_plain_changes(league, changes)
        _clean_compound_changes(league, fmt, changes)
        changed = {k: v for k, v in changes.items() if v != getattr(league, k)}
        _refuse_fixed(league, changed)
        _check_changed_rules(league, changed)
        _check_changed_event(league, fmt, changed)
        for key, value in changed.items():
            setattr(league, key, value)
        if changed:
            league.save(update_fields=list(changed))
            if {"precedence", "points_scheme"} & set(changed):
                standings_invalidate(league)
        return league


#: settings that never change after creation (another league is created instead)
FROZEN = ("format", "board", "owner", "status", "slug", "event_kind", "draw_seed")
#: settings that shape an event's games (checked together when one changes)
EVENT_SETTINGS = ("game_formats", "games_planned", "time_limit_minutes", "final_table_size")


def _drop_frozen(league: League, changes: dict) -> None:
    """Refuse a change of a frozen setting; drop the ones given unchanged."""
    for frozen in FROZEN:
        if frozen in changes and changes[frozen] != getattr(league, frozen):
            raise coded("setting_never_changes", field=frozen, setting=frozen.replace("_", " "))
        changes.pop(frozen, None)


def _clean_plain_changes(league: League, changes: dict) -> None:
    """Each plain setting checked by its specification (one of another event kind is
    left as it is when given blank or unchanged, else refused)."""
    kind = league.event_kind
    for key, setting in spec.SETTINGS.items():
        if key not in changes or setting.kind == "object":
            continue
        if spec.applies(key, kind):
            changes[key] = spec.clean(key, changes[key], event_kind=kind, board=league.board)
            continue
        if changes[key] not in (None, [], 0, getattr(league, key)):
            raise coded(
                "setting_not_of_kind",
                field=key,
                setting=key.replace("_", " "),
                kind=_kind_name(kind),
            )
        changes[key] = getattr(league, key)  # not this kind's setting: left as it is


def _clean_compound_changes(league: League, fmt, changes: dict) -> None:
    """Playoffs, tie-breaks and the ranking level by their validators; a blank rules
    preset or points scheme back to the format's."""
    if "playoffs" in changes:
        changes["playoffs"] = _changed_playoffs(league, changes["playoffs"])
    if "precedence" in changes:
        changes["precedence"] = _changed_precedence(changes["precedence"])
    if "ranking_level" in changes:
        _change_ranking_level(league, fmt, changes)
    if changes.get("rules_preset", "") is None:
        changes["rules_preset"] = fmt.preset
    if changes.get("points_scheme", "") is None:
        changes["points_scheme"] = []


def _changed_precedence(precedence) -> list[str]:
    """New tie-breaks: at least one."""
    precedence = validate_precedence(list(precedence or []))
    if not precedence:
        raise coded("tie_break_none", field="precedence")
    return precedence


def _change_ranking_level(league: League, fmt, changes: dict) -> None:
    """A new ranking level (a triple-threat format only); an unranked league is no world
    championship or major any more."""
    _check_ranking_level(changes["ranking_level"], fmt)
    if changes["ranking_level"] is None and league.ranking_level is not None:
        changes.update(world_championship=False, major=False)


def _changed_playoffs(league: League, playoffs: dict | None) -> dict:
    """New playoffs, which only a league of DRRs has."""
    if league.event_kind != League.EventKind.LEAGUE and _has_playoffs(playoffs):
        raise coded("playoffs_drr_only", field="playoffs")
    return validate_playoffs(playoffs)


def _event_changed(kind: str, changed: dict) -> bool:
    """A change of the event's games, or of an open tournament's placement points."""
    open_points = "points_scheme" in changed and kind == League.EventKind.OPEN
    return bool(set(EVENT_SETTINGS) & set(changed)) or open_points


def _has_playoffs(playoffs: dict | None) -> bool:
    return (playoffs or {}).get("kind", "none") not in ("none", None)


def _refuse_fixed(league: League, changed: dict) -> None:
    """Refuse a change of a setting fixed by the schedule (the playoffs: until drawn)."""
    scheduled = league_scheduled(league)
    for key in changed:
        if key == "playoffs" and not league.series.exists():
            continue
        if key in SETTINGS_BEFORE_SCHEDULE and scheduled:
            raise coded("setting_fixed", field=key, setting=key.replace("_", " "))


def _check_changed_rules(league: League, changed: dict) -> None:
    if "rules_preset" in changed or "rules_overrides" in changed:
        validate_rules(
            changed.get("rules_preset", league.rules_preset),
            changed.get("rules_overrides", league.rules_overrides),
        )


def _check_changed_event(league: League, fmt, changed: dict) -> None:
    """A change of the event's games (an open tournament's points too) checked with the
    rest of the event's settings; the normalised values replace the given ones."""
    kind = league.event_kind
    if not _event_changed(kind, changed):
        return
    values = {key: changed.get(key, getattr(league, key)) for key in EVENT_SETTINGS}
    event = _check_event_settings(
        fmt,
        league.board,
        kind,
        values["game_formats"],
        values["games_planned"],
        values["time_limit_minutes"],
        values["final_table_size"],
        changed.get("points_scheme", league.points_scheme),
        league.playoffs,
    )
    changed.update({key: event[key] for key in EVENT_SETTINGS if key in changed})


def league_finish(*, league: League, by) -> League:
    """End the season: refused while any game still waits for a result, or while the
    playoffs have not been decided."""
    require_organizer(by, league)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if league.status == Status.FINISHED:
            raise coded("finished_already", league=league.name)
        if league.status not in (Status.RUNNING, Status.PLAYOFFS):
            raise coded("not_started", league=league.name)
        waiting = league.fixtures.filter(
            status__in=[Fixture.Status.SCHEDULED, Fixture.Status.SUBMITTED, Fixture.Status.DISPUTED]
        ).count()
        if waiting:
            raise coded("games_waiting", n=waiting)
        if refusal := finish_refusal(league):
            raise refusal
        league.status = Status.FINISHED
        league.save(update_fields=["status"])
        # a new snapshot stamp: the cached table (badge "final", the champion) is redrawn

        standings_invalidate(league)
        return league


def finish_refusal(league: League) -> ServiceError | None:
    """What the event kind still needs before it can end (the games are all decided):
    a league its DRRs and playoffs, an event its games, an open tournament its rounds and
    final table. None when it may finish."""
    check = _FINISH_CHECKS.get(league.event_kind)
    return check(league) if check else None


def _league_unfinished(league: League) -> ServiceError | None:
    """A league of DRRs: every DRR seeded, the playoffs drawn and decided."""
    cycles = league.cycles.count()
    if cycles < league.drr_count:
        return coded(
            "drrs_unseeded",
            league=league.name,
            total=league.drr_count,
            left=league.drr_count - cycles,
        )
    if league.playoffs and not league.series.exists():
        return coded("playoffs_undrawn")
    if league.series.filter(winner__isnull=True).exists():
        return coded("series_undecided")
    return None


def _event_unfinished(league: League) -> ServiceError | None:
    """An event: its games scheduled."""
    if not league.fixtures.exists():
        return coded("event_unscheduled")
    return None


def _open_unfinished(league: League) -> ServiceError | None:
    """An open tournament: every preliminary round drawn, the final table seated."""
    rounds = league.open_rounds.filter(is_final=False).count()
    if rounds < league.games_planned:
        return coded("rounds_undrawn", done=rounds, total=league.games_planned)
    if league.final_table_size and not league.fixtures.filter(stage=Fixture.Stage.FINAL).exists():
        return coded("final_table_unseated")
    return None


_FINISH_CHECKS = {
    League.EventKind.LEAGUE: _league_unfinished,
    League.EventKind.TRIPLE_THREAT: _event_unfinished,
    League.EventKind.CHALLENGERS: _event_unfinished,
    League.EventKind.GRAND_PRIX: _event_unfinished,
    League.EventKind.OPEN: _open_unfinished,
}


def league_set_status(*, league: League, status: str, by) -> League:
    require_organizer(by, league)
    with transaction.atomic():
        league = League.objects.select_for_update().get(pk=league.pk)
        if status not in TRANSITIONS.get(league.status, set()):
            raise coded(
                "status_transition",
                field="status",
                status=league.status,
                to=_status_name(status),
            )
        league.status = status
        league.save(update_fields=["status"])
        if status == Status.FINISHED:  # the table's badge and champion are redrawn
            standings_invalidate(league)
        return league


def entries_open_error(league: League) -> ServiceError | None:
    """Why no one can be entered now, or None (only before the schedule exists)."""
    if _takes_late_entries(league):
        return None  # late entries play from the next round (h-champ)
    if league.status not in (Status.DRAFT, Status.REGISTRATION):
        return coded("entries_closed", league=league.name, status=league.status)
    if league.cycles.exists():
        return coded("schedule_exists")
    return None


def _takes_late_entries(league: League) -> bool:
    """A running open tournament takes entries until its final table is seated."""
    if league.event_kind != League.EventKind.OPEN or league.status != Status.RUNNING:
        return False
    return not league.fixtures.filter(stage=Fixture.Stage.FINAL).exists()


def entry_add(*, league: League, player: Player, by, preferred_colours=None) -> Entry:
    """Register a player. Only before the schedule exists (draft or registration).

    A player with an account (other than the organizer themselves) takes part only after
    accepting: their entry is an invitation (``invited``) until they do."""
    require_organizer(by, league)
    require_no_refusal(enter_refusal(by, player))
    if refusal := entries_open_error(league):
        raise refusal
    colours = _entry_colours(league, player, preferred_colours)
    consent_needed = player.user_id is not None and player.user_id != by.pk
    try:
        with transaction.atomic():
            entry = Entry.objects.create(
                league=league,
                player=player,
                preferred_colours=colours,
                state=Entry.State.INVITED if consent_needed else Entry.State.ACCEPTED,
                accepted_at=None if consent_needed else timezone.now(),
            )

            entry = entry_admit(entry)  # the waitlist, a late entry (h-champ)
            if consent_needed:  # a mail and an inbox item: they accept on their leagues page
                notify_on_commit(ENTRY_INVITED, entry.pk)
            return entry
    except IntegrityError:
        raise coded("already_entered", player=player.name, league=league.name) from None


def _entry_colours(league: League, player: Player, preferred_colours) -> list[str]:
    """The entry's preferred colours: those given (checked), else the profile's where they
    fit this league's board and layout."""
    if preferred_colours:
        return check_pair(league, preferred_colours)
    return fitting_pair(league, player.preferred_colours)


def entry_remove(*, entry: Entry, by) -> None:
    """An organizer takes an entry (an invitation, a join request) out before its games."""
    require_organizer(by, entry.league)
    if entry.seats.exists():
        raise coded("entry_has_games", player=entry.player.name)
    entry.delete()


def entry_withdraw(*, entry: Entry, by, reason: str = WITHDREW) -> int:
    """A player withdraws: every game of theirs without a counted result is forfeited.
    Returns the number of forfeited games."""

    require_no_refusal(entry_refusal(by, entry, "withdraw"))
    with transaction.atomic():
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
        open_ids = (
            Fixture.objects.filter(seats__entry=entry)
            .exclude(
                status__in=[
                    Fixture.Status.CONFIRMED,
                    Fixture.Status.FORFEITED,
                    Fixture.Status.CANCELLED,
                ]
            )
            .exclude(results__state=Result.State.CONFIRMED)
            .values_list("pk", flat=True)
        )
        # Lock every game first, in id order, then forfeit: the same order as an upload
        # (game, then league), so a concurrent upload waits instead of deadlocking.
        open_games = list(
            Fixture.objects.select_for_update(no_key=True)
            .filter(pk__in=list(open_ids))
            .order_by("pk")
        )
        count = 0
        for fixture in open_games:
            forfeit_record(
                fixture=fixture,
                by=by,
                loser=entry,
                reason=reason,
                own_withdrawal=not is_organizer(by, entry.league),
            )
            count += 1
    # a place came free: the waitlist moves up, in its own transaction (h-champ)

    waitlist_promote(entry.league)
    return count
