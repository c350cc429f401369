"""`bidder serve`: the web app under gunicorn, on an address no other server holds."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .addresses import room_addresses
from .files import Failure

PUBLIC_URL_VARIABLE = "BIDDER_PUBLIC_URL"
LOOPBACK_NAMES = ("localhost",)

WORKER_CONNECTIONS = 1000  # connections one gevent worker holds at once
WORKER_CLASS = "bidder.web.worker.Worker"  # gunicorn's gevent worker, reads timed out
LOGGER_CLASS = "bidder.web.start_log.Logger"  # gunicorn's log, its start line with the address
HEADER_SECONDS = 5  # the gevent worker reads a request's headers under this timeout
# A server listening on every address is opened, on this machine, at the loopback one.
EVERY_ADDRESS = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}


@click.command(short_help="Serve the web app under gunicorn.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="gunicorn worker processes.  [default: the number of cores]")
@click.option("--public-url", default="", metavar="URL",
              help="The address phones reach the site at, for the live poll's join links "
                   "and QR codes (BIDDER_PUBLIC_URL).  [default: with --host 0.0.0.0, this "
                   "machine's first network address]")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, workers: int | None,
          public_url: str) -> None:
    """Serve the web app under gunicorn, as `make run` does.

    A secret key is generated for the served processes unless BIDDER_SECRET_KEY is set
    (then it must be long enough for the app). Served on every address (--host 0.0.0.0),
    it prints the addresses phones in the room can use; on this computer alone (the
    default), it says that phones cannot reach it.

    \b
    Example:
      bidder serve --host 0.0.0.0 --port 8000 --workers 4
      bidder serve --host 0.0.0.0 --public-url http://192.168.1.20:8000
    """
    import subprocess

    environment = served_environment(os.environ, key_folder())
    refuse_a_taken_address(host, port)
    found = room_addresses() if host in EVERY_ADDRESS else ()
    public = public_address(public_url or environment.get(PUBLIC_URL_VARIABLE, ""), host,
                            port, found)
    if public:
        environment[PUBLIC_URL_VARIABLE] = public
    command = gunicorn_command(host, port, workers or os.cpu_count() or 1)
    click.echo(start_line(host, port), err=True)
    click.echo(reach_line(host, port, public, found), err=True)
    for warning in store_warnings(environment):
        click.echo(f"Warning: {warning}", err=True)
    server = subprocess.Popen(command, env=environment)
    try:
        status = server.wait()
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait()
    ctx.exit(status)


def gunicorn_command(host: str, port: int, workers: int) -> list[str]:
    """The gunicorn command line `make run` uses, for this Python (docs/serving.md).

    gevent workers hold idle, slow and long (server-sent events) connections as cheap
    greenlets, and read each request's headers under a timeout (gunicorn's keep-alive
    setting, in that worker); bidder's own subclass of it (bidder.web.worker) also times
    out every read of a body, so slow clients stall no one. With --reuse-port each
    worker listens on a socket of its own and the kernel shares connections out evenly;
    the master then opens none, and bidder's logger names the address in gunicorn's start
    line (bidder.web.start_log). No control socket: two servers on one machine would
    share its one default path.
    """
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return [sys.executable, "-m", "gunicorn", "--workers", str(workers),
            "--worker-class", WORKER_CLASS, "--worker-connections", str(WORKER_CONNECTIONS),
            "--keep-alive", str(HEADER_SECONDS), "--no-control-socket", "--reuse-port",
            "--logger-class", LOGGER_CLASS, "--bind", bind, "bidder.web:create_app()"]


def start_line(host: str, port: int) -> str:
    """The line `bidder serve` prints before starting gunicorn: the URL to open (for a
    server on every address, this machine's), and how to stop."""
    if host in EVERY_ADDRESS:
        return (f"Serving bidder on every address, port {port}: open "
                f"{url_to_open(host, port)} on this machine (Ctrl-C stops it)")
    return f"Serving bidder on {url_to_open(host, port)} (Ctrl-C stops it)"


def is_loopback(host: str) -> bool:
    """Whether *host* names this computer alone (127.0.0.1, ::1, localhost)."""
    import ipaddress

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host in LOOPBACK_NAMES


def public_address(given: str, host: str, port: int, found: tuple[str, ...]) -> str:
    """The address phones join polls at: *given* (--public-url or BIDDER_PUBLIC_URL); else,
    served on every address, the first of *found* (this machine's addresses); else, on
    one address that is not this computer's alone, that one; '' for none.

    :raises Failure: for a *given* address the app would refuse, saying why.
    """
    from ..web.settings import public_url

    if given:
        try:
            return public_url(given)
        except RuntimeError as error:
            raise Failure(str(error)) from None
    if host in EVERY_ADDRESS:
        return url_to_open(found[0], port).rstrip("/") if found else ""
    return "" if is_loopback(host) else url_to_open(host, port).rstrip("/")


def reach_line(host: str, port: int, public: str, found: tuple[str, ...]) -> str:
    """What `bidder serve` says of how phones in the room reach the server."""
    if host not in EVERY_ADDRESS and is_loopback(host):
        if public:
            return (f"Phones join polls at {public}/live (the public address), which must "
                    f"lead to this server")
        return ("Phones cannot reach this server: it listens on this computer alone. For a "
                "class, serve on every address: make run HOST=0.0.0.0 (or bidder serve "
                "--host 0.0.0.0), then phones use the address it prints")
    if host in EVERY_ADDRESS and found:
        return (f"Phones in the room can open "
                f"{', '.join(url_to_open(address, port) for address in found)}; polls "
                f"show {public}/live (choose with --public-url, make run PUBLIC_URL=)")
    if public:
        return f"Phones join polls at {public}/live"
    return ("No network address of this computer was found, so phones cannot reach it: "
            "join the room's network (or give --public-url)")


def url_to_open(host: str, port: int) -> str:
    """The address a browser on this machine opens for a server listening on *host*:
    the loopback address of the same family for every address (0.0.0.0, ::)."""
    host = EVERY_ADDRESS.get(host, host)
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def refuse_a_taken_address(host: str, port: int) -> None:
    """Stop before starting when *host*:*port* cannot be listened on, above all when a
    server listens there already: with --reuse-port a second server would share the
    port with the first without a word, and half the visitors would get the older one.

    :raises Failure: naming the address, why, and what to do.
    """
    import errno
    import socket

    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        reason = error.strerror or str(error)
        advice = ("another server (an earlier `make run` or `bidder serve`?) listens "
                  "there: stop it, or choose another port (--port, or make run PORT=)"
                  if error.errno == errno.EADDRINUSE else
                  "choose another address (--host, --port; make run HOST=, PORT=)")
        raise Failure(f"cannot listen on {host}:{port}: {reason}; {advice}") from None


def store_warnings(environ) -> list[str]:
    """What the state store BIDDER_STATE_URL names would lose if it restarted (a Redis
    that keeps nothing on disk), said before the server starts; none for the default
    file, or a store that cannot be reached (the server logs why)."""
    from ..web.state import URL_VARIABLE, open_store, persistence_warning

    url = environ.get(URL_VARIABLE, "")
    if not url.startswith(("redis://", "rediss://")):
        return []
    warning = persistence_warning(open_store(url))
    return [warning] if warning else []


KEY_FILE = "secret-key"


def key_folder() -> Path:
    """Where `bidder serve` keeps the key it makes: the app's instance folder."""
    from ..web import instance_folder
    return instance_folder()


def served_environment(environ, folder: Path) -> dict[str, str]:
    """The environment for the server, with the key kept in *folder* (made there, at
    random, the first time) unless BIDDER_SECRET_KEY is set: a restart keeps every
    student's cookie, and so their practice, readable.

    :raises Failure: if the key that is set is one the app refuses (too short), or the
        key file cannot be read or written.
    """
    from ..web.settings import SECRET_KEY_VARIABLE, secret_key

    served = dict(environ)
    if not served.get(SECRET_KEY_VARIABLE):
        served[SECRET_KEY_VARIABLE] = kept_key(folder / KEY_FILE)
    try:
        secret_key({"SECRET_KEY": served[SECRET_KEY_VARIABLE]})
    except RuntimeError as error:
        if environ.get(SECRET_KEY_VARIABLE):
            raise Failure(str(error)) from None
        raise Failure(f"the key kept in {folder / KEY_FILE} is refused ({error}); delete "
                      f"the file, and the next start makes a new one") from None
    return served


def kept_key(path: Path) -> str:
    """The key in *path*, made (random, readable by this user only) if there is none.

    :raises Failure: naming the file, when it cannot be read or made.
    """
    import secrets

    try:
        return path.read_text().strip()
    except (FileNotFoundError, NotADirectoryError):
        pass
    except OSError as error:
        raise Failure(f"cannot read the secret key in {path}: {error.strerror}; set "
                      f"BIDDER_SECRET_KEY or make the file readable") from None
    key = secrets.token_hex(32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as error:
        if path.is_file():  # another start made it meanwhile: use theirs
            return path.read_text().strip()
        raise Failure(f"cannot keep a secret key in {path}: {error.strerror}; set "
                      f"BIDDER_SECRET_KEY or make the folder writable") from None
    with os.fdopen(descriptor, "w") as file:
        file.write(key + "\n")
    return key
