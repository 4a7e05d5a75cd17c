"""Room leases and the node registry in Redis.

A room's owner is the value of ``{prefix}room:{code}:owner``: ``"{node}|{epoch}"``, set
with a time to live that the owner renews. Taking a free lease increments
``{prefix}room:{code}:epoch`` in the same script, so every owner a room ever has holds a
larger epoch than the one before; the epoch is the fencing token that the storage checks
(:mod:`paiju.server.cluster.fence`). A lease only says who *should* own a room: a node
that was paused past its lease still believes it owns it, and the fence is what stops it.

Every script below runs atomically in Redis, so two nodes racing for one room cannot both
win it.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '|' .. epoch, 'PX', ARGV[2])
return epoch
"""

_RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class Lease:
    code: str
    node: str
    epoch: int

    @property
    def value(self) -> str:
        return f"{self.node}|{self.epoch}"


def parse_owner(value: Any) -> tuple[str, int] | None:
    """``"node|epoch"`` as stored (bytes or str) → (node, epoch); None if absent."""
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else str(value)
    node, _, epoch = text.rpartition("|")
    if not node or not epoch.isdigit():
        return None
    return node, int(epoch)


class Leases:
    """Acquire, renew, release and look up room leases for one node."""

    def __init__(self, redis: Any, node: str, ttl: float = 3.0, prefix: str = "paiju:") -> None:
        self.redis = redis
        self.node = node
        self.ttl_ms = max(1, round(ttl * 1000))
        self.prefix = prefix
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)

    def owner_key(self, code: str) -> str:
        return f"{self.prefix}room:{code}:owner"

    def epoch_key(self, code: str) -> str:
        return f"{self.prefix}room:{code}:epoch"

    async def acquire(self, code: str) -> Lease | None:
        """The lease of a room nobody holds, with a new epoch; None if somebody does."""
        epoch = int(
            await self._acquire(
                keys=[self.owner_key(code), self.epoch_key(code)], args=[self.node, self.ttl_ms]
            )
        )
        return Lease(code, self.node, epoch) if epoch else None

    async def renew(self, leases: list[Lease]) -> list[Lease]:
        """Extend every lease still ours; returns the ones that were lost."""
        if not leases:
            return []
        kept = await self._renew(
            keys=[self.owner_key(lease.code) for lease in leases],
            args=[self.ttl_ms, *(lease.value for lease in leases)],
        )
        return [lease for lease, ok in zip(leases, kept, strict=True) if not int(ok)]

    async def release(self, lease: Lease) -> bool:
        """Give a lease up (only if it is still ours): another node may take it at once."""
        return bool(await self._release(keys=[self.owner_key(lease.code)], args=[lease.value]))

    async def owner(self, code: str) -> tuple[str, int] | None:
        return parse_owner(await self.redis.get(self.owner_key(code)))

    async def owners(self, codes: list[str]) -> dict[str, tuple[str, int] | None]:
        if not codes:
            return {}
        values = await self.redis.mget([self.owner_key(c) for c in codes])
        return {c: parse_owner(v) for c, v in zip(codes, values, strict=True)}


class Registry:
    """The live nodes: each writes ``{prefix}node:{name}`` (its address, load and start
    time as JSON) with a time to live every heartbeat; a node whose key has expired is
    dead as far as the cluster is concerned."""

    def __init__(self, redis: Any, node: str, ttl: float = 3.0, prefix: str = "paiju:") -> None:
        self.redis = redis
        self.node = node
        self.ttl_ms = max(1, round(ttl * 1000))
        self.prefix = prefix
        self.started = time.time()

    def key(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    async def heartbeat(self, info: dict[str, Any]) -> None:
        body = {"node": self.node, "started": self.started, "seen": time.time(), **info}
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self.key(self.node), json.dumps(body), px=self.ttl_ms)
            pipe.sadd(f"{self.prefix}nodes", self.node)
            await pipe.execute()

    async def leave(self) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self.key(self.node))
            pipe.srem(f"{self.prefix}nodes", self.node)
            await pipe.execute()

    async def nodes(self) -> dict[str, dict[str, Any]]:
        """Every live node's last heartbeat; names whose key expired are dropped."""
        names = sorted(
            n.decode() if isinstance(n, bytes) else str(n)
            for n in await self.redis.smembers(f"{self.prefix}nodes")
        )
        if not names:
            return {}
        values = await self.redis.mget([self.key(n) for n in names])
        out: dict[str, dict[str, Any]] = {}
        for name, value in zip(names, values, strict=True):
            if value is None:
                await self.redis.srem(f"{self.prefix}nodes", name)
            else:
                out[name] = json.loads(value)
        return out
