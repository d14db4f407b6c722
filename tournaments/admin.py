"""The Django admin, for staff. Every domain change made here goes through the services,
with their checks and messages, or the field is read-only: league settings through
``league_update`` (a mistyped preset or tie-break key is refused, listing the valid ones),
entries through ``entry_add`` (never into a running league), preferred colours through
``player_set_colours`` (copied to the entries of leagues not yet scheduled), game dates
through ``fixture_reschedule``; seeding, playoffs and finishing as actions. Results,
series, DRRs and standings are read-only (the site's organizer pages and the API change
them). Leagues are created on the site (/leagues/new/)."""

from functools import partial

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import Prefetch
from django.utils.html import format_html_join

from core.admin_lists import BoundedListAdmin
from games.engine.board import DEFAULT_COLOURS
from tournaments.algorithms.standings import METRICS
from tournaments.models import (
    Cycle,
    CycleSeed,
    Entry,
    Fixture,
    Invitation,
    League,
    OpenRound,
    Player,
    PlayerClaim,
    RejectedSubmission,
    Result,
    ResultLink,
    Seat,
    Series,
    StandingsRow,
    StandingsSnapshot,
    TieBreakRoll,
)
from tournaments.services.errors import ServiceError, coded
from tournaments.services.leagues import (
    SETTINGS_BEFORE_SCHEDULE,
    entries_open_error,
    entry_add,
    league_add_organizer,
    league_finish,
    league_remove_organizer,
    league_update,
    validate_playoffs,
    validate_precedence,
    validate_rules,
)
from tournaments.services.players import (
    player_create,
    player_name_check,
    player_names_distinguish,
    player_set_colours,
    player_set_shared,
)
from tournaments.services.playoffs import playoffs_generate
from tournaments.services.result_links import result_link_revoke, result_links_revoke_for_player
from tournaments.services.schedule import cycle_create, fixture_reschedule
from tournaments.services.standings import standings_enqueue
from tournaments.services.text import single_line


def seats_with_players(path: str) -> Prefetch:
    """The seats of a game with their players (a game's ``__str__`` names them): the
    changelists' one query for a page's seats, instead of two a row."""
    return Prefetch(path, queryset=Seat.objects.select_related("entry__player"))


#: leagues a league filter lists (the newest; the one chosen is always listed)
FILTER_LEAGUES = 30


class RecentLeaguesFilter(admin.SimpleListFilter):
    """By league: the ``FILTER_LEAGUES`` newest (and the one chosen), under the same
    parameter as Django's own filter of the ``league`` field."""

    title = "league"
    parameter_name = "league__id__exact"

    def lookups(self, request, model_admin):
        leagues = list(League.objects.order_by("-pk").values_list("pk", "name")[:FILTER_LEAGUES])
        chosen = self.value()
        if chosen and chosen.isdigit() and int(chosen) not in {pk for pk, _ in leagues}:
            leagues += list(League.objects.filter(pk=int(chosen)).values_list("pk", "name"))
        return [(str(pk), name) for pk, name in leagues]

    def queryset(self, request, queryset):
        value = self.value()
        if value and value.isdigit():
            return queryset.filter(league_id=int(value))
        return queryset


class ReadOnlyAdmin(BoundedListAdmin):
    """Shown, never changed here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class PlayerAdminForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["name", "slug", "user", "preferred_colours", "shared"]

    def clean_name(self):
        # h-trust: unique among the players of the organizer who created it (issue 34); a
        # new one is the staff member's, one with an account needs only its form
        instance = self.instance
        if instance.pk is None:
            organizer = getattr(self, "request_user", None)
        else:
            organizer = instance.created_by if instance.user_id is None else None
        try:
            return player_name_check(
                self.cleaned_data.get("name") or "",
                organizer=organizer,
                exclude_pk=instance.pk,
                what="a name",
            )
        except ServiceError as exc:
            raise forms.ValidationError(exc.localized()) from None

    def clean_preferred_colours(self):
        colours = self.cleaned_data.get("preferred_colours") or []
        if not isinstance(colours, list):
            raise forms.ValidationError('write a list of colour names, e.g. ["green", "red"]')
        if not _one_pair(colours):
            raise forms.ValidationError(
                "preferred colours are one pair of two different colours from "
                + ", ".join(DEFAULT_COLOURS[6])
            )
        return colours


def _one_pair(colours: list) -> bool:
    """At most two colours of the six-player board, different ones."""
    known = DEFAULT_COLOURS[6]
    return (
        all(c in known for c in colours)
        and len(colours) <= 2
        and len(set(map(str, colours))) == len(colours)
    )


@admin.register(Player)
class PlayerAdmin(BoundedListAdmin):
    form = PlayerAdminForm
    list_display = ["name", "user", "preferred_colours", "created_by", "shared"]
    list_select_related = ["user", "created_by"]
    search_fields = ["name", "user__username"]
    readonly_fields = ["created_by"]

    def get_fields(self, request, obj=None):
        fields = ["name", "user", "preferred_colours", "shared", "created_by"]
        return fields if obj is None else ["name", "slug", *fields[1:]]

    def get_readonly_fields(self, request, obj=None):
        # the slug is made by the service on creation and is the player's address after
        return ["created_by"] if obj is None else ["slug", "created_by"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.request_user = request.user  # h-trust: the scope of a new player's name
        return form

    def save_model(self, request, obj, form, change):
        if not change:
            self._create(request, obj)
            return
        changed = set(form.changed_data)
        if "shared" in changed and obj.user_id is None:
            player_set_shared(player=obj, by=request.user, shared=obj.shared)
        if "preferred_colours" in changed:
            colours = obj.preferred_colours
            obj.preferred_colours = form.initial.get("preferred_colours") or []
            obj.save()
            player_set_colours(player=obj, by=request.user, preferred_colours=colours)
        else:
            obj.save()
        if "user" in changed:
            # who the player is changed: their private result links stop (issue 32)
            with transaction.atomic():
                result_links_revoke_for_player(player=obj, by=request.user)
        if {"name", "user"} & changed:  # h-trust
            player_names_distinguish(obj.name, form.initial.get("name") or obj.name)

    @staticmethod
    def _create(request, obj) -> None:
        """Created through the service, which records the staff member as the creator (only
        a recorded creator or staff may later hand the player to an account)."""
        created = player_create(
            name=obj.name,
            user=obj.user,
            preferred_colours=obj.preferred_colours,
            created_by=request.user,
            shared=obj.shared,
        )
        obj.pk, obj.slug, obj.created_by, obj.created_at = (
            created.pk,
            created.slug,
            created.created_by,
            created.created_at,
        )
        obj._state.adding, obj._state.db = False, created._state.db


#: the league settings the admin edits (the site's settings page has all of them, each with
#: its own field; the admin's JSON fields are kept to the ones every league kind has)
ADMIN_SETTINGS = [
    "name",
    "is_public",
    "registration_open",
    "confirmation_required",
    "ranking_level",
    "rules_preset",
    "rules_overrides",
    "drr_count",
    "playoffs",
    "precedence",
    "points_scheme",
]

PRECEDENCE_HELP = "tie-break metric keys in order; valid keys: " + ", ".join(METRICS)


class LeagueAdminForm(forms.ModelForm):
    add_player = forms.ModelChoiceField(
        queryset=Player.objects.all(),
        required=False,
        help_text="enter this player (through the same checks as the site: only before "
        "the schedule; a player with an account is invited and must accept)",
    )

    class Meta:
        model = League
        fields = [*ADMIN_SETTINGS, "organizers"]
        help_texts = {"precedence": PRECEDENCE_HELP}

    def clean(self):
        data = super().clean()
        changed = set(self.changed_data)
        checks = [partial(check, data) for fields, check in SETTING_CHECKS if fields & changed]
        if data.get("add_player"):
            checks.append(partial(_entries_open, self.instance))
        checks += [partial(_fixed, key) for key in self._fixed_changes(changed)]
        for check in checks:
            try:
                check()
            except ServiceError as exc:
                field = {"rules": "rules_preset"}.get(exc.field, exc.field)
                self.add_error(field if field in self.fields else None, exc.localized())
        return data

    def _fixed_changes(self, changed: set[str]) -> list[str]:
        """The changed settings the schedule fixed (the playoffs have their own check)."""
        league = self.instance
        if not (league.pk and league.cycles.exists()):
            return []
        return [k for k in SETTINGS_BEFORE_SCHEDULE if k in changed and k != "playoffs"]


#: the service's checks of the admin's settings: (the fields whose change calls for it, the
#: check on the cleaned data), in the order their errors are shown
SETTING_CHECKS = (
    (
        {"name"},
        lambda data: single_line(data.get("name") or "", field="name", what="a league's name"),
    ),
    (
        {"rules_preset", "rules_overrides"},
        lambda data: validate_rules(data.get("rules_preset", ""), data.get("rules_overrides")),
    ),
    ({"precedence"}, lambda data: validate_precedence(list(data.get("precedence") or []))),
    ({"playoffs"}, lambda data: validate_playoffs(data.get("playoffs"))),
)


def _entries_open(league) -> None:
    if error := entries_open_error(league):
        error.field = "add_player"
        raise error


def _fixed(key: str) -> None:
    raise coded("setting_fixed", field=key, setting=key.replace("_", " "))


@admin.register(League)
class LeagueAdmin(BoundedListAdmin):
    form = LeagueAdminForm
    list_display = ["name", "format", "board", "status", "drr_count", "is_public"]
    list_filter = ["format", "status", "is_public"]
    search_fields = ["name", "slug"]
    filter_horizontal = ["organizers"]
    readonly_fields = [
        "slug",
        "owner",
        "format",
        "board",
        "status",
        "results_revision",
        "created_at",
        "entries_list",
    ]
    actions = ["generate_next_drr", "generate_playoffs", "finish", "recompute_standings"]

    def has_add_permission(self, request):
        return False  # leagues are created on the site, through league_create

    @admin.display(description="entries")
    def entries_list(self, obj):
        return format_html_join(
            ", ",
            "{} ({})",
            ((e.player.name, e.state) for e in obj.entries.select_related("player")),
        )

    def save_model(self, request, obj, form, change):
        """Through ``league_update`` / ``entry_add``; the form's clean ran the same checks,
        so a refusal here is a race (shown as an error, nothing saved)."""
        fresh = League.objects.get(pk=obj.pk)
        changes = {
            key: form.cleaned_data[key] for key in ADMIN_SETTINGS if key in form.changed_data
        }
        try:
            league_update(league=fresh, by=request.user, **changes)
            if player := form.cleaned_data.get("add_player"):
                entry_add(league=fresh, player=player, by=request.user)
        except ServiceError as exc:
            self.message_user(request, exc.localized(), messages.ERROR)

    def save_related(self, request, form, formsets, change):
        """Co-organizers through ``league_add_organizer`` / ``league_remove_organizer``."""
        if "organizers" not in form.changed_data:
            return
        league = League.objects.get(pk=form.instance.pk)
        wanted = set(form.cleaned_data.get("organizers") or [])
        current = set(league.organizers.all())
        try:
            for user in wanted - current:
                league_add_organizer(league=league, user=user, by=request.user)
            for user in current - wanted:
                league_remove_organizer(league=league, user=user, by=request.user)
        except ServiceError as exc:
            self.message_user(request, exc.localized(), messages.ERROR)

    def _each_league(self, request, queryset, act) -> None:
        """Run ``act`` (a service call, answering what it did) on every chosen league: one
        message per league, the service's refusal as an error."""
        for league in queryset:
            try:
                done = act(league)
            except ServiceError as exc:
                self.message_user(request, f"{league.name}: {exc.localized()}", messages.ERROR)
            else:
                self.message_user(request, f"{league.name}: {done}")

    @admin.action(description="Seed the next DRR by die roll and generate its schedule")
    def generate_next_drr(self, request, queryset):
        def seed(league) -> str:
            cycle = cycle_create(league=league, by=request.user)
            return f"DRR {cycle.number} scheduled"

        self._each_league(request, queryset, seed)

    @admin.action(description="Generate the playoffs from the final table")
    def generate_playoffs(self, request, queryset):
        def draw(league) -> str:
            series = playoffs_generate(league=league, by=request.user)
            return f"playoffs generated ({', '.join(s.name for s in series)})"

        self._each_league(request, queryset, draw)

    @admin.action(description="Finish the league")
    def finish(self, request, queryset):
        def finish(league) -> str:
            league_finish(league=league, by=request.user)
            return "finished"

        self._each_league(request, queryset, finish)

    @admin.action(description="Recompute the standings now")
    def recompute_standings(self, request, queryset):
        for league in queryset:
            standings_enqueue(league.pk)
        self.message_user(request, f"standings recompute requested for {queryset.count()}")


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["player", "league", "state", "preferred_colours", "withdrawn_at"]
    list_select_related = ["player", "league"]
    list_filter = ["state", RecentLeaguesFilter]


class CycleSeedInline(admin.TabularInline):
    model = CycleSeed
    extra = 0
    readonly_fields = ["entry", "number"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Cycle)
class CycleAdmin(ReadOnlyAdmin):
    list_display = ["league", "number", "seed", "created_at"]
    list_select_related = ["league"]
    list_filter = [RecentLeaguesFilter]
    readonly_fields = ["league", "number", "seed", "rolls", "late_order"]
    inlines = [CycleSeedInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["entry", "position", "colours"]
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class ResultInline(admin.TabularInline):
    model = Result
    extra = 0
    fields = ["state", "source", "winner", "counted_pawns", "submitted_by", "created_at"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Fixture)
class FixtureAdmin(BoundedListAdmin):
    """Only the date and deadline change here (through ``fixture_reschedule``); results are
    decided on the game page and the organizers' pages."""

    list_display = ["__str__", "league", "cycle", "round", "starting_colour", "status"]
    list_select_related = ["league", "cycle__league"]
    list_filter = [RecentLeaguesFilter, "status"]
    readonly_fields = [
        "league",
        "cycle",
        "series",
        "round",
        "number",
        "label",
        "starting_colour",
        "status",
    ]
    fields = [*readonly_fields, "scheduled_at", "deadline"]
    inlines = [SeatInline, ResultInline]

    def get_queryset(self, request):
        # __str__ names the players: one query for the page's seats, not one per row
        return super().get_queryset(request).prefetch_related(seats_with_players("seats"))

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        try:
            fixture_reschedule(
                fixture=Fixture.objects.get(pk=obj.pk),
                by=request.user,
                scheduled_at=form.cleaned_data.get("scheduled_at"),
                deadline=form.cleaned_data.get("deadline"),
            )
        except ServiceError as exc:
            self.message_user(request, exc.localized(), messages.ERROR)

    def save_formset(self, request, form, formset, change):
        pass  # seats and results are read-only here


@admin.register(Result)
class ResultAdmin(ReadOnlyAdmin):
    list_display = ["fixture", "state", "source", "winner", "verified", "created_at"]
    list_filter = ["state", "source", "verified"]
    list_select_related = ["fixture", "winner__player", "winner__league"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related(seats_with_players("fixture__seats"))


@admin.register(ResultLink)
class ResultLinkAdmin(ReadOnlyAdmin):
    """Private result links: who made them and when, whether withdrawn. Never the token
    (it is not stored); withdrawing goes through ``result_link_revoke``."""

    list_display = ["entry", "created_by", "created_at", "revoked_at", "revoked_by"]
    list_select_related = ["entry__player", "entry__league", "created_by", "revoked_by"]
    list_filter = ["revoked_at"]
    fields = ["entry", "created_by", "created_at", "revoked_at", "revoked_by"]
    actions = ["withdraw"]

    @admin.action(description="Withdraw the selected live links")
    def withdraw(self, request, queryset):
        done = 0
        for link in queryset.filter(revoked_at__isnull=True).select_related("entry__league"):
            try:
                result_link_revoke(entry=link.entry, by=request.user)
                done += 1
            except ServiceError as exc:
                self.message_user(request, f"{link.entry}: {exc.localized()}", level="error")
        self.message_user(request, f"{done} link(s) withdrawn")


@admin.register(RejectedSubmission)
class RejectedSubmissionAdmin(ReadOnlyAdmin):
    list_display = ["fixture", "submitted_by", "event", "error", "created_at"]
    list_select_related = ["fixture", "submitted_by"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related(seats_with_players("fixture__seats"))


@admin.register(Series)
class SeriesAdmin(ReadOnlyAdmin):
    list_display = ["name", "league", "round", "slot", "higher", "lower", "first_to", "winner"]
    list_select_related = [
        "league",
        *(
            f"{side}__{field}"
            for side in ("higher", "lower", "winner")
            for field in ("player", "league")
        ),
    ]
    list_filter = [RecentLeaguesFilter]


class StandingsRowInline(admin.TabularInline):
    model = StandingsRow
    extra = 0
    readonly_fields = ["rank", "entry", "played", "wins", "losses", "points", "metrics"]
    fields = readonly_fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(ReadOnlyAdmin):
    list_display = ["league", "stage", "results_revision", "provisional", "computed_at"]
    list_select_related = ["league"]
    readonly_fields = [
        "league",
        "stage",
        "results_revision",
        "provisional",
        "games_played",
        "games_total",
        "precedence",
    ]
    inlines = [StandingsRowInline]


class _ReadOnly(BoundedListAdmin):
    """Recorded by the services (tie_break_roll_record, open_round_draw); shown only."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(TieBreakRoll)
class TieBreakRollAdmin(_ReadOnly):
    list_display = ["league", "fixture", "recorded_at", "recorded_by", "note"]
    list_select_related = ["league", "fixture", "recorded_by"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related(seats_with_players("fixture__seats"))

    list_filter = [RecentLeaguesFilter]


@admin.register(OpenRound)
class OpenRoundAdmin(_ReadOnly):
    list_display = ["league", "number", "is_final", "seed", "created_at"]
    list_select_related = ["league"]
    list_filter = [RecentLeaguesFilter]


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ["league", "email", "name", "entry", "created_by", "accepted_by", "revoked_at"]
    list_select_related = [
        "league",
        "entry__player",
        "entry__league",
        "created_by",
        "accepted_by",
    ]


@admin.register(PlayerClaim)
class PlayerClaimAdmin(ReadOnlyAdmin):
    list_display = ["player", "user", "state", "decided_by", "decided_at"]
    list_select_related = ["player", "user", "decided_by"]
