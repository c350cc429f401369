"""Live-update streams are bounded per client (a device, the instructor's browser, else
an address) and per poll, in each worker: one more is refused at once with Retry-After,
a closed stream gives its slot back, and a class of phones with a stream each is served."""

import pytest

from bidder.web import create_app
from bidder.web.live import streams

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"


def make_app(tmp_path, **config):
    return create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "LIVE_STREAM_SECONDS": 0,
                       "SECRET_KEY": "test-secret-key-not-for-production",
                       "STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}", **config})


@pytest.mark.parametrize("held, asked, answer", [
    ({}, ("a", "p"), ""),
    ({("a", "p"): 1}, ("a", "p"), ""),
    ({("a", "p"): 2}, ("a", "p"), "client"),
    ({("a", "p"): 2}, ("b", "p"), ""),
    ({("a", "p"): 2, ("b", "p"): 1}, ("c", "p"), "poll"),
    ({("a", "p"): 2, ("b", "p"): 1}, ("c", "q"), ""),
], ids=["the-first", "one-below-the-client-s-bound", "at-the-client-s-bound-refused",
        "another-client-served", "at-the-poll-s-bound-refused", "another-poll-served"])
def test_slots_refuse_one_more_than_a_client_s_or_a_poll_s_bound(held, asked, answer):
    slots = streams.Slots(per_client=2, per_poll=3)
    for (client, poll), count in held.items():
        for _ in range(count):
            assert slots.take(client, poll) == ""
    assert slots.take(*asked) == answer


def test_a_slot_given_back_is_free_again_and_nothing_is_left_counted():
    slots = streams.Slots(per_client=1, per_poll=1)
    assert slots.take("a", "p") == "" and slots.take("a", "p") == "client"
    slots.give_back("a", "p")
    assert slots.take("b", "p") == ""
    slots.give_back("b", "p")
    assert not slots.clients and not slots.polls


def opened(app):
    answer = app.test_client().post("/api/polls", json={"hand": HAND})
    return answer.json["code"]


def joined(app, code):
    phone = app.test_client()
    phone.get(f"/live/{code}")
    return phone


@pytest.mark.parametrize("client", ["device", "address", "instructor"])
@pytest.mark.parametrize("count, served", [(2, 2), (3, 2)], ids=["at-the-bound", "one-above"])
def test_one_client_holds_only_a_few_streams(tmp_path, client, count, served):
    app = make_app(tmp_path, LIVE_STREAMS_PER_CLIENT=2)
    code = opened(app)
    if client == "device":
        holder = joined(app, code)
    elif client == "address":
        holder = app.test_client()
    else:
        holder = app.test_client()
        code = holder.post("/live", data={"hand": HAND}).location.split("/")[2]
    answers = [holder.get(f"/live/{code}/events") for _ in range(count)]
    assert [answer.status_code for answer in answers] == [200] * served + [429] * (
        count - served)
    if count > served:
        assert 0 < int(answers[-1].headers["Retry-After"]) <= streams.RETRY_SECONDS
        assert "close another tab" in answers[-1].get_data(as_text=True)
    others = joined(app, code).get(f"/live/{code}/events")
    assert others.status_code == 200  # another device is not held back
    answers[0].close()
    assert holder.get(f"/live/{code}/events").status_code == 200  # a slot given back


@pytest.mark.parametrize("phones, refused", [(3, 0), (4, 1)], ids=["at-the-bound", "one-above"])
def test_a_poll_holds_a_bounded_number_of_streams(tmp_path, phones, refused):
    app = make_app(tmp_path, LIVE_STREAMS_PER_POLL=3)
    code = opened(app)
    answers = [joined(app, code).get(f"/live/{code}/events") for _ in range(phones)]
    assert [answer.status_code for answer in answers] == [200] * (phones - refused) + [
        503] * refused
    if refused:
        assert int(answers[-1].headers["Retry-After"]) > 0
        assert "votes are taken meanwhile" in answers[-1].get_data(as_text=True)
    other = opened(app)
    assert joined(app, other).get(f"/live/{other}/events").status_code == 200


def test_a_class_of_200_phones_with_a_stream_each_is_all_served(tmp_path):
    app = make_app(tmp_path)
    code = opened(app)
    answers = [joined(app, code).get(f"/live/{code}/events") for _ in range(200)]
    assert {answer.status_code for answer in answers} == {200}


def test_a_thousand_streams_with_one_phone_s_cookie_are_a_few_served_the_rest_refused(
        tmp_path):
    app = make_app(tmp_path)
    code = opened(app)
    phone = joined(app, code)
    statuses = [phone.get(f"/live/{code}/events").status_code for _ in range(1000)]
    assert statuses == [200] * streams.PER_CLIENT + [429] * (1000 - streams.PER_CLIENT)


def test_a_stream_closed_before_it_was_read_gives_its_slot_back(tmp_path):
    app = make_app(tmp_path, LIVE_STREAMS_PER_CLIENT=1)
    code = opened(app)
    phone = joined(app, code)
    for _ in range(3):
        answer = phone.get(f"/live/{code}/events")
        assert answer.status_code == 200
        answer.close()
        answer.close()  # a second close gives back nothing more
    assert not app.extensions[streams.EXTENSION].clients
