"""docs/misreadings.md: its examples run as written."""

import doctest
from pathlib import Path

PAGE = Path(__file__).parent.parent / "docs" / "misreadings.md"


def test_the_misreadings_page_examples_run():
    result = doctest.testfile(str(PAGE), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 8 and result.failed == 0
