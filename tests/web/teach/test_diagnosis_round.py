"""Practice's "Find my misreading" round: the item asked, answers carried across steps in
the cookie, how sure it is in the teacher's words, the teaching hands, the check again
and what a finished round tells a course's gradebook."""

import html
import re

import pytest

from bidder import packed
from bidder.cards import parse_hand
from bidder.diagnosis import Candidate
from bidder.diagnosis.hypotheses import answers as read_as
from bidder.misreadings import variant_by_id
from bidder.web.teach import diagnosis_round as round_module
from bidder.web.teach.diagnosis_round import (CHECKED, KEPT_ANSWERS, MOVED_ON, SESSION_KEY,
                                              TAUGHT, Round, answered_right, restore,
                                              right_bid)
from bidder.web.teach.finished import DIAGNOSIS, FINISHED_HOOKS, Finished
from bidder.web.teach.sureness import in_words

PAGE = "/practice/diagnosis"
ITEM = re.compile(r'name="item" value="([^"]*)"')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
HAND = "AKQ2.K32.KQ2.432"  # 17 HCP, balanced: 1NT by the rules


def text_of(response) -> str:
    page = re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))
    return " ".join(html.unescape(page).split())


def form_of(client) -> tuple[str, list[str], set[str], str]:
    """The item on the page: its key, its hands, the counts it asks, the CSRF token."""
    page = client.get(PAGE).get_data(as_text=True)
    key = html.unescape(ITEM.search(page).group(1))
    asked = {name for name in ("hcp", "distribution") if f'name="{name}-0"' in page}
    return key, key.split(","), asked, CSRF.search(page).group(1)


def token(client) -> str:
    return CSRF.search(client.get(PAGE).get_data(as_text=True)).group(1)


def post(client, path, data=None):
    return client.post(PAGE + path, data={"csrf_token": token(client), **(data or {})})


def student(reading):
    """Answers for each hand as a student holding *reading* (None: the rules) gives them."""
    variant = None if reading is None else variant_by_id(reading)

    def answer(hand: str):
        return read_as(variant, packed.encode_cards(parse_hand(hand).cards))
    return answer


def answer_item(client, answering) -> None:
    key, hands, asked, csrf = form_of(client)
    data = {"csrf_token": csrf, "item": key}
    for place, hand in enumerate(hands):
        bid, hcp, distribution = answering(hand)
        data[f"bid-{place}"] = "None" if bid is None else bid
        if "hcp" in asked:
            data[f"hcp-{place}"] = str(hcp)
        if "distribution" in asked:
            data[f"distribution-{place}"] = str(distribution)
    assert client.post(PAGE + "/answer", data=data).status_code == 303


def state_of(client) -> Round:
    with client.session_transaction() as session:
        return restore(session[SESSION_KEY])


def play(client, answering) -> Round:
    """Answer items until the round has told what it found."""
    client.get(PAGE)
    while state_of(client).phase == "asking":
        answer_item(client, answering)
    return state_of(client)


@pytest.fixture
def calls(app):
    """What the round tells whoever listens (a course's gradebook), as a listener hears it."""
    heard = []
    app.extensions.setdefault(FINISHED_HOOKS, []).append(heard.append)
    return heard


def test_the_first_step_asks_a_hand_with_a_bid_for_it(client):
    response = client.get(PAGE)
    page = text_of(response)
    assert response.status_code == 200
    assert "Find my misreading" in page and "Your opening bid for hand 1" in page
    assert "So far" not in page


def test_a_student_answering_as_a_misreading_is_told_it_then_taught_then_checked(
        client, calls):
    reading = "1nt-15-17"
    state = play(client, student(reading))
    variant = variant_by_id(reading)
    assert (state.phase, state.taught) == ("told", reading)
    page = text_of(client.get(PAGE))
    assert f"Almost certainly: {variant.sentence}" in page
    assert "Hands this reading gets wrong" in page and "Read that way" in page
    comment = f"Your answers fit a misreading: {variant.sentence}"
    assert calls == [Finished(DIAGNOSIS, answered_right(state.answers), len(state.answers),
                              comment)]
    assert calls[0].right < calls[0].hands
    assert post(client, "/check").status_code == 303
    key, hands, asked, csrf = form_of(client)
    assert len(hands) == CHECKED and not asked
    assert all(student(reading)(hand)[0] != right_bid(hand) for hand in hands)
    data = {"csrf_token": csrf, "item": key}
    data |= {f"bid-{place}": right_bid(hand) or "None" for place, hand in enumerate(hands)}
    client.post(PAGE + "/checked", data=data)
    page = text_of(client.get(PAGE))
    assert f"All {CHECKED} answered as the assignment says" in page
    assert calls[1] == Finished(DIAGNOSIS, calls[0].right + CHECKED, calls[0].hands + CHECKED,
                                comment)


def test_a_check_again_still_answered_as_the_misreading_says_so(client, calls):
    reading = "1nt-15-17"
    play(client, student(reading))
    post(client, "/check")
    key, hands, _, csrf = form_of(client)
    data = {"csrf_token": csrf, "item": key}
    data |= {f"bid-{place}": student(reading)(hand)[0] or "None"
             for place, hand in enumerate(hands)}
    client.post(PAGE + "/checked", data=data)
    assert f"0 of {CHECKED} answered as the assignment says" in text_of(client.get(PAGE))
    assert (calls[-1].right, calls[-1].hands) == (calls[0].right, calls[0].hands + CHECKED)


def test_a_student_answering_by_the_rules_gets_the_rules_and_no_teaching(client, calls):
    state = play(client, student(None))
    page = text_of(client.get(PAGE))
    assert state.taught == "" and "Hands this reading gets wrong" not in page
    assert "you read the rules as the assignment writes them" in page
    assert calls == [Finished(DIAGNOSIS, len(state.answers), len(state.answers), "")]


def test_a_reader_outside_the_space_the_round_will_not_name_is_told_so(client):
    """R8 read as 5-10 points misses a probe of R8.points=6-10 on every hand: the round
    ends at its budget without a name, and says the likeliest is probable only (and
    teaches it, as it teaches any probable reading at the budget's end)."""
    state = play(client, student("R8.points=5-10"))
    page = text_of(client.get(PAGE))
    assert state.phase == "told" and "Almost certainly" not in page
    assert ("Probably: 4 of a suit (R8) is read as needing 6-10 points. Some of your "
            "answers do not fit it, so it is not named") in page


def test_answers_are_carried_across_steps_and_said_so_far(client):
    _, hands, _, _ = form_of(client)
    answer_item(client, student(None))
    assert [row[0] for row in state_of(client).answers] == hands
    assert "So far: " in text_of(client.get(PAGE))


@pytest.mark.parametrize("field, value, message", [
    ("bid-0", "", "Choose a bid"),
    ("bid-0", "8NT", "8NT"),
], ids=["no bid chosen", "a bid no rule makes"])
def test_an_answer_that_cannot_be_read_is_shown_again_saying_why(client, field, value,
                                                                  message):
    key, hands, asked, csrf = form_of(client)
    data = {"csrf_token": csrf, "item": key, "bid-0": "1C", "hcp-0": "12",
            "distribution-0": "1", field: value}
    response = client.post(PAGE + "/answer", data=data)
    assert response.status_code == 400
    assert 'aria-invalid="true"' in response.get_data(as_text=True)
    assert state_of(client).answers == ()


def test_a_count_that_is_not_a_number_is_refused_when_counts_are_asked(client,
                                                                        monkeypatch):
    monkeypatch.setattr(round_module, "diagnosis_of", lambda state: {
        "next": {"hands": [HAND], "ask": ["bid", "hcp", "distribution"]},
        "candidates": [{"misreading": "rules", "probability": 0.5, "text": "Rules."},
                       {"misreading": "none", "probability": 0.5, "text": "None."}],
        "named": None, "confidence": 0.5})
    data = {"csrf_token": token(client), "item": HAND, "bid-0": "1NT", "hcp-0": "lots",
            "distribution-0": "41"}
    page = text_of(client.post(PAGE + "/answer", data=data))
    assert "HCP of hand 1 'lots' is not a whole number" in page
    assert "Distribution points of hand 1 '41' is out of range" in page


@pytest.mark.parametrize("path", ["/answer", "/checked"], ids=["an item", "a check"])
def test_a_form_for_another_step_is_not_taken(client, path):
    client.get(PAGE)
    response = post(client, path, {"item": HAND, "bid-0": "1NT"})
    assert response.status_code == 303
    assert MOVED_ON in text_of(client.get(PAGE))
    assert state_of(client).answers == ()


def test_checking_starts_only_once_a_reading_is_taught(client):
    client.get(PAGE)
    post(client, "/check")
    assert state_of(client).phase == "asking"


def test_a_new_round_starts_afresh(client):
    answer_item(client, student(None))
    post(client, "/again")
    assert state_of(client).answers == ()


def test_the_round_ends_when_the_cookie_holds_as_many_answers_as_it_keeps(client, calls,
                                                                          monkeypatch):
    monkeypatch.setattr(round_module, "diagnosis_of", lambda state: {
        "next": {"hands": [HAND], "ask": ["bid"]},
        "candidates": [{"misreading": "rules", "probability": 0.5, "text": "Rules."},
                       {"misreading": "none", "probability": 0.5, "text": "None."}],
        "named": None, "confidence": 0.5})
    rows = ((HAND, "1NT", None, None),) * (KEPT_ANSWERS - 2)
    with client.session_transaction() as session:
        session[SESSION_KEY] = {**vars(Round(seed=1, answers=rows)), "answers": rows}
    answer_item(client, student(None))
    assert state_of(client).phase == "asking" and not calls  # one more fits
    answer_item(client, student(None))
    assert state_of(client).phase == "told" and len(state_of(client).answers) == KEPT_ANSWERS
    assert calls == [Finished(DIAGNOSIS, KEPT_ANSWERS, KEPT_ANSWERS, "")]


@pytest.mark.parametrize("stored", [
    None, {"seed": -1}, {"seed": 1, "phase": "dancing"},
    {"seed": 1, "answers": [["AKQ2.K32.K32.43", "1NT", None, None]]},
    {"seed": 1, "answers": [[HAND, "8NT", None, None]]},
    {"seed": 1, "answers": [[HAND, "1NT", 99, None]]},
    {"seed": 1, "answers": [[HAND, "1NT", None]]},
    {"seed": 1, "answers": [[HAND, None, None, None]] * (KEPT_ANSWERS + 1)},
    {"seed": 1, "taught": "no-such-reading"},
    {"seed": 1, "wrong": 1},
], ids=["nothing", "a negative seed", "an unknown phase", "a hand of 12 cards",
        "a bid no rule makes", "a count past the most", "an answer of three parts",
        "more answers than are kept", "an unknown reading", "an unknown field"])
def test_a_stored_round_that_makes_no_sense_is_begun_again(stored):
    assert restore(stored) is None


def test_a_stored_round_reads_back_as_it_was_saved():
    state = Round(seed=3, answers=((HAND, None, 16, 0),), phase="told", taught="1nt-15-17")
    stored = {**vars(state), "answers": [list(row) for row in state.answers]}
    assert restore(stored) == state


@pytest.mark.parametrize("candidates, words", [
    ([("none", 0.6)], "None of the readings we know fits your answers"),
    ([("none", 0.59), ("rules", 0.41)], "Not told apart yet: none of the readings we know, "
                                        "or you read the rules as the assignment writes"),
    ([("1nt-15-17", 0.95)], "Almost certainly: 1NT is read as 15-17 HCP"),
    ([("1nt-15-17", 0.9499), ("rules", 0.05)], "Probably: 1NT is read as 15-17 HCP"),
    ([("rules", 0.6)], "Probably: you read the rules as the assignment writes them."),
    ([("rules", 0.59)], "Probably: you read the rules"),
    ([("rules", 0.59), ("1nt-15-17", 0.41)],
     "Not told apart yet: you read the rules as the assignment writes them, or 1NT is "
     "read as 15-17 HCP"),
], ids=["none of them at 0.6", "none just below 0.6 is not told apart",
        "almost certainly at 0.95", "probably just below 0.95", "probably at 0.6",
        "one candidate alone is probable", "two below 0.6 are not told apart"])
def test_how_sure_the_round_is_in_the_teachers_words(candidates, words):
    said = in_words([Candidate(name, probability, "") for name, probability in candidates])
    assert said.startswith(words)


@pytest.mark.parametrize("top, unnamed, words", [
    (1.0, True, "Probably: 4 of a suit (R8) is read as needing 6-10 points. Some of your "
                "answers do not fit it, so it is not named"),
    (0.95, True, "Probably: "),
    (0.95, False, "Almost certainly: "),
    (0.9, True, "Probably: "),
], ids=["over, its likeliest not named (a probe refuted it)", "the same at 0.95",
        "named at 0.95", "over below 0.95: probable, as before"])
def test_a_round_over_without_naming_its_likeliest_says_probably_and_why(top, unnamed,
                                                                          words):
    """R8 read as 5-10 points missed the probe of R8.points=6-10 on every hand: the round
    ends without a name, R8.points=6-10 at 1.00, and the page had said "almost
    certainly"."""
    said = in_words([Candidate("R8.points=6-10", top, "")], unnamed=unnamed)
    assert said.startswith(words)
    assert ("so it is not named" in said) is (unnamed and top >= 0.95)


@pytest.mark.parametrize("top, second, said", [
    (0.97, None, False), (0.97, 0.0499, False), (0.97, 0.05, True), (0.9, 0.2, False),
], ids=["no second weighed", "a second just under 1 in 20: not said",
        "a second at 1 in 20: said", "not named: no second said"])
def test_a_second_misreading_not_ruled_out_is_said_beside_the_one_named(top, second, said):
    words = in_words([Candidate("1nt-15-17", top, "")], second)
    assert ("second misreading beside it is not ruled out" in words) is said
    assert not said or f"about {round(100 * second)} % likely" in words


def test_the_answers_right_are_those_the_rules_bid():
    assert answered_right(((HAND, "1NT", None, None), (HAND, "1C", 16, 0))) == 1
    assert right_bid(HAND) == "1NT" and parse_hand(HAND)


def test_a_check_again_with_a_bid_missing_is_shown_again(client):
    play(client, student("1nt-15-17"))
    post(client, "/check")
    key, hands, _, csrf = form_of(client)
    response = client.post(PAGE + "/checked", data={"csrf_token": csrf, "item": key})
    assert response.status_code == 400 and "check again" in text_of(response)
    assert state_of(client).phase == "checking"


def test_a_ladder_is_answered_together_each_hand_with_its_counts(client, monkeypatch):
    ladder = [HAND, "AKQ2.K32.KQ2.532"]
    monkeypatch.setattr(round_module, "diagnosis_of", lambda state: {
        "next": {"hands": ladder, "ask": ["bid", "hcp"]},
        "candidates": [{"misreading": "rules", "probability": 0.5, "text": "Rules."},
                       {"misreading": "none", "probability": 0.5, "text": "None."}],
        "named": None, "confidence": 0.5})
    page = client.get(PAGE).get_data(as_text=True)
    assert "These 2 hands have one shape and rising points" in page
    assert 'name="hcp-1"' in page and 'name="distribution-0"' not in page
    data = {"csrf_token": token(client), "item": ",".join(ladder), "bid-0": "1NT",
            "hcp-0": "17", "bid-1": "None", "hcp-1": "17"}
    assert client.post(PAGE + "/answer", data=data).status_code == 303
    assert state_of(client).answers == ((HAND, "1NT", 17, None), (ladder[1], None, 17, None))
