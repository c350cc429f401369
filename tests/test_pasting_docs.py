"""The examples of docs/pasting-and-class-files.md run as written (doctest, ELLIPSIS)."""

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "pasting-and-class-files.md"


def test_the_pasting_page_examples_run():
    failures, tried = doctest.testfile(str(PAGE), module_relative=False,
                                       optionflags=doctest.ELLIPSIS)
    assert tried >= 10 and failures == 0
