"""WebSocket addresses, all under /ws/."""
websocket_urlpatterns = []
