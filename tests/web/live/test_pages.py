"""The live poll's pages: start, join, vote without JavaScript, the projector view, the
summary, and the event stream."""

import csv
import io
import json
import re

import pytest

from bidder.web import create_app
from bidder.web.live import events, ledger
from bidder.web.live.hands import NamedError, apart_for, read_ids, telling_apart
from bidder.web.live.labels import wrong_bids
from bidder.web.state import StoreUnavailable
from bidder.web.teach.practice import bid_rows

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"  # 1C by R3; 1H by R2.len=3+


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "LIVE_STREAM_SECONDS": 0,
                       "SECRET_KEY": "test-secret-key-not-for-production",
                       "PUBLIC_URL": "http://192.0.2.7:5000",
                       "STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}"})


def open_poll(app, **form):
    """A poll started from the page: the instructor's client (holding its cookie) and
    the code (the projector's address carries no key)."""
    teacher = app.test_client()
    answer = teacher.post("/live", data=form or {"source": "pasted", "hand": HAND})
    assert answer.status_code == 303
    (code,) = re.fullmatch(r"/live/(\w+)/host", answer.location).groups()
    return teacher, code


def joined_phone(app, code):
    """A phone that has joined poll *code* (its join page set the device cookie)."""
    phone = app.test_client()
    assert phone.get(f"/live/{code}").status_code == 200
    return phone


def steer(teacher, code, action, **more):
    answer = teacher.post(f"/live/{code}/host", data={"action": action, **more})
    assert answer.status_code == 303
    return answer


def test_the_start_page_offers_three_ways_to_a_hand_and_a_join_form(app):
    page = app.test_client().get("/live").get_data(as_text=True)
    for words in ("A hand I paste", "A hand dealt for a rule", "tells misreadings apart",
                  'name="code"'):
        assert words in page


@pytest.mark.parametrize("form", [{"source": "rule", "rule": "R5"}, {"source": "apart"},
                                  {"source": "apart", "misreadings": " R2.len=3+,omit=R3 "},
                                  {"hand": HAND}])
def test_a_poll_opens_on_each_kind_of_hand_with_code_and_qr(app, form):
    teacher, code = open_poll(app, **form)
    page = teacher.get(f"/live/{code}/host").get_data(as_text=True)
    assert code in page and f"/live/{code}" in page and "<svg" in page and "live-qr" in page
    assert "0</strong> answered" in page


@pytest.mark.parametrize("form, words", [
    ({"source": "pasted", "hand": "AS KS"}, "13 cards"),
    ({"source": "rule", "rule": "R42"}, "is not a rule"),
    ({"source": "apart", "misreadings": "omit=R3 bogus"}, "Misreading 2, &#39;bogus&#39;"),
])
def test_a_poll_on_no_hand_is_refused_saying_why(app, form, words):
    answer = app.test_client().post("/live", data=form)
    assert answer.status_code == 400 and words in answer.get_data(as_text=True)


def test_the_rules_offered_are_those_a_hand_can_be_dealt_for():
    from bidder.dealing import DealError, deal
    from bidder.rules import RULES
    from bidder.web.live.pages import DEALING_RULES
    for rule in RULES:
        try:
            deal(1, rule=rule)
            dealt = True
        except DealError:
            dealt = False
        assert (rule in DEALING_RULES) is dealt, rule.id
    assert "R4" not in {rule.id for rule in DEALING_RULES}


def test_the_start_form_offers_no_rule_no_hand_fires(app):
    page = app.test_client().get("/live").get_data(as_text=True)
    assert '<option value="R3">' in page and '<option value="R4">' not in page


def form_shown(page: str) -> dict:
    """What the poll's form on *page* holds: the hand source checked, the fields' values,
    the rule selected, count first and the class size."""
    found = {"source": re.search(r'name="source" value="(\w+)" checked', page).group(1),
             "rule": re.search(r'<option value="(\w+)" selected>', page)}
    found["rule"] = found["rule"] and found["rule"].group(1)
    for name in ("hand", "misreadings", "class_size"):
        field = re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)
        found[name] = field and field.group(1)
    found["count_first"] = bool(re.search(r'name="count_first" value="1" checked', page))
    return found


START_REFUSALS = [
    ({"source": "pasted", "hand": "AS KS", "class_size": "30", "count_first": "1"},
     "Check the hand.", "A hand has 13 cards; this one has 2 (missing 11). Paste a hand"),
    ({"source": "rule", "rule": "R4", "hand": "AS"}, "Check the hand.",
     "No hand fires R4: R3 always applies first"),
    ({"source": "apart", "misreadings": "omit=R3 bogus"}, "Check the misreadings.",
     "Misreading 2, &#39;bogus&#39;, is not one"),
    ({"source": "pasted", "hand": HAND, "class_size": "0"}, "Check the class size.",
     "The class size is &#39;0&#39;. Give the class size as a whole number from 1 to 1,000"),
    ({"source": "pasted", "hand": HAND, "class_size": "thirty"}, "Check the class size.",
     "The class size is &#39;thirty&#39;."),
    ({"source": "pasted", "hand": HAND, "class_size": "1001"}, "Check the class size.",
     "The class size is &#39;1001&#39;."),
]


@pytest.mark.parametrize("form, title, said", START_REFUSALS,
                         ids=["too-few-cards", "a-rule-no-hand-fires", "an-unknown-misreading",
                              "a-class-of-none", "a-class-size-in-words",
                              "a-class-larger-than-any"])
def test_a_refused_start_shows_the_form_again_as_sent_saying_why(app, form, title, said):
    answer = app.test_client().post("/live", data=form)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "Start the poll" in page
    alert = re.search(r'role="alert">\s*<p>(.*?)</p>', page, re.S).group(1)
    assert alert.startswith(f"<strong>{title}</strong> {said}") and ".." not in alert
    shown = form_shown(page)
    for name in ("source", "hand", "misreadings", "class_size"):
        assert (shown[name] or "") == form.get(name, "pasted" if name == "source" else "")
    assert shown["count_first"] is (form.get("count_first") == "1")
    if form.get("rule"):
        assert shown["rule"] is None  # R4 is not offered, so nothing is selected


def test_a_refused_next_hand_shows_the_projector_with_the_form_as_sent(app):
    teacher, code = open_poll(app)
    steer(teacher, code, "close")
    answer = teacher.post(f"/live/{code}/host", data={"action": "next", "source": "rule",
                                                       "rule": "R4"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "Vote on the next hand" in page
    assert answer.headers["Cache-Control"] == "no-store"
    assert "No hand fires R4" in page and ".." not in re.search(
        r'role="alert">(.*?)</div>', page, re.S).group(1)
    assert form_shown(page)["source"] == "rule"
    typed = teacher.post(f"/live/{code}/host", data={"action": "next", "source": "pasted",
                                                      "hand": "AS KS", "misreadings": "x"})
    shown = form_shown(typed.get_data(as_text=True))
    assert (shown["source"], shown["hand"], shown["misreadings"]) == ("pasted", "AS KS", "x")


def test_students_join_by_code_in_any_case_and_an_unknown_code_says_so(app):
    _, code = open_poll(app)
    joined = app.test_client().get(f"/live/join?code={code.lower()}")
    assert joined.status_code == 303 and joined.location == f"/live/{code}"
    missing = app.test_client().get("/live/join?code=ZZZZZ")
    assert missing.status_code == 404 and "check the code" in missing.get_data(as_text=True)


def test_a_phone_votes_with_a_plain_form_and_may_change_its_answer(app):
    teacher, code = open_poll(app)
    student = joined_phone(app, code)
    page = student.get(f"/live/{code}").get_data(as_text=True)
    assert 'name="bid" value="1C"' in page and "Your answer" not in page
    assert student.post(f"/live/{code}/vote", data={"bid": "1H"}).status_code == 303
    student.post(f"/live/{code}/vote", data={"bid": "1C"})
    page = student.get(f"/live/{code}").get_data(as_text=True)
    assert "Your answer" in page and 'aria-pressed="true"' in page
    assert "1</strong> answered" in teacher.get(f"/live/{code}/host").get_data(
        as_text=True)


def bidding_box(page: str) -> str:
    """The bidding box of a page, without the mark of a bid already chosen."""
    box = re.search(r'<fieldset>\s*<legend>Your opening bid</legend>.*?</fieldset>', page, re.S)
    return box.group(0).replace(' aria-pressed="true"', "")


def test_the_phone_draws_practice_s_bidding_box(app):
    _, code = open_poll(app)
    phone = app.test_client().get(f"/live/{code}").get_data(as_text=True)
    practice = app.test_client().get("/practice").get_data(as_text=True)
    assert bidding_box(phone) == bidding_box(practice)
    assert bidding_box(phone).count('name="bid"') == sum(map(len, bid_rows()))


def test_a_vote_that_is_no_bid_is_refused(app):
    _, code = open_poll(app)
    answer = joined_phone(app, code).post(f"/live/{code}/vote", data={"bid": "9Z"})
    assert answer.status_code == 400 and "choose a bid" in answer.get_data(as_text=True)


def test_a_vote_on_no_poll_is_refused_as_one_from_a_phone_that_did_not_join_it(app):
    _, code = open_poll(app)
    phone = joined_phone(app, code)
    missing = phone.post("/live/NOPE2/vote", data={"bid": "1C"})
    _, other = open_poll(app)
    elsewhere = phone.post(f"/live/{other}/vote", data={"bid": "1C"})
    assert missing.status_code == elsewhere.status_code == 403
    assert "has not joined poll &#39;NOPE2&#39;" in missing.get_data(as_text=True)
    assert missing.get_data(as_text=True).replace("NOPE2", other) == elsewhere.get_data(
        as_text=True)  # the same words: a vote tells nothing of which codes exist


def test_a_vote_after_the_close_is_not_taken_and_the_phone_is_told(app):
    teacher, code = open_poll(app)
    steer(teacher, code, "close")
    student = joined_phone(app, code)
    student.post(f"/live/{code}/vote", data={"bid": "1C"})
    page = student.get(f"/live/{code}").get_data(as_text=True)
    assert "The vote is closed: your answer was not taken" in page
    assert "Discuss with your neighbours" in page and 'name="bid"' not in page
    assert ledger.ballots(ledger_store(app), code, 0) == {}


def ledger_store(app):
    from bidder.web.state import store_of
    return store_of(app)


def test_the_reveal_labels_every_wrong_bar_with_its_misreadings(app):
    teacher, code = open_poll(app)
    for bid in ("1C", "1H", "1H", "1D", "4S", "None"):
        joined_phone(app, code).post(f"/live/{code}/vote", data={"bid": bid})
    before = teacher.get(f"/live/{code}/host").get_data(as_text=True)
    assert "6</strong> answered" in before and "live-bars" not in before
    steer(teacher, code, "reveal")
    page = teacher.get(f"/live/{code}/host").get_data(as_text=True)
    assert "R2.len=3+" in page and "R3.choose=shorter-lower" in page
    assert "no misreading of the rules gives this bid" in page  # 4S
    assert "the rules' answer" in page and "The answer:" in page and "R3" in page
    assert "more misreading" in page  # no bid: six misreadings, three written out
    student = app.test_client().get(f"/live/{code}").get_data(as_text=True)
    assert "The answer:" in student


def test_a_second_vote_shows_the_shift_then_the_next_hand(app):
    teacher, code = open_poll(app)
    student = joined_phone(app, code)
    student.post(f"/live/{code}/vote", data={"bid": "1H"})
    steer(teacher, code, "close")
    steer(teacher, code, "again")
    page = teacher.get(f"/live/{code}/host").get_data(as_text=True)
    assert "second vote" in page and "Discuss, then vote again" not in page
    student.post(f"/live/{code}/vote", data={"bid": "1C"})
    steer(teacher, code, "reveal")
    page = teacher.get(f"/live/{code}/host").get_data(as_text=True)
    assert "+1 since the first vote" in page and "-1 since the first vote" in page
    moved = re.sub(r"\s+", " ", re.search(r'<table class="live-moves".*?</table>', page,
                                          re.S).group(0))
    assert "From wrong to right</th> <td>1</td>" in moved
    assert "From right to wrong</th> <td>0</td>" in moved
    steer(teacher, code, "next", source="rule", rule="R8")
    assert "Hand 3" in teacher.get(f"/live/{code}/host").get_data(as_text=True)
    summary = teacher.get(f"/live/{code}/summary.json")
    assert summary.headers["Content-Disposition"] == f'attachment; filename="poll-{code}.json"'
    assert json.loads(summary.data)["misreadings"] == {"R2.len=3+": 1, "R2.len=4+": 1}
    table = teacher.get(f"/live/{code}/summary.csv")
    assert table.headers["Content-Disposition"] == f'attachment; filename="poll-{code}.csv"'
    rows = list(csv.DictReader(io.StringIO(table.get_data(as_text=True))))
    assert [(row["vote"], row["bid"], row["votes"], row["right"]) for row in rows[:4]] == [
        ("1", "1H", "1", "no"), ("1", "1C", "0", "yes"), ("2", "1C", "1", "yes"),
        ("3", rows[3]["right_bid"], "0", "yes")]
    assert rows[0]["misreadings"] == "R2.len=3+ R2.len=4+" and rows[0]["second_vote"] == "no"
    page = teacher.get(f"/live/{code}/summary.html")
    assert page.headers["Content-Disposition"] == f'attachment; filename="poll-{code}.html"'
    text = page.get_data(as_text=True)
    assert "<style>" in text and ".live-bars" in text
    assert not re.search(r'(src|href)="/', text)  # nothing loaded from the server
    assert text.count('<section class="live-reveal"') == 3
    assert "R2.len=3+</code> (1 vote)" in text and "From wrong to right" in text


def test_a_summary_of_another_kind_is_a_404_naming_the_three(app):
    teacher, code = open_poll(app)
    answer = teacher.get(f"/live/{code}/summary.pdf")
    assert answer.status_code == 404 and "summary.html, summary.csv" in answer.get_data(
        as_text=True)


@pytest.mark.parametrize("votes, said", [
    ((), "No answers yet."), (("1C",), "100 %</strong> right so far (1 of 1)"),
    (("1H",), "0 %</strong> right so far (0 of 1)"),
    (("1C", "1H", "1H"), "33 %</strong> right so far (1 of 3)"),
    (("1C", "1C", "1H"), "67 %</strong> right so far (2 of 3)")])
def test_the_instructor_s_own_view_shows_the_share_right_while_the_projector_does_not(
        app, votes, said):
    teacher, code = open_poll(app)
    for bid in votes:
        joined_phone(app, code).post(f"/live/{code}/vote", data={"bid": bid})
    own = teacher.get(f"/live/{code}/teacher").get_data(as_text=True)
    assert said in own
    assert ("R2.len=3+" in own) is ("1H" in votes) and "live-bars" in own
    projector = teacher.get(f"/live/{code}/host").get_data(as_text=True)
    assert "right so far" not in projector and "live-bars" not in projector
    assert f"/live/{code}/teacher" in projector


@pytest.mark.parametrize("path", ["host?key=wrong", "host", "summary.json?key=x",
                                  "teacher", "teacher?key=x"])
def test_the_projector_view_needs_the_admin_link(app, path):
    _, code = open_poll(app)
    answer = app.test_client().get(f"/live/{code}/{path}")
    assert answer.status_code == 403 and f"/live/{code}" in answer.get_data(as_text=True)


def test_an_unknown_step_is_refused(app):
    teacher, code = open_poll(app)
    answer = teacher.post(f"/live/{code}/host", data={"action": "explode"})
    assert answer.status_code == 400 and "close, reveal, again, next" in answer.get_data(
        as_text=True)


def test_the_next_vote_waits_for_the_close(app):
    teacher, code = open_poll(app)
    answer = teacher.post(f"/live/{code}/host", data={"action": "again"})
    assert answer.status_code == 409 and "close the vote" in answer.get_data(as_text=True)


def test_a_store_that_cannot_be_used_is_a_503_page(tmp_path):
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False,
                      "STATE_URL": f"sqlite:///{tmp_path / 'gone' / 'state.sqlite3'}"})
    (tmp_path / "gone" / "state.sqlite3").unlink()
    answer = app.test_client().post("/live", data={"hand": HAND})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "60"


def test_the_pages_forms_carry_a_csrf_token(tmp_path):
    app = create_app({"TESTING": True, "STATE_URL": f"sqlite:///{tmp_path / 's.sqlite3'}"})
    client = app.test_client()
    assert 'name="csrf_token"' in client.get("/live").get_data(as_text=True)
    assert client.post("/live", data={"hand": HAND}).status_code == 400


def test_the_event_stream_sends_the_count_and_state(app):
    _, code = open_poll(app)
    joined_phone(app, code).post(f"/live/{code}/vote", data={"bid": "1C"})
    answer = app.test_client().get(f"/live/{code.lower()}/events")
    assert answer.mimetype == "text/event-stream"
    sent = answer.get_data(as_text=True).split("\n\n")
    assert sent[0] == "retry: 2000" and sent[2:] == [""]
    assert json.loads(sent[1].removeprefix("data: ")) == {
        "round": 0, "state": "open", "answered": 1,
        "votes": events.mark(ledger.ballots(ledger_store(app), code, 0))}


def test_the_stream_s_mark_changes_with_a_changed_vote_and_only_then():
    assert events.mark({"a": "1C"}) == events.mark({"a": "1C"})
    assert len({events.mark({}), events.mark({"a": "1C"}), events.mark({"a": "1H"}),
                events.mark({"a": "1C", "b": "1C"})}) == 4


class Flaky:
    """A store whose reads go: one poll, then unavailable, then the poll, then gone."""

    def __init__(self, store, code):
        self.store, self.code, self.calls = store, code, 0

    def get(self, key):
        self.calls += 1
        if self.calls in (3, 4):
            raise StoreUnavailable("down")
        return None if self.calls > 6 else self.store.get(key)

    def fields(self, key):
        return self.store.fields(key)


def test_the_stream_rides_out_a_store_failure_and_ends_when_the_poll_goes(app):
    _, code = open_poll(app)
    sent = list(events.stream(Flaky(ledger_store(app), code), code, seconds=60, tick=0))
    assert sent[0] == "retry: 2000\n\n" and len(sent) == 3
    assert sent[-1] == "event: ended\ndata: {}\n\n"


def test_a_stream_ends_after_its_time(app):
    _, code = open_poll(app)
    sent = list(events.stream(ledger_store(app), code, seconds=0.03, tick=0.01))
    assert len(sent) == 2


def test_a_quiet_stream_sends_a_comment_now_and_then(app):
    _, code = open_poll(app)
    sent = list(events.stream(ledger_store(app), code, seconds=0.05, tick=0.01, heartbeat=0))
    assert sent[2:] and set(sent[2:]) == {": still here\n\n"}


def test_named_misreadings_that_no_hand_searched_tells_apart_are_refused_naming_them():
    with pytest.raises(NamedError, match="no hand of the 10 dealt changes the bid for 'no-2nt'"):
        apart_for(("no-2nt",), 1, search=10)


@pytest.mark.parametrize("text, ids", [("", ()), (" a ,b\nc,,", ("a", "b", "c")),
                                       ("R2.len=3+ +x", ("R2.len=3+", "+x"))])
def test_the_form_s_ids_are_split_at_commas_and_spaces(text, ids):
    assert read_ids(text) == ids


def test_the_hand_chosen_to_tell_misreadings_apart_is_the_best_of_its_search():
    chosen = telling_apart(7, search=5)
    from bidder.dealing import random_hand
    assert len(wrong_bids(chosen)) == max(len(wrong_bids(str(random_hand(7 + n))))
                                          for n in range(5))


def test_a_count_first_poll_asks_for_the_count_then_shows_the_bidding_box(app):
    teacher, code = open_poll(app, hand=HAND, count_first="1")
    student = joined_phone(app, code)
    page = student.get(f"/live/{code}").get_data(as_text=True)
    assert "First count the hand" in page and 'name="bid"' not in page
    refused = student.post(f"/live/{code}/count", data={"hcp": "lots", "distribution": ""})
    assert refused.status_code == 400
    text = refused.get_data(as_text=True)
    assert 'aria-invalid="true"' in text and "whole number" in text
    assert student.post(f"/live/{code}/count",
                        data={"hcp": "12", "distribution": "3"}).status_code == 303
    page = student.get(f"/live/{code}").get_data(as_text=True)
    assert "HCP: 12, right." in page and "you counted 3; the hand has 1" in page
    assert 'name="bid"' in page
    steer(teacher, code, "close")
    steer(teacher, code, "again")
    assert "First count the hand" in student.get(f"/live/{code}").get_data(as_text=True)


def test_a_phone_counting_points_for_its_singleton_is_told_so(app):
    _, code = open_poll(app, hand=HAND, count_first="1")
    student = joined_phone(app, code)
    student.post(f"/live/{code}/count", data={"hcp": "12", "distribution": "2"})
    page = student.get(f"/live/{code}").get_data(as_text=True)
    assert ("Your 2 fits a misreading of the counting: Distribution points are counted "
            "for short suits (void 3, singleton 2, doubleton 1) instead of long ones.") in page
    assert "spades 1 card: 2" in page


def test_a_poll_kept_before_count_first_existed_reads_as_without_it():
    from bidder.web.live.model import Poll
    assert Poll.from_json('{"code": "ABCDE", "admin": "x", "rounds": [["AS", false]]}'
                          ).count_first is False
