from django.core.management.base import BaseCommand

from scoring.models import Fact
from scoring.outcomes import load_facts


class Command(BaseCommand):
    help = "Make the knowledge base match scoring/outcomes/facts.json (safe to run again)."

    def handle(self, *args, **options):
        count = load_facts(Fact)
        self.stdout.write(f"{count} facts loaded")
