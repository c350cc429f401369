"""`python -m bidder`: the same as the `bidder` command."""

from .start import main

main()
