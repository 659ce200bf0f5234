"""The knowledge check: on by default, two parallel forms split across the class, choices
shuffled per student and phase, the before-check closed by the game's start, and a class result
on paired students that guessing cannot fake."""

import random
from collections import Counter

import pytest
from django.urls import reverse
from django.utils import translation

from classroom import selectors
from classroom import services as classroom
from classroom.consumers import token_cookie
from classroom.models import Participant
from lessons import gain, knowledge
from lessons.models import CheckAnswer, CheckItem, CheckStudent, KnowledgeCheck
from lessons.services import CheckError
from scoring.models import DebriefSettings
from scoring.services import export_data
from tests.factories import PASSWORD, join_students, make_session, make_teacher

pytestmark = pytest.mark.django_db


def answer_with(participant, phase, pick):
    """Answer every item of the student's form: ``pick(shown_item, index)`` gives the choice id."""
    items = knowledge.items_for(participant, phase)
    answers = {str(s.item.pk): pick(s, n) for n, s in enumerate(items)}
    return knowledge.submit_answers(participant=participant, phase=phase, answers=answers)


def answer_all(participant, phase, right: bool):
    """Answer every item of the student's form, all right or all wrong."""
    return answer_with(
        participant, phase, lambda s, _n: s.item.answer if right else next(c for c in s.order if c != s.item.answer)
    )


def shown_at(position):
    """Pick whatever choice the student was shown at ``position``."""
    return lambda s, _n: s.order[position]


def joined(session, count, prefix="Kid"):
    """``count`` students join and the teacher lets them in (only they answer the check)."""
    devices = join_students(session, count, prefix)
    Participant.objects.filter(pk__in=[p.pk for p, _token in devices]).update(approved=True)
    for participant, _token in devices:
        participant.approved = True
    return devices


@pytest.fixture
def lesson():
    session = make_session()
    students = [p for p, _token in joined(session, 4)]
    return session, students


def test_every_new_session_has_the_check_on_with_both_forms_of_its_bank(lesson):
    session, _ = lesson
    assert KnowledgeCheck.objects.get(session=session).enabled
    items = list(session.check_items.all())
    forms = Counter(i.form for i in items)
    assert forms["A"] == forms["B"] >= 8 and set(forms) == {"A", "B"}
    assert all(i.used and i.fact_key and i.objective and i.pair for i in items)
    assert knowledge.phase_open(session) == "before"


def test_half_the_class_starts_with_each_form_and_answers_the_other_after(lesson):
    _session, students = lesson
    firsts = [knowledge.student(s).first_form for s in students]
    assert Counter(firsts) == {"A": 2, "B": 2}
    ana = students[0]
    before = knowledge.items_for(ana, "before")
    after = knowledge.items_for(ana, "after")
    assert {s.item.form for s in before} == {firsts[0]} and {s.item.form for s in after} == {
        "B" if firsts[0] == "A" else "A"
    }
    assert sorted(s.item.objective for s in before) == sorted(s.item.objective for s in after)
    assert sorted(s.item.pair for s in before) == sorted(s.item.pair for s in after)


def test_choices_are_shuffled_per_student_and_phase_and_the_same_every_time(lesson):
    _session, (ana, *_rest) = lesson
    mine = [(s.item.pk, s.order) for s in knowledge.items_for(ana, "before")]
    assert mine == [(s.item.pk, s.order) for s in knowledge.items_for(ana, "before")]
    assert [s.order for s in knowledge.items_for(ana, "before")] != [s.order for s in knowledge.items_for(ana, "after")]
    same_form = next(p for p in lesson[1][1:] if knowledge.student(p).first_form == knowledge.student(ana).first_form)
    theirs = {s.item.pk: s.order for s in knowledge.items_for(same_form, "before")}
    assert any(theirs[pk] != order for pk, order in mine)
    for s in knowledge.items_for(ana, "before"):
        assert sorted(s.order) == list(range(len(s.item.choices)))


def test_each_position_holds_the_right_answer_equally_often_in_every_students_form(lesson):
    _session, students = lesson
    for student in students:
        for phase in ("before", "after"):
            places = Counter(s.order.index(s.item.answer) for s in knowledge.items_for(student, phase))
            assert max(places.values()) - min(places.values()) <= 1 and len(places) == 3


def test_the_stored_answer_is_the_choice_not_its_position(lesson):
    """A student who taps the choice shown third stores that choice's id, with the order they saw."""
    _session, (ana, *_rest) = lesson
    items = knowledge.items_for(ana, "before")
    answer_with(ana, "before", shown_at(2))
    for s in items:
        stored = CheckAnswer.objects.get(participant=ana, item=s.item)
        assert stored.choice == s.order[2] and stored.shown == s.order
        assert stored.correct == (s.order[2] == s.item.answer)
        assert stored.form == s.item.form


def test_the_student_page_offers_choice_ids_in_the_students_order(client):
    session = make_session()
    ((ana, token),) = joined(session, 1)
    client.cookies[token_cookie(session.pk)] = token
    url = reverse("lessons:student_check", args=[session.pk])
    page = client.get(url).content.decode()
    first = knowledge.items_for(ana, "before")[0]
    start = page.index(f'name="{first.item.pk}"')
    where = [page.index(f'value="{i}"', start) for i in first.order]
    assert where == sorted(where)
    assert (
        client.post(
            url, {"phase": "before", **{str(s.item.pk): str(s.item.answer) for s in knowledge.items_for(ana, "before")}}
        ).status_code
        == 200
    )
    assert CheckAnswer.objects.filter(participant=ana, correct=True).count() == len(knowledge.items_for(ana, "before"))


def test_a_class_answering_the_first_choice_before_and_the_second_after_shows_no_gain():
    """Guessing by position cannot fake learning. Each student's right answers sit at each
    position equally often to within one, and which positions get the spare ones is drawn per
    student, so a class of guessers has no gain on average; a 90 % interval misses a true 0 one
    time in ten, so four classes are asked and at least two intervals must contain 0 (the chance
    of fewer is under 0.4 %)."""
    classes = []
    for _class in range(4):
        session = make_session()
        students = [p for p, _token in joined(session, 24)]
        for student in students:
            answer_with(student, "before", shown_at(0))
        classroom.start(session=session)
        classroom.end(session=session)
        knowledge.open_after(session=session)
        for student in students:
            answer_with(student, "after", shown_at(1))
        results = knowledge.class_results(session)
        assert results["paired"] == 24 and not results["indicative"]
        assert abs(results["before"] - results["forms"]["A"]["chance"]) <= 5
        assert results["forms"]["A"]["chance"] == results["forms"]["B"]["chance"] == 33
        classes.append((results["low"], results["gain"], results["high"]))
    assert sum(low <= 0 <= high for low, _gain, high in classes) >= 2, classes
    assert abs(sum(gain for _low, gain, _high in classes) / len(classes)) <= 0.1, classes


def test_a_simulated_class_with_a_known_gain_is_recovered_within_its_interval():
    """Learners right with probability p before and q after: the true gain (q - p) / (1 - p) lies
    in the class's 90 % interval."""
    p, q = 0.4, 0.7
    session = make_session()
    students = [s for s, _token in joined(session, 40)]
    luck = random.Random(7)

    def learner(chance):
        def pick(s, _n):
            return s.item.answer if luck.random() < chance else luck.choice([c for c in s.order if c != s.item.answer])

        return pick

    for student in students:
        answer_with(student, "before", learner(p))
    classroom.start(session=session)
    classroom.end(session=session)
    knowledge.open_after(session=session)
    for student in students:
        answer_with(student, "after", learner(q))
    results = knowledge.class_results(session)
    truth = (q - p) / (1 - p)
    assert results["paired"] == 40
    assert results["low"] <= truth <= results["high"]
    assert results["low"] > 0  # a real gain is told apart from none


def test_the_interval_covers_the_true_gain_about_nine_times_in_ten():
    """Many simulated classes of 30: the 90 % interval holds the true gain in most of them and
    misses it in some — it is neither a guess nor a blanket."""
    p, q, items = 0.35, 0.6, 8
    truth = (q - p) / (1 - p)
    luck = random.Random(11)
    covered = 0
    runs = 60
    for run in range(runs):
        pairs = []
        for _student in range(30):
            before = 100 * sum(luck.random() < p for _i in range(items)) / items
            after = 100 * sum(luck.random() < q for _i in range(items)) / items
            pairs.append((before, after))
        result = gain.class_gain(pairs, seed=f"run-{run}", draws=400)
        covered += result["low"] <= truth <= result["high"]
    assert 0.78 <= covered / runs <= 0.98


def test_hake_gain_and_its_edges():
    assert gain.normalized_gain(40, 70) == pytest.approx(0.5)
    assert gain.normalized_gain(50, 40) == pytest.approx(-0.2)
    assert gain.normalized_gain(100, 100) is None
    assert gain.class_gain([], seed="x")["gain"] is None
    same = gain.class_gain([(50, 75)] * 5, seed="x")
    assert same["gain"] == same["low"] == same["high"] == pytest.approx(0.5)


def test_few_pairs_are_indicative_and_a_high_start_warns_of_the_ceiling(lesson):
    session, students = lesson
    for student in students:
        answer_all(student, "before", right=True)
    classroom.start(session=session)
    knowledge.open_after(session=session)
    for student in students:
        answer_all(student, "after", right=True)
    results = knowledge.class_results(session)
    assert results["paired"] == 4 and results["indicative"] and results["ceiling"]
    assert results["gain"] is None and results["before"] == 100


def _answer_odd_item_upside_down(students, phase, odd):
    """Strong students get every item right but ``odd``, weak ones only ``odd``: it discriminates
    below 0, the others well above."""
    for n, student in enumerate(students):
        strong = (n // 2) % 2 == 0  # join order alternates the forms: strong and weak on each
        answer_with(
            student,
            phase,
            lambda s, _i, strong=strong: (
                s.item.answer if (strong != (s.item.pk == odd.pk)) else next(c for c in s.order if c != s.item.answer)
            ),
        )


def test_a_weak_item_is_flagged_only_on_enough_answers_before_and_after():
    """An item the class's strongest get wrong and weakest right discriminates below 0; it is
    flagged "weak" only once at least 30 students answered it before and 30 after (fewer, and
    the figure is noise that flags sound items); the items that follow the rest of the form never."""
    session = make_session()
    students = [s for s, _token in joined(session, 2 * gain.FLAG_ANSWERS)]
    odd = session.check_items.get(position=0)
    assert odd.form == "A"
    _answer_odd_item_upside_down(students, "before", odd)
    rows = {r["item"].item.pk: r for r in knowledge.class_results(session)["items"]}
    assert rows[odd.pk]["before_n"] == gain.FLAG_ANSWERS and rows[odd.pk]["after_n"] == 0
    assert rows[odd.pk]["discrimination"] < 0 and not rows[odd.pk]["weak"]  # nobody after yet

    classroom.start(session=session)
    knowledge.open_after(session=session)
    _answer_odd_item_upside_down(students, "after", odd)
    rows = {r["item"].item.pk: r for r in knowledge.class_results(session)["items"]}
    assert rows[odd.pk]["after_n"] == gain.FLAG_ANSWERS
    assert rows[odd.pk]["weak"] and rows[odd.pk]["discrimination"] < 0
    others = [r for pk, r in rows.items() if pk != odd.pk and r["item"].item.form == "A"]
    assert others and all(not r["weak"] and r["discrimination"] > 0.5 for r in others)


def test_a_small_class_sees_no_weak_flag_however_its_answers_fall(lesson):
    """About 12 answers a cell: a class answering by position gets no "weak: reword or drop"."""
    session = make_session()
    students = [s for s, _token in joined(session, 24)]
    for student in students:
        answer_with(student, "before", shown_at(0))
    classroom.start(session=session)
    knowledge.open_after(session=session)
    for student in students:
        answer_with(student, "after", shown_at(1))
    rows = knowledge.class_results(session)["items"]
    assert {r["before_n"] for r in rows} == {12} and not any(r["weak"] for r in rows)
    assert any(r["discrimination"] is not None and r["discrimination"] < gain.WEAK_DISCRIMINATION for r in rows)


def test_the_before_check_closes_when_the_game_starts_and_late_answers_are_left_out():
    """A student who had the questions open at the start is taken, marked late and left out of
    the gain; one who never opened them, or joined after the start, is not asked."""
    session = make_session(seats_per_table=6)
    ana, ben, cleo, dan = [p for p, _token in joined(session, 4)]
    answer_all(ana, "before", right=False)
    answer_all(ben, "before", right=False)
    knowledge.items_for(cleo, "before")
    knowledge.opened(cleo, "before")
    classroom.start(session=session)
    assert knowledge.phase_for(cleo) is None and knowledge.phase_for(dan) is None
    with pytest.raises(CheckError, match="not open"):
        answer_all(dan, "before", right=False)
    answer_all(cleo, "before", right=True)
    assert CheckAnswer.objects.filter(participant=cleo, late=True).count() == len(knowledge.items_for(cleo, "before"))
    ((eve, _token),) = joined(session, 1, prefix="Late")
    assert knowledge.phase_for(eve) is None
    classroom.end(session=session)
    knowledge.open_after(session=session)
    for student in (ana, ben, cleo, eve):
        answer_all(student, "after", right=True)
    results = knowledge.class_results(session)
    assert results["paired"] == 2 and results["late_n"] == 1
    assert (results["before"], results["after"], results["gain"]) == (0, 100, 1.0)
    roster = {r["nickname"]: r for r in results["roster"]}
    assert roster[cleo.nickname]["before_late"] and not roster[ana.nickname]["before_late"]
    assert roster[eve.nickname]["joined_late"] and not roster[ana.nickname]["joined_late"]
    assert roster[dan.nickname]["before_at"] is None and roster[ana.nickname]["after_at"] is not None


def test_tablets_follow_the_phase_through_the_lobby_state(lesson):
    """The lobby state carries the check's phase, and the long-poll stamp changes with it, so a
    tablet shows the after-check without a reload."""
    session, (ana, *_rest) = lesson
    lobby = selectors.student_state(ana)
    assert lobby["check"]["phase"] == "before" and lobby["check"]["to_answer"]
    answer_all(ana, "before", right=False)
    assert selectors.student_state(ana)["check"]["to_answer"] is False
    classroom.start(session=session)
    playing = selectors.device_state(ana)
    assert playing["lobby"]["check"] is None
    classroom.end(session=session)
    ended = selectors.device_state(ana)["stamp"]
    knowledge.open_after(session=session)
    after = selectors.device_state(ana)
    assert after["lobby"]["check"]["phase"] == "after" and after["lobby"]["check"]["to_answer"]
    assert after["stamp"] != ended


def test_the_student_sees_what_changed_and_the_right_answer_with_its_fact_in_their_language(client):
    session = make_session()
    ((ana, token),) = joined(session, 1, prefix="Ana")
    ana.language = "es"
    ana.save(update_fields=["language"])
    answer_all(ana, "before", right=False)
    classroom.start(session=session)
    classroom.end(session=session)
    knowledge.open_after(session=session)
    client.cookies[token_cookie(session.pk)] = token
    url = reverse("lessons:student_check", args=[session.pk])
    items = knowledge.items_for(ana, "after")
    page = client.post(
        url, {"phase": "after", **{str(s.item.pk): str(s.item.answer) for s in items}}, HTTP_ACCEPT_LANGUAGE="es"
    ).content.decode()
    with translation.override("es"):
        results = knowledge.student_results(ana)
    assert results["changed"] == len(items) and all(r["change"] == "now_right" for r in results["items"])
    row = results["items"][0]
    assert row["after"]["right"] and row["fact"] is not None
    assert "Cambió" in page and row["fact"].statement in page
    assert "Respuesta correcta" in page


def test_bad_answers_are_refused_and_store_nothing(lesson):
    _session, (ana, *_rest) = lesson
    items = knowledge.items_for(ana, "before")
    with pytest.raises(CheckError, match="Answer every question"):
        knowledge.submit_answers(participant=ana, phase="before", answers={str(items[0].item.pk): 0})
    offered = {str(s.item.pk): 0 for s in items} | {str(items[1].item.pk): 9}
    with pytest.raises(CheckError, match="Answer every question"):
        knowledge.submit_answers(participant=ana, phase="before", answers=offered)
    with pytest.raises(CheckError, match="not open"):
        knowledge.submit_answers(participant=ana, phase="after", answers={str(s.item.pk): 0 for s in items})
    assert not CheckAnswer.objects.exists()
    answer_all(ana, "before", right=True)
    with pytest.raises(CheckError, match="already"):
        answer_all(ana, "before", right=False)


def test_the_teacher_edits_and_adds_items_and_bad_ones_change_nothing(lesson):
    session, (ana, *_rest) = lesson
    item = session.check_items.filter(used=True, form="A").first()
    knowledge.save_item(
        session=session,
        item_id=item.pk,
        question="When is a warning issued?",
        choices=["12 h", "36 h", "72 h"],
        answer=1,
    )
    item.refresh_from_db()
    assert item.edited and item.question == "When is a warning issued?" and item.answer == 1
    assert knowledge.shown(item).question == "When is a warning issued?"
    added = knowledge.save_item(
        session=session,
        item_id=None,
        question="Where do you meet your family?",
        choices=["The meeting place we chose", "Anywhere"],
        answer=0,
    )
    assert added.used and not added.kit_key and added.form == ""
    # The teacher's own question is asked on both forms, before and after.
    assert added.pk in [s.item.pk for s in knowledge.items_for(ana, "before")]
    assert added.pk in [s.item.pk for s in knowledge.items_for(ana, "after")]
    for bad in (
        {"question": "", "choices": ["a", "b"], "answer": 0},
        {"question": "Q?", "choices": ["only one"], "answer": 0},
        {"question": "Q?", "choices": ["a", "b"], "answer": 5},
        {"question": "Q" * 301, "choices": ["a", "b"], "answer": 0},
    ):
        count = CheckItem.objects.count()
        with pytest.raises(CheckError):
            knowledge.save_item(session=session, item_id=item.pk, **bad)
        item.refresh_from_db()
        assert item.question == "When is a warning issued?" and CheckItem.objects.count() == count
    first = knowledge.student(ana).first_form
    answered = session.check_items.filter(form=first).first()
    answer_all(ana, "before", right=True)
    with pytest.raises(CheckError, match="answered this question already"):
        knowledge.save_item(
            session=session,
            item_id=answered.pk,
            question=answered.question,
            choices=answered.choices,
            answer=(answered.answer + 1) % 3,
        )


def test_a_dropped_item_is_not_asked_and_not_counted(lesson):
    session, (ana, *_rest) = lesson
    form = knowledge.student(ana).first_form
    dropped = session.check_items.filter(form=form).first()
    with translation.override("en"):
        seen = knowledge.shown(dropped)
        knowledge.save_item(
            session=session,
            item_id=dropped.pk,
            question=seen.question,
            choices=seen.choices,
            answer=dropped.answer,
            used=False,
        )
    dropped.refresh_from_db()
    assert not dropped.edited and not dropped.used
    assert dropped.pk not in [s.item.pk for s in knowledge.items_for(ana, "before")]


def test_answers_join_the_research_export_only_with_the_opt_in(lesson):
    session, students = lesson
    for student in students:
        answer_all(student, "before", right=False)
    classroom.start(session=session)
    assert "knowledge_check" not in export_data(session)
    DebriefSettings.objects.filter(session=session).update(research_opt_in=True)
    DebriefSettings.objects.get_or_create(session=session, defaults={"research_opt_in": True})
    rows = export_data(session)["knowledge_check"]
    assert len(rows) == 4 * 8
    for row in rows:
        assert row["seat_id"] and row["phase"] == "before" and row["correct"] is False
        assert row["form"] in ("A", "B") and row["objective"] and row["item"].endswith(row["form"].lower())
        assert sorted(row["shown"]) == [0, 1, 2] and row["shown"][row["shown_position"]] == row["choice"]
        assert row["answered_at"] and row["late"] is False
        assert "nickname" not in row
    assert Counter(r["form"] for r in rows) == {"A": 16, "B": 16}


def test_a_stranger_cannot_answer_or_open_the_kit(client):
    session = make_session()
    join_students(session, 1)
    url = reverse("lessons:student_check", args=[session.pk])
    assert client.get(url).status_code == 404
    stranger = make_teacher()
    client.login(email=stranger.email, password=PASSWORD)
    assert client.get(reverse("lessons:kit", args=[session.pk])).status_code == 404
    assert client.post(reverse("lessons:kit_command", args=[session.pk, "check-off"])).status_code == 404


def test_turning_the_check_off_hides_it_from_tablets(lesson):
    session, (ana, *_rest) = lesson
    knowledge.set_check(session=session, enabled=False)
    assert selectors.student_state(ana)["check"] is None
    assert knowledge.class_results(session) is None


def test_deleting_the_session_deletes_its_check_and_answers(lesson):
    session, (ana, *_rest) = lesson
    answer_all(ana, "before", right=True)
    classroom.delete_session(session=session)
    assert not (
        CheckAnswer.objects.exists()
        or CheckItem.objects.exists()
        or KnowledgeCheck.objects.exists()
        or CheckStudent.objects.exists()
    )


def test_a_teachers_question_with_blank_answer_boxes_keeps_the_one_marked_right(lesson):
    session, _ = lesson
    item = knowledge.save_item(
        session=session,
        item_id=None,
        question="What goes in the go-kit first?",
        choices=["Sweets", "", "Water", ""],
        answer=2,
    )
    assert item.choices == ["Sweets", "Water"] and item.answer == 1
    with pytest.raises(CheckError, match="right"):
        knowledge.save_item(session=session, item_id=None, question="Q?", choices=["a", "b", "", ""], answer=3)


def test_a_check_with_every_question_dropped_asks_nothing(lesson):
    session, (ana, *_rest) = lesson
    session.check_items.update(used=False)
    with pytest.raises(CheckError, match="not open"):
        knowledge.submit_answers(participant=ana, phase="before", answers={})
    assert not CheckAnswer.objects.exists()


@pytest.mark.parametrize(
    "language, words",
    [
        ("en", ("How the class's answers changed", "Normalized gain: 1.00", "Indicative only:", "Guessing alone")),
        (
            "es",
            (
                "Cómo cambiaron las respuestas de la clase",
                "Ganancia normalizada: 1,00",
                "Solo orientativo:",
                "Solo adivinando",
            ),
        ),
        (
            "nl",
            (
                "Hoe de antwoorden van de klas veranderden",
                "Genormaliseerde winst: 1,00",
                "Alleen een indicatie:",
                "Alleen gokken",
            ),
        ),
    ],
)
def test_the_class_figures_read_in_the_teachers_language(lesson, language, words):
    """The panel the teacher's page, the debrief and the class packet show, in each language."""
    from lessons import panels

    session, students = lesson
    for student in students:
        answer_all(student, "before", right=False)
    classroom.start(session=session)
    knowledge.open_after(session=session)
    for student in students:
        answer_all(student, "after", right=True)
    knowledge.close_after(session=session)
    with translation.override(language):
        html = panels.debrief(session=session)
    for word in words:
        assert word in html.replace("&#x27;", "'"), word


def test_no_panel_when_nobody_answered(lesson):
    from lessons import panels

    session, _students = lesson
    assert panels.debrief(session=session) == ""
