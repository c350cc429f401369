"""Placeholder: filled in by the advisor work."""

from flask import Blueprint

blueprint = Blueprint("advisor", __name__)
