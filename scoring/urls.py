from django.urls import path

from . import views

app_name = "scoring"

urlpatterns = [
    path("sessions/<int:pk>/debrief/", views.session_debrief, name="session_debrief"),
    path("sessions/<int:pk>/debrief/reports/", views.session_reports, name="session_reports"),
    path("sessions/<int:pk>/debrief/status.json", views.session_status, name="session_status"),
    path("sessions/<int:pk>/debrief/settings", views.session_settings, name="session_settings"),
    path("sessions/<int:pk>/debrief/rebuild", views.session_rebuild, name="session_rebuild"),
    path("sessions/<int:pk>/debrief/export.csv", views.export_csv, name="export_csv"),
    path("sessions/<int:pk>/debrief/export.json", views.export_json, name="export_json"),
    path("sessions/<int:pk>/debrief/class-<str:kind>.pdf", views.class_pdf, name="class_pdf"),
    path("debrief/reports/<int:report>/", views.report_page, name="report"),
    path("debrief/reports/<int:report>/report.pdf", views.report_pdf, name="report_pdf"),
    path("debrief/reports/<int:report>/retry", views.report_retry, name="report_retry"),
    path("play/<int:pk>/my-report", views.my_report, name="my_report"),
    path("report/<str:token>/", views.student_report, name="student_report"),
    path("report/<str:token>/<int:report>.pdf", views.student_report_pdf, name="student_report_pdf"),
]
