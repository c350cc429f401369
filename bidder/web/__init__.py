"""The web app: the advisor page, the rules page, the teaching tools and the JSON API."""

from __future__ import annotations

import os
from pathlib import Path

from .app import App
from .settings import COOKIES, LIMITS, environment_settings, secret_key

PACKAGE_FOLDER = Path(__file__).resolve().parents[1]  # bidder/, installed or checked out


def create_app(test_config: dict | None = None) -> App:
    """Build the app; *test_config* overrides the settings (tests pass TESTING=True).

    :raises RuntimeError: outside tests, when no usable secret key is configured; and
        anywhere, when a BIDDER_* setting in the environment cannot be read.
    """
    from . import (advisor, api, boards, errors, heavy, live, lti, rate_limits, render,
                   security, state, teach, variants)
    app = App(__name__, template_folder=str(shipped_folder("templates")),
              static_folder=str(shipped_folder("static")))
    app.jinja_environment = render.SharedGlobals
    app.config.from_mapping(LIMITS, **COOKIES, DEBUG=False)  # never debug, whatever FLASK_DEBUG says
    app.config.from_mapping(environment_settings(os.environ, app.instance_path))
    app.config.from_mapping(test_config or {})
    app.config["SECRET_KEY"] = secret_key(app.config)
    app.jinja_env.trim_blocks = app.jinja_env.lstrip_blocks = True
    app.json.sort_keys = False
    security.init_app(app)
    state.init_app(app)
    heavy.init_app(app)
    errors.init_app(app)
    render.init_app(app)
    app.register_blueprint(advisor.blueprint)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(api.diagnosis_blueprint)
    app.register_blueprint(teach.blueprint)
    app.register_blueprint(variants.blueprint)
    live.init_app(app)
    boards.init_app(app)
    lti.init_app(app)
    rate_limits.init_app(app, os.environ)  # its hooks go to the blueprints it limits
    security.trust_proxies(app)  # outermost: every layer sees the client's own address
    return app


def instance_folder() -> Path:
    """Flask's instance folder for the app (``instance/`` beside a checkout)."""
    return Path(App(__name__).instance_path)


def shipped_folder(name: str, package: Path = PACKAGE_FOLDER) -> Path:
    """The folder of the pages (templates) or of the static files.

    The repository keeps them at its top, beside the package; a wheel carries them
    inside it (setup.cfg maps them to bidder/templates and bidder/static). So an
    installed copy finds them in the package, a checkout or an editable install beside it.
    """
    inside = package / name
    return inside if inside.is_dir() else package.parent / name


