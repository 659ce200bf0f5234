"""The flush that ends every transactional test (tests/db/postgresql deletes rows rather than
truncating tables, and keeps the rows every test starts from): it leaves no row of a test behind,
whatever references what, and the facts, content types and permissions are as a new test database
has them."""

import pytest
from django.core.management import call_command


def flush_as_a_test_ends():
    """The flush Django's ``TransactionTestCase`` ends a test with: sequences left as they are,
    so rows are deleted (``flush`` on its own resets them, and so truncates)."""
    call_command("flush", interactive=False, verbosity=0, reset_sequences=False)


@pytest.mark.django_db(transaction=True)
def test_a_flush_empties_every_table_of_a_class_and_keeps_the_facts():
    from classroom import services
    from classroom.models import Participant, Session, Teacher
    from games.models import Game
    from scoring.models import Fact

    teacher = Teacher.objects.create_user(email="flush@school.test")
    session = services.create_session(teacher=teacher, scenario="evacuation", seed=1, title="Flush")
    for nickname in ("Ana", "Ben"):
        services.join(session=session, nickname=nickname)
    services.start(session=session)
    facts = Fact.objects.count()
    assert Game.objects.exists()

    flush_as_a_test_ends()

    for model in (Teacher, Session, Participant, Game):
        assert not model.objects.exists(), model.__name__
    assert Fact.objects.count() == facts > 0


@pytest.mark.django_db(transaction=True)
def test_a_fact_a_test_changed_or_deleted_is_as_its_file_says_after_the_flush():
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType

    from scoring.models import Fact

    changed, deleted = Fact.objects.order_by("key")[:2]
    statement, facts = changed.statement, Fact.objects.count()
    Fact.objects.filter(pk=changed.pk).update(statement="Changed by a test", verified=not changed.verified)
    deleted.delete()
    Fact.objects.create(
        key="made-up-by-a-test", statement="Not in any file", number="1", source="-", title="-", year=2000
    )
    permissions, types = Permission.objects.count(), ContentType.objects.count()

    flush_as_a_test_ends()

    assert Fact.objects.count() == facts
    again = Fact.objects.get(key=changed.key)
    assert (again.statement, again.verified) == (statement, changed.verified)
    assert Fact.objects.filter(key=deleted.key).exists()
    assert not Fact.objects.filter(key="made-up-by-a-test").exists()
    assert (Permission.objects.count(), ContentType.objects.count()) == (permissions, types) != (0, 0)
