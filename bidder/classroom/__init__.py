"""A whole class's submissions: read from a folder or a grader's export, each checked as
``bidder check`` checks one (or its results read back), and reported together.

The modules, lowest first: ``outcome`` (what one student's check comes to), ``sources``
(the submissions found in a folder, a Gradescope export, a PrairieLearn download or a
class file), ``answers`` (a class file's answers judged and diagnosed), ``checking`` (every submission checked, in parallel), ``summary`` (the class report's
model), ``data`` and ``text`` (the report as JSON data and as text), ``html`` (one
self-contained page, the only one that needs Jinja2).
"""

from .checking import check_class
from .outcome import Outcome
from .sources import SourceError, Submission, read_submissions
from .summary import ClassReport, summarise

__all__ = ["ClassReport", "Outcome", "SourceError", "Submission", "check_class",
           "read_submissions", "summarise"]
