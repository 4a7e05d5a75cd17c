"""What every game's hand answers the rings the same way.

Each game's state machine (:class:`~paiju.engine.mahjong.MahjongHand`,
``variants/qinger/hand.QingerHand``) derives from :class:`HandBase` and supplies
``legal_actions``, its ``PASS`` code, its ``phase`` and the ``drawn`` piece; the base
turns those into the timeout move and into each seat's event JSON, so the server, the
terminal and the session never derive either themselves.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Self

from paiju.engine.errors import IllegalActionError
from paiju.engine.events import PRIVATE_TYPES, Event, for_seat, to_json
from paiju.engine.types import Phase


class HandBase(ABC):
    """The shared part of a hand. Subclasses set :attr:`PASS` and keep ``phase`` and
    ``drawn`` (the piece the seat to act just drew, -1 when none) up to date."""

    PASS: ClassVar[int]
    """The action code of passing a window (a claim, a knock, a takeoff, a declaration)."""
    phase: Phase
    drawn: int

    # What :meth:`copy` duplicates, by shape; every other attribute is shared (immutable,
    # or never changed after the deal).
    SEAT_BYTES: ClassVar[tuple[str, ...]] = ()
    """A bytearray per seat (piece counts)."""
    SEAT_LISTS: ClassVar[tuple[str, ...]] = ()
    """A list per seat (melds, rivers, flowers)."""
    LISTS: ClassVar[tuple[str, ...]] = ()
    DICTS: ClassVar[tuple[str, ...]] = ()
    """Dicts copied shallowly (answers, results by seat)."""
    DICTS_OF_LISTS: ClassVar[tuple[str, ...]] = ()
    """Dicts of lists (the open window's options by seat)."""
    CACHES: ClassVar[tuple[str, ...]] = ()
    """Dicts a copy starts empty (legal actions by seat)."""

    def copy(self) -> Self:
        """An independent copy (for search): the mutable parts the class names are
        duplicated. Works on ``__dict__`` directly: a search copies hands by the thousand."""
        new = object.__new__(type(self))
        d = new.__dict__
        d.update(self.__dict__)
        for name in self.SEAT_BYTES:
            d[name] = [bytearray(x) for x in d[name]]
        for name in self.SEAT_LISTS:
            d[name] = [list(x) for x in d[name]]
        for name in self.LISTS:
            d[name] = list(d[name])
        for name in self.DICTS:
            d[name] = dict(d[name])
        for name in self.DICTS_OF_LISTS:
            d[name] = {k: list(v) for k, v in d[name].items()}
        for name in self.CACHES:
            d[name] = {}
        return new

    @abstractmethod
    def legal_actions(self, seat: int) -> list[int]:
        """The action codes ``seat`` may play now (each game's own)."""

    def default_action(self, seat: int) -> int:
        """What ``seat`` does when its time runs out: pass a window, else let the drawn
        piece go, else the lowest legal action (a discard)."""
        legal = self.legal_actions(seat)
        if not legal:
            raise IllegalActionError(f"seat {seat} has nothing to do now")
        if self.PASS in legal:
            return self.PASS
        # the discard code of a piece is the piece itself, in every game
        if self.phase is Phase.ACT and self.drawn >= 0 and self.drawn in legal:
            return self.drawn
        return min(legal)

    @abstractmethod
    def view(self, seat: int | None, *, recent: bool = True) -> dict[str, Any]:
        """What ``seat`` may know (None: a spectator), as JSON (each game's own)."""

    def views(self, seats: Sequence[int | None], *, recent: bool = True) -> list[dict[str, Any]]:
        """:meth:`view` of each of ``seats``; a game may build the parts every seat sees
        alike once and share them between the views (not to be changed in place)."""
        return [self.view(seat, recent=recent) for seat in seats]

    def event_json(self, event: Event, seat: int | None) -> dict[str, Any]:
        """The JSON of one event as ``seat`` may see it: the engine's filter of private
        events, unless the game hides more (Qing'er's cards)."""
        return for_seat(event, seat)

    def events_for(self, seat: int | None, events: Sequence[Event]) -> list[dict[str, Any]]:
        """The JSON of ``events`` as ``seat`` may see them (None: a spectator)."""
        event_json = self.event_json
        return [event_json(e, seat) for e in events]

    def events_for_seats(
        self, seats: Sequence[int | None], events: Sequence[Event]
    ) -> list[list[dict[str, Any]]]:
        """:meth:`events_for` of each of ``seats``. With the engine's filter each event's
        JSON is built once, and once hidden, and shared between the seats' lists (not to
        be changed in place); a game with a filter of its own asks it seat by seat."""
        if type(self).event_json is not HandBase.event_json:
            return [self.events_for(seat, events) for seat in seats]
        out: list[list[dict[str, Any]]] = [[] for _ in seats]
        for event in events:
            shown = to_json(event)
            hidden = for_seat(event, None) if event.type in PRIVATE_TYPES else shown
            for i, seat in enumerate(seats):
                out[i].append(shown if hidden is shown or seat == event.seat else hidden)
        return out
