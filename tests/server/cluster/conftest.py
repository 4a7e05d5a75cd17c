"""The cluster tests need a real Redis and a real PostgreSQL: scripts/cluster-test.sh
starts throwaway ones on loopback and sets PAIJU_TEST_REDIS_URL and
PAIJU_TEST_POSTGRES_URL; without them every test here is skipped."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

pytest.importorskip("redis")
pytest.importorskip("sqlalchemy")

REDIS_URL = os.environ.get("PAIJU_TEST_REDIS_URL")
POSTGRES_URL = os.environ.get("PAIJU_TEST_POSTGRES_URL")


def _reset(redis_url: str, pg_url: str) -> None:
    import redis.asyncio as aioredis
    from sqlalchemy.ext.asyncio import create_async_engine

    from paiju.server.cluster.fence import fence_metadata
    from paiju.server.storage import database_url, metadata

    async def reset() -> None:
        client = aioredis.from_url(redis_url)
        await client.flushdb()
        await client.aclose()
        engine = create_async_engine(database_url(pg_url))
        async with engine.begin() as conn:
            await conn.run_sync(fence_metadata.drop_all)
            await conn.run_sync(metadata.drop_all)
        await engine.dispose()

    asyncio.run(reset())


@pytest.fixture
def services() -> Iterator[tuple[str, str]]:
    """(Redis URL, PostgreSQL URL), both emptied for this test."""
    if not REDIS_URL or not POSTGRES_URL:
        pytest.skip(
            "needs PAIJU_TEST_REDIS_URL and PAIJU_TEST_POSTGRES_URL (scripts/cluster-test.sh)"
        )
    _reset(REDIS_URL, POSTGRES_URL)
    yield REDIS_URL, POSTGRES_URL
