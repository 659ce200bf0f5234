"""Screenshots to look at. ``SHOTS=<folder> make test`` saves the pictures the browser tests take
of the pages they drive (each lesson's projector and tablets, every renderer screen at every size,
the kit's pages, the forced-colours screens) into that folder; without it none is taken, as
encoding a picture costs the browser more than many of the checks around it."""

import os
import tempfile
from pathlib import Path

FOLDER = os.environ.get("SHOTS")


def shoot(page, name, *, full_page=True):
    """Save what ``page`` shows as ``<name>.png`` in ``$SHOTS``, if it is set."""
    if FOLDER:
        Path(FOLDER).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(FOLDER) / f"{name}.png"), full_page=full_page)


def failure_shot(page, name) -> str:
    """Save what ``page`` shows when a test gives up on it, into ``$SHOTS`` or else the system's
    temporary folder, and return the file's path for the failure's message."""
    folder = Path(FOLDER or tempfile.gettempdir())
    folder.mkdir(parents=True, exist_ok=True)
    path = str(folder / f"{name}.png")
    page.screenshot(path=path, full_page=True)
    return path
