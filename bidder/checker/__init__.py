"""Checking a student's module: run sealed, judged against the reference with exact types,
diagnosed, and reported in words or in the formats graders read.

The modules, lowest first: ``runner`` (the only code beside the student's module, standard
library only), ``sandbox`` (running it sealed), ``report`` (the model every format reads),
``channel`` (the runner's lines read back), ``diagnosis``, ``check`` (the hands and the
whole check), ``standalone`` and ``student_tests`` (the student's own tests), ``points``,
``text`` and ``formats`` (the report), ``hardening`` (the checker before the student's
code runs), ``bundle``, ``gradescope`` and ``prairielearn`` (the graders' bundles).
"""

from .check import DEFAULT_HANDS, build_cases, check_module
from .formats import FORMATS, render
from .gradescope import Bundle, write_bundle
from .points import Grading, Weights, WeightsError, load_weights
from .report import FUNCTIONS, Report
from .sandbox import MIB, Limits
from .student_tests import grade_tests

__all__ = ["DEFAULT_HANDS", "FORMATS", "FUNCTIONS", "MIB", "Bundle", "Grading", "Limits",
           "Report", "Weights", "WeightsError", "build_cases", "check_module", "grade_tests",
           "load_weights", "render", "write_bundle"]
