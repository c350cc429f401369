"""Placeholder: filled in by the api work."""

from flask import Blueprint

blueprint = Blueprint("api", __name__)
