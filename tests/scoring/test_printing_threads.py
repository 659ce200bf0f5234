"""Printing from several threads of one process at once (the embedded server prints reports on
its task thread while a request prints the lesson kit) leaves GLib's memory intact."""

import subprocess
import sys
import textwrap

from django.conf import settings

SCRIPT = textwrap.dedent("""
    import base64
    import threading

    import django
    django.setup()
    from lessons.printing import pdf_of as print_kit_page
    from scoring.reports import pdf_of as print_report

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
    print("printed")
""")


def test_three_threads_printing_at_once_corrupt_nothing():
    done = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", SCRIPT],
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        timeout=300,
        env={"DJANGO_SETTINGS_MODULE": "config.settings", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "printed" in done.stdout
    assert "corrupted" not in done.stderr and "CRITICAL" not in done.stderr, done.stderr[-3000:]
