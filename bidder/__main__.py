"""`python -m bidder`: the same as the `bidder` command."""

from .cli import main

main()
