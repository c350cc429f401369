"""The README and every page of docs/ hold true: their examples run as written, their
links lead somewhere, the README stays short, and the layout page names every module.

Python examples run with doctest (ELLIPSIS). A fenced block tagged ``console`` holds
terminal examples: each line ``$ bidder ARGS`` is run as ``python -m bidder ARGS`` from
the repository's root and its output (standard output, then standard error) must be the
lines below it, where a line ``...`` stands for any number of lines and a last line
``[exit status N]`` gives the status the command ends with (0 when there is none).
"""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

# Every example of every page runs: the checker's pages run `bidder check` itself.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
README_LINES = 250

# At least this many doctest examples on each page; a page not named has none to run.
FLOORS = {
    "README.md": 15,
    "hands-and-bids.md": 30,
    "rules.md": 10,
    "variants.md": 20,
    "statistics.md": 20,
    "web.md": 20,
    "teaching.md": 15,
    "boards.md": 15,
    "grading.md": 8,
    "checker.md": 15,
    "layout.md": 3,
}

FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
EXIT = re.compile(r"\[exit status (\d+)\]")
PATH = re.compile(r"(?<![\w./-])(?:bidder|tests|bench|templates|static)/[\w/.-]*\w")


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


# Examples ---------------------------------------------------------------------------------

@pytest.mark.parametrize("page", PAGES, ids=name)
def test_the_python_examples_run(page):
    result = doctest.testfile(str(page), module_relative=False, encoding="utf-8",
                              optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= FLOORS.get(page.name, 0)


def console_examples() -> list:
    """(page, command, expected lines, exit status) for every console example."""
    examples = []
    for page in PAGES:
        for tag, body in FENCE.findall(page.read_text(encoding="utf-8")):
            if tag != "console":
                continue
            command, expected = None, []
            for line in body.splitlines() + ["$ "]:
                if line.startswith("$ "):
                    if command:
                        examples.append(example(page, command, expected))
                    command, expected = line[2:].strip(), []
                else:
                    expected.append(line)
    return examples


def example(page: Path, command: str, expected: list[str]):
    status = 0
    if expected and EXIT.fullmatch(expected[-1]):
        status = int(EXIT.fullmatch(expected.pop()).group(1))
    return pytest.param(command, expected, status, id=f"{page.name}: {command}")


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether *actual* is *expected*, each line ``...`` standing for any lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[start:]) for start in range(len(actual) + 1))
    return bool(actual) and actual[0] == expected[0] and matches(expected[1:], actual[1:])


@pytest.mark.parametrize("command, expected, status", console_examples())
def test_the_console_examples_run(command, expected, status):
    words = shlex.split(command)
    assert words[0] == "bidder", "a console example runs the bidder command"
    done = subprocess.run([sys.executable, "-m", "bidder", *words[1:]], cwd=ROOT,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)
    actual = [line.rstrip() for line in (done.stdout + done.stderr).splitlines()]
    expected = [line.rstrip() for line in expected]
    assert matches(expected, actual), "\n".join(actual)
    assert done.returncode == status


def test_there_are_console_examples():
    assert len(console_examples()) >= 8


def test_the_matcher_takes_dots_for_any_lines():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "...", "b"], ["a", "b"])
    assert matches(["...", "c", "..."], ["a", "b", "c"])
    assert not matches(["a", "...", "d"], ["a", "b", "c"])
    assert not matches(["a"], ["a", "b"])


# Links ------------------------------------------------------------------------------------

def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of *page*."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
            for heading in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


def links() -> list:
    """(page, target) for every relative link of every page."""
    found = []
    for page in PAGES:
        text = FENCE.sub("", page.read_text(encoding="utf-8"))
        for target in LINK.findall(text):
            if not re.match(r"[a-z]+:", target):
                found.append(pytest.param(page, target, id=f"{page.name} -> {target}"))
    return found


@pytest.mark.parametrize("page, target", links())
def test_every_relative_link_leads_to_a_file(page, target):
    path, _, anchor = target.partition("#")
    linked = (page.parent / path).resolve() if path else page
    assert linked.exists(), f"{name(page)} links to {target}, which does not exist"
    assert ROOT in linked.parents or linked == ROOT, f"{target} leads out of the repository"
    if anchor and linked.suffix == ".md":
        assert anchor in anchors(linked), f"{name(linked)} has no heading #{anchor}"


def test_every_docs_page_is_linked_from_the_readme():
    text = README.read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        assert f"](docs/{page.name})" in text


# The README and the layout page ---------------------------------------------------------

def test_the_readme_is_short():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= README_LINES


def test_every_path_the_pages_name_exists():
    """Every path into the package, the tests or the bench that a page names exists."""
    missing = [f"{name(page)}: {path}" for page in PAGES
               for path in PATH.findall(page.read_text(encoding="utf-8"))
               if not (ROOT / path).exists()]
    assert missing == []


def test_the_layout_page_names_every_module():
    named = set(PATH.findall((DOCS / "layout.md").read_text(encoding="utf-8")))
    modules = {path.relative_to(ROOT).as_posix() for path in (ROOT / "bidder").rglob("*.py")
               if path.name != "__init__.py"}
    assert sorted(modules - named) == []


def test_the_tests_mirror_the_package_and_no_two_share_a_name():
    modules = [path for path in (ROOT / "tests").rglob("test_*.py")
               if "node_modules" not in path.parts and "students" not in path.parts
               and "student_tests" not in path.parts]
    names = [path.name for path in modules]
    assert len(names) > 50
    assert sorted({name for name in names if names.count(name) > 1}) == []
    for package in ("boards", "grading", "checker", "classroom", "cli"):
        assert any(path.parent.name == package for path in modules), package
