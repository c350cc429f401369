"""The class report as one self-contained HTML page: inline SVG charts, nothing loaded from
elsewhere, every student's text escaped (Jinja2's autoescape), readable on a phone and
printed."""

from __future__ import annotations

from pathlib import Path

import jinja2

from .data import report_data
from .summary import BINS, ClassReport

PACKAGE = Path(__file__).resolve().parent.parent
TEMPLATE = "class_report.html"


def templates_folder(package: Path = PACKAGE) -> Path:
    """The templates, inside the package (a wheel) or beside it (a checkout)."""
    inside = package / "templates"
    return inside if inside.is_dir() else package.parent / "templates"


def report_html(report: ClassReport) -> str:
    """The page, rendered from templates/class_report.html."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_folder())), autoescape=True)
    data = report_data(report)
    return environment.get_template(TEMPLATE).render(
        report=data, most=max(data["distribution"]) or 1, bins=BINS,
        checked=len(report.checked))
