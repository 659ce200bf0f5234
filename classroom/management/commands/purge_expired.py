from django.conf import settings
from django.core.management.base import BaseCommand

from classroom.services import purge_expired


class Command(BaseCommand):
    help = "Delete sessions (nicknames, games, move logs, reports) older than RETENTION_DAYS."

    def handle(self, *args, **options):
        deleted = purge_expired()
        self.stdout.write(f"Deleted {deleted} session(s) older than {settings.RETENTION_DAYS} days.")
