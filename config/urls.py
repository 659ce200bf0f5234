from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from classroom import views as classroom_views
from config.health import healthz

handler400 = "config.errors.bad_request"
handler404 = "config.errors.page_not_found"
handler500 = "config.errors.server_error"

urlpatterns = [
    path("accounts/signup/", classroom_views.signup, name="signup"),
    path("accounts/signup/<uidb64>/<token>/", classroom_views.SignUpConfirmView.as_view(), name="signup_confirm"),
    path("accounts/login/", classroom_views.ThrottledLoginView.as_view(), name="login"),
    path("accounts/password_reset/", classroom_views.ThrottledPasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    # every script's words, in the page's language (static/js/kit.js: gettext, ngettext, fmt)
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include("scoring.urls")),
    path("", include("lessons.urls")),
    path("", include("lti.urls")),
    path("", include("classroom.urls")),
]
