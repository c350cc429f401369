"""The submissions of a class, wherever they come from: a folder of modules (one per
student, or one folder per student), a Gradescope "Download Submissions" export (zip or
unpacked: ``submission_metadata.yml`` naming the students, one folder per submission) or
a PrairieLearn download (``*_submissions.csv``, whose Feedback holds bidder's results), or
a class file of answers in the ``bidder grade`` format (``HAND,ANSWER,ID`` a line)."""

from __future__ import annotations

import csv
import json
import os
import tempfile
import zipfile
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from ..checker.bundle import find_submission
from .uploads import submitted_files

METADATA = "submission_metadata.yml"
TESTS_PREFIX = "test_"


class SourceError(ValueError):
    """The submissions cannot be read: what is wrong, where, and what to do."""


@dataclass(frozen=True)
class Submission:
    """One student's work: a module to check (and their tests, if any), or a grader's
    results to read, or the reason there is neither."""

    student: str
    module: str | None = None
    tests: str | None = None
    results: dict | None = None
    answers: tuple = ()  # a class file's rows of this student
    scale: float = 1.0  # what turns the results' score into points of 100
    problem: str = ""
    files: tuple[tuple[str, str], ...] = ()  # uploaded (own name, path), checked together

    @property
    def runs(self) -> bool:
        """Whether checking it runs the student's code."""
        return self.module is not None or bool(self.files)


@contextmanager
def opened(path: str) -> Iterator[str]:
    """The folder *path* is, or a zip unpacked in a temporary folder for the while."""
    if os.path.isdir(path) or not zipfile.is_zipfile(path):
        yield path  # a folder, or a class file of answers
        return
    with tempfile.TemporaryDirectory(prefix="bidder-class-") as folder:
        with zipfile.ZipFile(path) as archive:
            archive.extractall(folder)  # names with .. or a leading / are made safe
        yield folder


def read_submissions(folder: str) -> tuple[Submission, ...]:
    """The submissions in *folder* (or the class file of answers it is), by student."""
    if not os.path.isdir(folder):
        return class_file(folder)
    metadata = _find(folder, METADATA)
    if metadata is not None:
        return gradescope(os.path.dirname(metadata), metadata)
    sheets = [name for name in sorted(os.listdir(folder)) if name.endswith("submissions.csv")]
    files = submitted_files(folder)
    if sheets or files:
        return prairielearn(os.path.join(folder, sheets[-1]) if sheets else None, files)
    found = tuple(_plain(folder, name) for name in sorted(os.listdir(folder))
                  if not name.startswith((".", "__")) and _is_submission(folder, name))
    if not found:
        raise SourceError(f"{folder} holds no submissions: give a folder of .py modules "
                          f"(one per student) or of folders (one per student), a "
                          f"Gradescope export or a PrairieLearn download")
    return found


def _find(folder: str, name: str) -> str | None:
    """*name* in *folder* or one level below (a zip's own top folder)."""
    for directory in [folder] + sorted(os.path.join(folder, sub) for sub in os.listdir(folder)
                                       if os.path.isdir(os.path.join(folder, sub))):
        if os.path.isfile(os.path.join(directory, name)):
            return os.path.join(directory, name)
    return None


def _is_submission(folder: str, name: str) -> bool:
    path = os.path.join(folder, name)
    return os.path.isdir(path) or (name.endswith(".py") and not name.startswith(TESTS_PREFIX))


def _plain(folder: str, name: str) -> Submission:
    """A module, or a student's folder: the module defining the functions, and a test file
    beside it when there is one. A module alone is checked from a folder of its own: the
    sandbox shows a module its folder, and this one holds the whole class."""
    path = os.path.join(folder, name)
    if not os.path.isdir(path):
        return Submission(name.removesuffix(".py"), files=((name, path),))
    return in_folder(name, path)


def in_folder(student: str, path: str) -> Submission:
    """A student's folder: the module defining the graded functions, and a test file beside
    it when there is one."""
    module = find_submission(path)
    if module is None:
        return Submission(student, problem="no .py file defining the graded functions was "
                                           "submitted")
    tests = sorted(name for name in os.listdir(os.path.dirname(module))
                   if name.startswith(TESTS_PREFIX) and name.endswith(".py"))
    return Submission(student, module, os.path.join(os.path.dirname(module), tests[0])
                      if tests else None)


def gradescope(folder: str, metadata: str) -> tuple[Submission, ...]:
    """A Gradescope export: each submission's :results when bidder wrote them (with its
    extra data), else the module in its folder, checked here."""
    import yaml

    try:
        with open(metadata, encoding="utf-8") as stream:
            entries = yaml.safe_load(stream)
    except yaml.YAMLError as error:
        raise SourceError(f"{metadata} is not YAML ({str(error).splitlines()[0]}): give "
                          f"the export as Gradescope wrote it") from None
    if not isinstance(entries, dict):
        raise SourceError(f"{metadata} holds no submissions: give the export as Gradescope "
                          f"wrote it")
    return tuple(_gradescope_one(folder, key, entry) for key, entry in sorted(
        entries.items(), key=lambda item: _names(item[1], str(item[0]))))


def _names(entry, default: str) -> str:
    """The submitters' names, or the folder's when there are none."""
    submitters = entry.get(":submitters") if isinstance(entry, dict) else None
    names = [str(person.get(":name") or person.get(":sid") or "")
             for person in submitters or () if isinstance(person, dict)]
    return ", ".join(name for name in names if name) or default


def _gradescope_one(folder: str, key, entry) -> Submission:
    student = _names(entry, str(key))
    results = entry.get(":results") if isinstance(entry, dict) else None
    if isinstance(results, dict) and "misreadings" in (results.get("extra_data") or {}):
        return Submission(student, results=results)
    path = os.path.join(folder, str(key))
    if not os.path.isdir(path):
        return Submission(student, problem=f"the export has no folder {key} for it")
    return in_folder(student, path)


def prairielearn(sheet: str | None, files: dict | None = None) -> tuple[Submission, ...]:
    """A PrairieLearn download: each student's last row of the submissions sheet, its
    Feedback holding bidder's results (a score from 0 to 1); where it holds none, the
    student's submitted files (the files download, unpacked beside it), checked here."""
    last: dict[str, dict] = {}
    if sheet is not None:
        with open(sheet, encoding="utf-8", newline="") as stream:
            for row in csv.DictReader(stream):
                student = row.get("UID") or row.get("Group name") or ""
                if student:
                    last[student] = row
    files = files or {}
    return tuple(_prairielearn_one(student, last.get(student, {}), files.get(student, ()))
                 for student in sorted(set(last) | set(files)))


def _prairielearn_one(student: str, row: dict, files: tuple) -> Submission:
    try:
        feedback = json.loads(row.get("Feedback") or "")
    except ValueError:
        feedback = None
    if isinstance(feedback, dict):
        results = feedback.get("results", feedback)
        return Submission(student, results=results if isinstance(results, dict) else {},
                          scale=100.0)
    if files:
        return Submission(student, files=files)
    return Submission(student, problem="its Feedback holds no results of bidder's checker, "
                                       "and no file of its was downloaded: grade the "
                                       "question with bidder first, or unpack PrairieLearn's "
                                       "*_best_files.zip beside the sheet")


def class_file(path: str) -> tuple[Submission, ...]:
    """A class file of answers (``HAND,ANSWER,ID``): each student's rows."""
    from .answers import read_answers

    try:
        students = read_answers(path)
    except OSError as error:
        raise SourceError(f"{path} cannot be read ({error.strerror}): give a folder of "
                          f"modules, a Gradescope export, a PrairieLearn download or a "
                          f"class file of answers") from None
    if not any(row.answer is not None for rows in students.values() for row in rows):
        raise SourceError(f"{path} holds no answers: give a folder of modules, a "
                          f"Gradescope export (zip or folder), a PrairieLearn download, or "
                          f"a class file with a line per answer, HAND,ANSWER,ID (as "
                          f"bidder grade reads it)")
    return tuple(Submission(student, answers=tuple(rows))
                 for student, rows in sorted(students.items()))
