"""Printing from several threads of one process at once (the embedded server prints reports on
its task thread while a request prints the lesson kit) leaves GLib's memory intact: one PDF is
drawn at a time, whoever asked for it (``scoring.reports.PRINTING``)."""

import subprocess
import sys
import textwrap

from django.conf import settings

SCRIPT = textwrap.dedent("""
    import base64
    import threading
    import time

    import django
    django.setup()
    from weasyprint import HTML
    from lessons.printing import pdf_of as print_kit_page
    from scoring.reports import pdf_of as print_report

    # When WeasyPrint drew each PDF (it still draws them: this only looks at the clock).
    drawn, write_pdf = [], HTML.write_pdf

    def timed_write_pdf(self, *args, **kwargs):
        start = time.monotonic()
        try:
            return write_pdf(self, *args, **kwargs)
        finally:
            drawn.append((start, time.monotonic()))

    HTML.write_pdf = timed_write_pdf

    chart = base64.b64encode(("<svg xmlns='http://www.w3.org/2000/svg' width='400' height='200'>" + "".join(
        f"<text x='{i * 9}' y='{20 + i % 9 * 20}' font-family='DejaVu Sans'>hour {i}</text>" for i in range(40))
        + "</svg>").encode()).decode()
    page = "<h1>Household</h1>" + "".join(
        f"<table><tr><td>Hour {i}</td><td>the family drove to the store, then <b>left</b></td></tr></table>"
        f"<img src='data:image/svg+xml;base64,{chart}'>" for i in range(12))

    def print_some(pdf_of):
        for _ in range(8):
            assert pdf_of(page).startswith(b"%PDF")

    threads = [threading.Thread(target=print_some, args=(pdf,)) for pdf in (print_report, print_report, print_kit_page)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    drawn.sort()
    overlapping = sum(1 for (_, end), (start, _) in zip(drawn, drawn[1:]) if start < end)
    print(f"printed {len(drawn)}, {overlapping} at once")
""")


def test_three_threads_printing_at_once_take_turns_and_corrupt_nothing():
    done = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", SCRIPT],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
        env={"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "printed 24, 0 at once" in done.stdout, done.stdout
    assert "corrupted" not in done.stderr and "CRITICAL" not in done.stderr, done.stderr[-3000:]
