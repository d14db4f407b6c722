"""The Django admin, for staff. Seeding, playoffs and standings recomputes go through the
services (the actions below); the plain change forms do not: league status, precedence,
preferred colours and series winners are freely editable here and skip the services'
checks. Results cannot be corrected, voided or forfeited here (the API can). Issue #12
replaces this with service-backed forms and read-only fields."""

from django.contrib import admin, messages

from tournaments.models import (
    Cycle,
    CycleSeed,
    Entry,
    Fixture,
    League,
    OpenRound,
    Player,
    RejectedSubmission,
    Result,
    Seat,
    Series,
    StandingsRow,
    StandingsSnapshot,
    TieBreakRoll,
)
from tournaments.services.errors import ServiceError
from tournaments.services.playoffs import playoffs_generate
from tournaments.services.schedule import cycle_create
from tournaments.services.standings import standings_enqueue


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "preferred_colours"]
    search_fields = ["name", "user__username"]
    prepopulated_fields = {"slug": ["name"]}


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["player", "preferred_colours", "withdrawn_at"]
    readonly_fields = ["withdrawn_at"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "format", "board", "status", "drr_count", "is_public"]
    list_filter = ["format", "status", "is_public"]
    search_fields = ["name", "slug"]
    filter_horizontal = ["organizers"]
    readonly_fields = ["results_revision", "created_at"]
    inlines = [EntryInline]
    actions = ["generate_next_drr", "generate_playoffs", "recompute_standings"]

    @admin.action(description="Seed the next DRR by die roll and generate its schedule")
    def generate_next_drr(self, request, queryset):
        for league in queryset:
            try:
                cycle = cycle_create(league=league, by=request.user)
            except ServiceError as exc:
                self.message_user(request, f"{league.name}: {exc.message}", messages.ERROR)
            else:
                self.message_user(request, f"{league.name}: DRR {cycle.number} scheduled")

    @admin.action(description="Generate the playoffs from the final table")
    def generate_playoffs(self, request, queryset):
        for league in queryset:
            try:
                series = playoffs_generate(league=league, by=request.user)
            except ServiceError as exc:
                self.message_user(request, f"{league.name}: {exc.message}", messages.ERROR)
            else:
                names = ", ".join(s.name for s in series)
                self.message_user(request, f"{league.name}: playoffs generated ({names})")

    @admin.action(description="Recompute the standings now")
    def recompute_standings(self, request, queryset):
        for league in queryset:
            standings_enqueue(league.pk)
        self.message_user(request, f"standings recompute requested for {queryset.count()}")


class CycleSeedInline(admin.TabularInline):
    model = CycleSeed
    extra = 0
    readonly_fields = ["entry", "number"]
    can_delete = False


@admin.register(Cycle)
class CycleAdmin(admin.ModelAdmin):
    list_display = ["league", "number", "seed", "created_at"]
    list_filter = ["league"]
    readonly_fields = ["league", "number", "seed", "rolls", "late_order"]
    inlines = [CycleSeedInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ["entry", "position", "colours"]
    can_delete = False


class ResultInline(admin.TabularInline):
    model = Result
    extra = 0
    fields = ["state", "source", "winner", "counted_pawns", "submitted_by", "created_at"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):
    list_display = ["__str__", "league", "cycle", "round", "starting_colour", "status"]
    list_filter = ["league", "status"]
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
    fields = [*readonly_fields, "scheduled_at"]
    inlines = [SeatInline, ResultInline]


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    """Read-only: results change through the organizer forms/API (services keep versions)."""

    list_display = ["fixture", "state", "source", "winner", "verified", "created_at"]
    list_filter = ["state", "source", "verified"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_add_permission(self, request):
        return False


@admin.register(RejectedSubmission)
class RejectedSubmissionAdmin(admin.ModelAdmin):
    list_display = ["fixture", "submitted_by", "event", "error", "created_at"]

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Series)
class SeriesAdmin(admin.ModelAdmin):
    list_display = ["name", "league", "round", "slot", "higher", "lower", "first_to", "winner"]
    list_filter = ["league"]


class StandingsRowInline(admin.TabularInline):
    model = StandingsRow
    extra = 0
    readonly_fields = ["rank", "entry", "played", "wins", "losses", "points", "metrics"]
    fields = readonly_fields
    can_delete = False


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(admin.ModelAdmin):
    list_display = ["league", "stage", "results_revision", "provisional", "computed_at"]
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


class _ReadOnly(admin.ModelAdmin):
    """Recorded by the services (tie_break_roll_record, open_round_draw); shown only."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(TieBreakRoll)
class TieBreakRollAdmin(_ReadOnly):
    list_display = ["league", "fixture", "recorded_at", "recorded_by", "note"]
    list_filter = ["league"]


@admin.register(OpenRound)
class OpenRoundAdmin(_ReadOnly):
    list_display = ["league", "number", "is_final", "seed", "created_at"]
    list_filter = ["league"]
