"""A match between one person and bots, driven one decision at a time (no UI here).

The terminal app asks :meth:`PlaySession.next_seat` who must act, lets a bot act with
:meth:`bot_step` or waits for the person's :meth:`human_act`. Underneath is the engine's
:class:`~paiju.engine.session.Session`, the driver a server table runs on: turn-taking,
claim windows answered in order, the events and the record lines all come from it, so
the record written here is the one ``paiju replay`` regenerates, line for line, and the
one a server table with the same seed and bots writes.
"""

from __future__ import annotations

import copy
import os
import tempfile
from collections.abc import Sequence
from typing import Any

from paiju.engine.errors import IllegalActionError
from paiju.engine.events import Event
from paiju.engine.fairness import FairDeal, offline_server_seed
from paiju.engine.match import Decide, Hand, HandSummary, Match
from paiju.engine.record import dump_lines, match_end
from paiju.engine.session import Session, bot_seed

HUMAN = "human"
"""The record's name for the person's seat."""


class PlaySession:
    """One person (seat ``human``) against bots over a whole match.

    ``bots`` is one bot name for every other seat, or one per other seat in seat order.
    ``record_path`` (optional) is rewritten after every finished hand.
    """

    def __init__(
        self,
        variant: str,
        *,
        seed: int,
        bots: Sequence[str] = ("greedy",),
        human: int = 0,
        options: Any = None,
        record_path: str | None = None,
        fair: FairDeal | None = None,
    ) -> None:
        from paiju.bots import make_bot
        from paiju.variants import find_variant

        flow = find_variant(variant)
        if options is None:
            options = flow.default_options()
        self.variant = variant
        self.flow = flow
        self.n_seats: int = flow.seats(options)
        if not 0 <= human < self.n_seats:
            raise ValueError(f"the person's seat must be 0–{self.n_seats - 1}, not {human}")
        self.human = human
        names = list(bots)
        others = self.n_seats - 1
        if len(names) == 1:
            names *= others
        if len(names) != others or not all(names):
            raise ValueError(f"--bots takes one bot name or {others}, comma-separated")
        self.seat_names: list[str] = []
        self.players: list[Decide | None] = []
        bot_names = iter(names)
        for s in range(self.n_seats):
            if s == human:
                self.seat_names.append(HUMAN)
                self.players.append(None)
            else:
                name = next(bot_names)
                self.seat_names.append(name)
                self.players.append(make_bot(name, bot_seed(seed, s, self.n_seats), variant))
        self.options = options
        self.seed = seed
        if fair is None:
            # reproducible from ``seed`` (``paiju play --seed``); the command gives a match
            # without one a secret server seed and the person's own client seed
            fair = FairDeal.create(offline_server_seed(seed), "play", [""] * self.n_seats)
        self.fair = fair
        self.session = Session(flow, options, seed, self.seat_names, fair=fair)
        self.record_path = record_path
        self._committed = 1
        """Record lines up to the end of the last finished hand."""
        self.hand: Any = None
        """The hand being played, or the last one played (its settlement stays shown)."""
        self.hand_events: list[Event] = []
        """Every event of the current hand so far (the UI filters what the person sees)."""
        self.summaries: list[HandSummary] = []

    @property
    def match(self) -> Match:
        return self.session.match

    @property
    def lines(self) -> list[dict[str, Any]]:
        """Every record line written so far (the session's)."""
        return self.session.lines

    # -- hands ----------------------------------------------------------------------
    def start_hand(self) -> Hand:
        if self.session.finished:
            raise RuntimeError("the match is over")
        if self.session.hand is not None:
            raise RuntimeError("the current hand is not over")
        self.session.start_hand()
        hand = self.session.hand
        assert hand is not None
        self.hand = hand
        self.hand_events = list(hand.log)
        return hand

    @property
    def hand_number(self) -> int:
        """1-based number of the current (or last) hand."""
        return len(self.match.hands) + (0 if self.hand is None or self.hand.is_over else 1)

    def next_seat(self) -> int | None:
        """The seat whose decision is due, or None when the hand is over (or not started)."""
        return self.session.next_seat()

    @property
    def human_to_act(self) -> bool:
        return self.next_seat() == self.human

    def human_legal(self) -> list[int]:
        """The person's legal actions now: empty unless their decision is due."""
        if not self.human_to_act:
            return []
        return list(self.session.legal(self.human))

    def human_act(self, action: int) -> list[Event]:
        """Apply the person's ``action``. Raises IllegalActionError (nothing changes) when
        it is not their turn or the action is not legal."""
        if not self.human_to_act:
            raise IllegalActionError("it is not your decision now")
        if action not in self.session.legal(self.human):
            raise IllegalActionError(f"{self.hand.action_str(action)} is not legal now")
        return self._apply(self.human, action)

    def bot_step(self) -> tuple[int, int, list[Event]]:
        """Let the bot whose decision is due act: (seat, action, events)."""
        seat = self.next_seat()
        if seat is None:
            raise RuntimeError("no decision is due")
        player = self.players[seat]
        if player is None:
            raise RuntimeError("the person must act, not a bot")
        action = player(self.hand, seat)
        return seat, action, self._apply(seat, action)

    def run_bots(self) -> None:
        """Let bots act until the person must decide or the hand is over."""
        while True:
            seat = self.next_seat()
            if seat is None or seat == self.human:
                return
            self.bot_step()

    def _apply(self, seat: int, action: int) -> list[Event]:
        events = self.session.act(seat, action).events
        self.hand_events.extend(events)
        return events

    def finish_hand(self) -> HandSummary:
        """Book the finished hand into the match and rewrite the record file."""
        if self.hand is None or not self.hand.is_over:
            raise RuntimeError("the hand is not over")
        if self.session.hand is None:
            raise RuntimeError("this hand is already finished")
        summary = self.session.end_hand().hand_ended
        assert summary is not None
        self._committed = len(self.lines)
        self.summaries.append(summary)
        self.save()
        return summary

    @property
    def match_over(self) -> bool:
        return self.session.finished

    def totals(self) -> list[int]:
        return self.match.totals()

    # -- the record -----------------------------------------------------------------
    def record(self) -> list[dict[str, Any]]:
        """The record of every finished hand, verifiable by ``paiju replay``.

        Before the match is over, the header says ``hands`` = the hands played, so the
        record is that of a shorter match that ends where the person stopped (the hand
        seeds and dealers do not depend on the match length). Empty before the first
        hand ends, or when the variant's options have no ``hands`` length.
        """
        played = len(self.match.hands)
        if not played:
            return []
        lines = [copy.deepcopy(line) for line in self.lines[: self._committed]]
        if self.session.finished:
            return lines  # the whole match, its match_end included
        options = lines[0]["options"]
        if "hands" not in options:
            return []
        options["hands"] = played
        if "max_extra_hands" in options:
            # the shorter match ends where the person stopped, even after a drawn hand
            # that the full match plays on from (Taixing T9)
            options["max_extra_hands"] = 0
        lines.append(match_end(self.match, played))
        return lines

    def save(self, path: str | None = None) -> str | None:
        """Write :meth:`record` to ``path`` (default ``record_path``), replacing the file
        atomically; returns the path written, or None when there is nothing to write."""
        target = path or self.record_path
        lines = self.record()
        if target is None or not lines:
            return None
        directory = os.path.dirname(os.path.abspath(target))
        fd, tmp = tempfile.mkstemp(prefix=".paiju-", suffix=".jsonl", dir=directory)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                dump_lines(lines, fh)
            os.replace(tmp, target)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        return target
