"""Options shared by several commands."""

from __future__ import annotations

import click


def read_variant(ctx, param, value: str | None):
    """The variant named by --variant, or None; an unknown id is a usage error."""
    if value is None:
        return None
    from ..variants import VARIANT_BY_ID

    if value not in VARIANT_BY_ID:
        raise click.BadParameter(f"{value!r} is not a variant: choose one of "
                                 f"{', '.join(VARIANT_BY_ID)} (bidder variants lists them)")
    return VARIANT_BY_ID[value]


VARIANT_HELP = "Read the rules as this misreading does (bidder variants lists them)."
