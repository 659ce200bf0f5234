"""Print a teacher's password again, by giving them a new random one.

Stored passwords are hashes and cannot be shown, and keeping a readable copy on disk (even in an
owner-only file) would leave a working sign-in in every backup of the data folder. So "show it
again" means "replace it": the old password stops working and the new one is printed once.
"""

from django.core.management.base import BaseCommand, CommandError

from classroom.management.commands.seed_demo import reset_password
from classroom.models import Teacher


class Command(BaseCommand):
    help = "Give a teacher a new random password and print it (the old one stops working)."

    def add_arguments(self, parser):
        parser.add_argument("email", nargs="?", help="the teacher's e-mail (optional if there is only one)")

    def handle(self, *args, email=None, **options):
        teachers = Teacher.objects.filter(email__iexact=email) if email else Teacher.objects.all()
        if teachers.count() != 1:
            raise CommandError(
                "Name the teacher: python manage.py teacher_password EMAIL"
                if not email
                else f"No teacher has the e-mail {email}."
            )
        teacher = teachers.get()
        password = reset_password(teacher)
        if not teacher.is_active:
            teacher.is_active = True
            teacher.save(update_fields=["is_active"])
        self.stdout.write(self.style.SUCCESS(f"Teacher: {teacher.email}  new password: {password}"))
