"""Options shared by several commands."""

from __future__ import annotations

import click


def read_variant(ctx, param, value: str | None):
    """The variant named by --variant, or None; an unknown id is a usage error."""
    if value is None:
        return None
    from ..misreadings import MisreadingError, variant_by_id

    try:
        return variant_by_id(value)
    except MisreadingError as error:
        raise click.BadParameter(f"{error} (bidder variants --all lists them)") from None


VARIANT_HELP = "Read the rules as this misreading does (bidder variants lists them)."
