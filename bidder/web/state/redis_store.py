"""The shared store: a Redis server that several machines use (redis-py).

Every operation is one atomic Redis command (SET NX PX, GET, HINCRBY in a MULTI with
PEXPIRE, a guarded HSET and HLEN in one Lua script), so servers on different machines never count one thing twice. Expiry is
Redis's own. Short socket timeouts: a Redis that has gone away makes an answer fail in
seconds, not hang a worker.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.backoff import NoBackoff
from redis.commands.core import Script
from redis.retry import Retry

from .errors import StoreUnavailable

TIMEOUT_SECONDS = 1  # a Redis paused or gone: the answer is a prompt 503, not a hang
NO_RETRY = Retry(NoBackoff(), 0)  # a timed-out command is not sent again (nor waited again)
NOT_KEPT = ("the Redis at {url} keeps nothing on disk (appendonly {aof}, save {save!r}): "
            "when it restarts, every live poll and every recorded practice answer is lost. "
            "Turn on AOF (redis-cli CONFIG SET appendonly yes, then CONFIG REWRITE; or "
            "appendonly yes in redis.conf) or RDB snapshots (save 60 1000)")
UNKNOWN_KEEPING = ("cannot tell whether the Redis at {url} keeps its data on disk (CONFIG "
                   "GET was refused: {error}): live polls and practice answers need AOF or "
                   "RDB persistence (appendonly yes, or save 60 1000, in redis.conf)")
PROBE = "probe:start-up"
# KEYS: the guard; ARGV: the suffix, the written key's prefix, field, value, expiry in ms,
# the key that admits the field ('' for none).
GUARDED_WRITE = """
local held = redis.call('GET', KEYS[1])
if not held then return {'', 0} end
local cut = string.len(held) - string.len(ARGV[1])
if cut < 0 or string.sub(held, cut + 1) ~= ARGV[1] then return {held, 0} end
local place = string.sub(held, 1, cut)
if ARGV[6] ~= '' then
  local pass = redis.call('HGET', ARGV[6], ARGV[3])
  if pass ~= '*' and pass ~= place then return {held, 0} end
end
local key = ARGV[2] .. place
redis.call('HSET', key, ARGV[3], ARGV[4])
redis.call('PEXPIRE', key, ARGV[5])
return {held, redis.call('HLEN', key)}
"""
# KEYS: the key; ARGV: the field, value, cap, expiry in ms, '1' to replace a field there.
CAPPED_WRITE = """
local count = redis.call('HLEN', KEYS[1])
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then
  if ARGV[5] == '1' then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
elseif count < tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  count = count + 1
else
  return {0, count}
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, count}
"""


CLIENT_OPTIONS = {"socket_timeout": TIMEOUT_SECONDS,
                  "socket_connect_timeout": TIMEOUT_SECONDS, "retry": NO_RETRY}


@dataclass(frozen=True)
class RedisStore:
    """A store in the Redis at *url* (redis:// or rediss://)."""

    url: str
    client: redis.Redis = field(init=False, repr=False, compare=False)
    guarded_write: Script = field(init=False, repr=False, compare=False)
    capped_write: Script = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        client = redis.Redis.from_url(self.url, decode_responses=True, **CLIENT_OPTIONS)
        object.__setattr__(self, "client", client)
        object.__setattr__(self, "guarded_write", client.register_script(GUARDED_WRITE))
        object.__setattr__(self, "capped_write", client.register_script(CAPPED_WRITE))

    def prepare(self) -> None:
        """Write and delete a probe, proving the Redis answers and takes writes."""
        with self._talking():
            self.client.set(PROBE, "1", px=10_000)
            self.client.delete(PROBE)

    def persistence_warning(self) -> str:
        """See Store.persistence_warning: CONFIG GET appendonly and save."""
        with self._talking():
            try:
                aof = self.client.config_get("appendonly").get("appendonly", "")
                save = self.client.config_get("save").get("save", "")
            except redis.ResponseError as error:  # CONFIG renamed away, or not allowed
                return UNKNOWN_KEEPING.format(url=without_password(self.url), error=error)
        if aof == "yes" or save.strip():
            return ""
        return NOT_KEPT.format(url=without_password(self.url), aof=aof, save=save)

    def put_if_absent(self, key: str, value: str, ttl: float) -> str | None:
        """See Store.put_if_absent: SET NX with GET (Redis 7), one atomic command."""
        with self._talking():
            return self.client.set(key, value, nx=True, px=milliseconds(ttl), get=True)

    def get(self, key: str) -> str | None:
        """See Store.get."""
        with self._talking():
            return self.client.get(key)

    def add(self, key: str, field: str, amount: int, ttl: float) -> int:
        """See Store.add."""
        with self._talking():
            pipe = self.client.pipeline(transaction=True)
            pipe.hincrby(key, field, amount)
            pipe.pexpire(key, milliseconds(ttl))
            value, _ = pipe.execute()
        return value

    def tally(self, key: str) -> dict[str, int]:
        """See Store.tally."""
        with self._talking():
            counters = self.client.hgetall(key)
        return {name: int(value) for name, value in sorted(counters.items())}

    def put(self, key: str, value: str, ttl: float) -> None:
        """See Store.put."""
        with self._talking():
            self.client.set(key, value, px=milliseconds(ttl))

    def put_field_by_guard(self, guard: str, suffix: str, prefix: str, field: str,
                           value: str, ttl: float, admit: str = "") -> tuple[str | None, int]:
        """See Store.put_field_by_guard: one Lua script, which Redis runs atomically (the
        written key is named inside it: a single Redis, not a cluster)."""
        with self._talking():
            held, count = self.guarded_write(
                keys=[guard], args=[suffix, prefix, field, value, milliseconds(ttl), admit])
        return held or None, count

    def put_field_capped(self, key: str, field: str, value: str, cap: int, ttl: float,
                         replace: bool = False) -> tuple[bool, int]:
        """See Store.put_field_capped: one Lua script."""
        with self._talking():
            there, count = self.capped_write(
                keys=[key], args=[field, value, cap, milliseconds(ttl), int(replace)])
        return bool(there), count

    def fields(self, key: str) -> dict[str, str]:
        """See Store.fields."""
        with self._talking():
            return dict(sorted(self.client.hgetall(key).items()))

    @contextmanager
    def _talking(self):
        """Turn any Redis error inside the block into StoreUnavailable."""
        try:
            yield
        except redis.RedisError as error:
            raise StoreUnavailable(f"the Redis at {without_password(self.url)} cannot "
                                   f"be used ({error})") from None


def milliseconds(seconds: float) -> int:
    """*seconds* as whole milliseconds, at least 1 (Redis refuses an expiry of 0)."""
    return max(1, round(seconds * 1000))


def without_password(url: str) -> str:
    """*url* with any password written as ***, fit to show in a message or a log."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user, host = parts.netloc.rsplit("@", 1)
    return urlunsplit(parts._replace(netloc=f"{user.split(':')[0]}:***@{host}"))
