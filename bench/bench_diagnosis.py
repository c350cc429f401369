"""How long `bidder check` takes with the diagnosis over the whole space of misreadings:
the default 1,045 hands, a student module reading the rules as each of a few misreadings
(written out by bidder.checker.standalone), checked end to end, wall time.

    .venv/bin/python bench/bench_diagnosis.py
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bidder.checker.check import build_cases, check_module
from bidder.checker.diagnosis import diagnose
from bidder.checker.standalone import module_source
from bidder.misreadings import variant_by_id

STUDENTS = ("r3-unbalanced-only", "R1.hcp=15-18", "balanced=no-minor-five",
            "R6.choose=higher-last", "R1.points=16-18+none-as-string", "lower-case-bids",
            "hcp.J=0", "swap=R5/R8")  # the last ties: further hands are asked to tell them
RUNS = 3


def main() -> None:
    """Print the wall time of a whole check (with further hands asked where misreadings
    tie), and of the diagnosis alone (asking none), per student, and the load average."""
    build_cases(1045, 1)  # the hands, as a warm server has them
    with tempfile.TemporaryDirectory() as folder:
        for student in STUDENTS:
            path = Path(folder) / "solution.py"
            path.write_text(module_source(variant_by_id(student)), encoding="utf-8")
            walls, alone = [], []
            for _ in range(RUNS):
                start = time.perf_counter()
                report = check_module(str(path))
                walls.append(time.perf_counter() - start)
                start = time.perf_counter()
                diagnose(report)
                alone.append(time.perf_counter() - start)
            named = report.diagnosis.variant.id if report.diagnosis else "nothing"
            asked = report.diagnosis.asked if report.diagnosis else 0
            print(f"{student:34} check {statistics.median(walls):.3f} s, diagnosis "
                  f"{statistics.median(alone):.3f} s: {named}"
                  + (f" ({asked} further hands asked)" if asked else ""), file=sys.stdout)
    print("load average: " + " ".join(f"{load:.2f}" for load in os.getloadavg()))


if __name__ == "__main__":
    main()
