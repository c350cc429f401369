"""Phones reach the poll: every join link and QR code is built from the public address
(BIDDER_PUBLIC_URL), never from the Host a request claims; without one the projector
says plainly that phones cannot reach this computer and what to start instead."""

import re

import pytest

from bidder.web import create_app
from bidder.web.settings import PUBLIC_URL_VARIABLE, public_url

HAND = "AS KH 10H 8H 7H AD JD 9D 10C 8C 5C 4C 2C"


def projector(tmp_path, public: str, host: str = "localhost") -> str:
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "PUBLIC_URL": public,
                      "SECRET_KEY": "test-secret-key-not-for-production",
                      "STATE_URL": f"sqlite:///{tmp_path / 'state.sqlite3'}"})
    teacher = app.test_client()
    started = teacher.post("/live", data={"hand": HAND})
    held = teacher.get_cookie("bidder_admin", path=started.location.rsplit("/", 1)[0])
    page = app.test_client(use_cookies=False).get(started.location, headers={
        "Host": host, "Cookie": f"bidder_admin={held.value}"})
    assert page.status_code == 200
    return page.get_data(as_text=True)


@pytest.mark.parametrize("host", ["localhost", "attacker.example", "127.0.0.1:5000"])
def test_the_join_address_and_qr_code_come_from_the_public_address_whatever_the_host(
        tmp_path, host):
    page = projector(tmp_path, "https://bridge.example.org/club", host)
    code = re.search(r'id="code">(\w+)<', page).group(1)
    assert f"Join at <strong>https://bridge.example.org/club/live/{code}</strong>" in page
    assert f"QR code for https://bridge.example.org/club/live/{code}" in page
    assert "attacker.example" not in page and "Phones cannot reach" not in page


def test_without_a_public_address_the_projector_says_phones_cannot_reach_it(tmp_path):
    page = projector(tmp_path, "", "127.0.0.1:5000")
    assert "Phones cannot reach this computer yet." in page
    assert "make run HOST=0.0.0.0" in page and "PUBLIC_URL=" in page
    assert "<svg" not in page and "http://127.0.0.1" not in page


@pytest.mark.parametrize("text, read", [
    ("", ""), ("  ", ""), ("http://192.168.1.20:5000", "http://192.168.1.20:5000"),
    ("http://192.168.1.20:5000/", "http://192.168.1.20:5000"),
    ("https://bridge.example.org/club/", "https://bridge.example.org/club"),
    ("http://[2001:db8::1]:8000", "http://[2001:db8::1]:8000")])
def test_a_public_address_is_read_without_its_trailing_slash(text, read):
    assert public_url(text) == read


@pytest.mark.parametrize("text", [
    "192.168.1.20:5000", "ftp://example.org", "http://", "http://host:99999",
    "http://example.org/?x=1", "http://example.org/#top", "http://user@example.org"])
def test_a_public_address_phones_cannot_open_stops_the_app_saying_what_to_write(
        monkeypatch, text):
    monkeypatch.setenv(PUBLIC_URL_VARIABLE, text)
    with pytest.raises(RuntimeError, match=f"{PUBLIC_URL_VARIABLE} is .*, which is not an "
                                           f"address phones can open: write"):
        create_app({"TESTING": True})


def test_the_public_address_comes_from_the_environment(monkeypatch):
    monkeypatch.setenv(PUBLIC_URL_VARIABLE, "http://10.1.2.3:8000/")
    assert create_app({"TESTING": True}).config["PUBLIC_URL"] == "http://10.1.2.3:8000"
