"""Test data built in code, not JSON fixtures."""
import itertools

from classroom.models import Teacher

_counter = itertools.count(1)
PASSWORD = "correct-horse-battery-7"


def make_teacher(email=None, password=PASSWORD):
    return Teacher.objects.create_user(email=email or f"teacher{next(_counter)}@school.test", password=password)
