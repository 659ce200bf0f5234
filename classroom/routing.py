"""WebSocket addresses, all under /ws/."""

from django.urls import path

from classroom import consumers

websocket_urlpatterns = [
    path("ws/play/<int:session_id>/", consumers.PlayConsumer.as_asgi()),
    path("ws/sessions/<int:session_id>/", consumers.DashboardConsumer.as_asgi()),
    path("ws/check/", consumers.CheckConsumer.as_asgi()),
]
