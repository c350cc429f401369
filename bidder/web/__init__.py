"""The web app: the advisor page, the rules page, the teaching tools and the JSON API."""

from __future__ import annotations

from pathlib import Path

from flask import Flask

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app; *test_config* overrides the settings (tests pass TESTING=True)."""
    app = Flask(__name__, template_folder=str(PROJECT_ROOT / "templates"),
                static_folder=str(PROJECT_ROOT / "static"))
    app.config.from_mapping(MAX_CONTENT_LENGTH=16 * 1024)
    if test_config:
        app.config.from_mapping(test_config)

    from . import advisor, api, teach
    app.register_blueprint(advisor.blueprint)
    app.register_blueprint(api.blueprint)
    app.register_blueprint(teach.blueprint)
    return app
