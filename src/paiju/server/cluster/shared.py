"""What the lobby needs cluster-wide, kept in Redis.

- room codes: ``{prefix}code:{CODE}`` reserved with SET NX by the node that opens the
  room, kept alive by its owner (whoever owns it now), deleted when the room is forgotten;
- the open-room list: each node replaces ``{prefix}open:{node}`` (code → the room's
  public JSON) with what it holds, with a time to live, so a dead node's rooms drop out;
- seat tokens: ``{prefix}tokens`` maps a token's hash to the room code, so a client that
  reconnects through any node reaches the room's owner;
- rate limits: token buckets evaluated inside Redis on Redis's own clock, so every node
  spends from the same bucket (:mod:`.limits` borrows from them a few tokens at a time);
- waiting rooms (created, not yet started: not in PostgreSQL yet): ``{prefix}waiting:CODE``
  holds the room's setup (variant, options, seats with their token hashes, timers, the
  host's seat), written only while the writer holds the room's lease (checked inside the
  same Redis script), and ``{prefix}waiting`` lists their codes, so that when the owner
  dies another node takes the lease and rebuilds the room.
"""

from __future__ import annotations

import json
from typing import Any

from paiju.server.cluster.limits import LEND

CODE_TTL_MS = 600_000
"""A reservation outlives its owner by this long at most (a room the owner never stored)."""


_SAVE_WAITING = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then
  redis.call('DEL', KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[3])
else
  redis.call('SET', KEYS[2], ARGV[2])
  redis.call('SADD', KEYS[3], ARGV[3])
  for i = 4, #ARGV do redis.call('HSET', KEYS[4], ARGV[i], ARGV[3]) end
end
return 1
"""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Shared:
    def __init__(self, redis: Any, node: str, prefix: str = "paiju:") -> None:
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self._lend = redis.register_script(LEND)
        self._save_waiting = redis.register_script(_SAVE_WAITING)

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
    async def take(self, bucket: str, rate: float, burst: float) -> bool:
        """Spend one token of the cluster-wide bucket ``bucket`` (the one
        :class:`~paiju.server.cluster.limits.SharedLimits` borrows from); False if empty."""
        key = f"{self.prefix}rate:{bucket}"
        return bool(int(await self._lend(keys=[key], args=[rate, burst, 1, 0])))

    # -- waiting rooms -------------------------------------------------------------------
    @property
    def waiting_key(self) -> str:
        return f"{self.prefix}waiting"

    async def save_waiting(
        self, owner_key: str, lease: str, code: str, setup: str, tokens: list[str]
    ) -> bool:
        """Store a waiting room's setup (``""``: forget it) and route its seat tokens, if
        ``lease`` still owns it."""
        keys = [owner_key, f"{self.waiting_key}:{code}", self.waiting_key, self.tokens_key]
        args = [lease, setup, code, *tokens]
        return bool(int(await self._save_waiting(keys=keys, args=args)))

    async def is_waiting(self, code: str) -> bool:
        return bool(await self.redis.sismember(self.waiting_key, code))

    async def waiting_codes(self) -> list[str]:
        return sorted(_text(c) for c in await self.redis.smembers(self.waiting_key))

    async def waiting_setup(self, code: str) -> dict[str, Any] | None:
        body = await self.redis.get(f"{self.waiting_key}:{code}")
        return None if body is None else dict(json.loads(body))

    async def drop_waiting(self, code: str) -> None:
        """Forget a record nobody can use any more (its game started, or it is damaged)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(f"{self.waiting_key}:{code}")
            pipe.srem(self.waiting_key, code)
            await pipe.execute()
