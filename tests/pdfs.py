"""The text of a PDF the project printed, as a test reads it: poppler's ``pdftotext``, in the
order the PDF draws it (``-raw``), which is the document's order for WeasyPrint's PDFs. Reading
a printables PDF this way takes a fraction of a second; pypdf's ``extract_text`` took seconds."""

import io
import subprocess
import tempfile


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


def _pdfinfo(pdf: bytes, *options: str) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as file:
        file.write(bytes(pdf))
        file.flush()
        answer = subprocess.run(["pdfinfo", *options, file.name], capture_output=True, timeout=60)
    assert answer.returncode == 0, answer.stderr.decode(errors="replace")
    return answer.stdout.decode()


def info(pdf: bytes) -> dict[str, str]:
    """``pdfinfo``'s fields: "Tagged", "Title", "Pages"…"""
    return {
        key.strip(): value.strip()
        for key, _, value in (line.partition(":") for line in _pdfinfo(pdf).splitlines())
        if value
    }


def structure(pdf: bytes) -> list[tuple[str, str]]:
    """A tagged PDF's structure tree as a screen reader walks it: each piece of text with the tag
    of the block it stands in ("H1", "P", "TD"…), in the tree's order (``pdfinfo -struct-text``)."""
    pieces, blocks = [], []
    for line in _pdfinfo(pdf, "-struct-text").splitlines():
        depth, text = len(line) - len(line.lstrip()), line.strip()
        if text.startswith('"') and text.endswith('"'):
            if text[1:-1].strip():
                pieces.append((next((tag for d, tag in reversed(blocks) if d < depth), ""), text[1:-1]))
            continue
        tag = text.split(" ")[0].rstrip(":")
        if text.endswith("(block)") or tag in ("TH", "TD", "LI", "LBody", "Caption"):
            blocks = [(d, t) for d, t in blocks if d < depth] + [(depth, tag)]
    return pieces


def language(pdf: bytes) -> str:
    """The document's language (the catalogue's /Lang), as a screen reader picks its voice."""
    import pypdf

    return str(pypdf.PdfReader(io.BytesIO(bytes(pdf))).trailer["/Root"].get("/Lang", ""))
