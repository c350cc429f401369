"""Placeholder: filled in by the teach work."""

from flask import Blueprint

blueprint = Blueprint("teach", __name__)
