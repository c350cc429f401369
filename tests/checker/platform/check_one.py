"""Run by the bundle's venv inside the container: the checker itself on one module, with the
isolation asked for; the report's verdict, isolation and text as one JSON object."""

import json
import sys

from bidder.checker.check import check_module
from bidder.checker.sandbox import Limits
from bidder.checker.text import text_report

isolation, path = sys.argv[1:3]
limits = Limits(timeout=5.0, cpu_seconds=1)  # corpus.CPU_SECONDS
report = check_module(path, hands=20, limits=limits, isolation=isolation)
print(json.dumps({"passed": report.passed, "isolation": report.isolation.describe(),
                  "text": text_report(report)}))
sys.exit(0 if report.passed else 1)
