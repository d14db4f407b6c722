"""Query filters of the list endpoints (django-filter)."""

from __future__ import annotations

from datetime import UTC

import django_filters
from django import forms
from django.db.models import Q
from django_filters.fields import IsoDateTimeField
from drf_spectacular.utils import extend_schema_field

from tournaments.formats import FORMAT_CHOICES
from tournaments.models import Entry, Fixture, League, Player


class UTCDateTimeField(IsoDateTimeField):
    """An ISO 8601 moment, turned into UTC here: an offset the database cannot store
    (PostgreSQL allows ±15:59) or a moment past year 9999 in UTC is a clear 400."""

    def clean(self, value):
        moment = super().clean(value)
        if moment is None:
            return None
        try:
            return moment.astimezone(UTC)
        except (OverflowError, ValueError):
            raise forms.ValidationError("a moment between the years 1 and 9999") from None


class UTCDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = UTCDateTimeField


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": 2**31 - 1})
class IdFilter(django_filters.NumberFilter):
    """A whole number that fits the database's integers (else a clear 400, not a 500); the
    schema says so (issue 32: it said "number", and -1.7e-245 was "valid")."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", 2**31 - 1)
        super().__init__(*args, **kwargs)


class LeagueFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=League.Status.choices)
    format = django_filters.ChoiceFilter(choices=FORMAT_CHOICES)
    is_public = django_filters.BooleanFilter()
    q = django_filters.CharFilter(method="search", label="name contains")
    mine = django_filters.BooleanFilter(
        method="filter_mine", label="only leagues I organize or am entered in"
    )

    class Meta:
        model = League
        fields = ["status", "format", "is_public"]

    def search(self, queryset, name, value):
        return queryset.filter(name__icontains=value)

    def filter_mine(self, queryset, name, value):
        user = self.request.user if self.request else None
        if not value:
            return queryset
        if not getattr(user, "is_authenticated", False):
            return queryset.none()
        return queryset.filter(
            Q(owner=user)
            | Q(pk__in=League.organizers.through.objects.filter(user=user).values("league_id"))
            | Q(pk__in=Entry.objects.filter(player__user=user).values("league_id"))
        )


class PlayerFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains", label="name contains")
    has_account = django_filters.BooleanFilter(
        field_name="user", lookup_expr="isnull", exclude=True
    )

    class Meta:
        model = Player
        fields = ["q", "has_account"]


class FixtureFilter(django_filters.FilterSet):
    league = django_filters.CharFilter(field_name="league__slug", label="league slug")
    status = django_filters.ChoiceFilter(choices=Fixture.Status.choices)
    cycle = IdFilter(field_name="cycle__number", label="DRR number")
    round = IdFilter()
    series = IdFilter(field_name="series_id", label="playoff series id")
    player = django_filters.CharFilter(
        field_name="seats__entry__player__slug", distinct=True, label="player slug"
    )
    scheduled_after = UTCDateTimeFilter(field_name="scheduled_at", lookup_expr="gte")
    scheduled_before = UTCDateTimeFilter(field_name="scheduled_at", lookup_expr="lt")

    class Meta:
        model = Fixture
        fields = ["league", "status", "cycle", "round", "series", "player"]


class EntryFilter(django_filters.FilterSet):
    withdrawn = django_filters.BooleanFilter(
        field_name="withdrawn_at", lookup_expr="isnull", exclude=True
    )

    class Meta:
        model = Entry
        fields = ["withdrawn"]
