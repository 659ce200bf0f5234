"""`make run`'s teacher: created on the first run with a random password printed once."""

import secrets

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from classroom.accounts import uses_published_password
from classroom.models import Teacher

DEMO_EMAIL = "demo@stormwise.test"
# No look-alike characters: the password is read off a terminal and typed on another machine.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_password() -> str:
    """About 60 random bits in three groups of four, e.g. ``k7pq-m2xz-9trd``."""
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(3))


def reset_password(teacher: Teacher) -> str:
    password = new_password()
    teacher.set_password(password)
    teacher.save(update_fields=["password", "password_vetted"])
    return password


class Command(BaseCommand):
    help = (
        "Create the embedded mode's teacher with a random password (printed once), and replace "
        "any published password an older install still has."
    )

    def handle(self, *args, **options):
        if not settings.EMBEDDED:
            raise CommandError("The demo teacher exists only in embedded mode (no DATABASE_URL).")
        if not Teacher.objects.exists():
            teacher = Teacher.objects.create_user(email=DEMO_EMAIL)
            self.print_new(teacher, reset_password(teacher), "Teacher account created")
            return
        for teacher in Teacher.objects.filter(is_active=True).order_by("pk"):
            if uses_published_password(teacher):
                self.print_new(
                    teacher, reset_password(teacher), "This teacher had a published password; it was replaced"
                )
        if Teacher.objects.filter(email=DEMO_EMAIL).exists():
            self.stdout.write(
                f"Teacher: {DEMO_EMAIL} (password as printed before; "
                "`python manage.py teacher_password` sets and prints a new one)"
            )

    def print_new(self, teacher, password, what):
        self.stdout.write(self.style.SUCCESS(f"{what}: {teacher.email}  password: {password}"))
        self.stdout.write("Keep it: it is shown only now. `python manage.py teacher_password` sets a new one.")
