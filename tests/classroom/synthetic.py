"""A synthetic class, written in the tests: modules with known misreadings (written out by
bidder.checker.standalone), copies, right ones, broken ones, hostile ones, a stuck one, a
student folder with tests, one without a module, and a name with markup."""

import shutil
from pathlib import Path

from bidder.checker.standalone import module_source
from bidder.misreadings import variant_by_id

STUDENTS = Path(__file__).resolve().parent.parent / "checker" / "students"
STUDENT_TESTS = Path(__file__).resolve().parent.parent / "checker" / "student_tests"
HANDS = 0  # the worked examples and the threshold hands only: the suite stays fast

STUCK = '''def highCardPoints(hand):
    return -1


def distributionPoints(hand):
    return -1


def openingBid(hand):
    return "7NT"
'''

# right answers but for two crashes: a ValueError on hands led by a ten, a
# ZeroDivisionError on hands with a void
CRASHES = '''

_right_bid = openingBid


def openingBid(hand):
    if hand.startswith("10"):
        raise ValueError("a ten leads the hand")
    13 // min(lengths(hand).values())
    return _right_bid(hand)
'''

# student: the misreadings the diagnosis should name
KNOWN = {"alice": ("r3-unbalanced-only",), "bob": ("r3-unbalanced-only",),
         "<em>mallory&co": ("r3-unbalanced-only",), "carol": ("1nt-15-17",),
         "dave": ("1nt-15-17",), "erin": ()}


def write_class(folder: Path) -> Path:
    """The class, one module or folder per student, in *folder*."""
    for student in ("alice", "bob", "<em>mallory&co"):
        (folder / f"{student}.py").write_text(module_source(variant_by_id("r3-unbalanced-only")))
    for student in ("carol", "dave"):
        (folder / f"{student}.py").write_text(module_source(variant_by_id("1nt-15-17")))
    shutil.copy(STUDENTS / "correct.py", folder / "erin.py")
    shutil.copy(STUDENTS / "exits_at_import.py", folder / "frank.py")
    shutil.copy(STUDENTS / "escapes_terminal.py", folder / "grace.py")
    (folder / "heidi.py").write_text("def highCardPoints(hand:\n")
    (folder / "ivan.py").write_text(STUCK)
    judy = folder / "judy"
    judy.mkdir()
    shutil.copy(STUDENTS / "correct.py", judy / "solution.py")
    shutil.copy(STUDENT_TESTS / "weak_tests.py", judy / "test_solution.py")
    (folder / "ken").mkdir()
    (folder / "ken" / "notes.txt").write_text("I ran out of time")
    (folder / "oscar.py").write_text((STUDENTS / "correct.py").read_text() + CRASHES)
    (folder / "test_helpers.py").write_text("")  # a test file at the top is no student
    return folder
