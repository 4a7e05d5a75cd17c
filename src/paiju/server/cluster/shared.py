"""What the lobby needs cluster-wide, kept in Redis.

- room codes: ``{prefix}code:{CODE}`` reserved with SET NX by the node that opens the
  room, kept alive by its owner (whoever owns it now), deleted when the room is forgotten;
- the open-room list: each node replaces ``{prefix}open:{node}`` (code → the room's
  public JSON) with what it holds, with a time to live, so a dead node's rooms drop out;
- seat tokens: ``{prefix}tokens`` maps a token's hash to the room code, so a client that
  reconnects through any node reaches the room's owner;
- rate limits: token buckets evaluated inside Redis on Redis's own clock, so every node
  spends from the same bucket (room creation per client address).
"""

from __future__ import annotations

import json
from typing import Any

CODE_TTL_MS = 600_000
"""A reservation outlives its owner by this long at most (a room the owner never stored)."""

_BUCKET = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 'level', 'at')
local level = tonumber(state[1]) or burst
local at = tonumber(state[2]) or t
level = math.min(burst, level + (t - at) * rate)
local ok = 0
if level >= cost then
  level = level - cost
  ok = 1
end
redis.call('HSET', KEYS[1], 'level', tostring(level), 'at', tostring(t))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst / math.max(rate, 1e-9)) * 1000) + 1000)
return ok
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Shared:
    def __init__(self, redis: Any, node: str, prefix: str = "paiju:") -> None:
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self._bucket = redis.register_script(_BUCKET)

    # -- room codes --------------------------------------------------------------------
    def code_key(self, code: str) -> str:
        return f"{self.prefix}code:{code}"

    async def reserve_code(self, code: str) -> bool:
        """True if ``code`` was free and is now this node's to open a room with."""
        return bool(await self.redis.set(self.code_key(code), self.node, nx=True, px=CODE_TTL_MS))

    async def keep_codes(self, codes: list[str]) -> None:
        """Refresh the reservations of the rooms this node owns (its sync loop)."""
        if not codes:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.set(self.code_key(code), self.node, px=CODE_TTL_MS)
            await pipe.execute()

    async def free_code(self, code: str) -> None:
        await self.redis.delete(self.code_key(code))

    # -- open rooms --------------------------------------------------------------------
    def open_key(self, node: str) -> str:
        return f"{self.prefix}open:{node}"

    async def publish_open(self, rooms: dict[str, dict[str, Any]], ttl_ms: int) -> None:
        """Replace this node's entries in the open-room list."""
        key = self.open_key(self.node)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(key)
            if rooms:
                pipe.hset(
                    key, mapping={c: json.dumps(r, ensure_ascii=False) for c, r in rooms.items()}
                )
                pipe.pexpire(key, ttl_ms)
            await pipe.execute()

    async def open_rooms(self, nodes: list[str]) -> list[dict[str, Any]]:
        """Every live node's open rooms, each with the node that holds it, by code."""
        out = []
        for node in nodes:
            for code, body in (await self.redis.hgetall(self.open_key(node))).items():
                room = json.loads(body)
                room["code"] = _text(code)
                room["node"] = node
                out.append(room)
        return sorted(out, key=lambda r: str(r["code"]))

    # -- seat tokens ---------------------------------------------------------------------
    @property
    def tokens_key(self) -> str:
        return f"{self.prefix}tokens"

    async def publish_tokens(self, tokens: dict[str, str]) -> None:
        """``token hash → room code`` for the seats of rooms this node owns."""
        if tokens:
            await self.redis.hset(self.tokens_key, mapping=tokens)

    async def forget_tokens(self, hashes: list[str]) -> None:
        if hashes:
            await self.redis.hdel(self.tokens_key, *hashes)

    async def token_room(self, token_hash: str) -> str | None:
        value = await self.redis.hget(self.tokens_key, token_hash)
        return None if value is None else _text(value)

    # -- rate limits ---------------------------------------------------------------------
    async def take(self, bucket: str, rate: float, burst: float, cost: float = 1.0) -> bool:
        """Spend ``cost`` from the cluster-wide bucket ``bucket``; False if it is empty."""
        key = f"{self.prefix}rate:{bucket}"
        return bool(int(await self._bucket(keys=[key], args=[rate, burst, cost])))
