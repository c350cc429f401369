"""A real LTI 1.3 platform for the tests, built on lti1p3platform (an LMS's side of
LTI 1.3: its OIDC login, signed launches, deep-linking answers checked, access tokens):
served on a port of its own, so that the tool reads its key set, asks it for tokens and
posts scores over HTTP as it would to Canvas or Moodle. The gradebook is a list."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from functools import lru_cache

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from flask import Flask, Response, jsonify, redirect, request
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request
from werkzeug.serving import make_server

from ports import LOOPBACK, free_port

CLIENT_ID = "bidder-client"
DEPLOYMENT = "deployment-1"
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
AGS_SCOPES = ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
              "https://purl.imsglobal.org/spec/lti-ags/scope/score"]


def private_pem() -> str:
    """A fresh RSA key, in PEM."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


@lru_cache(maxsize=None)
def platform_pem() -> str:
    """The platforms' key, made once a process (40 ms of CPU a key); a test that needs
    another key makes a fresh one with private_pem()."""
    return private_pem()


@lru_cache(maxsize=None)
def loaded(private: str):
    """The key *private* holds, loaded once (loading checks the key: 25 ms a time)."""
    return serialization.load_pem_private_key(private.encode(), None)


def public_pem(private: str) -> str:
    """The public half of *private*."""
    return loaded(private).public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


class FlaskRequest(Request):
    """lti1p3platform's view of a Flask request."""

    def build_metadata(self, flask_request):
        return {"method": flask_request.method, "form_data": flask_request.form.to_dict(),
                "get_data": flask_request.args.to_dict(), "headers": flask_request.headers,
                "content_type": flask_request.content_type, "path": flask_request.path,
                "json": None}


@dataclass
class Course:
    """What the platform holds: placed links (id -> custom parameters and grade column),
    grade columns, scores posted, whether its key set answers, and who launches."""

    links: dict = field(default_factory=dict)
    columns: dict = field(default_factory=dict)
    scores: list = field(default_factory=list)
    key_set_down: bool = False
    extra_keys: list = field(default_factory=list)
    refuse_scores: int = 0  # scores refused (HTTP 503) before taking them


class Platform:
    """The platform's registration of the tool and its pages."""

    def __init__(self, tool_site: str, tool_key_set: dict | None = None):
        self.port = free_port()
        self.url = f"http://{LOOPBACK}:{self.port}"
        self.private = platform_pem()
        self.course = Course()
        self.tool_site = tool_site
        self.registration = (Registration().set_iss(self.url).set_client_id(CLIENT_ID)
                             .set_deployment_id(DEPLOYMENT)
                             .set_oidc_login_url(f"{tool_site}/lti/login")
                             .set_launch_url(f"{tool_site}/lti/launch")
                             .set_deeplink_launch_url(f"{tool_site}/lti/launch")
                             .set_platform_public_key(public_pem(self.private))
                             .set_platform_private_key(self.private))
        if tool_key_set is None:  # read from the tool, as an LMS does
            self.registration.set_tool_key_set_url(f"{tool_site}/lti/jwks")
        else:
            self.registration.set_tool_key_set(tool_key_set)
        self.app = self.make_app()
        self.server = make_server(LOOPBACK, self.port, self.app, threaded=True)
        # its loop looks for shutdown() every 50 ms, not every 500 (a test's teardown waits)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True,
                                       kwargs={"poll_interval": 0.05})

    def __enter__(self) -> Platform:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()

    def config(self) -> LTI1P3PlatformConfAbstract:
        """lti1p3platform's platform configuration, over this registration."""
        registration = self.registration

        class Config(LTI1P3PlatformConfAbstract):
            def init_platform_config(self, **kwargs):
                pass

            def get_registration_by_params(self, **kwargs):
                return registration
        return Config()

    def add_args(self) -> dict:
        """What `bidder lti add` is given for this platform."""
        return {"issuer": self.url, "client_id": CLIENT_ID,
                "login_url": f"{self.url}/authorize", "token_url": f"{self.url}/token",
                "key_set_url": f"{self.url}/jwks", "deployments": (DEPLOYMENT,)}

    def start_url(self, hint: str, user: str) -> str:
        """Where a user's click on a link (hint 'link:ID') or on 'add an item' (hint
        'dl') begins: the platform's own page, which sends the browser to the tool."""
        return f"{self.url}/start?hint={hint}&user={user}"

    def make_app(self) -> Flask:
        """The platform's pages."""
        app = Flask("platform")
        platform = self

        class Login(OIDCLoginAbstract):
            def set_lti_message_hint(self, **kwargs):
                self._lti_message_hint = kwargs["hint"]

            def get_redirect(self, url):
                return redirect(url)

        class Launch(LTIAdvantageMessageLaunchAbstract):
            def render_launch_form(self, launch_data, **kwargs):
                return Response(
                    f'<form method="post" action="{launch_data["launch_url"]}" id="f">'
                    f'<input type="hidden" name="id_token" value="{launch_data["id_token"]}">'
                    f'<input type="hidden" name="state" value="{launch_data["state"]}">'
                    f'<button id="go">Go</button></form>'
                    f'<script>document.getElementById("f").submit()</script>')

            def prepare_launch(self, preflight_response):
                hint = preflight_response.get("lti_message_hint", "")
                user = preflight_response.get("login_hint", "")
                roles = [INSTRUCTOR] if user.startswith("teacher") else [LEARNER]
                self.set_user_data(user, roles, full_name=f"Name of {user}")
                if hint == "dl":
                    self.set_dl(f"{platform.url}/deep-link-return",
                                accept_types={"ltiResourceLink"})
                    return
                link = hint.split(":", 1)[1]
                self.set_resource_link_claim(link)
                self.set_custom_parameters_claim(platform.course.links[link]["custom"])
                column = platform.course.links[link].get("column")
                self.set_ags(f"{platform.url}/lineitems",
                             f"{platform.url}/lineitems/{column}" if column else None)

        @app.get("/favicon.ico")
        def favicon():
            return "", 204

        @app.get("/start")
        def start():
            login = Login(FlaskRequest(request), platform.config())
            login.set_lti_message_hint(hint=request.args["hint"])
            return login.initiate_login(request.args["user"])

        @app.get("/authorize")
        def authorize():
            return Launch(FlaskRequest(request), platform.config()).lti_launch()

        @app.get("/jwks")
        def jwks():
            if platform.course.key_set_down:
                return "down for maintenance", 503
            config = platform.config()
            config.get_registration()
            return jsonify({"keys": config.get_jwks()["keys"] + platform.course.extra_keys})

        @app.post("/token")
        def token():
            config = platform.config()
            config.get_registration()
            return jsonify(config.get_access_token(request.form.to_dict()))

        @app.post("/deep-link-return")
        def deep_link_return():
            config = platform.config()
            config.get_registration()
            items = config.validate_deeplinking_resp(request.form.to_dict())
            for item in items:
                link = f"link{len(platform.course.links) + 1}"
                column = None
                if "lineItem" in item:
                    column = str(len(platform.course.columns) + 1)
                    platform.course.columns[column] = {**item["lineItem"], "resourceLinkId": link}
                platform.course.links[link] = {"custom": item["custom"], "column": column,
                                               "title": item["title"], "url": item["url"]}
            return f'<p id="placed">Placed {len(items)} item(s)</p>'

        def authorized() -> bool:
            config = platform.config()
            config.get_registration()
            bearer = request.headers.get("Authorization", "").removeprefix("Bearer ")
            return config.validate_token(bearer, allowed_scopes=AGS_SCOPES)

        def column_of(number: str) -> dict:
            return {"id": f"{platform.url}/lineitems/{number}",
                    **platform.course.columns[number]}

        @app.get("/lineitems")
        def columns():
            if not authorized():
                return "bad token", 401
            return jsonify([column_of(number) for number in platform.course.columns])

        @app.post("/lineitems")
        def new_column():
            if not authorized():
                return "bad token", 401
            number = str(len(platform.course.columns) + 1)
            platform.course.columns[number] = json.loads(request.data)
            return jsonify(column_of(number))

        @app.post("/lineitems/<column>/scores")
        def scores(column):
            if not authorized():
                return "bad token", 401
            if request.content_type != SCORE_TYPE:
                return "wrong content type", 415
            if platform.course.refuse_scores:
                platform.course.refuse_scores -= 1
                return "the gradebook is busy", 503
            platform.course.scores.append({"column": column, **json.loads(request.data)})
            return "", 204

        return app
