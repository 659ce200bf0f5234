"""The text of a PDF the project printed, as a test reads it: poppler's ``pdftotext``, in the
order the PDF draws it (``-raw``), which is the document's order for WeasyPrint's PDFs. Reading
a printables PDF this way takes a fraction of a second; pypdf's ``extract_text`` took seconds."""

import subprocess


def pdf_pages(pdf: bytes) -> list[str]:
    """Each page's text, its lines kept."""
    answer = subprocess.run(
        ["pdftotext", "-raw", "-enc", "UTF-8", "-", "-"], input=bytes(pdf), capture_output=True, timeout=60
    )
    assert answer.returncode == 0, answer.stderr.decode(errors="replace")
    return answer.stdout.decode().split("\f")[:-1]  # every page ends with a form feed


def pdf_text(pdf: bytes) -> str:
    """The whole document's text on one line: a line may break inside a phrase."""
    return " ".join(" ".join(pdf_pages(pdf)).split())
