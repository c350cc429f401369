"""The site's own LTI key pair, read (or made) the first time an LMS needs it: a site
never used with an LMS makes none, and the making (an RSA key, a CPU-bound moment) runs
in the worker's pool of processes, off the event loop."""

from __future__ import annotations

from .. import heavy
from .keys import ToolKey, made_pem, tool_key

EXTENSION = "bidder.lti.key"


def made_in_pool() -> str:
    """A new private key, made in the app's pool."""
    return heavy.run("the site's LTI key", made_pem)


def key_of(app) -> ToolKey:
    """*app*'s key pair, kept in its LTI_KEY_FOLDER (BIDDER_LTI_KEY_FOLDER) or else its
    instance folder."""
    kept = app.extensions.get(EXTENSION)
    if kept is None:
        kept = app.extensions[EXTENSION] = tool_key(
            app.config.get("LTI_KEY_FOLDER") or app.instance_path, made_in_pool)
    return kept
