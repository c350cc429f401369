"""Leaves at import."""
import sys

sys.exit(3)
