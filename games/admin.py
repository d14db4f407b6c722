from django.contrib import admin

from games.models import GameLog


@admin.register(GameLog)
class GameLogAdmin(admin.ModelAdmin):
    list_display = ["sha256", "board", "first", "complete", "events", "winner", "uploaded_at"]
    list_filter = ["board", "complete"]
    search_fields = ["sha256", "winner"]
    readonly_fields = [f.name for f in GameLog._meta.fields]

    def has_add_permission(self, request):
        return False  # logs arrive through validation (upload form or API), never typed in
