"""A clean clone passes on its own: no module, test or script names a path above the checkout.

The machines the project is built on keep shared data beside the checkout; a school's IT, a
contributor or a packager has nothing there, so a file that reaches for it works only here. Each
Python file is read as code: a path built from ``__file__`` (``.parent`` chains, ``.parents[n]``)
may climb to the checkout's top folder and no further, nothing walks every ancestor
(``for folder in Path(__file__).parents``), nothing steps above the project's base folder
(``BASE_DIR.parent``), and no string names a parent folder (``../``) or this machine's work folder.
The scripts CI and ``make`` run are read as text for the same strings."""

import ast
import re
from pathlib import Path

from django.conf import settings

ROOT = Path(settings.BASE_DIR).resolve()
SKIP = {".git", ".venv", "node_modules", "__pycache__", "staticfiles", "media", ".test-media", "test-artifacts"}
OUTSIDE = re.compile(r"(^|[\s\"'=:(])\.\./|/work/|(^|/)shared/data\b")
SCRIPTS = ("Makefile", ".ci/run", "scripts/*.sh", "*.ini", "*.toml", "*.cfg", ".importlinter")


def files(pattern: str):
    for path in sorted(ROOT.rglob(pattern)):
        if not SKIP.intersection(path.relative_to(ROOT).parts):
            yield path


def mentions_file(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "__file__" for n in ast.walk(node))


def climbs(node: ast.AST) -> tuple[int, ast.AST]:
    """How many ``.parent`` steps end at ``node``, and what they start from."""
    steps = 0
    while isinstance(node, ast.Attribute) and node.attr == "parent":
        steps, node = steps + 1, node.value
    return steps, node


class Reach(ast.NodeVisitor):
    """The places in one module whose paths reach above the checkout."""

    def __init__(self, depth: int):
        self.depth = depth  # folders between the checkout's top and this module
        self.found: list[str] = []

    def visit_Subscript(self, node):
        if isinstance(node.value, ast.Attribute) and node.value.attr == "parents" and mentions_file(node.value):
            index = node.slice
            if not (isinstance(index, ast.Constant) and isinstance(index.value, int) and index.value <= self.depth):
                self.found.append(f"line {node.lineno}: .parents[{ast.unparse(index)}]")
            self.visit(node.value.value)
            return
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if node.attr == "parents":
            self.found.append(f"line {node.lineno}: every ancestor of {ast.unparse(node.value)}")
        elif node.attr == "parent":
            steps, base = climbs(node)
            above_base = isinstance(base, ast.Name | ast.Attribute) and ast.unparse(base).endswith("BASE_DIR")
            if above_base or (mentions_file(base) and steps - 1 > self.depth):
                self.found.append(f"line {node.lineno}: {ast.unparse(node)}")
            self.visit(base)
            return
        self.generic_visit(node)

    def visit_Constant(self, node):
        if isinstance(node.value, str) and OUTSIDE.search(node.value):
            self.found.append(f"line {node.lineno}: {node.value[:80]!r}")


def reaching(path: Path) -> list[str]:
    reach = Reach(depth=len(path.relative_to(ROOT).parts) - 1)
    reach.visit(ast.parse(path.read_text(encoding="utf-8"), filename=str(path)))
    return reach.found


def test_no_python_file_reaches_above_the_checkout():
    this = Path(__file__).resolve()  # it spells out what it looks for
    found = {str(path.relative_to(ROOT)): hits for path in files("*.py") if path != this and (hits := reaching(path))}
    assert found == {}


def test_no_script_names_a_folder_above_the_checkout():
    found = {
        str(path.relative_to(ROOT)): [
            line for line in path.read_text(encoding="utf-8").splitlines() if OUTSIDE.search(line)
        ]
        for pattern in SCRIPTS
        for path in files(pattern)
    }
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_the_check_finds_each_way_out():
    """The reader above is itself checked: each way out of the checkout is found, and the ways
    that stay inside are not."""
    module = ROOT / "scenarios" / "resort" / "probe.py"  # two folders below the top
    outside = [
        "[f for f in Path(__file__).resolve().parents]",
        "Path(__file__).resolve().parents[3]",
        "Path(__file__).parent.parent.parent.parent",
        "settings.BASE_DIR.parent / 'shared'",
        "open('../shared/data/x.txt')",
    ]
    inside = [
        "Path(__file__).resolve().parents[2]",
        "Path(__file__).parent.parent.parent",
        "settings.BASE_DIR / 'locale'",
    ]
    for line in outside:
        assert _found(line, module), line
    for line in inside:
        assert not _found(line, module), line


def _found(line: str, module: Path) -> list[str]:
    reach = Reach(depth=len(module.relative_to(ROOT).parts) - 1)
    reach.visit(ast.parse(line))
    return reach.found
