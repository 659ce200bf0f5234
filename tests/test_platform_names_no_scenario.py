"""The platform never names a scenario, and packages use each other's public names only.

"Platform code" is what every scenario shares: classroom, games, scoring, lessons, config, the shared
modules of ``scenarios/`` (registry, base, debrief, loaders, charting), templates and static.
A scenario's key may appear only in its own folder and in the registry line. Left out on
purpose: tests and benchmarks (they exercise particular scenarios), old migrations (history),
and the knowledge base ``scoring/outcomes/facts.json`` with its ``translations/`` (data: each
fact lists the scenarios it speaks to, and "evacuation" is also a word its sources use).
"""

import ast
import re
from pathlib import Path

from django.conf import settings

from scenarios import registry

ROOT = Path(settings.BASE_DIR)
PLATFORM = ["classroom", "games", "scoring", "lessons", "config", "templates", "static"]
SUFFIXES = {".py", ".html", ".js", ".css", ".json", ".txt", ".md", ".svg"}
# the knowledge base and its translations are data (each fact's key may mention a scenario)
EXCLUDED = [
    re.compile(p)
    for p in (r"/migrations/", r"^scoring/outcomes/facts\.json$", r"^scoring/outcomes/translations/[a-z]+\.json$")
]


def registry_lines() -> set[tuple[str, int]]:
    """The lines of the registry list, ``STORMWISE_SCENARIOS = [...]``, in each settings module."""
    lines = set()
    for path in sorted((ROOT / "config").glob("*settings*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(
                getattr(t, "id", None) == "STORMWISE_SCENARIOS" for t in node.targets
            ):
                relative = path.relative_to(ROOT).as_posix()
                lines.update((relative, n) for n in range(node.lineno, node.end_lineno + 1))
    return lines


def platform_files():
    for top in PLATFORM:
        for path in sorted((ROOT / top).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix in SUFFIXES and path.is_file() and not any(p.search(relative) for p in EXCLUDED):
                yield relative, path
    for path in sorted((ROOT / "scenarios").glob("*.py")):
        yield path.relative_to(ROOT).as_posix(), path


def test_no_scenario_key_outside_its_own_folder():
    keys = registry.keys()
    # "evacuation zone" is the plain word for an area officials may tell to leave, not a scenario
    pattern = re.compile(
        r"(?<![a-z0-9_])(%s)(?![a-z0-9_])(?![ -]zones?\b)" % "|".join(map(re.escape, keys)), re.IGNORECASE
    )
    registry_list = registry_lines()
    found = []
    for relative, path in platform_files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) and (relative, number) not in registry_list:
                found.append(f"{relative}:{number}: {line.strip()[:100]}")
    assert not found, "a scenario named in platform code:\n" + "\n".join(found)


def test_the_check_sees_a_key_where_it_should_not_be():
    """The pattern the test above uses catches a key in a template, a script or a comment."""
    key = registry.keys()[0]
    pattern = re.compile(r"(?<![a-z0-9_])(%s)(?![a-z0-9_])" % re.escape(key), re.IGNORECASE)
    assert pattern.search(f'{{% if session.scenario == "{key}" %}}')
    assert pattern.search(f"// the {key.upper()} renderer")
    assert not pattern.search(f"scenarios_{key}x")


# --- Public names only across packages ------------------------------------------------------

CODE = ["classroom", "games", "scoring", "config", "scenarios", "benchmarks"]


def owner(module: str) -> str:
    """The package a module belongs to: a scenario's folder, or a top-level app."""
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "scenarios" and len(parts) > 2 else parts[0]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PUBLIC = {"_meta"}  # Django's documented model API


def private_crossings(path: Path, module: str):
    """``from x import _name`` and ``x._name`` where ``x`` is another package's module."""
    me = owner(module)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    foreign = {}  # local name -> the other package's module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                target = f"{node.module}.{alias.name}"
                if alias.name.startswith("_") and not alias.name.startswith("__") and owner(node.module) != me:
                    yield f"from {node.module} import {alias.name}"
                if owner(target) != me:
                    foreign[alias.asname or alias.name] = target
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if owner(alias.name) != me:
                    foreign[alias.asname or alias.name.split(".")[0]] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and node.attr not in PUBLIC
            and isinstance(node.value, ast.Name)
            and node.value.id in foreign
            and owner(foreign[node.value.id]).split(".")[0] in CODE
        ):
            yield f"{node.value.id}.{node.attr}"


def test_no_package_uses_another_packages_private_names():
    found = []
    for top in CODE:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "/migrations/" in path.as_posix():
                continue
            found += [f"{path.relative_to(ROOT)}: {what}" for what in private_crossings(path, module_name(path))]
    assert not found, "private names used across packages:\n" + "\n".join(found)


def test_the_private_name_check_catches_a_scoring_module_reaching_into_an_engine(tmp_path):
    """As scoring's counterfactuals once imported ``_finish`` from the evacuation rules."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from scenarios.evacuation.rules import _finish\nfrom scenarios.evacuation import rules\nrules._finish\n"
    )
    assert list(private_crossings(probe, "scoring.probe")) == [
        "from scenarios.evacuation.rules import _finish",
        "rules._finish",
    ]
    assert list(private_crossings(probe, "scenarios.evacuation.counterfactuals")) == []
