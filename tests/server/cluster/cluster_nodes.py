"""Real ``paiju serve --node`` processes on loopback for the cluster tests, and a small
scripted websocket player."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

FAST = {"bot_delay": 0.05, "next_hand_delay": 0.0, "message_rate": 1000, "message_burst": 1000}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Node:
    def __init__(
        self,
        name: str,
        redis_url: str,
        pg_url: str,
        log_dir: Path,
        *,
        settings: dict[str, Any] | None = None,
        lease: float = 3.0,
    ) -> None:
        self.name = name
        self.port = free_port()
        self.log_path = log_dir / f"node-{name}.log"
        args = [sys.executable, "-m", "paiju.cli", "serve", "--host", "127.0.0.1"]
        args += ["--port", str(self.port), "--node", name, "--redis", redis_url]
        args += ["--database", pg_url, "--lease", str(lease)]
        args += ["--settings", json.dumps({**FAST, **(settings or {})})]
        env = dict(os.environ)
        env["PAIJU_STATIC_DIR"] = str(log_dir / "no-static")
        self._log = open(self.log_path, "w", encoding="utf-8")  # noqa: SIM115
        self.proc = subprocess.Popen(args, stdout=self._log, stderr=subprocess.STDOUT, env=env)
        try:
            self.wait_ready()
        except BaseException:
            # a node left running would join the next test's cluster under the same name
            self.proc.kill()
            self.proc.wait()
            self._log.close()
            raise

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def get(self, path: str) -> Any:
        # a starved node answers late, not never: the timeout bounds a hang
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=60) as r:
            return json.loads(r.read())

    def wait_ready(self, timeout: float = 240.0) -> None:
        # on a loaded machine the imports alone took over 30 s: this only bounds a hang
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"node {self.name} exited: {self.log_path.read_text()}")
            try:
                self.get("/api/ready")
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"node {self.name} did not start: {self.log_path.read_text()}")

    def kill(self) -> None:
        """kill -9: no shutdown, no flush, no lease released."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def pause(self) -> None:
        self.proc.send_signal(signal.SIGSTOP)

    def wake(self) -> None:
        self.proc.send_signal(signal.SIGCONT)

    def stop(self, timeout: float = 120.0) -> bool:
        """SIGTERM, and wait for the node to hand its rooms over and exit; True if it did
        (a node still running after ``timeout`` is killed: a hang, not slowness)."""
        exited = True
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                exited = False
                self.proc.kill()
                self.proc.wait(10)
        self._log.close()
        return exited


def start_nodes(
    names: tuple[str, ...], redis_url: str, pg_url: str, log_dir: Path, **kwargs: Any
) -> list[Node]:
    """Nodes started one after the other (the first creates the tables); if one fails to
    start, those already running are stopped before the error goes on."""
    started: list[Node] = []
    try:
        for name in names:
            started.append(Node(name, redis_url, pg_url, log_dir, **kwargs))
    except BaseException:
        for node in started:
            node.stop()
        raise
    return started


def wait_for(check: Any, timeout: float = 120.0, what: str = "condition") -> Any:
    """Poll ``check`` until it returns something true; ``timeout`` bounds a hang only."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class Player:
    """One seat's client: answers every question it is asked with a seeded choice (a win
    when it has one) and keeps what it was told."""

    def __init__(self, url: str, seed: int = 0) -> None:
        from websockets.sync.client import connect

        self._connect = connect(url, max_size=2**22, open_timeout=60)
        self.ws = self._connect.__enter__()
        self.rng = random.Random(seed)
        self.acted_turn = -1
        self.pending: tuple[int, str] | None = None
        self.acknowledged: list[str] = []
        """My decisions the server answered (an update acknowledged them; a snapshot after a
        reconnect does not count: an answer lost with its node was never told)."""
        self.last_turn = -1
        self.messages: list[dict[str, Any]] = []
        self.token: str | None = None
        self.seat: int | None = None
        assert self.recv("welcome")["type"] == "welcome"

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, kind: str | None = None, timeout: float = 60.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no {kind} message")
            msg: dict[str, Any] = json.loads(self.ws.recv(timeout=left))
            self.messages.append(msg)
            self._note(msg)
            if msg.get("type") == "error" and kind not in (None, "error"):
                raise AssertionError(f"error: {msg}")
            if kind is None or msg.get("type") == kind:
                return msg

    def _note(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "seated":
            self.token = msg["token"]
            self.seat = msg["seat"]
        turn = msg.get("turn")
        if msg.get("type") in ("error", "timeout"):
            self.pending = None  # refused, or the clock answered first
        if msg.get("type") in ("update", "snapshot") and isinstance(turn, int):
            pending = self.pending
            # answered: a later turn, or a held answer's acknowledgement (nothing to decide)
            if pending is not None and (
                turn > pending[0] or (turn == pending[0] and not msg.get("legal"))
            ):
                if msg.get("type") == "update":
                    self.acknowledged.append(pending[1])
                self.pending = None
            self.last_turn = max(self.last_turn, turn)

    def act_if_asked(self, msg: dict[str, Any]) -> bool:
        legal = msg.get("legal") or []
        turn = msg.get("turn")
        if not legal or not isinstance(turn, int) or turn <= self.acted_turn:
            return False
        choice = next((w for w in ("zimo", "hu") if w in legal), None) or self.rng.choice(legal)
        self.acted_turn = turn
        self.pending = (turn, choice)
        self.send({"type": "act", "action": choice, "turn": turn})
        return True

    def play(self, decisions: int, timeout: float = 120.0) -> int:
        """Answer questions until ``decisions`` more were made (or the match ended)."""
        made = 0
        deadline = time.monotonic() + timeout
        while made < decisions:
            msg = self.recv(timeout=deadline - time.monotonic())
            if msg.get("type") == "match_end":
                break
            if msg.get("type") in ("update", "snapshot") and self.act_if_asked(msg):
                made += 1
        return made

    def close(self) -> None:
        # already gone when its node was killed
        with contextlib.suppress(Exception):
            self.ws.close()


def reconnect(url: str, token: str | None, seed: int, timeout: float = 120.0) -> Player:
    """A client back in with its seat token through ``url``, as a real one does after its
    node died: while no node has taken the room yet the server answers an error (or
    closes), and the client tries again. Returns the player whose last message is the
    snapshot; ``timeout`` bounds a hang only."""
    from websockets.exceptions import WebSocketException

    deadline = time.monotonic() + timeout
    while True:
        player: Player | None = None
        try:
            player = Player(url, seed=seed)
            player.send({"type": "reconnect", "token": token})
            player.recv("snapshot", timeout=max(1.0, deadline - time.monotonic()))
            return player
        except (AssertionError, TimeoutError, OSError, WebSocketException) as exc:
            if player is not None:
                player.close()
            if time.monotonic() >= deadline:
                raise AssertionError(f"no snapshot for the seat token: {exc}") from exc
            time.sleep(0.2)
