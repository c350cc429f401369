"""bidder launched from a real LTI 1.3 platform (lti1p3platform, served): deep linking
places an activity, a student's launch opens it, a finished practice set's or
diagnostic round's score reaches the gradebook once, with the misreading named, and the live poll knows who
voted what."""

import html
import re

import pytest

from bidder import packed
from bidder.diagnosis.hypotheses import answers as read_as
from bidder.misreadings import variant_by_id
from bidder.variants import CATALOGUE
from bidder.web.lti import grades
from bidder.web.teach.reading import round_reading
from bidder.web.lti.own_key import key_of
from bidder.web.state import store_of
from lti_helpers import fields, launch


def place(tool, lms, form: dict) -> str:
    """The instructor adds an item with the LMS's dialog: the id of the link placed."""
    answer = launch(tool, lms, "dl", "teacher1")
    assert answer.status_code == 200 and 'id="lti-pick"' in answer.text
    token = re.search(r'name="csrf_token" value="([^"]+)"', answer.text)[1]
    chosen = tool.post("/lti/pick", data={"csrf_token": token, **form})
    assert chosen.status_code == 200, chosen.text
    assert "form-action 'self' " + lms.url in chosen.headers["Content-Security-Policy"]
    import requests
    placed = requests.post(f"{lms.url}/deep-link-return", data=fields(chosen.text),
                           timeout=10)
    assert placed.status_code == 200, placed.text
    return f"link{len(lms.course.links)}"


def as_misread(variant):
    """What a student who reads the rules as *variant* bids on a hand."""
    def bid(hand: str) -> str:
        made = packed.decide(packed.read(hand), variant.rules, variant.counting)[1]
        return str(variant.written(made) or "Pass")
    return bid


def answer_round(tool, wrong=None) -> list[tuple[str, str, bool]]:
    """Bid every hand of the round on the table, rightly or as *wrong* (a hand to a bid)
    says: each hand, the bid given and whether it was right."""
    rows = []
    page = tool.get("/practice").text
    while 'name="hand"' in page:
        hand = re.search(r'name="hand" value="([^"]+)"', page)[1]
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)[1]
        from bidder import explain
        right = str(explain(hand).bid or "Pass")
        bid = wrong(hand) if wrong else right
        rows.append((hand, bid if bid != "Pass" else None, bid == right))
        tool.post("/practice/answer", data={"csrf_token": token, "hand": hand, "bid": bid})
        page = tool.get("/practice").text
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)[1]
        tool.post("/practice/next", data={"csrf_token": token, "hand": hand})
        page = tool.get("/practice").text
    return rows


def test_a_placed_practice_set_sends_its_score_once_to_one_column(tool, platform, lti_app):
    link = place(tool, platform, {"activity": "practice", "set": "7", "rule": "R1,R2"})
    column = platform.course.links[link]["column"]
    assert platform.course.columns[column]["scoreMaximum"] > 0
    opened = launch(tool, platform, f"link:{link}", "student1")
    assert opened.status_code == 303 and "/practice?set=7" in opened.headers["Location"]
    tool.get(opened.headers["Location"])
    answer_round(tool)
    (score,) = platform.course.scores
    assert (score["userId"], score["column"]) == ("student1", column)
    assert score["scoreGiven"] == score["scoreMaximum"]
    assert score["gradingProgress"] == "FullyGraded"
    (post,) = grades.queued(store_of(lti_app))
    assert post.state == grades.POSTED


def test_a_wrong_round_is_commented_with_its_misreading_when_one_is_named(
        tool, platform):
    link = place(tool, platform, {"activity": "practice", "set": "3", "rule": "R3"})
    opened = launch(tool, platform, f"link:{link}", "student2")
    tool.get(opened.headers["Location"])
    reading = round_reading(answer_round(tool, wrong=as_misread(CATALOGUE[1])))
    (score,) = platform.course.scores
    assert score["scoreGiven"] < score["scoreMaximum"] and reading is not None
    assert score["comment"] == f"Your answers fit a misreading: {reading.variant.sentence}"


def test_a_failed_post_waits_with_its_reason_then_goes_through(tool, platform, lti_app):
    link = place(tool, platform, {"activity": "practice", "set": "5", "bid": "1NT"})
    platform.course.refuse_scores = 1
    opened = launch(tool, platform, f"link:{link}", "student3")
    tool.get(opened.headers["Location"])
    answer_round(tool)
    assert platform.course.scores == []
    (post,) = grades.queued(store_of(lti_app))
    assert post.state == grades.PENDING and "503" in post.why
    teacher = lti_app.test_client()
    shown = launch(teacher, platform, f"link:{link}", "teacher1")
    assert shown.headers["Location"].endswith("/lti/scores")
    page = teacher.get("/lti/scores")
    assert "503" in page.text and "student3" in page.text
    (tried,) = grades.retry_due(store_of(lti_app), key_of(lti_app),
                                now=post.due)
    assert tried.state == grades.POSTED and len(platform.course.scores) == 1


@pytest.mark.parametrize("activity", ["diagnosis"])
def test_the_diagnostic_round_opens_its_page(tool, platform, activity):
    link = place(tool, platform, {"activity": activity})
    opened = launch(tool, platform, f"link:{link}", "student1")
    assert opened.headers["Location"] == "/practice/diagnosis"


def diagnosis_round(tool, reading: str) -> int:
    """Answer the diagnostic round's items as a student reading the rules as *reading*
    until it says what it found: how many answers were given."""
    variant, given = variant_by_id(reading), 0
    page = tool.get("/practice/diagnosis").text
    while 'name="item"' in page and "/practice/diagnosis/answer" in page:
        key = html.unescape(re.search(r'name="item" value="([^"]*)"', page)[1])
        data = {"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page)[1],
                "item": key}
        for place, hand in enumerate(key.split(",")):
            bid, hcp, distribution = read_as(variant, packed.read(hand))
            data |= {f"bid-{place}": "None" if bid is None else bid,
                     f"hcp-{place}": str(hcp), f"distribution-{place}": str(distribution)}
        assert tool.post("/practice/diagnosis/answer", data=data).status_code == 303
        given += len(key.split(","))
        page = tool.get("/practice/diagnosis").text
    return given


def test_a_diagnostic_round_sends_its_score_and_the_misreading_it_named(tool, platform):
    link = place(tool, platform, {"activity": "diagnosis"})
    opened = launch(tool, platform, f"link:{link}", "student4")
    tool.get(opened.headers["Location"])
    given = diagnosis_round(tool, "1nt-15-17")
    (score,) = platform.course.scores
    assert score["userId"] == "student4" and score["scoreMaximum"] == given
    assert score["scoreGiven"] < given
    assert score["comment"] == ("Your answers fit a misreading: "
                                + variant_by_id("1nt-15-17").sentence)


@pytest.mark.parametrize("names, shown", [("1", "Name of student9"), ("", "student9")],
                         ids=["names allowed", "user ids only"])
def test_the_poll_knows_who_voted_what_for_its_instructor_alone(tool, platform, lti_app,
                                                                names, shown):
    link = place(tool, platform, {"activity": "poll", "names": names})
    student = lti_app.test_client()
    early = launch(student, platform, f"link:{link}", "student9")
    assert early.status_code == 409
    host = launch(tool, platform, f"link:{link}", "teacher1")
    code = re.search(r"/live/([A-Z0-9]+)/host", host.headers["Location"])[1]
    joined = launch(student, platform, f"link:{link}", "student9")
    assert joined.headers["Location"] == f"/live/{code}"
    page = student.get(f"/live/{code}").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)[1]
    student.post(f"/live/{code}/vote", data={"csrf_token": token, "bid": "1NT"})
    listed = tool.get(f"/live/{code}/names")
    assert shown in listed.text and "1NT" in listed.text
    assert ("Name of" in listed.text) == bool(names)
    assert student.get(f"/live/{code}/names").status_code == 403
    stranger = lti_app.test_client()
    refused = stranger.get(f"/live/{code}")
    assert refused.status_code == 403 and "takes answers only from its" in refused.text
    token = re.search(r'name="csrf_token" value="([^"]+)"', stranger.get("/practice").text)
    vote = stranger.post(f"/live/{code}/vote", data={"bid": "2C", "csrf_token": token[1]})
    assert vote.status_code == 403 and "has not joined" in vote.text


def test_an_open_poll_is_opened_again_for_its_instructor(tool, platform):
    link = place(tool, platform, {"activity": "poll"})
    first = launch(tool, platform, f"link:{link}", "teacher1").headers["Location"]
    assert launch(tool, platform, f"link:{link}", "teacher2").headers["Location"] == first


@pytest.mark.parametrize("form, words", [
    ({"activity": "chess"}, "choose a practice set"),
    ({"activity": "practice", "set": "x"}, "cannot be placed"),
], ids=["not an activity", "a set that is not a number"])
def test_a_choice_that_cannot_be_placed_is_shown_again(tool, platform, form, words):
    page = launch(tool, platform, "dl", "teacher1").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)[1]
    answer = tool.post("/lti/pick", data={"csrf_token": token, **form})
    assert answer.status_code == 400 and words in answer.text


def test_a_choice_after_the_dialog_ended_is_refused(tool, platform):
    place(tool, platform, {"activity": "poll"})
    page = tool.get("/lti/scores").text  # any page: a fresh CSRF token
    token = re.search(r'name="csrf_token" value="([^"]+)"', tool.get("/practice").text)[1]
    answer = tool.post("/lti/pick", data={"csrf_token": token, "activity": "poll"})
    assert answer.status_code == 400 and "dialog is over" in answer.text and page


def test_another_set_than_the_placed_one_sends_no_score(tool, platform):
    link = place(tool, platform, {"activity": "practice", "set": "11", "bid": "1NT"})
    launch(tool, platform, f"link:{link}", "student1")
    tool.get("/practice?set=12&bid=1NT")
    answer_round(tool)
    assert platform.course.scores == []


def test_a_link_placed_without_a_column_gets_one_and_only_one(tool, platform, lti_app):
    platform.course.links["bare"] = {"custom": {"activity": "practice", "seed": "4",
                                                "bids": "1NT"}, "column": None}
    for student in ("student1", "student2"):
        browser = lti_app.test_client()
        opened = launch(browser, platform, "link:bare", student)
        browser.get(opened.headers["Location"])
        answer_round(browser)
    assert [column["resourceLinkId"] for column in platform.course.columns.values()
            ] == ["bare"]
    assert [score["userId"] for score in platform.course.scores] == ["student1", "student2"]


def test_a_column_another_worker_is_making_is_waited_for(tool, platform, lti_app):
    platform.course.links["bare"] = {"custom": {"activity": "practice", "seed": "4",
                                                "bids": "1NT"}, "column": None}
    opened = launch(tool, platform, "link:bare", "student1")
    store = store_of(lti_app)
    from bidder.web.lti.activities import placement_ref
    from lti_platform import DEPLOYMENT
    store.put_if_absent(f"lti:column:{placement_ref(platform.url, DEPLOYMENT, 'bare')}",
                        "making", 60)
    tool.get(opened.headers["Location"])
    answer_round(tool)
    (post,) = grades.queued(store)
    assert post.state == grades.PENDING and "another post" in post.why
    assert platform.course.columns == {}
