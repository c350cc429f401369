"""How long `bidder class` takes on a class of 300: every module checked sealed on the
default hands over the cores, then the same class read back from a Gradescope export that
already holds bidder's results (no student code run), wall time and peak memory.

    .venv/bin/python bench/bench_class.py [STUDENTS] [HANDS]
"""

from __future__ import annotations

import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

import yaml

from bidder.checker import check_module
from bidder.checker.formats import gradescope_results
from bidder.checker.standalone import module_source
from bidder.classroom import check_class, read_submissions, summarise
from bidder.classroom.checking import Settings
from bidder.misreadings import variant_by_id

READINGS = ("r3-unbalanced-only", "1nt-15-17", "no-2nt", "R1.hcp=15-18", "lower-case-bids")
CORRECT = Path(__file__).resolve().parents[1] / "tests" / "checker" / "students" / "correct.py"


def write_class(folder: Path, students: int) -> None:
    """A class: a misreading in turn for most, every fifth right, every tenth broken."""
    for number in range(students):
        path = folder / f"student{number:03}.py"
        if number % 10 == 9:
            path.write_text("def openingBid(hand:\n")
        elif number % 5 == 4:
            shutil.copy(CORRECT, path)
        else:
            path.write_text(module_source(variant_by_id(READINGS[number % len(READINGS)])))


def write_export(folder: Path, students: int, hands: int) -> None:
    """A Gradescope export of *students* submissions, each holding bidder's results."""
    sample = folder / "sample.py"
    sample.write_text(module_source(variant_by_id("r3-unbalanced-only")))
    results = gradescope_results(check_module(str(sample), hands))
    entries = {f"submission_{number}": {
        ":submitters": [{":name": f"Student {number}", ":sid": str(number)}],
        ":score": results["score"], ":results": results, ":history": []}
        for number in range(students)}
    (folder / "submission_metadata.yml").write_text(yaml.safe_dump(entries))
    sample.unlink()


def peak_mib() -> float:
    """The peak resident memory of this process and of its largest child, in MiB."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024


def main() -> None:
    """Print both figures."""
    students = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    hands = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    with tempfile.TemporaryDirectory() as folder:
        write_class(Path(folder), students)
        start = time.perf_counter()
        outcomes = list(check_class(read_submissions(folder), Settings(hands=hands)))
        report = summarise(outcomes)
        wall = time.perf_counter() - start
        print(f"checked: {students} modules, {hands} random hands each: {wall:.1f} s "
              f"({len(report.checked)} checked, {len(report.held)} misreadings held), "
              f"peak {peak_mib():.0f} MiB")
    with tempfile.TemporaryDirectory() as folder:
        write_export(Path(folder), students, hands)
        start = time.perf_counter()
        report = summarise(check_class(read_submissions(folder)))
        wall = time.perf_counter() - start
        print(f"from results: {students} submissions: {wall:.2f} s "
              f"({len(report.held)} misreadings held)")


if __name__ == "__main__":
    main()
