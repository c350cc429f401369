"""The README's examples run as written."""

import doctest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_examples_run():
    result = doctest.testfile(str(README), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0
