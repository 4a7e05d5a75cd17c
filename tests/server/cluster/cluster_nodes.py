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
        self.wait_ready()

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as r:
            return json.loads(r.read())

    def wait_ready(self, timeout: float = 30.0) -> None:
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

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._log.close()


def wait_for(check: Any, timeout: float = 20.0, what: str = "condition") -> Any:
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

        self._connect = connect(url, max_size=2**22, open_timeout=10)
        self.ws = self._connect.__enter__()
        self.rng = random.Random(seed)
        self.acted_turn = -1
        self.pending: tuple[int, str] | None = None
        self.acknowledged: list[str] = []
        """My decisions that the server went on from (an update came after them)."""
        self.last_turn = -1
        self.messages: list[dict[str, Any]] = []
        self.token: str | None = None
        self.seat: int | None = None
        assert self.recv("welcome")["type"] == "welcome"

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, kind: str | None = None, timeout: float = 15.0) -> dict[str, Any]:
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
        if msg.get("type") in ("update", "snapshot") and isinstance(turn, int):
            if self.pending is not None and turn > self.pending[0]:
                self.acknowledged.append(self.pending[1])
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

    def play(self, decisions: int, timeout: float = 30.0) -> int:
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
