"""The log `bidder serve` starts gunicorn with: gunicorn's own, its start line naming the
addresses served. With --reuse-port (gunicorn 23 and later) each worker opens a socket
of its own and the master none, so gunicorn's line lists nothing: 'Listening at:  (8681)'.
Here the addresses come from --bind, written as gunicorn writes a socket it opened."""

from __future__ import annotations

from gunicorn.glogging import Logger as GunicornLogger

LISTENING = "Listening at: %s (%s)"  # gunicorn's start line, its listeners and its pid


class Logger(GunicornLogger):
    """gunicorn's logger, its start line given the addresses when gunicorn has none."""

    def info(self, msg, *args, **kwargs) -> None:
        """Log as gunicorn does; the start line with no listeners names the bound ones."""
        if msg == LISTENING and args and not args[0]:
            args = (bound(self.cfg), *args[1:])
        super().info(msg, *args, **kwargs)


def bound(cfg) -> str:
    """The addresses of --bind as URLs, comma-separated: 'http://127.0.0.1:5000'."""
    scheme = "https" if cfg.is_ssl else "http"
    return ",".join(f"unix:{address}" if isinstance(address, str) else
                    f"{scheme}://[{address[0]}]:{address[1]}" if ":" in address[0] else
                    f"{scheme}://{address[0]}:{address[1]}" for address in cfg.address)
