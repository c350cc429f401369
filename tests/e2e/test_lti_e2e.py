"""bidder in a course, in a real headless Chromium: the LMS is a real LTI 1.3 platform
(lti1p3platform, served by the test), bidder is served by gunicorn. The instructor adds
a practice set with the LMS's dialog; a student launches it, bids the round, and the
score reaches the gradebook with no button pressed; a launch page reloaded is refused."""

import tempfile
from pathlib import Path

import pytest

from bidder import explain
from bidder.web.lti.platforms import Platform, register
from bidder.web.state import open_store
from lti_platform import Platform as LMS
from served import serving
from test_teach_e2e import button_name, press

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def course():
    """bidder served with a store of its own, and an LMS it trusts: (bidder's address,
    the LMS)."""
    with tempfile.TemporaryDirectory() as folder:
        state = f"sqlite:///{Path(folder) / 'state.sqlite3'}"
        with serving({"BIDDER_STATE_URL": state, "BIDDER_LTI_KEY_FOLDER": folder}) as site:
            with LMS(site) as lms:
                register(open_store(state), Platform(**lms.add_args()))
                yield site, lms


def bid_the_round(page) -> None:
    """Bid every hand of the round on the table rightly, to its summary."""
    while page.locator("#summary-title").count() == 0:
        hand = page.locator('input[name="hand"]').first.input_value()
        press(page, button_name(explain(hand).bid))
        last = page.get_by_role("button", name="Round summary").count()
        press(page, "Round summary" if last else "Next hand")


def test_a_placed_set_is_bid_and_its_score_reaches_the_gradebook(course, new_page, axe,
                                                                 browser_errors):
    site, lms = course
    teacher = new_page()
    teacher.goto(lms.start_url("dl", "teacher1"))
    teacher.wait_for_url(f"{site}/lti/launch")
    assert axe(teacher) == []
    teacher.get_by_label("A practice set").check()
    teacher.get_by_label("Set (the same hands for everyone), 0 to", exact=False).fill("21")
    teacher.get_by_label("Only these rules", exact=False).fill("R1,R2")
    teacher.get_by_role("button", name="Add to the course").click()
    teacher.wait_for_url(f"{lms.url}/deep-link-return")
    assert teacher.locator("#placed").inner_text() == "Placed 1 item(s)"
    (link,) = lms.course.links

    student = new_page()
    student.goto(lms.start_url(f"link:{link}", "student1"))
    student.wait_for_url(f"{site}/practice")
    bid_the_round(student)
    (score,) = lms.course.scores
    assert (score["userId"], score["scoreGiven"]) == ("student1", score["scoreMaximum"])

    teacher.goto(lms.start_url(f"link:{link}", "teacher1"))
    teacher.wait_for_url(f"{site}/lti/scores")
    assert "sent" in teacher.locator("#lti-scores").inner_text()
    assert axe(teacher) == []
    assert browser_errors == []


def test_a_launch_page_reloaded_is_refused_saying_what_to_do(course, new_page):
    site, lms = course
    teacher = new_page()
    teacher.goto(lms.start_url("dl", "teacher2"))
    teacher.wait_for_url(f"{site}/lti/launch")
    teacher.reload()  # the browser posts the launch again
    assert "Launch the activity again from the course" in teacher.locator("#lti-why").inner_text()
