"""A corpus of bad hands through every channel: the form (GET and POST) and the API
(GET and POST). Each gets a 400 with the parser's own message; none gets a 500."""

import pytest
from markupsafe import escape

from bidder import InvalidHandError, parse_hand
from bidder.web.render import visible

from markup import field, text_of

GOOD = "5C 7H AS JD 9D 2C KH 10H 4C 8H 8C AD 10C"
DECK = " ".join(rank + suit for suit in "CDHS"
                for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"))
CORPUS = [
    # empty
    "", "   ", "\n", "\t\r\n", ",,,",
    # wrong count
    GOOD.rsplit(" ", 1)[0], GOOD + " 3S", "AS", DECK, "AS KS QS",
    # duplicates
    GOOD.replace("JD", "9D"), GOOD.replace("10C", "AD"), "AS " * 13,
    "as AS ks KS qs QS js JS 10s 10S 9s 9S 8s",
    # unknown ranks
    GOOD.replace("10H", "1H"), GOOD.replace("10H", "11H"), GOOD.replace("4C", "0S"),
    GOOD.replace("4C", "ZS"), GOOD.replace("4C", "BS"), GOOD.replace("4C", "13C"),
    # unknown suits or none
    GOOD.replace("AS", "AX"), GOOD.replace("AS", "AN"), GOOD.replace("AS", "AP"),
    GOOD.replace("AS", "A"), GOOD.replace("AS", "10"),
    # suit first, run together, other separators
    GOOD.replace("5C", "C5"), GOOD.replace("10H", "H10"), "5C7HASJD9D2CKH10H4C8H8C AD 10C",
    GOOD.replace(" ", ";"), GOOD.replace(" ", "/"), GOOD.replace(" ", "|"),
    # dot notation gone wrong
    "AK32.KQ.T9", "AKQ2.J54.T9.8765.2", "AKQ2.J54.T9.87X5", "AKQ2 .J54.T9.8765", "....",
    "AS KS .", "AKQ2.J54.T9.876",
    # look-alike and invisible characters
    GOOD.replace(" ", "\u00a0"), GOOD.replace(" ", "\u3000"), GOOD.replace(" ", "\u2003"),
    GOOD.replace(" ", "\u200b"), "\ufeff" + GOOD, GOOD.replace(" ", "\u00ad"),
    "ＡS KS", "\u0410S " + GOOD[3:], "A\u017f " + GOOD[3:], "\u212aS " + GOOD[3:],
    "\u0661\u0660H " + GOOD[4:], "１０H " + GOOD[4:], "ĀS " + GOOD[3:], "A♤ " + GOOD[3:],
    "\ufe0fAS " + GOOD[3:],
    # control characters
    GOOD.replace(" ", "\x00", 1), "\x08" + GOOD, "\x1b[31m" + GOOD, GOOD + "\x7f",
    GOOD.replace(" ", "\x85", 1), GOOD.replace(" ", "\u2028", 1), GOOD.replace(" ", "\x0b"),
    # far too long
    "A" * 10_000, " " * 10_000, "10" * 5_000, (GOOD + " ") * 20,
    # markup, templates, formats, programs
    "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "javascript:alert(1)",
    "{{7*7}}", "${7*7}", "%s%s%n", "{0}", "' OR 1=1 --", "null", "None", '["AS"]',
    '{"hand": "AS"}', "../../etc/passwd",
]


def refusal(text):
    """The parser's own error for *text*."""
    with pytest.raises(InvalidHandError) as raised:
        parse_hand(text)
    return raised.value


def test_the_corpus_is_large_and_every_entry_is_refused():
    assert len(CORPUS) >= 60
    assert len(set(CORPUS)) == len(CORPUS)
    codes = {refusal(text).code for text in CORPUS}
    assert codes == {"empty", "too_long", "bad_character", "bad_card", "bad_notation",
                     "wrong_count", "duplicate_card"}


@pytest.mark.parametrize("text", CORPUS, ids=[f"{index:02}" for index in range(len(CORPUS))])
def test_the_form_and_the_api_refuse_with_the_same_message(client, text):
    problem = refusal(text)
    pages = [client.get("/", query_string={"hand": text}),
             client.post("/", data={"hand": text})]
    for page in pages:
        html = page.get_data(as_text=True)
        assert page.status_code == 400
        assert str(escape(visible(problem.message))) in html
        assert text_of(html, "hand-error").startswith("Not a hand yet:")
        assert field(html)["value"] == visible(text)
        assert field(html)["aria-invalid"] == "true"
    answers = [client.get("/api/bid", query_string={"hand": text}),
               client.post("/api/bid", json={"hand": text}),
               client.post("/api/bid", data={"hand": text})]
    for answer in answers:
        assert answer.status_code == 400
        assert answer.get_json() == {"error": {"code": problem.code,
                                               "message": problem.message}}
