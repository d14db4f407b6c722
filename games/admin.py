from django.contrib import admin

from core.admin_lists import BoundedListAdmin
from games.models import GameLog


@admin.register(GameLog)
class GameLogAdmin(BoundedListAdmin):
    list_display = ["sha256", "board", "first", "complete", "events", "winner", "uploaded_at"]
    list_filter = ["board", "complete"]
    search_fields = ["sha256", "winner"]
    readonly_fields = [f.name for f in GameLog._meta.fields]

    def get_queryset(self, request):
        """The list shows no log's text: it is left in the database (a page of 100 logs
        would read them all); the change page reads the one it shows."""
        queryset = super().get_queryset(request)
        match = getattr(request, "resolver_match", None)
        if match is not None and match.url_name == "games_gamelog_changelist":
            queryset = queryset.defer("content", "seat_faces", "seat_stats", "players")
        return queryset

    def has_add_permission(self, request):
        return False  # logs arrive through validation (upload form or API), never typed in
