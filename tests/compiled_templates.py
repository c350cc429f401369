"""Each page template compiled once per test process, not once per app.

The web tests make a fresh app for nearly every test (its own settings, its own state
store), and Jinja compiles a template again for every new environment: compiling the
templates was a third of the web tests' time under coverage. Every app the suite makes
shares this in-memory bytecode cache instead. A template whose source changed is
compiled again (the cache compares the source's checksum); every app of bidder's has the
same Jinja settings, so what one app compiled is what another would have."""

from __future__ import annotations

import flask
import jinja2


class SharedBytecode(jinja2.BytecodeCache):
    """Compiled templates kept in memory, by template and source checksum."""

    def __init__(self) -> None:
        self.kept: dict[str, tuple[str, object]] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        checksum, code = self.kept.get(bucket.key, (None, None))
        if checksum == bucket.checksum:
            bucket.code = code

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.kept[bucket.key] = (bucket.checksum, bucket.code)


def share_compiled_templates() -> None:
    """Make every Flask app made from now on in this process share one cache."""
    flask.Flask.jinja_options = {**flask.Flask.jinja_options,
                                 "bytecode_cache": SharedBytecode()}
