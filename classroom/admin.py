from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import Teacher


@admin.register(Teacher)
class TeacherAdmin(UserAdmin):
    ordering = ["email"]
    list_display = ["email", "is_staff", "date_joined"]
    search_fields = ["email"]
    fieldsets = [
        (None, {"fields": ["email", "password"]}),
        ("Permissions", {"fields": ["is_active", "is_staff", "is_superuser"]}),
    ]
    add_fieldsets = [(None, {"classes": ["wide"], "fields": ["email", "password1", "password2"]})]
