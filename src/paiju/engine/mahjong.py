"""One hand (局) of four-player mahjong as a state machine, shared by Jiaxing and Taixing.

Phases: ``ACT`` (the seat to move has drawn: discard, kong, self-drawn win), ``CLAIM``
(after a discard every other seat that has an option answers; a pure priority function
resolves the answers), ``ROB`` (after an added kong, seats that can win on that tile
answer), ``DECLARE`` (only where the rules have a ready declaration: right after the deal
every non-dealer whose hand is ready answers at once, declare or pass), ``END``. Draws are
automatic: a seat never "chooses" to draw.

Flowers (where the rules have them) never enter the 34-kind counts: a flower dealt or drawn
is set aside in ``flowers[seat]`` and replaced from the wall's tail at once. Everything a
flower-less game does not need sits behind a rules attribute, off the hot loop.

The variant is a :class:`MahjongRules` object: it builds the tile set, says who may win,
pays kong money and settles the hand. Everything here is the standard library only;
state is plain lists and bytearrays so that a random-bot hand costs about a millisecond.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from itertools import compress
from typing import Any

from paiju.components.analysis import MAHJONG
from paiju.components.tiles import TILE_TEXT, Tile
from paiju.engine import actions as A
from paiju.engine.errors import IllegalActionError
from paiju.engine.events import Event, for_seat, new_event
from paiju.engine.fairness import HandRandom, shuffle
from paiju.engine.hand import HandBase
from paiju.engine.types import (
    MahjongWin,
    Meld,
    MeldType,
    Payment,
    Phase,
    Refusal,
    WinFlag,
    WinResult,
    WinType,
)

ACT, CLAIM, ROB, END, DECLARE = (Phase.ACT, Phase.CLAIM, Phase.ROB, Phase.END, Phase.DECLARE)
_PONG = MeldType.PONG
_OTHERS = tuple(((s + 1) % 4, (s + 2) % 4, (s + 3) % 4) for s in range(4))
"""By seat, the other seats in turn order after it (see ``MahjongHand._others``)."""
# module names for the members: looking a member up on an enum class costs ten times
# a global in the hot loop

PHASES: tuple[Phase, ...] = (Phase.ACT, Phase.CLAIM, Phase.ROB, Phase.END, Phase.DECLARE)
"""The phases a mahjong hand goes through (the order encoders number them in)."""

N_SEATS = 4
_KINDS = range(34)
PLAYING_TILES = tuple(k for k in range(34) for _ in range(4))
"""The 136 playing tiles, four of each kind, by kind."""


class MahjongRules:
    """Variant hooks. Subclasses override what their game does differently."""

    name = "mahjong"
    max_winners: int | None = None
    """Winners allowed on one discard (None: every seat that claims)."""
    last_tile_window: int = 0
    """Wall tiles that may still be left for a win to count as 海底 (0: the last tile)."""
    flowers: bool = False
    """The tile set has flowers: set aside on sight and replaced from the tail."""
    leopard: bool = False
    """Equal dice (豹子) double the hand: the wins carry ``leopard``."""
    draw_streak: int = 0
    """Drawn hands (荒庄) in a row before this one, carried by the match into each win."""
    ready_declaration: bool = False
    """天听: the dealer may declare ready with the first discard, the others right after
    the deal (phase ``DECLARE``); a declared hand is locked."""
    ready_at_deal_others: bool = True
    """With ``ready_declaration``: the non-dealers may declare right after the deal
    (False: only the dealer may declare, with the first discard)."""
    chi: bool = False
    """吃: the seat after the discarder may claim a run with the discard (Jiaxing JA3)."""
    ready_anytime: bool = False
    """报听: any discard that leaves the hand ready may declare it (Jiaxing JA20); the
    hand is then locked like a 天听 hand."""
    ready_flag: WinFlag = WinFlag.READY_AT_DEAL
    """The flag a declared winner's win carries (Taixing 天听 / Jiaxing 报听)."""
    odd_shapes: bool = False
    """The rules know complete hands the standard analyser does not (花胡, 风一色): the
    engine then asks :meth:`extra_complete` and :meth:`extra_waits` as well."""
    feeding_limit: int | None = None
    """Melds one seat may feed another before it is sealed (Jiaxing 封胡); None: no limit."""
    wild_kinds: tuple[int, ...] = ()
    """Kinds that are wild this hand (Jiaxing 混儿), fixed by :meth:`after_deal`; the rules'
    own :meth:`complete`, :meth:`waits_of` and :meth:`shanten` account for them."""

    def tiles(self) -> list[int]:
        return list(PLAYING_TILES)

    def wall_break(
        self, dice: tuple[int, int], dealer: int, n_tiles: int
    ) -> tuple[int, dict[str, Any]]:
        """Where the shuffled wall is broken (an offset) and what to record about it."""
        return (sum(dice) * 2 * 17) % n_tiles, {}

    def after_deal(self, hand: MahjongHand) -> list[Event]:
        """Called once the tiles are dealt (before anyone acts): may turn up an indicator
        (``hand.indicator``, ``hand.set_aside``) and returns the events to record."""
        return []

    def complete(self, hand: MahjongHand, seat: int, key: bytes) -> bool:
        """Whether concealed counts ``key`` (the seat's melds aside) form a complete hand."""
        return MAHJONG.is_complete(key, len(hand.melds[seat]))

    def waits_of(self, hand: MahjongHand, seat: int, key: bytes, declared: int) -> list[int]:
        """Kinds that complete concealed counts ``key`` one tile short."""
        return MAHJONG.waits(key, declared)

    def standard_analysis(self) -> bool:
        """Whether :meth:`complete` and :meth:`waits_of` are the standard tables this hand
        (asked once, after :meth:`after_deal`): the hand then calls the tables directly,
        which self-play feels (two calls saved on every discard's claim check)."""
        return True

    def shanten(self, hand: MahjongHand, seat: int, key: bytes, declared: int) -> int:
        """Exact shanten of concealed counts ``key`` with ``declared`` melds (bots ask)."""
        return MAHJONG.shanten(key, declared)

    def may_discard(self, hand: MahjongHand, seat: int, tile: int) -> bool:
        """Whether ``seat`` may discard ``tile`` (a 混儿 may not, by default)."""
        return True

    def may_meld(self, hand: MahjongHand, seat: int, tile: int) -> bool:
        """Whether ``tile`` may be part of a meld (碰, 杠, 补杠, 吃) for ``seat``."""
        return True

    def extra_complete(self, hand: MahjongHand, seat: int) -> bool:
        """Whether ``seat``'s 14 tiles win in a way the standard analyser misses."""
        return False

    def extra_waits(self, hand: MahjongHand, seat: int, waits: list[int]) -> list[int]:
        """``waits`` (the standard ones) plus kinds that win in the variant's odd ways."""
        return waits

    def is_ready(self, hand: MahjongHand, seat: int, key: bytes) -> bool:
        """Whether concealed counts ``key`` (one tile short) may be declared ready."""
        return bool(self.waits_of(hand, seat, key, len(hand.melds[seat])))

    def may_be_ready(self, hand: MahjongHand, seat: int, key: bytes) -> bool:
        """A quick test on a full hand ``key``: False when no discard can leave it ready
        (saves trying each discard with :meth:`is_ready`)."""
        return self.shanten(hand, seat, key, len(hand.melds[seat])) <= 0

    def may_win(self, hand: MahjongHand, seat: int) -> bool:
        """Whether ``seat`` may win at all this hand (Jiaxing 封胡 says no)."""
        return True

    def accepts(self, hand: MahjongHand, win: MahjongWin) -> bool:
        """A final, variant-specific check of a complete hand (flower minimums, 缺门…).
        It reads the win and the rules' options only (the hand is for the signature):
        the lookahead bot keeps the answer by win."""
        return True

    sealed_reason: Refusal = Refusal("sealed", "本局不能胡", "may not win this hand")
    """What :meth:`refusal` says when :meth:`may_win` is False."""

    def refusal(self, hand: MahjongHand, win: MahjongWin) -> Refusal | None:
        """Why the complete hand ``win`` may not be taken now (None: it may), in words a
        player reads beside the wait."""
        if not self.may_win(hand, win.winner):
            return self.sealed_reason
        if self.accepts(hand, win):
            return None
        result = self.score(win)
        if result is not None and not result.valid:
            return result.refusal()
        return Refusal("not_allowed", "此牌不能胡", "this win is not allowed")

    def flowers_short(self, hand: MahjongHand, seat: int) -> bool:
        """Whether ``seat`` still lacks flowers for the smallest win on a discard
        (Taixing's flower minimum); False where flowers set no minimum."""
        return False

    def is_flower_meld(self, tile: int) -> bool:
        """Whether a pong of ``tile`` is worth a flower (Taixing 风碰)."""
        return False

    def score(self, win: MahjongWin) -> WinResult | None:
        """The variant's scoring of ``win`` (None: the rules know no scoring). Bots that
        weigh what a hand would be worth ask here, and keep the answer by win (so it
        reads only the win and the rules' options); settlement stays in :meth:`settle`."""
        return None

    def kong_money(
        self, hand: MahjongHand, seat: int, meld: Meld, chain_payer: int | None
    ) -> list[Payment]:
        return []

    def view_facts(self, hand: MahjongHand, seat: int | None) -> dict[str, Any]:
        """Facts of this game's hand for the view of ``seat`` (None: a spectator): public
        ones every view carries (Jiaxing: the fisher), and ones a seat may know of its own
        hand only (Taixing: the suit it is dropping). Never another seat's concealed tiles."""
        return {}

    def settle(self, hand: MahjongHand) -> list[Event]:
        """Called once at the end; appends payments to ``hand.ledger`` and returns events."""
        return []


class MahjongHand(HandBase):
    """A hand in progress. Build one, then loop ``to_act()`` / ``legal_actions`` / ``apply``.

    ``wall`` (optional) fixes the tile order for tests: the deal and draws come from its
    front, kong replacements from its back. Otherwise the wall is shuffled and the dice
    thrown by ``rng`` (a match's fair-deal :class:`~paiju.engine.fairness.FairRandom`), or
    by ``random.Random(seed)`` when none is given; the seed is kept for the record.
    """

    PASS = A.PASS
    SEAT_BYTES = ("counts",)
    SEAT_LISTS = ("melds", "discards", "flowers", "fed")
    LISTS = (
        "wall",
        "ready",
        "set_aside",
        "ledger",
        "log",
        "drawn_count",
        "winners",
        "_waits",
    )
    DICTS = ("answers", "win_results", "win_info")
    DICTS_OF_LISTS = ("pending",)
    CACHES = ("_legal",)

    def __init__(
        self,
        rules: MahjongRules,
        *,
        seed: int = 0,
        dealer: int = 0,
        wall: Sequence[int] | None = None,
        dice: tuple[int, int] | None = None,
        rng: HandRandom | None = None,
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.dealer = dealer
        if rng is None:
            rng = random.Random(seed)
        if wall is None:
            tiles = rules.tiles()
            shuffle(rng, tiles)
            self.dice = (rng.randint(1, 6), rng.randint(1, 6))
            # the break only rotates a uniformly shuffled wall: kept for the record's
            # sake and so that a physical table's dice can be entered
            cut, self.break_info = rules.wall_break(self.dice, dealer, len(tiles))
            self.wall = tiles[cut:] + tiles[:cut]
        else:
            self.wall = list(wall)
            self.dice = dice or (1, 1)
            # an arranged wall is already broken: the break is recorded, not applied
            self.break_info = rules.wall_break(self.dice, dealer, len(self.wall))[1]
        self.leopard = rules.leopard and self.dice[0] == self.dice[1]
        self.head = 0
        self.tail = len(self.wall)
        self.counts: list[bytearray] = [bytearray(34) for _ in range(N_SEATS)]
        self.melds: list[list[Meld]] = [[] for _ in range(N_SEATS)]
        self.discards: list[list[int]] = [[] for _ in range(N_SEATS)]
        self.flowers: list[list[int]] = [[] for _ in range(N_SEATS)]
        self.fed: list[list[int]] = [[0] * N_SEATS for _ in range(N_SEATS)]
        """fed[a][b]: melds seat a has fed to seat b (a 补杠 is still one)."""
        self.ledger: list[Payment] = []
        self.log: list[Event] = []
        self.phase = ACT
        self.current = dealer
        self.drawn = -1
        self.last_draw_from_tail = False
        self.kong_chain = 0
        self.chain_payer: int | None = None
        self.after_kong = -1
        """Seat whose next discard follows its own kong (杠上炮), or -1."""
        self.any_claim = False
        self.n_discards = 0
        self.drawn_count = [0] * N_SEATS
        self.claim_tile = -1
        self.claim_from = -1
        self.pending: dict[int, list[int]] = {}
        self.answers: dict[int, int] = {}
        self.rob_seat = -1
        self.winners: list[int] = []
        self.win_results: dict[int, Any] = {}
        self.win_info: dict[int, MahjongWin] = {}
        self.exhausted = False
        self.explanation: dict[str, Any] | None = None
        """The settlement's explanation (JSON), left by ``rules.settle`` for the end event."""
        self.ready = [False] * N_SEATS
        """Seats that declared ready (天听): their hands are locked."""
        self.indicator = -1
        """A tile turned up after the deal and shown to all (Jiaxing 混儿), or -1."""
        self.set_aside: list[int] = []
        """Tiles taken out of play after the deal (a turned-up indicator)."""
        self._odd = rules.odd_shapes
        self._declare = rules.ready_declaration
        self._legal: dict[int, list[int]] = {}
        self._waits: list[list[int] | None] = [None] * N_SEATS
        self._standard = False
        self._deal()

    # -- setup ---------------------------------------------------------------------
    def _deal(self) -> None:
        events = [Event("dice", self.dealer, data={"dice": list(self.dice), **self.break_info})]
        order = [(self.dealer + i) % N_SEATS for i in range(N_SEATS)]
        wall = self.wall
        pos = 0
        hands: list[list[int]] = [[] for _ in range(N_SEATS)]
        for _ in range(3):
            for s in order:
                hands[s].extend(wall[pos : pos + 4])
                pos += 4
        for s in order:
            hands[s].append(wall[pos])
            pos += 1
        hands[self.dealer].append(wall[pos])
        pos += 1
        self.head = pos
        flowers = self.rules.flowers
        for s in order:
            c = self.counts[s]
            for t in hands[s]:
                if t < 34:
                    c[t] += 1
            events.append(Event("deal", s, data=tuple(sorted(hands[s]))))
        self.log.extend(events)
        self.drawn = hands[self.dealer][-1]
        self.drawn_count[self.dealer] = 1
        if flowers:
            self._opening_flowers(order, hands)
        self.log.extend(self.rules.after_deal(self))
        self._standard = self.rules.standard_analysis()
        if self._declare and self.rules.ready_at_deal_others:
            self._open_declarations()

    def _opening_flowers(self, order: list[int], hands: list[list[int]]) -> None:
        """补花 (T2): from the dealer, each seat replaces its flowers one at a time from
        the tail until it holds none (a replacement that is a flower is replaced too),
        then the next seat."""
        for s in order:
            queue = sorted(t for t in hands[s] if t >= 34)
            while queue:
                flower = queue.pop(0)
                self.flowers[s].append(flower)
                self.log.append(Event("flower", s, flower))
                self.tail -= 1
                tile = self.wall[self.tail]
                self.log.append(Event("replacement_draw", s, tile))
                if tile >= 34:
                    queue.append(tile)
                else:
                    self.counts[s][tile] += 1
                    if s == self.dealer:
                        self.drawn = tile
        if self.drawn >= 34:  # pragma: no cover - the loop above always replaces it
            raise AssertionError("the dealer's last tile is a flower")

    def _open_declarations(self) -> None:
        """天听 for the non-dealers: right after the deal, before anyone acts, every seat
        whose 13 tiles are ready answers ``ting`` (declare) or ``pass``, all at once."""
        pending = self._declare_window()
        if pending:
            self.pending = pending
            self.answers = {}
            self.phase = DECLARE

    def _declare_window(self) -> dict[int, list[int]]:
        return {
            s: [A.PASS, A.DECLARE]
            for s in self._others(self.dealer)
            if self.rules.is_ready(self, s, bytes(self.counts[s]))
        }

    # -- queries -------------------------------------------------------------------
    @property
    def wall_left(self) -> int:
        return self.tail - self.head

    @property
    def is_over(self) -> bool:
        return self.phase == END

    @property
    def self_drawn(self) -> bool:
        """The hand ended in a self-drawn win."""
        return bool(self.winners) and self.win_info[self.winners[0]].self_drawn

    @staticmethod
    def action_str(action: int) -> str:
        return A.to_str(action)

    @staticmethod
    def parse_action(text: str) -> int:
        return A.parse(text)

    def to_act(self) -> list[int]:
        """Seats that must answer now (one in ACT, the claimants in CLAIM/ROB)."""
        # ``is``: the phase only ever holds these members, and a StrEnum's == is the slow
        # rich comparison (three tests every decision)
        if self.phase is ACT:
            return [self.current]
        if self.phase is END:
            return []
        return [s for s in self.pending if s not in self.answers]

    def legal_actions(self, seat: int) -> list[int]:
        """Every legal action code for ``seat`` now, ascending; empty if it need not act."""
        cached = self._legal.get(seat)
        if cached is not None:
            return cached
        if self.phase is ACT:
            result = self._act_actions(seat) if seat == self.current else []
        elif self.phase is not END:
            opts = self.pending.get(seat)
            result = opts if opts is not None and seat not in self.answers else []
        else:
            result = []
        self._legal[seat] = result
        return result

    def _act_actions(self, seat: int) -> list[int]:
        if self.ready[seat]:
            return self._locked_actions(seat)
        c = self.counts[seat]
        rules = self.rules
        # the kinds held: compress runs in C, a comprehension over 34 counts does not
        out = list(compress(_KINDS, c))
        if rules.wild_kinds:
            out = [k for k in out if rules.may_discard(self, seat, k)]
        if self.drawn < 0:
            # right after a pong: a discard is the only move (a kong or a win here would
            # skip the draw that makes it one)
            return out
        discards = len(out)
        if self.tail > self.head:
            if 4 in c:
                out.extend(
                    A.CONCEALED_KONG + k
                    for k in range(34)
                    if c[k] == 4 and rules.may_meld(self, seat, k)
                )
            for m in self.melds[seat]:
                if m.type is _PONG and c[m.tile] and rules.may_meld(self, seat, m.tile):
                    out.append(A.ADDED_KONG + m.tile)
        if self._can_complete(seat, bytes(c)) and self._win_allowed(seat, -1, WinType.SELF_DRAW):
            out.append(A.ZIMO)
        if rules.ready_anytime or (
            self._declare and seat == self.dealer and self.n_discards == 0 and not self.melds[seat]
        ):
            out.extend(self._ready_discards(seat))
        if len(out) > discards:
            out.sort()  # the discards come ascending: only what followed them needs it
        return out

    def _ready_discards(self, seat: int) -> list[int]:
        """The dealer's 天听: ``ting`` + k for each discard k that leaves a ready hand."""
        c = bytearray(self.counts[seat])
        if not self.rules.may_be_ready(self, seat, bytes(c)):
            return []
        out = []
        for k in range(34):
            if c[k] and self.rules.may_discard(self, seat, k):
                c[k] -= 1
                if self.rules.is_ready(self, seat, bytes(c)):
                    out.append(A.TING + k)
                c[k] += 1
        return out

    def _locked_actions(self, seat: int) -> list[int]:
        """A declared hand may only let the drawn tile go, win, or make a concealed kong
        of the drawn tile that leaves the waits exactly as they were."""
        c = self.counts[seat]
        drawn = self.drawn
        rules = self.rules
        out = [drawn] if rules.may_discard(self, seat, drawn) else []
        declared = len(self.melds[seat])
        if c[drawn] == 4 and self.tail > self.head and rules.may_meld(self, seat, drawn):
            before = bytearray(c)
            before[drawn] -= 1
            after = bytearray(c)
            after[drawn] = 0
            if rules.waits_of(self, seat, bytes(before), declared) == rules.waits_of(
                self, seat, bytes(after), declared + 1
            ):
                out.append(A.CONCEALED_KONG + drawn)
        if self._can_complete(seat, bytes(c)) and self._win_allowed(seat, -1, WinType.SELF_DRAW):
            out.append(A.ZIMO)
        return out

    def _can_complete(self, seat: int, key: bytes) -> bool:
        if (
            MAHJONG.is_complete(key, len(self.melds[seat]))
            if self._standard
            else self.rules.complete(self, seat, key)
        ):
            return True
        return self._odd and self.rules.extra_complete(self, seat)

    def waits(self, seat: int) -> list[int]:
        """Kinds that complete ``seat``'s hand (cached until the hand changes)."""
        w = self._waits[seat]
        if w is None:
            counts, declared = self.counts[seat], len(self.melds[seat])
            w = (
                MAHJONG.waits(counts, declared)  # the tables read a bytearray as it is
                if self._standard
                else self.rules.waits_of(self, seat, bytes(counts), declared)
            )
            if self._odd:
                w = self.rules.extra_waits(self, seat, w)
            self._waits[seat] = w
        return w

    # -- what the rings ask the hand --------------------------------------------------
    def claim_window_open(self) -> bool:
        """A claim, rob or 天听 window is waiting for answers (never shown to a seat that
        is not asked: see :meth:`view`)."""
        return self.phase in (CLAIM, ROB, DECLARE)

    def unseen_counts(self, seat: int, shown: list[int] | None = None) -> list[int]:
        """Copies of each of the 34 kinds that ``seat`` has not seen (see
        :meth:`unseen_tiles`; flowers are never waited on). ``shown``: what
        :meth:`_unshown` gives now, when the caller has it."""
        left = self._unseen_left(seat, shown)[:34]
        return left + [0] * (34 - len(left))

    def wait_facts(self, seat: int, shown: list[int] | None = None) -> list[dict[str, Any]]:
        """``seat``'s waits (a hand one tile short), each with the copies it has not seen
        and, for a self-draw and for a discard, None if that win would be legal now or
        the :class:`Refusal` as JSON (``shown`` as for :meth:`unseen_counts`)."""
        if sum(self.counts[seat]) % 3 != 1:
            return []
        unseen = self.unseen_counts(seat, shown)
        out = []
        for tile in self.waits(seat):
            facts: dict[str, Any] = {"tile": TILE_TEXT[tile], "left": unseen[tile]}
            for key, how in (("self_draw", WinType.SELF_DRAW), ("discard", WinType.DISCARD)):
                refusal = self.rules.refusal(self, self._imagined_win(seat, tile, how))
                facts[key] = None if refusal is None else refusal.to_json()
            out.append(facts)
        return out

    def ready_discards(self, seat: int) -> dict[str, list[str]]:
        """In ``seat``'s turn: each discard that leaves the hand one tile from winning,
        with the tiles it would then wait on."""
        if self.phase != ACT or seat != self.current:
            return {}
        counts = self.counts[seat]
        declared = len(self.melds[seat])
        out: dict[str, list[str]] = {}
        for k in range(34):
            if counts[k]:
                counts[k] -= 1
                waits = MAHJONG.waits(bytes(counts), declared)
                counts[k] += 1
                if waits:
                    out[TILE_TEXT[k]] = [TILE_TEXT[w] for w in waits]
        return out

    def _imagined_win(self, seat: int, tile: int, how: WinType) -> MahjongWin:
        """The win ``seat`` would have if ``tile`` came now, by ``how`` (a discard from
        the seat before)."""
        concealed = list(self.counts[seat])
        concealed[tile] += 1
        source = None if how is WinType.SELF_DRAW else (seat + N_SEATS - 1) % N_SEATS
        flags = [self.rules.ready_flag] if self.ready[seat] else []
        return self._win_of(seat, concealed, tile, how, source=source, flags=flags)

    # -- apply ---------------------------------------------------------------------
    def apply(self, action: int, seat: int | None = None) -> list[Event]:
        """Apply ``action`` for ``seat`` (default: the only seat to act) and return events.

        Raises :class:`InvalidActionError` for a malformed action and
        :class:`IllegalActionError` for one that is not legal now; neither changes state.
        """
        # a self-play loop asks legal_actions(seat) before it applies: an int among the
        # answer kept for that seat is legal, and the checks below would only agree
        if not (
            type(seat) is int
            and (legal := self._legal.get(seat)) is not None
            and type(action) is int
            and action in legal
        ):
            seat = self._checked_seat(action, seat)
        mark = len(self.log)
        self._legal.clear()
        if self.phase is ACT:
            if action < 34:
                self._discard(seat, action)
            else:
                self._apply_act(seat, action)
        else:
            self.answers[seat] = action
            if len(self.answers) == len(self.pending):
                if self.phase == CLAIM:
                    self._resolve_claims()
                elif self.phase == ROB:
                    self._resolve_rob()
                else:
                    self._resolve_declarations()
        return self.log[mark:]

    def _checked_seat(self, action: int, seat: int | None) -> int:
        """The seat that plays ``action`` (the only one to act when ``seat`` is None), or
        the error :meth:`apply` raises for it."""
        A.check_code(action)
        if seat is None:
            actors = self.to_act()
            if len(actors) != 1:
                raise IllegalActionError(
                    f"several seats may act now ({actors}); say which seat acts"
                )
            seat = actors[0]
        if not (isinstance(seat, int) and 0 <= seat < N_SEATS):
            raise IllegalActionError(f"no seat {seat!r}")
        if action not in self.legal_actions(seat):
            raise IllegalActionError(
                f"{A.to_str(action)} is not legal for seat {seat} now ({self.phase})"
            )
        return seat

    def _resolve_declarations(self) -> None:
        for s in self._others(self.dealer):
            if self.answers.get(s) == A.DECLARE:
                self.ready[s] = True
                self.log.append(Event("ready", s))
        self.pending = {}
        self.answers = {}
        self.phase = ACT

    def _apply_act(self, seat: int, action: int) -> None:
        """Any act but a plain discard (which :meth:`apply` makes itself)."""
        c = self.counts[seat]
        if action < 68:
            tile = action - 34
            c[tile] -= 4
            meld = Meld(MeldType.CONCEALED_KONG, Tile(tile), None)
            self.melds[seat].append(meld)
            self.log.append(Event("concealed_kong", seat, tile))
            self._after_kong(seat, meld)
        elif action < 102:
            tile = action - 68
            # the added kong can be robbed: open a window before it takes effect
            self.log.append(Event("added_kong", seat, tile))
            self.pending = self._rob_window(seat, tile)
            if self.pending:
                self.phase = ROB
                self.rob_seat = seat
                self.claim_tile = tile
                self.answers = {}
            else:
                self._complete_added_kong(seat, tile)
        elif action == A.ZIMO:
            self._win([seat], WinType.SELF_DRAW, self.drawn, -1)
        else:
            # ting + k: the dealer's 天听 with the first discard
            self.ready[seat] = True
            self.log.append(Event("ready", seat))
            self._discard(seat, action - A.TING)

    def _discard(self, seat: int, tile: int) -> None:
        self.counts[seat][tile] -= 1
        self.discards[seat].append(tile)
        self.log.append(new_event(Event, ("discard", seat, tile, -1, None)))
        self._waits[seat] = None
        self.n_discards += 1
        self.claim_tile = tile
        self.claim_from = seat
        pending = self._claim_window(seat, tile)
        self.pending = pending
        if pending:
            self.answers = {}
            self.phase = CLAIM
        else:
            self._next_turn(seat)

    def _claim_window(self, source: int, tile: int) -> dict[int, list[int]]:
        pending: dict[int, list[int]] = {}
        counts, cached = self.counts, self._waits
        others = _OTHERS[source]
        # claim_options offers a chow to the seat after claim_from (the source) only
        chi_seat = others[0] if self.rules.chi else -1
        for s in others:
            if s != chi_seat and counts[s][tile] < 2:
                # no pong or chow possible: only a win could be offered, and that needs
                # the tile among the waits (most seats after most discards: the whole
                # answer without claim_options' checks)
                w = cached[s]
                if tile not in (self.waits(s) if w is None else w):
                    continue
            opts = self.claim_options(s, tile)
            if opts:
                pending[s] = opts
        return pending

    def _rob_window(self, konger: int, tile: int) -> dict[int, list[int]]:
        return {
            s: [A.PASS, A.HU]
            for s in self._others(konger)
            if self._can_take(s, tile, WinType.ROBBED_KONG)
        }

    def claim_options(self, seat: int, tile: int) -> list[int]:
        """What ``seat`` may answer to ``tile`` just discarded by ``claim_from``: PASS
        first, then pong / kong / win / chow codes; empty when it has nothing to say."""
        c = self.counts[seat]
        n = c[tile]
        wall_left = self.tail > self.head
        opts: list[int] = []
        meldable = not self.rules.wild_kinds or self.rules.may_meld(self, seat, tile)
        if n >= 2 and wall_left and not self.ready[seat] and meldable:
            opts.append(A.PONG)
            if n == 3:
                opts.append(A.KONG)
        if self._can_take(seat, tile, WinType.DISCARD):
            opts.append(A.HU)
        if (
            self.rules.chi
            and seat == (self.claim_from + 1) % 4
            and wall_left
            and not self.ready[seat]
            and meldable
        ):
            opts.extend(
                code
                for code in chi_options(c, tile)
                if all(self.rules.may_meld(self, seat, t) for t in _chi_tiles(tile, code))
            )
        if opts:
            opts.insert(0, A.PASS)
        return opts

    def _can_take(self, seat: int, tile: int, how: WinType) -> bool:
        if tile not in self.waits(seat):
            return False
        return self._win_allowed(seat, tile, how)

    def _win_allowed(self, seat: int, tile: int, how: WinType) -> bool:
        if not self.rules.may_win(self, seat):
            return False
        return self.rules.accepts(self, self._build_win(seat, tile, how))

    def _others(self, seat: int) -> tuple[int, int, int]:
        """The other seats in turn order after ``seat`` (priority order for claims)."""
        return _OTHERS[seat]

    def _resolve_claims(self) -> None:
        tile, source = self.claim_tile, self.claim_from
        answers = self.answers
        winners = [s for s in self._others(source) if answers.get(s) == A.HU]
        cap = self.rules.max_winners
        if winners:
            if cap is not None:
                winners = winners[:cap]
            self._win(winners, WinType.DISCARD, tile, source)
            return
        for s, act in answers.items():
            if act in (A.PONG, A.KONG):
                self._claim_meld(s, act, tile, source)
                return
        for s, act in answers.items():
            if A.CHI_LOW <= act <= A.CHI_HIGH:
                self._claim_chi(s, act, tile, source)
                return
        self.pending = {}
        self._next_turn(source)

    def _claim_chi(self, seat: int, act: int, tile: int, source: int) -> None:
        low = tile - (act - A.CHI_LOW)
        self.any_claim = True
        self.pending = {}
        self.discards[source].pop()
        c = self.counts[seat]
        for t in (low, low + 1, low + 2):
            if t != tile:
                c[t] -= 1
        self._waits[seat] = None
        self.after_kong = -1
        self.kong_chain = 0
        self.chain_payer = None
        self.current = seat
        self.phase = ACT
        self.drawn = -1
        self.melds[seat].append(Meld(MeldType.CHI, Tile(low), source))
        self.log.append(Event("chi", seat, tile, source, data={"low": TILE_TEXT[low]}))

    def _claim_meld(self, seat: int, act: int, tile: int, source: int) -> None:
        self.any_claim = True
        self.pending = {}
        self.discards[source].pop()
        c = self.counts[seat]
        self.fed[source][seat] += 1
        self._waits[seat] = None
        self.after_kong = -1
        self.kong_chain = 0
        self.chain_payer = None
        self.current = seat
        self.phase = ACT
        self.drawn = -1
        if act == A.PONG:
            c[tile] -= 2
            self.melds[seat].append(Meld(MeldType.PONG, Tile(tile), source))
            self.log.append(Event("pong", seat, tile, source))
        else:
            c[tile] -= 3
            meld = Meld(MeldType.KONG, Tile(tile), source)
            self.melds[seat].append(meld)
            self.log.append(Event("kong", seat, tile, source))
            self._after_kong(seat, meld)

    def _resolve_rob(self) -> None:
        tile, seat = self.claim_tile, self.rob_seat
        winners = [s for s in self._others(seat) if self.answers.get(s) == A.HU]
        if winners:
            cap = self.rules.max_winners
            if cap is not None:
                winners = winners[:cap]
            # the robbed tile stays counted in the konger's hand: it is shown as the
            # winners' winning tile, and the tile count stays conserved
            self._win(winners, WinType.ROBBED_KONG, tile, seat)
            return
        self.pending = {}
        self.phase = ACT
        self._complete_added_kong(seat, tile)

    def _complete_added_kong(self, seat: int, tile: int) -> None:
        melds = self.melds[seat]
        for i, m in enumerate(melds):
            if m.type is MeldType.PONG and m.tile == tile:
                meld = Meld(MeldType.ADDED_KONG, m.tile, m.source)
                melds[i] = meld
                break
        else:  # pragma: no cover - legal_actions only offers kongs of an existing pong
            raise AssertionError("added kong without a pong")
        self.counts[seat][tile] -= 1
        self._after_kong(seat, meld)

    def _after_kong(self, seat: int, meld: Meld) -> None:
        self._waits[seat] = None
        self.any_claim = True
        if self.kong_chain and self.current == seat and self.last_draw_from_tail:
            self.kong_chain += 1
        else:
            self.kong_chain = 1
            self.chain_payer = None
        payments = self.rules.kong_money(self, seat, meld, self.chain_payer)
        if self.chain_payer is None and meld.type is not MeldType.CONCEALED_KONG:
            # 连杠 liability starts at the first exposed kong of the chain (JA18)
            self.chain_payer = meld.source
        for p in payments:
            self.ledger.append(p)
            self.log.append(Event("payment", p.payee, data=_payment_data(p)))
        self.after_kong = seat
        self._draw(seat, from_tail=True)

    def _next_turn(self, after: int) -> None:
        self.phase = ACT
        self._draw((after + 1) % 4, from_tail=False)

    def _draw(self, seat: int, *, from_tail: bool) -> None:
        self.pending = {}
        if self.head >= self.tail:
            self._exhaust()
            return
        if from_tail:
            self.tail -= 1
            tile = self.wall[self.tail]
        else:
            tile = self.wall[self.head]
            self.head += 1
            self.kong_chain = 0
            self.chain_payer = None
        if seat != self.current:
            self.after_kong = -1
        self.current = seat
        self.phase = ACT
        self.drawn_count[seat] += 1
        self._waits[seat] = None
        self.log.append(new_event(Event, ("draw", seat, tile, -1, None)))
        if tile >= 34:
            tile = self._replace_flowers(seat, tile)
            if tile < 0:
                return
            from_tail = True
        self.drawn = tile
        self.last_draw_from_tail = from_tail
        self.counts[seat][tile] += 1

    def _replace_flowers(self, seat: int, tile: int) -> int:
        """Set the drawn flower aside and replace it from the tail, again while the
        replacement is a flower. Returns the tile kept, or -1 when the wall ran out.

        A replacement keeps ``kong_chain`` as it was: a flower replacing a kong's
        replacement still wins 杠开, a flower drawn in turn does not (its draw from the
        front reset the chain)."""
        flowers = self.flowers[seat]
        while True:
            flowers.append(tile)
            self.log.append(Event("flower", seat, tile))
            if self.head >= self.tail:
                self._exhaust()
                return -1
            self.tail -= 1
            tile = self.wall[self.tail]
            self.log.append(Event("replacement_draw", seat, tile))
            if tile < 34:
                return tile

    def _exhaust(self) -> None:
        self.exhausted = True
        self.phase = END
        self.log.append(Event("exhaustive_draw"))
        self.log.extend(self.rules.settle(self))
        self.log.append(Event("end", data=self._end_data()))

    # -- winning -------------------------------------------------------------------
    def _build_win(self, seat: int, tile: int, how: WinType) -> MahjongWin:
        counts = self.counts[seat]
        concealed = list(counts)
        if how is not WinType.SELF_DRAW:
            concealed[tile] += 1
            source = self.claim_from if how is WinType.DISCARD else self.current
        else:
            tile = self.drawn if self.drawn >= 0 else _any_tile(counts)
            source = None
        flags = self._flags(seat, how, source)
        kong_chain = max(1, self.kong_chain)
        return self._win_of(
            seat, concealed, tile, how, source=source, flags=flags, kong_chain=kong_chain
        )

    def _win_of(
        self,
        seat: int,
        concealed: list[int],
        tile: int,
        how: WinType,
        *,
        source: int | None,
        flags: Iterable[WinFlag],
        kong_chain: int = 1,
    ) -> MahjongWin:
        """``seat``'s win on ``tile`` with ``concealed`` (the tile counted in), its melds
        and flowers and the hand's public facts (the 混儿 indicator among them: a wait's
        reasons are those of the win it would be)."""
        hun = Tile(self.indicator) if self.indicator >= 0 else None
        return MahjongWin(
            dealer=self.dealer,
            winner=seat,
            concealed=tuple(concealed),
            melds=tuple(self.melds[seat]),
            win_tile=Tile(tile),
            win_type=how,
            source=source,
            flags=frozenset(flags),
            flowers=tuple(Tile(f) for f in self.flowers[seat]),
            draw_streak=self.rules.draw_streak,
            leopard=self.leopard,
            kong_chain=kong_chain,
            hun=hun,
        )

    def _flags(self, seat: int, how: WinType, source: int | None) -> list[WinFlag]:
        flags = [self.rules.ready_flag] if self.ready[seat] else []
        wall_empty = self.tail - self.head <= self.rules.last_tile_window
        if how is WinType.SELF_DRAW:
            if self.last_draw_from_tail and self.kong_chain and self.drawn >= 0:
                flags.append(WinFlag.KONG_REPLACEMENT)
            if wall_empty and self.drawn >= 0:
                flags.append(WinFlag.LAST_TILE)
            if not self.any_claim and self.n_discards == 0 and seat == self.dealer:
                flags.append(WinFlag.HEAVENLY)
            elif (
                not self.any_claim
                and seat != self.dealer
                and self.drawn_count[seat] == 1
                and not self.discards[seat]
            ):
                flags.append(WinFlag.EARTHLY)
        elif how is WinType.DISCARD:
            if source == self.after_kong:
                flags.append(WinFlag.AFTER_KONG_DISCARD)
            if wall_empty:
                flags.append(WinFlag.LAST_TILE)
            if (
                self.n_discards == 1
                and source == self.dealer
                and not self.any_claim
                and seat != self.dealer
            ):
                flags.append(WinFlag.HUMAN)
        return flags

    def _win(self, winners: list[int], how: WinType, tile: int, source: int) -> None:
        self.pending = {}
        self.winners = winners
        multiple = len(winners) > 1
        for s in winners:
            win = self._build_win(s, tile, how)
            if multiple:
                win = _with_flag(win, WinFlag.MULTIPLE_WINNERS, len(winners))
            self.win_info[s] = win
        self.phase = END
        self.log.append(
            Event("win", data={"winners": winners, "how": how.value, "tile": TILE_TEXT[tile]})
        )
        self.log.extend(self.rules.settle(self))
        self.log.append(Event("end", data=self._end_data()))

    # -- results and views ---------------------------------------------------------
    def _end_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"net": self.net()}
        if self.explanation is not None:
            data["explanation"] = self.explanation
        return data

    def net(self) -> list[int]:
        out = [0] * N_SEATS
        for p in self.ledger:
            out[p.payer] -= p.amount
            out[p.payee] += p.amount
        return out

    def remaining_tail(self, n: int) -> list[int]:
        """The last ``n`` unused wall tiles, nearest the tail first (钓鱼)."""
        start = max(self.head, self.tail - n)
        return list(reversed(self.wall[start : self.tail]))

    def view(self, seat: int | None, *, recent: bool = True) -> dict[str, Any]:
        """What ``seat`` may know (None: a spectator): never another seat's concealed
        tiles, never the wall order."""
        return self._view(seat, recent, self._public_view())

    def views(self, seats: Sequence[int | None], *, recent: bool = True) -> list[dict[str, Any]]:
        """:meth:`view` of each of ``seats``, the parts every seat sees alike built once
        (a server shows every seat the table after each decision). The views share
        those parts' objects: a caller must not change them in place."""
        public = self._public_view()
        return [self._view(seat, recent, public) for seat in seats]

    def _public_view(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """What every seat's view shows alike: each player without its concealed tiles
        (a winner's, once the hand is over, with them), and the table's fields."""
        from paiju.components.notation import format_tile_counts

        players = []
        over = self.phase == END
        for s in range(N_SEATS):
            info: dict[str, Any] = {
                "seat": s,
                "melds": [
                    {
                        "type": m.type.value,
                        "tile": str(m.tile),
                        "from": m.source,
                    }
                    for m in self.melds[s]
                ],
                "discards": " ".join([TILE_TEXT[t] for t in self.discards[s]]),
                "concealed_count": sum(self.counts[s]),
            }
            if self.rules.flowers:
                info["flowers"] = " ".join([TILE_TEXT[f] for f in self.flowers[s]])
            if self.ready[s]:
                info["ready"] = True
            if not over and not self.rules.may_win(self, s):
                info["sealed"] = True  # 封胡 follows from who fed whom: public
            if over and s in self.winners:
                info["hand"] = format_tile_counts(self.counts[s])
            players.append(info)
        table: dict[str, Any] = {"net": self.net()}
        if self.indicator >= 0:
            table["indicator"] = TILE_TEXT[self.indicator]
            table["wild_kinds"] = [TILE_TEXT[k] for k in self.rules.wild_kinds]
        last = self._last_discard()
        if last is not None:
            table["last_discard"] = {"seat": last[0], "tile": TILE_TEXT[last[1]]}
        return players, table

    def _view(
        self,
        seat: int | None,
        recent: bool,
        public: tuple[list[dict[str, Any]], dict[str, Any]],
    ) -> dict[str, Any]:
        players, table = public
        if seat is not None and "hand" not in players[seat]:
            from paiju.components.notation import format_tile_counts

            players = list(players)
            players[seat] = {**players[seat], "hand": format_tile_counts(self.counts[seat])}
        # a window is shown only to the seats it asks: to every other seat (and a
        # spectator) the hand just waits, so nobody learns that someone could claim
        window = self.phase in (CLAIM, ROB, DECLARE)
        asked = seat is not None and seat in self.to_act()
        out: dict[str, Any] = {
            "variant": self.rules.name,
            "seat": seat,
            "dealer": self.dealer,
            "phase": Phase.WAIT if window and not asked else self.phase,
            "current": self.current,
            "wall_left": self.wall_left,
            "players": players,
            "to_act": ([seat] if asked else []) if window else self.to_act(),
            "legal_actions": [A.to_str(a) for a in self.legal_actions(seat)]
            if seat is not None
            else [],
            "net": table["net"],
        }
        if seat is not None and seat == self.current and self.phase == ACT and self.drawn >= 0:
            out["drawn"] = TILE_TEXT[self.drawn]
        if window and asked:
            out["claim_tile"] = TILE_TEXT[self.claim_tile]
        if "indicator" in table:
            out["indicator"] = table["indicator"]
            out["wild_kinds"] = table["wild_kinds"]
        out.update(self.rules.view_facts(self, seat))
        if "last_discard" in table:
            out["last_discard"] = table["last_discard"]
        if seat is not None and self.phase != END:
            shown = table.get("_unshown")
            if shown is None:
                # counted once for the batch, at the first view that needs it
                shown = table["_unshown"] = self._unshown()
            out["waits"] = self.wait_facts(seat, shown)
            out["ready_discards"] = self.ready_discards(seat)
        if recent:
            # the last few events (``recent=False``: a caller that sends them anyway)
            out["events"] = [for_seat(e, seat) for e in self.log[-8:]]
        return out

    def _last_discard(self) -> tuple[int, int] | None:
        """(seat, tile) of the discard still lying last in a river, if any."""
        for ev in reversed(self.log):
            if ev.type == "discard" and ev.seat >= 0 and ev.tile >= 0:
                river = self.discards[ev.seat]
                return (ev.seat, ev.tile) if river and river[-1] == ev.tile else None
            if ev.type in ("pong", "kong", "chi", "deal"):
                return None
        return None

    # -- what a seat cannot see ----------------------------------------------------
    def unseen_tiles(self, seat: int) -> list[int]:
        """The tiles ``seat`` cannot see, ascending: the whole set minus its own concealed
        tiles, every meld, every discard, every flower set aside, and an added kong's tile
        on offer (shown, though still counted in the konger's hand)."""
        return [t for t, n in enumerate(self._unseen_left(seat)) for _ in range(n)]

    def _unseen_left(self, seat: int, shown: list[int] | None = None) -> list[int]:
        """Copies of each tile kind ``seat`` cannot see (indexed by tile code)."""
        left = list(self._unshown() if shown is None else shown)
        for k, n in enumerate(self.counts[seat]):
            left[k] -= n
        if self.phase == ROB and self.rob_seat != seat:
            left[self.claim_tile] -= 1
        if min(left) < 0:  # pragma: no cover - the hand conserves tiles
            raise AssertionError("more tiles seen than the set holds")
        return left

    def _unshown(self) -> list[int]:
        """Copies of each tile kind not shown to everyone (every seat's concealed tiles
        and the wall): the part of :meth:`_unseen_left` that is the same for every seat,
        which a batch of views counts once."""
        full = self.__dict__.get("_set_counts")
        if full is None:
            # the set's count of each kind never changes within a hand: count it once
            tiles = self.rules.tiles()
            full = [0] * (max(tiles) + 1)
            for t in tiles:
                full[t] += 1
            self._set_counts = full
        left = list(full)
        for s in range(N_SEATS):
            for m in self.melds[s]:
                for t in m.tiles:
                    left[t] -= 1
            for t in self.discards[s]:
                left[t] -= 1
            for f in self.flowers[s]:
                left[f] -= 1
        for t in self.set_aside:
            left[t] -= 1
        return left

    def deal_hidden(
        self,
        seat: int,
        rng: random.Random,
        deal: Deal | None = None,
        pool: Sequence[int] | None = None,
    ) -> tuple[list[bytearray], list[int]]:
        """What :meth:`determinize` deals again, without copying the hand: every seat's
        concealed counts (``seat``'s own as they are, the others' sampled) and the unseen
        rest of the wall, shuffled; the same draws from ``rng`` in the same order, so a
        caller that needs only the other hands (a bot weighing what they wait on) gets
        the hands :meth:`determinize` would. ``pool``: :meth:`unseen_tiles` of ``seat``,
        when the caller has it (it is the same for every sample of one position)."""
        if pool is None:
            pool = self.unseen_tiles(seat)
        flowers = [t for t in pool if t >= 34]
        avail = [0] * 34
        for t in pool:
            if t < 34:
                avail[t] += 1
        hidden = list(self.counts)
        for s in range(N_SEATS):
            if s == seat:
                continue
            size = sum(self.counts[s])
            counts = bytearray(34)
            if self.phase == ROB and s == self.rob_seat:
                counts[self.claim_tile] += 1
                size -= 1
            tiles = deal(s, size, avail, rng) if deal is not None else None
            if tiles is None:
                tiles = take_random(avail, size, rng)
            for t in tiles:
                counts[t] += 1
            hidden[s] = counts
        rest = [k for k, c in enumerate(avail) for _ in range(c)] + flowers
        rng.shuffle(rest)
        return hidden, rest

    def determinize(self, seat: int, rng: random.Random, deal: Deal | None = None) -> MahjongHand:
        """A copy of this hand that ``seat`` could not tell from it: everything it cannot
        see (the other seats' concealed tiles, the wall beyond the drawn part, the tile
        the seat to move just drew) dealt again from :meth:`unseen_tiles`.

        Each other seat keeps its hand size; flowers (never held) go to the wall.
        ``deal(other, size, avail, rng)`` may choose an other seat's tiles (taking them
        from the 34 counts ``avail``); when it is absent or returns None the tiles are
        drawn uniformly. An open window (claim, 抢杠, 天听) is rebuilt by this hand's own
        rules on the sampled tiles, with no answer given yet."""
        hidden, rest = self.deal_hidden(seat, rng, deal)
        det = self.copy()
        for s in range(N_SEATS):
            if s != seat:
                det.counts[s] = hidden[s]
        if len(rest) != self.tail - self.head:  # pragma: no cover - conservation again
            raise AssertionError("the unseen tiles do not fill the hands and the wall")
        det.wall = self.wall[: self.head] + rest + self.wall[self.tail :]
        det._waits = [None] * N_SEATS
        det._legal = {}
        current = self.current
        if current != seat and det.drawn >= 0 and not det.counts[current][det.drawn]:
            # the seat to move drew a tile nobody else saw: any tile of its sampled hand
            det.drawn = _any_tile(det.counts[current])
        det.answers = {}
        if self.phase == CLAIM:
            det.pending = det._claim_window(self.claim_from, self.claim_tile)
        elif self.phase == ROB:
            det.pending = det._rob_window(self.rob_seat, self.claim_tile)
        elif self.phase == DECLARE:
            det.pending = det._declare_window()
        return det


Deal = Callable[[int, int, list[int], random.Random], list[int] | None]
"""Chooses a resampled seat's tiles: ``(seat, size, avail, rng)`` to ``size`` tiles taken
from the 34 counts ``avail``, or None (``avail`` untouched) for a uniform draw."""


def take_random(avail: list[int], n: int, rng: random.Random) -> list[int]:
    """``n`` tiles drawn without replacement from the counts ``avail`` (updated)."""
    flat = [k for k, c in enumerate(avail) for _ in range(c)]
    out = rng.sample(flat, n)
    for t in out:
        avail[t] -= 1
    return out


def arrange_wall(
    hands: Sequence[Sequence[int]],
    draws: Sequence[int] = (),
    tail: Sequence[int] = (),
    *,
    dealer: int = 0,
    tiles: Sequence[int] | None = None,
) -> list[int]:
    """A wall that deals ``hands`` (by seat; the dealer's has 14), then yields ``draws``
    from the front and ``tail`` (in order) as kong and flower replacements; the rest of
    the set (``tiles``, default the 136 playing tiles) fills the middle in index order,
    any flowers left over in its very middle, far from both ends, so that a test's draws
    past what it arranged are not flowers. For tests and for entering a physical deal."""
    pool = list(tiles if tiles is not None else PLAYING_TILES)
    order = [(dealer + i) % N_SEATS for i in range(N_SEATS)]
    for s in range(N_SEATS):
        want = 14 if s == dealer else 13
        if len(hands[s]) != want:
            raise ValueError(f"seat {s} must be dealt {want} tiles, not {len(hands[s])}")
    queues = {s: list(hands[s]) for s in range(N_SEATS)}
    front: list[int] = []
    for _ in range(3):
        for s in order:
            front.extend(queues[s][:4])
            del queues[s][:4]
    for s in order:
        front.append(queues[s].pop(0))
    front.append(queues[dealer].pop(0))
    used = front + list(draws) + list(tail)
    for t in used:
        try:
            pool.remove(t)
        except ValueError:
            raise ValueError(f"too many copies of {Tile(t)} in the arranged wall") from None
    spare = [t for t in pool if t >= 34]
    if spare:
        pool = [t for t in pool if t < 34]
        middle = len(pool) // 2
        pool[middle:middle] = spare
    return front + list(draws) + pool + list(reversed(tail))


def chi_options(counts: bytearray, tile: int) -> list[int]:
    """Which runs ``tile`` completes with ``counts``: the discard as low, middle or high."""
    if tile >= 27:
        return []
    rank = tile % 9
    out = []
    if rank <= 6 and counts[tile + 1] and counts[tile + 2]:
        out.append(A.CHI_LOW)
    if 1 <= rank <= 7 and counts[tile - 1] and counts[tile + 1]:
        out.append(A.CHI_MID)
    if rank >= 2 and counts[tile - 2] and counts[tile - 1]:
        out.append(A.CHI_HIGH)
    return out


def _chi_tiles(tile: int, code: int) -> tuple[int, int, int]:
    low = tile - (code - A.CHI_LOW)
    return (low, low + 1, low + 2)


def _any_tile(counts: bytearray) -> int:
    for k in range(34):
        if counts[k]:
            return k
    raise AssertionError("empty hand")


def _with_flag(win: MahjongWin, flag: WinFlag, winners: int) -> MahjongWin:
    import dataclasses

    return dataclasses.replace(win, flags=win.flags | {flag}, discard_winners=winners)


def _payment_data(p: Payment) -> dict[str, Any]:
    return {"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason}
