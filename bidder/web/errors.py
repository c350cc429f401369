"""Errors people can act on: a page that looks like the app, or JSON for the API."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask, Response, jsonify, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, SecurityError

from ..cards import MAX_INPUT_LENGTH, echo
from .app import FormTooLarge
from .security import session_lost

API_PREFIX = "/api"
BOARDS_PATH = "/boards"
IMPLIED_METHODS = ("HEAD", "OPTIONS")
RESTARTED = "The site restarted; your score could not be kept."


@dataclass(frozen=True)
class Problem:
    """What went wrong, for a person and for a program."""

    status: int
    code: str
    title: str
    message: str


def describe(error: HTTPException) -> Problem:
    """The problem behind an HTTP error, in words that say what to do next."""
    status = error.code or 500
    if isinstance(error, CSRFError) and session_lost():
        return Problem(status, "site_restarted", "The site restarted",
                       f"{RESTARTED} This form no longer counts, so nothing was changed: "
                       f"go back and reload the page to start a fresh practice.")
    if isinstance(error, CSRFError):
        reason = error.description.rstrip(".")
        return Problem(status, "form_expired", "This form has expired",
                       f"The form expired or came from another site "
                       f"({reason[:1].lower() + reason[1:]}), so nothing was changed. "
                       f"Go back, reload the page and send the form again.")
    if isinstance(error, SecurityError):
        return Problem(status, "untrusted_host", "Unknown host name",
                       f"This server does not answer to the host name "
                       f"{echo(request.headers.get('Host', ''))}. Use the address the "
                       f"site is published at.")
    if status == 404:
        return Problem(status, "not_found", "Page not found",
                       f"There is no page at {echo(request.path)}. Check the address; "
                       f"the advisor is at / and the API is described at "
                       f"{API_PREFIX}/openapi.json.")
    if status == 405:
        allowed = " or ".join(method for method in sorted(error.valid_methods or ())
                              if method not in IMPLIED_METHODS)
        return Problem(status, "method_not_allowed", "Method not allowed",
                       f"{request.method} is not allowed at {echo(request.path)}; "
                       f"use {allowed}.")
    if isinstance(error, FormTooLarge):
        return Problem(status, "too_large", "Form too large",
                       f"{error.description} Send the form as the page makes it.")
    if status == 413:
        limit = request.max_content_length
        what = ("send a file of fewer boards" if request.path == BOARDS_PATH else
                f"a hand is at most {MAX_INPUT_LENGTH} characters: send just the 13 cards")
        return Problem(status, "too_large", "Request too large",
                       f"The request is larger than {limit:,} bytes; {what}.")
    if status == 429:
        return Problem(status, "too_many_requests", "Too many answers",
                       f"This address sent more answers than the server takes "
                       f"({error.description}), so this one was not counted. Wait a "
                       f"minute, then reload the page and answer again.")
    if status == 503:
        return Problem(status, "busy", "Server busy", error.description)
    if status >= 500:
        return Problem(status, "server_error", "Something went wrong",
                       "The server could not finish this request. It is not something "
                       "you typed: try again in a moment, or start again from the advisor.")
    return Problem(status, error.name.lower().replace(" ", "_"), error.name,
                   error.description)


def error_json(problem: Problem) -> Response:
    """The API's error body: {"error": {"code": ..., "message": ...}}."""
    response = jsonify(error={"code": problem.code, "message": problem.message})
    response.status_code = problem.status
    return response


def handle_http_error(error: HTTPException) -> Response | tuple[str, int]:
    """Answer an HTTP error as JSON under /api, else as a page of the app."""
    problem = describe(error)
    if request.path == API_PREFIX or request.path.startswith(API_PREFIX + "/"):
        response = error_json(problem)
    else:
        response = Response(render_template("error.html", problem=problem),
                            problem.status)
    if getattr(error, "retry_after", None):
        response.headers["Retry-After"] = str(error.retry_after)
    if problem.status == 405:
        response.headers["Allow"] = ", ".join(sorted(error.valid_methods or ()))
    return response


def init_app(app: Flask) -> None:
    """Route every HTTP error (500 from an exception too) through handle_http_error."""
    app.register_error_handler(HTTPException, handle_http_error)
