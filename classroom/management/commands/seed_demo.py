from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from classroom.models import Teacher

DEMO_EMAIL = "demo@stormwise.test"
DEMO_PASSWORD = "hurricane-demo-2026"


class Command(BaseCommand):
    help = "Create the demo teacher of the embedded mode (never with real services)."

    def handle(self, *args, **options):
        if not settings.EMBEDDED:
            raise CommandError("Demo credentials exist only in embedded mode (no DATABASE_URL).")
        teacher, created = Teacher.objects.get_or_create(email=DEMO_EMAIL)
        if created:
            teacher.set_password(DEMO_PASSWORD)
            teacher.save()
        self.stdout.write(f"Demo teacher: {DEMO_EMAIL}  password: {DEMO_PASSWORD}")
