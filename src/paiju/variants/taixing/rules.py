"""Taixing's hooks into the shared mahjong engine: 144 tiles, the wall break, who may win,
天听, settlement, and the match flow (dealer rotation, 荒庄 doubling, wind rounds).

Scoring itself is :func:`paiju.variants.taixing.scoring.score_win`, the same function the
``paiju score`` calculator calls; a win it would reject is never offered by the engine.
"""

from __future__ import annotations

from typing import Any

from paiju.components.analysis import MAHJONG
from paiju.components.notation import format_tile_counts
from paiju.engine.events import Event
from paiju.engine.mahjong import PLAYING_TILES, MahjongHand, MahjongRules
from paiju.engine.types import MahjongWin, Meld, Payment, WinResult
from paiju.variants.explain import combine, exhausted
from paiju.variants.taixing import scoring
from paiju.variants.taixing.explain import explain_win
from paiju.variants.taixing.options import TaixingOptions

WALL_SIDE_STACKS = 18
"""Each of the four wall sides is 18 stacks of two (4 × 36 = 144, T1)."""

SEED_TABLE = {(1, 4): 1, (2, 3): 2, (3, 6): 3, (4, 5): 4}
"""TA10 (b): the seed's dealer throws that open the opposite wall, at this stack."""

HONOUR_KINDS = range(27, 34)


def wall_break(dice: tuple[int, int], dealer: int, wall_break_rule: str) -> tuple[int, int]:
    """(the seat whose wall side is opened, stacks counted in from its end) for ``dice``.

    ``standard``: count the sum around the table from the dealer (the dealer is 1, in turn
    order) and break at the smaller die. ``seed_table``: the seed's throws 1+4, 2+3, 3+6,
    4+5 open the dealer's opposite at stack 1, 2, 3, 4; other throws count as standard.
    """
    low, high = sorted(dice)
    if wall_break_rule == "seed_table" and (low, high) in SEED_TABLE:
        return (dealer + 2) % 4, SEED_TABLE[(low, high)]
    return (dealer + low + high - 1) % 4, low


class TaixingRules(MahjongRules):
    """One hand's rules. ``draw_streak`` is the number of 荒庄 in a row before it (T9)."""

    name = "taixing"
    flowers = True
    leopard = True
    odd_shapes = True

    def __init__(self, options: TaixingOptions | None = None, draw_streak: int = 0) -> None:
        self.options = options or TaixingOptions()
        if draw_streak < 0:
            raise ValueError(f"draw_streak must be 0 or more, not {draw_streak}")
        self.draw_streak = draw_streak
        self.max_winners = self.options.max_winners_per_discard
        self.ready_declaration = self.options.tian_ting == "ready_at_deal"
        self.ready_at_deal_others = self.options.tian_ting_seats == "every_seat"

    def tiles(self) -> list[int]:
        # 144: the 136 playing tiles and each of the eight flowers once
        return [*PLAYING_TILES, *range(34, 42)]

    def wall_break(
        self, dice: tuple[int, int], dealer: int, n_tiles: int
    ) -> tuple[int, dict[str, Any]]:
        side, stack = wall_break(dice, dealer, self.options.wall_break)
        # the wall is a ring of four sides, seat 0's first; play starts after the break
        cut = (side * WALL_SIDE_STACKS + stack) * 2 % n_tiles
        info = {
            "break": {"seat": side, "stack": stack},
            "leopard": dice[0] == dice[1],
            "draw_streak": self.draw_streak,
        }
        return cut, info

    # -- TP4: seven pairs off, the plain tables (which know seven pairs) do not answer --
    def standard_analysis(self) -> bool:
        return self.options.qi_dui

    def complete(self, hand: MahjongHand, seat: int, key: bytes) -> bool:
        if self.options.qi_dui:
            return super().complete(hand, seat, key)
        return MAHJONG.is_complete_standard(key, len(hand.melds[seat]))

    def waits_of(self, hand: MahjongHand, seat: int, key: bytes, declared: int) -> list[int]:
        return MAHJONG.waits(key, declared, seven_pairs=self.options.qi_dui)

    def shanten(self, hand: MahjongHand, seat: int, key: bytes, declared: int) -> int:
        return MAHJONG.shanten(key, declared, seven_pairs=self.options.qi_dui)

    # -- who may win -----------------------------------------------------------------
    def accepts(self, hand: MahjongHand, win: MahjongWin) -> bool:
        return scoring.is_winning(win, self.options)

    def score(self, win: MahjongWin) -> WinResult:
        return scoring.score_win(win, self.options)

    def flowers_short(self, hand: MahjongHand, seat: int) -> bool:
        have = len(hand.flowers[seat])
        for m in hand.melds[seat]:
            worth = scoring.meld_flowers(m, self.options)
            have += worth[1] if worth else 0
        return have < self.options.min_flowers_discard

    def is_flower_meld(self, tile: int) -> bool:
        return tile < 34 and scoring.is_feng(tile, self.options)

    def _all_honours(self, hand: MahjongHand, seat: int) -> bool:
        # no number tile held: 27 zero counts among the number kinds (no slice made; the
        # engine asks at every win check and every new wait)
        if hand.counts[seat].count(0, 0, 27) != 27:
            return False
        return all(m.tile >= 27 for m in hand.melds[seat])

    def extra_complete(self, hand: MahjongHand, seat: int) -> bool:
        # 花胡 (T20) needs no shape; 风一色 (T19, TA12) needs none by default
        if len(hand.flowers[seat]) == 8:
            return True
        return not self.options.feng_yi_se_needs_shape and self._all_honours(hand, seat)

    def extra_waits(self, hand: MahjongHand, seat: int, waits: list[int]) -> list[int]:
        if self.options.feng_yi_se_needs_shape or not self._all_honours(hand, seat):
            return waits
        c = hand.counts[seat]
        # 风一色: any honour completes it, save one already held in all four copies
        return sorted(set(waits).union(k for k in HONOUR_KINDS if c[k] < 4))

    def is_ready(self, hand: MahjongHand, seat: int, key: bytes) -> bool:
        """天听 needs a wait that would make a legal shape lacking a suit (flowers may
        still come, so the small-hand minimum is not asked of the declaration)."""
        melds = hand.melds[seat]
        waits = self._waits_of(key, melds)
        concealed = list(key)
        for w in waits:
            concealed[w] += 1
            legal = scoring.is_winning_shape(concealed, melds, (), self.options)
            concealed[w] -= 1
            if legal:
                return True
        return False

    def may_be_ready(self, hand: MahjongHand, seat: int, key: bytes) -> bool:
        if not any(key[:27]) and all(m.tile >= 27 for m in hand.melds[seat]):
            return True  # 风一色 needs no shape
        return super().may_be_ready(hand, seat, key)

    def _waits_of(self, key: bytes, melds: list[Meld]) -> list[int]:
        waits = MAHJONG.waits(key, len(melds), seven_pairs=self.options.qi_dui)
        honours_only = not any(key[:27]) and all(m.tile >= 27 for m in melds)
        if honours_only and not self.options.feng_yi_se_needs_shape:
            waits = sorted(set(waits).union(k for k in HONOUR_KINDS if key[k] < 4))
        return waits

    def view_facts(self, hand: MahjongHand, seat: int | None) -> dict[str, Any]:
        facts: dict[str, Any] = {}
        if self.draw_streak:
            # 荒庄 (T9, TA7): the drawn hands before this one multiply what it pays; public
            facts["draw_multiplier"] = scoring.streak_factor(self.draw_streak, self.options)
        # 缺门 (T6): the suit this seat is dropping, from its own tiles and melds only
        if seat is None:
            return facts
        suit = scoring.dropping_suit(hand.counts[seat], hand.melds[seat])
        return facts if suit is None else {**facts, "dropping": "mps"[suit]}

    # -- settlement ------------------------------------------------------------------
    def settle(self, hand: MahjongHand) -> list[Event]:
        events: list[Event] = []
        if hand.exhausted:
            # 荒庄: nobody pays; the match doubles the next hand (T9)
            hand.explanation = exhausted(
                "taixing",
                "荒庄：无人和牌，不付钱；下一局必须打，而且翻倍",
                "drawn hand: nobody won, nothing is paid; the next hand is played, doubled",
                "T9",
            ).to_json()
            return events
        parts = []
        for seat in hand.winners:
            win = hand.win_info[seat]
            result = self.score(win)
            if not result.valid:  # pragma: no cover - legal_actions offers valid wins only
                raise AssertionError(f"engine offered an invalid win: {result.reason_en}")
            hand.win_results[seat] = result
            parts.append(explain_win(win, result))
            events.append(
                Event(
                    "score",
                    seat,
                    data={
                        "hand": format_tile_counts(win.concealed),
                        "flowers": len(win.flowers),
                        "items": [item.to_json() for item in result.items],
                        "per_payer": result.per_payer,
                    },
                )
            )
            for p in result.payments:
                hand.ledger.append(p)
                events.append(Event("payment", p.payee, data=_payment_data(p)))
        hand.explanation = combine("taixing", parts).to_json()
        return events


def _payment_data(p: Payment) -> dict[str, Any]:
    return {"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason}
