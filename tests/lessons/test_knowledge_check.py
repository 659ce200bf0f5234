"""The knowledge check: the teacher turns it on and edits it, students answer before play and
after the debrief, and the class and each student see what changed."""
import pytest
from django.urls import reverse

from classroom import services as classroom
from classroom.consumers import token_cookie
from lessons import services
from lessons.models import CheckAnswer, CheckItem
from scoring.models import DebriefSettings
from scoring.services import export_data
from classroom.models import Participant
from tests.factories import PASSWORD, join_students, make_session, make_teacher

pytestmark = pytest.mark.django_db


def answer_all(participant, phase, right: bool):
    """Answer every asked item, all right or all wrong."""
    answers = {}
    for shown in services.items_for(participant, phase):
        item = shown.item
        answers[str(item.pk)] = item.answer if right else (item.answer + 1) % len(item.choices)
    return services.submit_answers(participant=participant, phase=phase, answers=answers)


@pytest.fixture
def lesson():
    session = make_session()
    services.set_check(session=session, enabled=True)
    students = [p for p, _token in join_students(session, 3)]
    Participant.objects.filter(session=session).update(approved=True)  # the teacher let them in
    for student in students:
        student.approved = True
    return session, students


def test_turning_the_check_on_copies_the_kits_items_for_the_class_age_band(lesson):
    """Items above the class's age band are kept, not asked; each keeps its fact."""
    session, _ = lesson
    items = list(session.check_items.all())
    assert [i.kit_key for i in items] == [k.key for k in session_kit(session).check]
    asked = [i for i in items if i.used]
    assert 4 <= len(asked) <= 6
    assert all(i.age_band == "10+" for i in asked)
    assert not next(i for i in items if i.kit_key == "forecast-cone").used
    assert all(i.fact_key for i in items)


def session_kit(session):
    from scenarios import registry

    return registry.get(session.scenario).kit


def test_after_the_debrief_the_same_items_come_in_another_order(lesson):
    session, (ana, *_rest) = lesson
    before = [s.item.pk for s in services.items_for(ana, "before")]
    answer_all(ana, "before", right=False)
    services.open_after(session=session)
    after = [s.item.pk for s in services.items_for(ana, "after")]
    assert sorted(before) == sorted(after) and before != after


def test_bad_answers_are_refused_and_store_nothing(lesson):
    """A missing item, a choice not offered, the wrong phase, or answering twice: a clear
    refusal, and nothing stored by it."""
    session, (ana, *_rest) = lesson
    items = services.items_for(ana, "before")
    partial = {str(items[0].item.pk): 0}
    with pytest.raises(services.CheckError, match="Answer every question"):
        services.submit_answers(participant=ana, phase="before", answers=partial)
    offered = {str(s.item.pk): 0 for s in items} | {str(items[1].item.pk): 9}
    with pytest.raises(services.CheckError, match="Answer every question"):
        services.submit_answers(participant=ana, phase="before", answers=offered)
    with pytest.raises(services.CheckError, match="not open"):
        services.submit_answers(participant=ana, phase="after", answers={str(s.item.pk): 0 for s in items})
    assert not CheckAnswer.objects.exists()
    answer_all(ana, "before", right=True)
    with pytest.raises(services.CheckError, match="already"):
        answer_all(ana, "before", right=False)
    assert CheckAnswer.objects.filter(participant=ana).count() == len(items)
    assert all(a.correct for a in CheckAnswer.objects.all())


def test_the_class_gain_per_item_and_overall_counts_who_answered(lesson):
    """Two students wrong before and right after, one only before: the overall gain compares the
    two who answered both, and each item says how many answered."""
    session, (ana, ben, cleo) = lesson
    for student in (ana, ben, cleo):
        answer_all(student, "before", right=False)
    services.open_after(session=session)
    for student in (ana, ben):
        answer_all(student, "after", right=True)
    results = services.class_results(session)
    assert results["paired"] == 2 and results["before_n"] == 3 and results["after_n"] == 2
    assert (results["before"], results["after"], results["gain"]) == (0, 100, 100)
    for row in results["items"]:
        assert (row["before_n"], row["after_n"], row["before"], row["after"], row["gain"]) == (3, 2, 0, 100, 100)
        assert row["item"].fact is not None
    own = services.student_results(ana)
    assert (own["before"], own["after"], own["before_n"]) == (0, len(own["items"]), len(own["items"]))
    assert services.student_results(cleo)["after_n"] == 0


def test_the_teacher_edits_and_adds_items_and_bad_ones_change_nothing(lesson):
    session, (ana, *_rest) = lesson
    item = session.check_items.filter(used=True).first()
    services.save_item(session=session, item_id=item.pk, question="When is a warning issued?",
                       choices=["12 h", "36 h", "72 h"], answer=1)
    item.refresh_from_db()
    assert item.edited and item.question == "When is a warning issued?"
    assert services.shown(item).question == "When is a warning issued?"
    added = services.save_item(session=session, item_id=None, question="Where do you meet your family?",
                               choices=["The meeting place we chose", "Anywhere"], answer=0)
    assert added.used and not added.kit_key
    for bad in ({"question": "", "choices": ["a", "b"], "answer": 0},
                {"question": "Q?", "choices": ["only one"], "answer": 0},
                {"question": "Q?", "choices": ["a", "b"], "answer": 5},
                {"question": "Q" * 301, "choices": ["a", "b"], "answer": 0}):
        count = CheckItem.objects.count()
        with pytest.raises(services.CheckError):
            services.save_item(session=session, item_id=item.pk, **bad)
        item.refresh_from_db()
        assert item.question == "When is a warning issued?" and CheckItem.objects.count() == count
    answer_all(ana, "before", right=True)
    with pytest.raises(services.CheckError, match="answered this question already"):
        services.save_item(session=session, item_id=item.pk, question=item.question, choices=item.choices,
                           answer=0)


def test_answers_join_the_research_export_only_with_the_opt_in(lesson):
    session, students = lesson
    classroom.start(session=session)
    for student in students:
        answer_all(student, "before", right=False)
    assert "knowledge_check" not in export_data(session)
    DebriefSettings.objects.filter(session=session).update(research_opt_in=True)
    rows = export_data(session)["knowledge_check"]
    assert len(rows) == 3 * session.check_items.filter(used=True).count()
    assert all(r["seat_id"] and r["phase"] == "before" and r["correct"] is False for r in rows)
    assert not any("nickname" in r for r in rows)


def test_a_student_answers_on_their_tablet_and_a_stranger_cannot(client):
    """The check page needs the device that joined; a teacher of another class gets a 404 for
    the kit, and the student's answers show on their own after-page."""
    session = make_session()
    services.set_check(session=session, enabled=True)
    (ana, token), = join_students(session, 1)
    Participant.objects.filter(pk=ana.pk).update(approved=True)
    url = reverse("lessons:student_check", args=[session.pk])
    assert client.get(url).status_code == 404
    client.cookies[token_cookie(session.pk)] = token
    page = client.get(url).content.decode()
    assert "Before we play" in page
    items = services.items_for(ana, "before")
    answer = client.post(url, {"phase": "before", str(items[0].item.pk): "0"})
    assert answer.status_code == 400 and "Answer every question" in answer.content.decode()
    assert not CheckAnswer.objects.exists()
    client.post(url, {"phase": "before", **{str(s.item.pk): str(s.item.answer) for s in items}})
    assert CheckAnswer.objects.filter(participant=ana, correct=True).count() == len(items)
    assert "answered these questions already" in client.get(url).content.decode()
    stranger = make_teacher()
    client.login(email=stranger.email, password=PASSWORD)
    assert client.get(reverse("lessons:kit", args=[session.pk])).status_code == 404
    assert client.post(reverse("lessons:kit_command", args=[session.pk, "check-off"])).status_code == 404


def test_a_teachers_question_with_blank_answer_boxes_keeps_the_one_marked_right(lesson):
    """The form has four boxes; a teacher who fills the first and third and marks the third
    gets a two-answer question whose right answer is the one they wrote third."""
    session, _ = lesson
    item = services.save_item(session=session, item_id=None, question="What goes in the go-kit first?",
                              choices=["Sweets", "", "Water", ""], answer=2)
    assert item.choices == ["Sweets", "Water"] and item.answer == 1
    with pytest.raises(services.CheckError, match="right"):
        services.save_item(session=session, item_id=None, question="Q?", choices=["a", "b", "", ""], answer=3)


def test_deleting_the_session_deletes_its_check_and_answers(lesson):
    from lessons.models import KnowledgeCheck

    session, (ana, *_rest) = lesson
    answer_all(ana, "before", right=True)
    classroom.delete_session(session=session)
    assert not (CheckAnswer.objects.exists() or CheckItem.objects.exists() or KnowledgeCheck.objects.exists())


def test_saving_a_kit_item_unchanged_keeps_it_translated(lesson):
    """A teacher who only drops a kit item (wording untouched, in their own language) leaves it a
    kit item: students still get the kit's translation."""
    from django.utils import translation

    session, _ = lesson
    item = session.check_items.filter(used=True).first()
    with translation.override("en"):
        seen = services.shown(item)
        services.save_item(session=session, item_id=item.pk, question=seen.question, choices=seen.choices,
                           answer=item.answer, used=False)
    item.refresh_from_db()
    assert not item.edited and not item.used


def test_a_check_with_every_question_dropped_asks_nothing(lesson):
    session, (ana, *_rest) = lesson
    session.check_items.update(used=False)
    with pytest.raises(services.CheckError, match="not open"):
        services.submit_answers(participant=ana, phase="before", answers={})
    assert not CheckAnswer.objects.exists()
