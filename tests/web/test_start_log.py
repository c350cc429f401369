"""gunicorn's start line under `bidder serve` names the addresses served: with --reuse-port
the master opens no socket, and gunicorn's own line would read 'Listening at:  (8681)'."""

import logging

import pytest
from gunicorn.config import Config

from bidder.web.start_log import LISTENING, Logger


def logger(*binds: str, **settings) -> Logger:
    config = Config()
    config.set("bind", list(binds))
    for name, value in settings.items():
        config.set(name, value)
    return Logger(config)


def logged(log: Logger, caplog, message: str, *args) -> str:
    with caplog.at_level(logging.INFO, logger="gunicorn.error"):
        log.error_log.propagate = True
        log.info(message, *args)
    return caplog.records[-1].getMessage()


@pytest.mark.parametrize("binds, listed", [
    (["127.0.0.1:5000"], "http://127.0.0.1:5000"),
    (["[::1]:8000"], "http://[::1]:8000"),
    (["0.0.0.0:80", "unix:/tmp/bidder.sock"], "http://0.0.0.0:80,unix:/tmp/bidder.sock"),
], ids=["an-address", "ipv6-in-brackets", "several-and-a-unix-socket"])
def test_the_start_line_with_no_listeners_names_the_bound_addresses(caplog, binds, listed):
    assert logged(logger(*binds), caplog, LISTENING, "", 8681) == (
        f"Listening at: {listed} (8681)")


def test_https_is_named_when_the_server_has_a_certificate(caplog, tmp_path):
    log = logger("127.0.0.1:5443", certfile=str(tmp_path / "cert.pem"))
    assert logged(log, caplog, LISTENING, "", 1) == "Listening at: https://127.0.0.1:5443 (1)"


@pytest.mark.parametrize("message, args, shown", [
    (LISTENING, ("http://127.0.0.1:5000", 7), "Listening at: http://127.0.0.1:5000 (7)"),
    ("Booting worker with pid: %s", (9,), "Booting worker with pid: 9"),
    ("Arbiter booted", (), "Arbiter booted"),
], ids=["listeners-gunicorn-names-itself", "another-line", "a-line-without-arguments"])
def test_every_other_line_is_gunicorns_own(caplog, message, args, shown):
    assert logged(logger("127.0.0.1:5000"), caplog, message, *args) == shown
