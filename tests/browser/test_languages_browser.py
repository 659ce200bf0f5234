"""A Spanish and a Dutch student at the same table as an English one: each plays a whole
evacuation game and a whole Stormfury game in their own language, and reads their report in it.

Set LANGUAGE_SHOTS to a folder to keep a screenshot of every student's screen at each step.
"""
import os
import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.lesson import create_session, play_to_the_end, teacher_page
from tests.browser.test_stormfury_lesson import tap as stormfury_tap
from classroom.models import Session
from tests.conftest import TABLET, in_thread

pytestmark = pytest.mark.browser

# Each tablet's browser language, and what the student should read in it.
TABLETS = {
    "Ann": {"locale": "en-US", "lang": "en", "join": ("Lesson code", "Nickname", "Join", "Hi Ann!"),
            "evac": ("Your tally sheet", "Game hour", "Your result"), "report": "Your 48 hours",
            "sf": ("Choose your role", "Your team's result"), "team_report": "Who did what"},
    "Bea": {"locale": "es-MX", "lang": "es", "join": ("Código de la clase", "Apodo", "Entrar", "¡Hola, Bea!"),
            "evac": ("Tu hoja de cuentas", "Hora de juego", "Tu resultado"), "report": "Tus 48 horas",
            "sf": ("Elige tu papel", "El resultado de tu equipo"), "team_report": "Quién hizo qué"},
    "Cas": {"locale": "nl-NL", "lang": "nl", "join": ("Lescode", "Bijnaam", "Meedoen", "Hoi Cas!"),
            "evac": ("Je scorekaart", "Speluur", "Je resultaat"), "report": "Jouw 48 uur",
            "sf": ("Kies je rol", "Het resultaat van je team"), "team_report": "Wie deed wat"},
}

# How the English feed lines and the end-of-game banner begin (evacuation's rules.py, renderer.js).
ENGLISH_FEED = re.compile(r"\b(Drove to|Stuck in traffic|Bought|Arrived at|Left home|Waited and|Chose the|"
                          r"Took \$|Picked up|Decided to|Tropical-storm winds|Back home|Gave a reason|You arrived)")


def shoot(page, name):
    folder = os.environ.get("LANGUAGE_SHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=False)


def tablet(browser, base_url, code, name):
    """A tablet whose browser speaks the student's language joins with the code."""
    words = TABLETS[name]
    context = browser.new_context(viewport=TABLET, base_url=base_url, locale=words["locale"])
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto("/join")
    code_label, nickname_label, join_button, hello = words["join"]
    expect(page.locator("html")).to_have_attribute("lang", words["lang"])
    page.get_by_label(code_label).fill(code)
    page.get_by_label(nickname_label).fill(name)
    page.get_by_role("button", name=join_button, exact=True).click()
    expect(page.get_by_role("heading", name=hello)).to_be_visible()
    return page


def open_report(page, session_id, wanted, timeout=180):
    """The student's own report, from their tablet, once the worker has written it."""
    page.goto(f"/play/{session_id}/my-report")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.get_by_role("heading", name=wanted).count():
            return page
        links = page.locator("a.button.primary")
        if links.count():  # several reports listed: the first is this student's own
            links.first.click()
            continue
        page.wait_for_timeout(1500)
        page.reload()
    raise AssertionError(f"no report headed {wanted!r}: {page.content()[:800]}")


def end_lesson(teacher, session_id):
    teacher.get_by_role("button", name="End now").click()
    deadline = time.monotonic() + 15
    while in_thread(lambda: Session.objects.get(pk=session_id).status) != Session.Status.ENDED:
        assert time.monotonic() < deadline, "the lesson did not end"
        time.sleep(0.2)


def test_spanish_dutch_and_english_students_play_and_read_reports_in_their_languages(browser, asgi_server,
                                                                                   celery_worker):
    teacher = teacher_page(browser, asgi_server)

    # --- Hurricane Approaching!: three households at one table, a bot in the fourth seat -------------
    code, session_id = create_session(teacher, bots=True)
    students = {name: tablet(browser, asgi_server, code, name) for name in TABLETS}
    teacher.get_by_role("button", name="Start the game").click()
    for name, page in students.items():
        tally_title, tally_row, _result = TABLETS[name]["evac"]
        expect(page.locator(".evac-tally")).to_have_attribute("aria-label", tally_title)
        expect(page.locator(".evac-tally")).to_contain_text(tally_row)
        shoot(page, f"evacuation-{TABLETS[name]['lang']}-start")
    expect(teacher.locator("html")).to_have_attribute("lang", "en")  # the teacher's stays English
    play_to_the_end(students, session_id)
    for name, page in students.items():
        expect(page.locator(".evac-results")).to_contain_text(TABLETS[name]["evac"][2])
        shoot(page, f"evacuation-{TABLETS[name]['lang']}-results")
        # what happened (the feed, and what the live region read out) is in the tablet's language
        feed = page.locator(".evac-ev > span:nth-child(2)").all_inner_texts()
        said = page.locator("[data-live-region]").all_inner_texts()
        in_english = [line for line in feed + said if ENGLISH_FEED.search(line)]
        assert feed and (in_english != []) == (TABLETS[name]["lang"] == "en"), (name, feed, said)
    end_lesson(teacher, session_id)
    for name, page in students.items():
        open_report(page, session_id, re.compile(TABLETS[name]["report"]))
        expect(page.locator("html")).to_have_attribute("lang", TABLETS[name]["lang"])
        shoot(page, f"evacuation-{TABLETS[name]['lang']}-report")

    # --- Project Stormfury: the same three as one team ------------------------------------------------
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Scenario").select_option("stormfury")
    teacher.get_by_label("Seats per table").fill("3")
    teacher.get_by_label("A bot plays for a student who stays idle").set_checked(False)
    teacher.get_by_label("Seed (optional: the same seed replays the same dice)").fill("7")
    teacher.get_by_text("Scenario options").click()
    teacher.get_by_role("combobox", name=re.compile("Most turns", re.I)).select_option("6")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.locator(".join-code").inner_text()
    session_id = int(re.search(r"/sessions/(\d+)/", teacher.url).group(1))
    students = {name: tablet(browser, asgi_server, code, name) for name in TABLETS}
    teacher.get_by_role("button", name="Start the game").click()
    for name, page in students.items():
        expect(page.get_by_text(TABLETS[name]["sf"][0]).first).to_be_visible()
        shoot(page, f"stormfury-{TABLETS[name]['lang']}-roles")
    for _ in range(900):
        if not any([stormfury_tap(page) for page in students.values()]):
            break
    for name, page in students.items():
        expect(page.locator(".sf-results")).to_contain_text(TABLETS[name]["sf"][1])
        shoot(page, f"stormfury-{TABLETS[name]['lang']}-results")
    end_lesson(teacher, session_id)
    for name, page in students.items():
        open_report(page, session_id, re.compile(TABLETS[name]["team_report"]))
        expect(page.locator("html")).to_have_attribute("lang", TABLETS[name]["lang"])
        shoot(page, f"stormfury-{TABLETS[name]['lang']}-report")
