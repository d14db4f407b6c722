"""Admin changelists that cost the same on a site of any size (issue 31): the count behind
the pager is bounded (``BoundedCountPaginator``: at most ``COUNT_CAP`` + 1 rows counted,
shown as "1000+" beyond), the second count of the whole table is not run
(``show_full_result_count = False``) and the list is ordered by an index (newest first);
tournaments' admin filters by league with the newest leagues, not every league of the site
(``tournaments.admin.RecentLeaguesFilter``)."""

from __future__ import annotations

from django.contrib import admin
from django.core.paginator import Paginator
from django.utils.functional import cached_property

#: rows the pager counts at most: beyond, the count reads "1000+" and the pages stop there
#: (a filter or a search narrows the list)
COUNT_CAP = 1000


class AtLeast(int):
    """A count that was stopped at its cap: shown as "1000+"."""

    def __str__(self) -> str:
        return f"{int(self)}+"


class BoundedCountPaginator(Paginator):
    """The pager's count reads at most ``COUNT_CAP`` + 1 rows (a sliced count: a
    ``LIMIT`` in a subquery), so it costs the same on a table of a thousand rows as on one
    of a hundred thousand."""

    @cached_property
    def count(self) -> int:
        n = self.object_list[: COUNT_CAP + 1].count()
        return AtLeast(COUNT_CAP) if n > COUNT_CAP else n


class BoundedListAdmin(admin.ModelAdmin):
    """A changelist whose queries and bytes do not grow with the table: see the module."""

    paginator = BoundedCountPaginator
    show_full_result_count = False
    ordering = ["-pk"]
