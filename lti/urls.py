from django.urls import path

from . import views

app_name = "lti"

urlpatterns = [
    path("lti/", views.configuration, name="configuration"),
    path("lti/jwks.json", views.jwks, name="jwks"),
    path("lti/login", views.oidc_login, name="login"),
    path("lti/launch", views.launch, name="launch"),
    path("lti/nickname", views.nickname, name="nickname"),
    path("lti/add", views.deep_link, name="deep_link"),
    path("sessions/<int:pk>/gradebook", views.scores, name="scores"),
    path("sessions/<int:pk>/course-roster", views.roster, name="roster"),
]
