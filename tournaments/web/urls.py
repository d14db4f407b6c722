"""The site's page routes (namespace ``tournaments``), mounted at / by config/urls.py."""

from django.urls import include, path

from core.throttles import ReplayThrottle, throttled_view
from games import views as game_views
from tournaments.web import (
    championship,
    desk,
    embeds,
    entries,
    games,
    home,
    league_setup,
    leagues,
    me,
    organize,
    players,
    playoffs_setup,
    printing,
    result_links,
    search,
    seeding,
)

app_name = "tournaments"

urlpatterns = [
    path("", home.home, name="home"),
    path("rules/", home.rules, name="rules"),
    path("search/", search.search, name="search"),
    path("leagues/new/", league_setup.league_create, name="league-create"),
    path("me/", me.my_games, name="my-games"),
    path("me/calendar/<str:token>.ics", me.my_calendar, name="my-calendar"),
    path("me/calendar/new/", me.my_calendar_rotate, name="my-calendar-rotate"),
    path("me/leagues/", entries.my_leagues, name="my-leagues"),
    path("me/confirm-email/<str:token>/", entries.confirm_email, name="confirm-email"),
    path("me/entries/<int:entry_id>/answer/", entries.entry_answer, name="entry-answer"),
    path("me/entries/<int:entry_id>/colours/", entries.entry_colours, name="entry-colours"),
    path("entries/<int:entry_id>/withdraw/", entries.entry_withdraw, name="entry-withdraw"),
    path("invitations/<str:token>/", entries.invitation, name="invitation"),
    path("leagues/<slug:slug>/join/", entries.join, name="join"),
    path("leagues/<slug:slug>/manage/", organize.manage, name="manage"),
    path("leagues/<slug:slug>/manage/entries/", organize.entry_add, name="manage-entry-add"),
    path("leagues/<slug:slug>/manage/players/", organize.player_new, name="manage-player-new"),
    path("leagues/<slug:slug>/manage/invite/", organize.invite, name="manage-invite"),
    path(
        "leagues/<slug:slug>/manage/invitations/<int:invitation_id>/revoke/",
        organize.invitation_revoke,
        name="manage-invitation-revoke",
    ),
    path(
        "leagues/<slug:slug>/manage/entries/<int:entry_id>/remove/",
        organize.entry_remove,
        name="manage-entry-remove",
    ),
    path(
        "leagues/<slug:slug>/manage/requests/<int:entry_id>/",
        organize.join_decide,
        name="manage-join-decide",
    ),
    path(
        "leagues/<slug:slug>/manage/claims/<int:claim_id>/",
        organize.claim_decide,
        name="manage-claim-decide",
    ),
    path("leagues/<slug:slug>/manage/organizers/", organize.organizer_add, name="manage-organizer"),
    # ratings (the ratings app): rating requests, ratings, rankings, head to head
    path("", include("ratings.web.urls")),
    path(
        "leagues/<slug:slug>/manage/entries/<int:entry_id>/result-link/",
        result_links.link_create,
        name="manage-result-link",
    ),
    path(
        "leagues/<slug:slug>/manage/entries/<int:entry_id>/result-link/revoke/",
        result_links.link_revoke,
        name="manage-result-link-revoke",
    ),
    # private result links (no account): the token is the only key
    path("r/<str:token>/", result_links.link_page, name="result-link"),
    path("r/<str:token>/games/<int:pk>/upload/", result_links.link_upload, name="link-upload"),
    path("r/<str:token>/games/<int:pk>/report/", result_links.link_report, name="link-report"),
    path(
        "r/<str:token>/games/<int:pk>/results/<int:result_id>/confirm/",
        result_links.link_confirm,
        name="link-confirm",
    ),
    path(
        "r/<str:token>/games/<int:pk>/results/<int:result_id>/dispute/",
        result_links.link_dispute,
        name="link-dispute",
    ),
    path(
        "leagues/<slug:slug>/manage/settings/",
        league_setup.league_settings,
        name="manage-settings",
    ),
    path("leagues/<slug:slug>/manage/access/", organize.league_open, name="manage-access"),
    path("leagues/<slug:slug>/manage/finish/", organize.league_finish, name="manage-finish"),
    path("leagues/<slug:slug>/manage/delete/", organize.league_delete, name="manage-delete"),
    path("leagues/<slug:slug>/manage/archive/", organize.league_archive, name="manage-archive"),
    path("leagues/<slug:slug>/manage/dates/", organize.league_dates, name="manage-dates"),
    path("leagues/<slug:slug>/manage/seed/", seeding.seed, name="seed"),
    path(
        "leagues/<slug:slug>/manage/drr/<int:number>/rounds/<int:round_number>/dates/",
        seeding.round_dates,
        name="round-dates",
    ),
    path(
        "leagues/<slug:slug>/manage/drr/<int:number>/dates/",
        seeding.drr_dates,
        name="drr-dates",
    ),
    path(
        "leagues/<slug:slug>/manage/drr/<int:number>/late-order/",
        seeding.late_order,
        name="late-order",
    ),
    path(
        "leagues/<slug:slug>/manage/playoffs/",
        playoffs_setup.playoffs_setup,
        name="playoffs-setup",
    ),
    path("leagues/<slug:slug>/", leagues.league_detail, name="league"),
    path("leagues/<slug:slug>/actions/<slug:action>/", leagues.league_action, name="league-action"),
    path("leagues/<slug:slug>/schedule/", leagues.league_schedule, name="schedule"),
    path("leagues/<slug:slug>/standings/", leagues.league_standings, name="standings"),
    path("leagues/<slug:slug>/dice/", leagues.league_dice, name="dice"),
    path(
        "leagues/<slug:slug>/standings/table/",
        leagues.standings_fragment,
        name="standings-fragment",
    ),
    path("leagues/<slug:slug>/playoffs/", leagues.league_playoffs, name="playoffs"),
    path("leagues/<slug:slug>/desk/", desk.league_desk, name="desk"),
    path("leagues/<slug:slug>/desk/check-in/", championship.desk_checkin, name="desk-checkin"),
    path(
        "leagues/<slug:slug>/desk/check-in/poster/", championship.venue_poster, name="venue-poster"
    ),
    path(
        "leagues/<slug:slug>/check-in/<str:token>/",
        championship.venue_checkin,
        name="venue-checkin",
    ),
    path("leagues/<slug:slug>/desk/tables/", championship.desk_tables, name="desk-tables"),
    path(
        "leagues/<slug:slug>/desk/registration/",
        championship.desk_registration,
        name="desk-registration",
    ),
    path(
        "leagues/<slug:slug>/classification/",
        championship.classification,
        name="classification",
    ),
    path("leagues/<slug:slug>/table-cards/", championship.table_cards, name="table-cards"),
    path("leagues/<slug:slug>/projector/", championship.projector, name="projector"),
    path(
        "leagues/<slug:slug>/projector/panels/",
        championship.projector_fragment,
        name="projector-panels",
    ),
    path("tables/<int:pk>/", championship.table_page, name="table"),
    path("r/<str:token>/check-in/", championship.link_check_in, name="result-link-checkin"),
    path("leagues/<slug:slug>/embed/", embeds.embed_code, name="embed-code"),
    path("leagues/<slug:slug>/embed/standings/", embeds.embed_standings, name="embed-standings"),
    path("leagues/<slug:slug>/embed/bracket/", embeds.embed_bracket, name="embed-bracket"),
    path("leagues/<slug:slug>/embed/schedule/", embeds.embed_schedule, name="embed-schedule"),
    path("leagues/<slug:slug>/embed/<slug:what>.json", embeds.embed_json, name="embed-json"),
    path("games/<int:pk>/", games.game_detail, name="game"),
    path("games/<int:pk>/sheet/", printing.game_sheet, name="game-sheet"),
    path("leagues/<slug:slug>/sheets/", printing.round_sheets, name="round-sheets"),
    path("games/<int:pk>/enter/", desk.game_enter, name="game-enter"),
    path("games/<int:pk>/report/", desk.game_report, name="game-report"),
    path("games/<int:pk>/void/", desk.game_void, name="game-void"),
    path("games/<int:pk>/forfeit/", desk.game_forfeit, name="game-forfeit"),
    path("games/<int:pk>/submit/", games.game_submit, name="game-submit"),
    path(
        "games/<int:pk>/analysis/retry/",
        games.game_analysis_retry,
        name="game-analysis-retry",
    ),
    path("games/<int:pk>/reschedule/", seeding.game_reschedule, name="game-reschedule"),
    path("games/<int:pk>/start/", seeding.game_start, name="game-start"),
    path(
        "games/<int:pk>/results/<int:result_id>/confirm/",
        games.result_confirm,
        name="result-confirm",
    ),
    path(
        "games/<int:pk>/results/<int:result_id>/dispute/",
        games.result_dispute,
        name="result-dispute",
    ),
    path(
        "games/<int:pk>/results/<int:result_id>/resolve/",
        games.result_resolve,
        name="result-resolve",
    ),
    path("games/<int:pk>/logs/<int:log_id>.json", games.game_log_raw, name="game-log"),
    path("games/<int:pk>/logs/<int:log_id>/replay.json", games.game_replay, name="game-replay"),
    path("players/<slug:slug>/", players.player_detail, name="player"),
    path("players/<slug:slug>/share/", players.player_share, name="player-share"),
    # games' own page (namespace games), throttled per visitor here where pages meet accounts
    path(
        "replay/",
        include(
            (
                [path("", throttled_view([ReplayThrottle])(game_views.replay_any), name="replay")],
                "games",
            )
        ),
    ),
]
