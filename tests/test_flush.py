"""The flush that ends every transactional test (tests/db/postgresql deletes rows rather than
truncating tables): it leaves no row behind, whatever references what, and puts back the facts
every test starts from."""

import pytest
from django.core.management import call_command


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

    call_command("flush", interactive=False, verbosity=0)

    for model in (Teacher, Session, Participant, Game):
        assert not model.objects.exists(), model.__name__
    assert Fact.objects.count() == facts > 0
