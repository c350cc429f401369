"""JSON answers written by orjson, about ten times faster than the standard library for
the advice /api/bid serves; requests are still read by Flask's own reader."""

from __future__ import annotations

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider


class FastJSON(DefaultJSONProvider):
    """Flask's JSON provider, writing with orjson: UTF-8 as is, keys in the order given,
    and dates (an HTTP date) and what orjson cannot write (a Decimal) passed to Flask's
    own default."""

    def dumps(self, obj: object, **kwargs) -> str:
        """*obj* as JSON text."""
        return self.encode(obj).decode()

    def encode(self, obj: object) -> bytes:
        """*obj* as JSON in UTF-8."""
        return orjson.dumps(obj, default=self.default,
                            option=orjson.OPT_PASSTHROUGH_DATETIME)

    def response(self, *args, **kwargs) -> Response:
        """The JSON response jsonify() makes: of one value, several (a list), or
        keyword arguments (an object)."""
        if args and kwargs:
            raise TypeError("jsonify() takes values or keyword arguments, not both")
        value = args[0] if len(args) == 1 else list(args) if args else kwargs or None
        return self._app.response_class(self.encode(value) + b"\n",
                                        mimetype=self.mimetype)
