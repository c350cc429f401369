"""The worker `bidder serve` runs the app in: gunicorn's gevent worker, every read and
write of a connection bounded by READ_SECONDS (gunicorn's own gevent worker makes the
connection blocking with no timeout, so a body that stops arriving holds its greenlet
forever). Headers are read under gunicorn's keep-alive timeout, as before; a body's reads
time out here and its whole arrival in ``slow_bodies``."""

from __future__ import annotations

from gunicorn.workers.ggevent import GeventWorker

from .slow_bodies import READ_SECONDS


class Worker(GeventWorker):
    """gunicorn's gevent worker with a timeout on each connection's reads and writes."""

    def handle(self, listener, client, addr) -> None:
        """Serve one connection, no read or write of it waiting past READ_SECONDS."""
        client.settimeout(READ_SECONDS)
        super(GeventWorker, self).handle(listener, client, addr)  # not its setblocking(1)
