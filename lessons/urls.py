from django.urls import path

from . import views

app_name = "lessons"

urlpatterns = [
    path("lessons/<slug:scenario>/guide", views.guide, name="guide"),
    path("lessons/<slug:scenario>/guide.pdf", views.guide_pdf, name="guide_pdf"),
    path("lessons/<slug:scenario>/how-to-play", views.how_to_play, name="how_to_play"),
    path("lessons/<slug:scenario>/how-to-play.pdf", views.how_to_play_pdf, name="how_to_play_pdf"),
    path("lessons/<slug:scenario>/printables.pdf", views.printables_pdf, name="printables_pdf"),
    path("sessions/<int:pk>/kit/", views.kit, name="kit"),
    path("sessions/<int:pk>/kit/do/<slug:command>", views.kit_command, name="kit_command"),
    path("sessions/<int:pk>/kit/handout.pdf", views.handout_pdf, name="handout_pdf"),
    path("sessions/<int:pk>/kit/plan", views.plan_sample, name="plan_sample"),
    path("play/<int:pk>/check", views.student_check, name="student_check"),
    path("play/<int:pk>/plan", views.student_plan, name="student_plan"),
    path("play/<int:pk>/meanwhile", views.student_meanwhile, name="student_meanwhile"),
    path("play/<int:pk>/plan.pdf", views.student_plan_pdf, name="student_plan_pdf"),
    path("report/<str:token>/plan", views.linked_plan, name="linked_plan"),
    path("report/<str:token>/plan.pdf", views.linked_plan_pdf, name="linked_plan_pdf"),
]
