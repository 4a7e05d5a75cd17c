"""Review (复盘) over REST: the ``paiju review --json`` object for one seat of a record.

``POST /api/review?seat=N`` takes a record (JSON Lines, as ``paiju replay`` reads it) in
the body; ``GET /api/games/{id}/review?seat=N`` reviews a finished game of this server.
Both answer the object of :meth:`paiju.review.Review.to_json` with the strong bot as the
judge, each decision with ``view``: the table as that seat saw it then (its own engine
view: the other seats' concealed hands are not in it). With ``wait=0`` either answers at
once: the review when it is ready, else 202 with the job (``job``, ``status`` queued or
running, ``done`` and ``total`` moves of the record replayed, ``ahead``: reviews before
it); ``GET /api/review/jobs/{job}`` then says the same until it answers the review (or
the error the review met).

A review is CPU work of seconds (a four-round Jiaxing match: about ten seconds of one
core), so it runs in a worker process of its own (the tables keep their event loop and
GIL), one at a time, in order: the reviews a player asked for first, then the background
ones. Records are limited to :data:`MAX_REVIEW_HANDS` hands and :data:`MAX_REVIEW_BYTES`
bytes; Monte Carlo (Qing'er) takes :data:`REVIEW_ROLLOUTS` samples a decision. At most
:data:`MAX_WAITING` asked-for reviews wait (429 beyond).

In the background (``app.state.review_in_background``, on by default), when 我的对局 lists
a player's finished games, each of the player's own seats not yet reviewed is queued
(at most :data:`MAX_BACKGROUND` waiting; more wait for a later look), so its agreement
with the strong bot shows for every game. Only the seat of a token the browser holds is
queued that way. The reviews of a server's own games are kept: the last
:data:`KEPT_REVIEWS` whole in memory, so a second look costs nothing, and each one's
agreement in the game's stored result, for 我的对局.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse

from paiju.server.storage import Storage

MAX_REVIEW_BYTES = 4_000_000
MAX_REVIEW_HANDS = 40
"""A four-round Jiaxing match is about 30 hands."""
REVIEW_ROLLOUTS = 8
KEPT_REVIEWS = 16
"""Whole reviews of this server's games kept in memory (each a few hundred kB at most)."""
MAX_WAITING = 8
"""Reviews players asked for that may wait at once."""
MAX_BACKGROUND = 64
"""Background reviews (of listed games) that may wait at once."""
KEPT_JOBS = 32
"""Finished jobs kept for their askers to fetch."""

log = logging.getLogger("paiju.server.review")
router = APIRouter()


class ReviewCache:
    """The reviews of finished games by (game id, seat): a finished game never changes."""

    def __init__(self) -> None:
        self.whole: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

    def get(self, game_id: str, seat: int) -> dict[str, Any] | None:
        found = self.whole.get((game_id, seat))
        if found is not None:
            self.whole.move_to_end((game_id, seat))
        return found

    def put(self, game_id: str, seat: int, review: dict[str, Any]) -> None:
        self.whole[(game_id, seat)] = review
        while len(self.whole) > KEPT_REVIEWS:
            self.whole.popitem(last=False)


def review_cache(app: Any) -> ReviewCache:
    cache = getattr(app.state, "reviews", None)
    if not isinstance(cache, ReviewCache):
        cache = app.state.reviews = ReviewCache()
    return cache


@dataclass
class Job:
    """One review, queued, running or answered. ``load`` brings the record when its turn
    comes (a background job holds no record while it waits)."""

    key: str
    seat: int
    load: Callable[[], Awaitable[list[dict[str, Any]]]]
    game_id: str | None = None
    status: str = "queued"
    serial: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: tuple[int, str] | None = None
    finished: asyncio.Event = field(default_factory=asyncio.Event)


class ReviewQueue:
    """The reviews of one app, run one at a time in the review worker: asked-for ones
    (``urgent``) first, then background ones, each in the order it came."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.jobs: dict[str, Job] = {}
        self.urgent: deque[str] = deque()
        self.background: deque[str] = deque()
        self.done: OrderedDict[str, Job] = OrderedDict()
        self.running: Job | None = None
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    def find(self, key: str) -> Job | None:
        return self.jobs.get(key) or self.done.get(key)

    def submit(
        self,
        key: str,
        seat: int,
        load: Callable[[], Awaitable[list[dict[str, Any]]]],
        *,
        game_id: str | None = None,
        urgent: bool = True,
    ) -> Job | None:
        """The job reviewing ``key``: the one already waiting or running, or a new one
        (None: the background queue is full). Raises 429 when too many asked-for
        reviews wait."""
        found = self.jobs.get(key)
        if found is not None:
            if urgent and key in self.background:
                self.background.remove(key)
                self.urgent.append(key)
            return found
        line = self.urgent if urgent else self.background
        if len(line) >= (MAX_WAITING if urgent else MAX_BACKGROUND):
            if urgent:
                raise HTTPException(429, "too many reviews are waiting; try again in a moment")
            return None
        job = Job(key, seat, load, game_id)
        self.jobs[key] = job
        line.append(key)
        self._start()
        return job

    def ahead(self, job: Job) -> int:
        """Reviews that will run before ``job``."""
        if job.status != "queued":
            return 0
        before = 1 if self.running is not None else 0
        if job.key in self.urgent:
            return before + list(self.urgent).index(job.key)
        if job.key in self.background:
            return before + len(self.urgent) + list(self.background).index(job.key)
        return before

    def state(self, job: Job) -> dict[str, Any]:
        done = 0
        if job.status == "running":
            progress = _progress()
            if progress is not None and progress[0] == job.serial:
                done = progress[1]
        return {
            "job": job.key,
            "status": job.status,
            "done": done,
            "total": job.total,
            "ahead": self.ahead(job),
        }

    def _start(self) -> None:
        self._wake.set()
        loop = asyncio.get_running_loop()
        task = self._task
        if task is None or task.done() or task.get_loop() is not loop:
            self._wake = asyncio.Event()
            self._wake.set()
            self._task = loop.create_task(self._run())

    async def _run(self) -> None:
        while True:
            if not self.urgent and not self.background:
                self._wake.clear()
                await self._wake.wait()
                continue
            key = (self.urgent or self.background).popleft()
            job = self.jobs[key]
            self.running = job
            try:
                await self._review(job)
            except Exception:
                log.exception("review %s failed", key)
                job.error = (503, "the review failed; try again")
            finally:
                self.running = None
                job.status = "failed" if job.error else "done"
                self.jobs.pop(key, None)
                self.done[key] = job
                while len(self.done) > KEPT_JOBS:
                    self.done.popitem(last=False)
                job.finished.set()

    async def _review(self, job: Job) -> None:
        from paiju.review import ReviewError

        records = await job.load()
        job.total = sum(1 for r in records if r.get("type") == "action")
        _serial[0] += 1
        job.serial = _serial[0]
        job.status = "running"
        loop = asyncio.get_running_loop()
        try:
            job.result = await loop.run_in_executor(
                _reviewer(), review_json, records, job.seat, job.serial
            )
        except ReviewError as exc:
            job.error = (422, str(exc))
            return
        except BrokenProcessPool:
            # the worker died (killed, out of memory): the next review starts a new one
            _drop_reviewer()
            job.error = (503, "the review worker stopped; try again")
            return
        if job.game_id is not None:
            review_cache(self.app).put(job.game_id, job.seat, job.result)
            try:
                await self.app.state.storage.note_review(
                    job.game_id, job.seat, job.result["n_decisions"], job.result["agreement"]
                )
            except Exception:
                # the review itself is good; only 我的对局's agreement misses it
                log.exception("cannot note the review of game %s seat %s", job.game_id, job.seat)


def review_queue(app: Any) -> ReviewQueue:
    queue = getattr(app.state, "review_queue", None)
    if not isinstance(queue, ReviewQueue):
        queue = app.state.review_queue = ReviewQueue(app)
    return queue


def in_background(app: Any) -> bool:
    return bool(getattr(app.state, "review_in_background", True))


def queue_in_background(app: Any, game_id: str, seat: int) -> dict[str, Any]:
    """Queues the review of a finished game's seat for 我的对局 (unless one is kept or
    under way); returns its state: ``status`` ``queued``/``running`` (with ``done``,
    ``total``, ``ahead``), ``done`` (with ``decisions``, ``agreement``), ``failed``
    (with ``detail``), ``waiting`` (the background queue is full) or ``off``."""
    queue = review_queue(app)
    key = _game_key(game_id, seat)
    job = queue.find(key)
    if job is not None and job.result is not None:
        return {
            "status": "done",
            "decisions": job.result["n_decisions"],
            "agreement": job.result["agreement"],
        }
    if job is not None and job.error is not None:
        return {"status": "failed", "detail": job.error[1]}
    if job is None:
        if not in_background(app):
            return {"status": "off"}
        storage: Storage = app.state.storage

        async def load() -> list[dict[str, Any]]:
            await storage.flush()  # a game just finished may still be on its way to disk
            return await storage.lines(game_id)

        job = queue.submit(key, seat, load, game_id=game_id, urgent=False)
    if job is None:
        return {"status": "waiting"}
    out = queue.state(job)
    del out["job"]  # the job's key names the game and seat the asker already knows
    return out


@router.post("/api/review", response_model=None)
async def review_upload(request: Request, seat: int, wait: bool = True) -> Any:
    """Body: a record in JSON Lines; ``seat``: the seat reviewed (0-based)."""
    body = await request.body()
    if len(body) > MAX_REVIEW_BYTES:
        raise HTTPException(413, f"a record to review is limited to {MAX_REVIEW_BYTES} bytes")
    lines = body.split(b"\n")
    while lines and not lines[-1].strip():
        lines.pop()
    records = _parse(lines)
    _check(records)
    key = "r" + hashlib.sha256(body + b"|%d" % seat).hexdigest()[:32]

    async def load() -> list[dict[str, Any]]:
        return records

    job = review_queue(request.app).submit(key, seat, load)
    assert job is not None
    return await _answer(request.app, job, wait)


@router.get("/api/games/{game_id}/review", response_model=None)
async def review_game(game_id: str, seat: int, request: Request, wait: bool = True) -> Any:
    storage: Storage = request.app.state.storage
    found = await storage.get_game(game_id[:64])
    if found is None:
        raise HTTPException(404, f"no game {game_id[:64]!r}")
    if found.status != "finished":
        raise HTTPException(409, "a game can be reviewed once it has finished")
    kept = review_cache(request.app).get(found.id, seat)
    if kept is not None:
        return kept
    await storage.flush()
    records = await storage.lines(found.id)
    _check(records)
    gid = found.id

    async def load() -> list[dict[str, Any]]:
        return records

    job = review_queue(request.app).submit(_game_key(gid, seat), seat, load, game_id=gid)
    assert job is not None
    return await _answer(request.app, job, wait)


@router.get("/api/review/jobs/{job}", response_model=None)
async def review_job(job: str, request: Request) -> Any:
    """A review's state while it waits or runs (202), then its answer."""
    found = review_queue(request.app).find(job[:80])
    if found is None:
        raise HTTPException(404, "no such review (it finished long ago, or never was)")
    return await _answer(request.app, found, False)


async def _answer(app: Any, job: Job, wait: bool) -> Any:
    if wait:
        await job.finished.wait()
    if job.error is not None:
        raise HTTPException(*job.error)
    if job.result is not None:
        return job.result
    return JSONResponse(review_queue(app).state(job), status_code=202)


def _game_key(game_id: str, seat: int) -> str:
    return f"g{seat}.{game_id}"


def _parse(lines: list[bytes]) -> list[dict[str, Any]]:
    from paiju.engine.record import RecordError, parse_lines

    try:
        return parse_lines(lines)
    except RecordError as exc:
        raise HTTPException(422, f"malformed record, {exc}") from None


def _check(records: list[dict[str, Any]]) -> None:
    hands = sum(1 for r in records if r.get("type") == "hand")
    if hands > MAX_REVIEW_HANDS:
        raise HTTPException(413, f"a review is limited to {MAX_REVIEW_HANDS} hands ({hands})")


def review_json(records: list[dict[str, Any]], seat: int, serial: int = 0) -> dict[str, Any]:
    """One review as its JSON object (run in the review worker process), its progress
    (moves of the record replayed) told through the shared counter."""
    from paiju.review import review_record

    def moves(done: int, total: int) -> None:
        if _shared:
            _shared[0][0], _shared[0][1] = serial, done

    return review_record(records, seat, rollouts=REVIEW_ROLLOUTS, views=True, moves=moves).to_json()


_pool: list[ProcessPoolExecutor] = []
_counter: list[Any] = []
"""The progress counter shared with the worker: (job serial, moves replayed)."""
_shared: list[Any] = []
"""In the worker: the same counter."""
_serial = [0]


def _share(counter: Any) -> None:
    _shared[:] = [counter]


def _progress() -> tuple[int, int] | None:
    if not _counter:
        return None
    counter = _counter[0]
    return int(counter[0]), int(counter[1])


def _reviewer() -> ProcessPoolExecutor:
    """The review worker: a process of its own, so that seconds of CPU-bound search hold
    neither the event loop nor its GIL while tables play (spawned, not forked: the server
    runs threads)."""
    if not _pool:
        context = get_context("spawn")
        # two machine words written by the worker alone, read now and then: no lock
        counter = context.Array("q", 2, lock=False)
        _counter[:] = [counter]
        _pool.append(
            ProcessPoolExecutor(
                max_workers=1, mp_context=context, initializer=_share, initargs=(counter,)
            )
        )
    return _pool[0]


def _drop_reviewer() -> None:
    while _pool:
        _pool.pop().shutdown(wait=False, cancel_futures=True)
    _counter.clear()
