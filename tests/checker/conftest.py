"""Fixtures for the checker's tests."""

import pytest

from helpers import uid_taken

NOBODY = 65534


@pytest.fixture
def nobody():
    """nobody's uid for this test alone, among all the tests running at once: the test
    runs the checker, or the student's code, as nobody, and a check's reaper kills every
    process of its student's uid."""
    with uid_taken(NOBODY):
        yield NOBODY
