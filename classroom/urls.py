from django.urls import path

from . import views

app_name = "classroom"

urlpatterns = [
    path("", views.home, name="home"),
    path("sessions/new/", views.session_new, name="session_new"),
    path("sessions/<int:pk>/", views.session_detail, name="session"),
    path("sessions/<int:pk>/dashboard.json", views.session_dashboard_json, name="session_dashboard_json"),
    path("sessions/<int:pk>/screen", views.session_screen, name="session_screen"),
    path("sessions/<int:pk>/qr.svg", views.session_qr, name="session_qr"),
    path("sessions/<int:pk>/do/<slug:command>", views.session_command, name="session_command"),
    path("sessions/<int:pk>/delete", views.session_delete, name="session_delete"),
    path("join", views.join, name="join"),
    path("join/<str:code>", views.join, name="join_code"),
    path("play/<int:pk>/", views.play, name="play"),
    path("play/<int:pk>/act", views.play_act, name="play_act"),
    path("play/<int:pk>/poll", views.play_poll, name="play_poll"),
    path("games/board/<slug:scenario>.json", views.board, name="board"),
    path("check", views.check, name="check"),
]
