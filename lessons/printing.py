"""The kit's PDFs (WeasyPrint): the lesson guide, the printables drawn from the scenario's content
files, the join-code handout with its QR code, and a student's family plan. Every page is a
template of ``templates/lessons/`` with the print stylesheet inline; nothing is fetched."""

from __future__ import annotations

import base64

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone

from classroom import regions
from lessons import services
from scenarios.audience import Audience
from scoring import reports


def pdf_of(html: str) -> bytes:
    """The page as a tagged PDF, printed as every PDF is (``scoring.reports.write``)."""
    return reports.write(html)


def guide_pdf(scenario, session=None) -> bytes:
    return pdf_of(render_to_string("lessons/print_guide.html", services.guide_context(scenario, session)))


def printables_html(scenario, printables, reader: Audience, session=None) -> str:
    """The printables for a class that may see what ``reader`` may (a session's students; the
    gentlest, youngest choice when printed outside a session), on the paper of the session's
    region (Letter without a session)."""
    pages = [
        {
            "printable": p,
            "html": render_to_string(
                scenario.template(p.template), services.printable_context(scenario.key, p, reader)
            ),
        }
        for p in printables
    ]
    return render_to_string(
        "lessons/print_printables.html",
        {
            "scenario": scenario,
            "pages": pages,
            "reader": reader,
            "paper": regions.of(session).paper if session else "Letter",
        },
    )


def printables_pdf(scenario, printables, reader: Audience, session=None) -> bytes:
    return pdf_of(printables_html(scenario, printables, reader, session))


def how_to_play_pdf(scenario, card, session=None) -> bytes:
    return pdf_of(
        render_to_string(
            "lessons/print_how_to_play.html",
            {"scenario": scenario, "card": card, "paper": regions.of(session).paper if session else "Letter"},
        )
    )


def qr_data_uri(url: str) -> str:
    import qrcode
    import qrcode.image.svg

    svg = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2).to_string()
    return "data:image/svg+xml;base64," + base64.b64encode(svg).decode()


def handout_pdf(session) -> bytes:
    from classroom.selectors import join_url
    from classroom.services import format_code

    url = join_url(session)
    return pdf_of(
        render_to_string(
            "lessons/print_handout.html",
            {
                "session": session,
                "paper": regions.of(session).paper,
                "code": format_code(session.join_code),
                "url": url,
                "join_page": f"{settings.PUBLIC_BASE_URL}/join",
                "qr": qr_data_uri(url),
                "slips": range(6),
            },
        )
    )


def plan_pdf(plan: dict) -> bytes:
    return pdf_of(
        render_to_string("lessons/print_plan.html", {"plan": plan, "paper": plan["paper"], "generated": timezone.now()})
    )
