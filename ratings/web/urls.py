"""The ratings' page routes, included by ``tournaments/web/urls.py`` inside the namespace
``tournaments`` (the names and addresses they have always had)."""

from django.urls import path

from ratings.web import rated, ratings

urlpatterns = [
    path(
        "leagues/<slug:slug>/manage/rating/",
        rated.rating_request,
        name="manage-rating-request",
    ),
    path("rating-requests/", rated.rating_queue, name="rating-requests"),
    path("rating-requests/<slug:slug>/", rated.rating_decide, name="rating-decide"),
    path("players/<slug:slug>/vs/<slug:other>/", ratings.head_to_head, name="head-to-head"),
    path("ratings/", ratings.ratings_table, name="ratings"),
    path("rankings/", ratings.world_rankings, name="rankings"),
]
