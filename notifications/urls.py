"""The notification pages, mounted at /accounts/notifications/ (config/urls.py) under their
old paths and names, not namespaced: ``notifications`` (the inbox),
``notifications_settings``, ``notifications_unsubscribe`` (the signed one-click link every
e-mail carries)."""

from django.urls import path

from notifications import views

urlpatterns = [
    path("", views.inbox, name="notifications"),
    path("settings/", views.settings_page, name="notifications_settings"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="notifications_unsubscribe"),
]
