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


def checking_options(seed_envvar: str | None = None):
    """--hands, --seed, --timeout, --cpu, --memory and --isolation: the hands a student's
    module is checked on and the limits of its sandbox, for `bidder check` and `bidder
    class` alike; *seed_envvar*, when given, may give the seed."""
    also = f" (or {seed_envvar})" if seed_envvar else ""
    block = (
        click.option("--hands", default=1000, show_default=True,
                     type=click.IntRange(0, 100_000),
                     help="Random hands each module is checked on, besides the worked "
                          "examples and the threshold hands."),
        click.option("--seed", default=1, show_default=True, envvar=seed_envvar,
                     help=f"The seed the random hands come from{also}."),
        click.option("--timeout", default=10.0, show_default=True,
                     type=click.FloatRange(min=0.1),
                     help="Seconds a student's module may take in all."),
        click.option("--cpu", type=click.IntRange(1, 3600), default=None, metavar="SECONDS",
                     help="CPU seconds each run of a student's module may use: one that "
                          "computes for ever is stopped as soon as it has used them, "
                          "however busy the machine.  [default: --timeout, rounded up, "
                          "and one more]"),
        click.option("--memory", default=1024, show_default=True,
                     type=click.IntRange(64, 65536),
                     help="MiB of memory a student's module may use."),
        click.option("--isolation", default="auto", show_default=True,
                     type=click.Choice(["auto", "bubblewrap", "fallback"]),
                     help="bubblewrap demands the sandbox; auto falls back where it cannot "
                          "run."),
    )

    def decorate(command):
        for option in reversed(block):  # the first given is the first shown
            command = option(command)
        return command
    return decorate


def sandbox_limits(timeout: float, cpu: int | None, memory: int):
    """The sandbox's limits from --timeout, --cpu and --memory (MiB)."""
    from ..checker import MIB, Limits

    return Limits(timeout=timeout, memory=memory * MIB, cpu_seconds=cpu)
