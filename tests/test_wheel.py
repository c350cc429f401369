"""A wheel serves the app: built from this checkout and installed, not editable, into a
fresh venv (as a container image or a deployment installs it), the package carries its
pages and static files, and both create_app and `bidder serve` serve them.

Nothing is downloaded: the wheel is built with this venv's setuptools (no build
isolation), and the fresh venv finds flask, gunicorn and the rest through a .pth file
naming this venv's site-packages, while bidder itself comes from the wheel alone.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import sysconfig
import textwrap
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from bidder.web import shipped_folder
from ports import free_port

# A wheel is built and installed in a new virtual environment.
pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
# What the build reads: setup.cfg names README.md as the long description.
SOURCES = ("setup.cfg", "pyproject.toml", "README.md", "bidder", "templates", "static")
PAGES = ("/", "/rules", "/deal", "/static/style.css")
STARTUP = 60  # seconds the installed server may take to answer, at most
SITE_PACKAGES = "lib/python{0}.{1}/site-packages".format(*sys.version_info)


def run(command: list, **options) -> subprocess.CompletedProcess:
    """Run *command*, failing the test with its output if it fails."""
    done = subprocess.run(command, capture_output=True, text=True, **options)
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done


def clean_environment() -> dict[str, str]:
    """This environment without what would lead the installed copy back to the checkout,
    and with a secret key, as a deployment sets one."""
    environment = {key: value for key, value in os.environ.items()
                   if not key.startswith(("PYTHON", "COV_CORE", "COVERAGE", "BIDDER_"))}
    environment["BIDDER_SECRET_KEY"] = secrets.token_hex()
    return environment


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the wheel built from this checkout installed in it."""
    folder = tmp_path_factory.mktemp("wheel")
    source = folder / "source"  # a copy, so that building writes nothing into the checkout
    source.mkdir()
    for name in SOURCES:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(REPO / name, source / name)
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "--quiet", "--wheel-dir", str(folder / "dist"), str(source)],
        cwd=folder)
    wheels = list((folder / "dist").glob("bidder-*.whl"))
    assert len(wheels) == 1, wheels
    venv = folder / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    paths = sysconfig.get_paths()
    (venv / SITE_PACKAGES / "dependencies.pth").write_text(
        "\n".join(dict.fromkeys((paths["purelib"], paths["platlib"]))) + "\n")
    run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
         "--no-deps", "--no-index", "--quiet", str(wheels[0])])
    return venv


def test_the_installed_package_carries_the_templates_and_static_files(installed):
    package = installed / SITE_PACKAGES / "bidder"
    for name in ("templates", "static"):
        shipped = sorted(path.relative_to(REPO / name).as_posix()
                         for path in (REPO / name).rglob("*") if path.is_file())
        assert shipped and sorted(
            path.relative_to(package / name).as_posix()
            for path in (package / name).rglob("*") if path.is_file()) == shipped
        for relative in shipped:
            assert (package / name / relative).read_bytes() == (
                REPO / name / relative).read_bytes()


def test_the_installed_package_has_every_module_of_the_checkout(installed):
    """setup.cfg lists the packages: a new subpackage left out of it fails here."""
    package = installed / SITE_PACKAGES / "bidder"
    modules = sorted(path.relative_to(REPO).as_posix() for path in
                     (REPO / "bidder").rglob("*.py"))
    assert modules and all((package.parent / module).is_file() for module in modules), [
        module for module in modules if not (package.parent / module).is_file()]


def test_create_app_of_the_installed_copy_renders_every_page(installed, tmp_path):
    script = textwrap.dedent(f"""
        import json
        import bidder
        from bidder.web import create_app

        app = create_app()
        client = app.test_client()
        print(json.dumps({{
            "package": bidder.__file__,
            "templates": app.template_folder,
            "static": app.static_folder,
            "pages": {{page: client.get(page, follow_redirects=True).status_code
                       for page in {PAGES!r}}},
        }}))
    """)
    done = run([str(installed / "bin" / "python"), "-c", script], cwd=tmp_path,
               env=clean_environment())
    found = json.loads(done.stdout)
    package = installed / SITE_PACKAGES / "bidder"
    assert Path(found["package"]) == package / "__init__.py"
    assert Path(found["templates"]) == package / "templates"
    assert Path(found["static"]) == package / "static"
    assert found["pages"] == dict.fromkeys(PAGES, 200)




def get(url: str, server: subprocess.Popen) -> tuple[int, bytes]:
    """The status and body of GET *url*, once the server answers (at most STARTUP s,
    and not after the server has stopped)."""
    deadline = time.monotonic() + STARTUP
    while True:
        try:
            with urllib.request.urlopen(url, timeout=10) as reply:
                return reply.status, reply.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()
        except OSError:
            assert server.poll() is None, f"bidder serve stopped, status {server.returncode}"
            assert time.monotonic() < deadline, f"the installed server did not answer {url}"
            time.sleep(0.2)


def test_bidder_serve_of_the_installed_copy_serves_the_pages(installed, tmp_path):
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [str(installed / "bin" / "bidder"), "serve", "--port", str(port), "--workers",
             "1"], cwd=tmp_path, env=clean_environment(), stdout=output, stderr=output,
            start_new_session=True)  # its own process group: gunicorn and its worker too
    try:
        status, body = get(f"http://127.0.0.1:{port}/", server)
        assert status == 200, log.read_text()
        assert b"<html" in body.lower()
        for page in PAGES[1:]:
            assert get(f"http://127.0.0.1:{port}{page}", server)[0] == 200, (
                page, log.read_text())
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=STARTUP)
        finally:
            try:  # whatever of its group is left: gunicorn, should bidder have died first
                os.killpg(server.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            server.wait()
    said = log.read_text()
    assert server.returncode == 143, said  # bidder serve stopped gunicorn and left
    assert f"Serving bidder on http://127.0.0.1:{port}/ (Ctrl-C stops it)" in said
    assert "Traceback" not in said


@pytest.mark.parametrize("inside, expected", [(True, "bidder/templates"), (False, "templates")],
                         ids=["installed from a wheel", "a checkout or editable install"])
def test_the_pages_are_found_in_the_package_else_beside_it(tmp_path, inside, expected):
    package = tmp_path / "bidder"
    package.mkdir()
    if inside:
        (package / "templates").mkdir()
    assert shipped_folder("templates", package) == tmp_path / expected


def test_this_checkout_serves_the_pages_from_the_top_of_the_repository():
    assert shipped_folder("templates") == REPO / "templates"
    assert shipped_folder("static") == REPO / "static"
