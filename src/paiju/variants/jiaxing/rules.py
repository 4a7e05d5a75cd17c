"""Jiaxing's hooks into the shared mahjong engine: who may win, kong money, settlement.

Scoring itself is :func:`paiju.variants.jiaxing.scoring.score_win`, the same function the
``paiju score`` calculator calls; this module only decides *when* to call it and adds the
engine-only payments (全求人反冲, 钓鱼).
"""

from __future__ import annotations

from typing import Any

from paiju.components.analysis import MAHJONG
from paiju.components.tiles import TILE_TEXT, Tile
from paiju.components.wild import WILD, split_wilds
from paiju.engine.events import Event
from paiju.engine.mahjong import MahjongHand, MahjongRules
from paiju.engine.types import MahjongWin, Meld, Payment, Phase, Refusal, WinResult, WinType
from paiju.variants.explain import Explanation, PaymentLine, combine, exhausted, grouped
from paiju.variants.jiaxing import explain, hun, scoring
from paiju.variants.jiaxing.options import JiaxingOptions


class JiaxingRules(MahjongRules):
    """One hand's rules. ``fisher`` is the seat that self-drew last hand (钓鱼), if any."""

    name = "jiaxing"
    sealed_reason = Refusal(
        "sealed",
        "封胡：已喂同一家够数的副数，本局不能胡",
        "封胡: this seat fed one player enough sets and may not win this hand",
    )

    def __init__(self, options: JiaxingOptions | None = None, fisher: int | None = None) -> None:
        self.options = options or JiaxingOptions()
        self.fisher = fisher if self.options.fishing else None
        self.max_winners = self.options.max_winners_per_discard
        # JA12 "最后一圈内": anywhere in the last go-round, i.e. three tiles or fewer left
        self.last_tile_window = 3 if self.options.hai_di == "last_round" else 0
        self.chi = self.options.chi
        self.ready_anytime = self.options.ting_declaration
        self.ready_flag = scoring.DECLARED_READY
        self.feeding_limit = self.options.feng_hu_threshold if self.options.feng_hu else None
        self.wild_kinds: tuple[int, ...] = ()
        self._wild_set: frozenset[int] = frozenset()

    # -- 混儿 (option hun): the indicator, wild-aware checks, what a 混儿 may not do ------
    def after_deal(self, hand: MahjongHand) -> list[Event]:
        options = self.options
        if not options.hun:
            return []
        # H3: the tile at the wall's tail (where replacements come from) is turned up
        tile = hand.wall[hand.tail - 1]
        hand.indicator = tile
        if options.hun_indicator_out:
            hand.tail -= 1
            hand.set_aside.append(tile)
        self.wild_kinds = hun.wild_kinds(tile, options.hun_kinds)
        self._wild_set = frozenset(self.wild_kinds)
        return [
            Event(
                "indicator",
                tile=tile,
                data={
                    "wild_kinds": [TILE_TEXT[k] for k in self.wild_kinds],
                    "out_of_play": options.hun_indicator_out,
                },
            )
        ]

    def standard_analysis(self) -> bool:
        # JP4: with seven pairs off the plain tables (which know seven pairs) do not answer
        return not self.wild_kinds and self.options.qi_xiao_dui

    def _split(self, key: bytes) -> tuple[bytes, int]:
        return split_wilds(key, self.wild_kinds)

    def complete(self, hand: MahjongHand, seat: int, key: bytes) -> bool:
        seven = self.options.qi_xiao_dui
        if not self.wild_kinds:
            if seven:
                return super().complete(hand, seat, key)
            return MAHJONG.is_complete_standard(key, len(hand.melds[seat]))
        natural, wilds = self._split(key)
        declared = len(hand.melds[seat])
        quad = self.options.quad_in_seven_pairs != "not_allowed"
        if self.options.hun_in_seven_pairs:
            return WILD.is_complete(
                natural, wilds, declared, seven_pairs=seven, quad_as_two_pairs=quad
            )
        if WILD.is_complete_standard(natural, wilds, declared):
            return True
        return seven and not declared and WILD.is_seven_pairs(key, 0, quad_as_two_pairs=quad)

    def waits_of(self, hand: MahjongHand, seat: int, key: bytes, declared: int) -> list[int]:
        seven = self.options.qi_xiao_dui
        if not self.wild_kinds:
            if seven:
                return super().waits_of(hand, seat, key, declared)
            return MAHJONG.waits(key, declared, seven_pairs=False)
        natural, wilds = self._split(key)
        quad = self.options.quad_in_seven_pairs != "not_allowed"
        sp = self.options.hun_in_seven_pairs and seven
        found = [
            k
            for k in WILD.waits(natural, wilds, declared, seven_pairs=sp, quad_as_two_pairs=quad)
            if k not in self._wild_set
        ]
        if seven and not sp and declared == 0:
            found = sorted(set(found) | set(MAHJONG.waits(key, 0)) - self._wild_set)
        if found:
            # a drawn 混儿 completes every ready hand
            return sorted({*found, *self.wild_kinds})
        return found

    def shanten(self, hand: MahjongHand, seat: int, key: bytes, declared: int) -> int:
        seven = self.options.qi_xiao_dui
        if not self.wild_kinds:
            if seven:
                return super().shanten(hand, seat, key, declared)
            return MAHJONG.shanten(key, declared, seven_pairs=False)
        natural, wilds = self._split(key)
        quad = self.options.quad_in_seven_pairs != "not_allowed"
        return WILD.shanten(
            natural,
            wilds,
            declared,
            seven_pairs=self.options.hun_in_seven_pairs and seven,
            quad_as_two_pairs=quad,
        )

    def may_discard(self, hand: MahjongHand, seat: int, tile: int) -> bool:
        return tile not in self._wild_set or self.options.hun_discard == "dead_hand"

    def may_meld(self, hand: MahjongHand, seat: int, tile: int) -> bool:
        if tile not in self._wild_set:
            return True
        # 金杠 (HA15): a concealed kong of four alike 混儿, the seat's own tiles only
        return (
            self.options.jin_gang > 0
            and hand.current == seat
            and hand.phase == Phase.ACT
            and hand.counts[seat][tile] == 4
        )

    def dead(self, hand: MahjongHand, seat: int) -> bool:
        """小相公 (HA14 b): the seat discarded a 混儿 this hand."""
        return any(t in self._wild_set for t in hand.discards[seat])

    def view_facts(self, hand: MahjongHand, seat: int | None) -> dict[str, Any]:
        # 钓鱼 (J32): everyone knows who self-drew last hand and will fish at its end
        return {} if self.fisher is None else {"fisher": self.fisher}

    def may_win(self, hand: MahjongHand, seat: int) -> bool:
        if self._wild_set and self.dead(hand, seat):
            return False
        if self.feeding_limit is None:
            return True
        # 封胡 (J17): feeding one opponent three sets seals the feeder for this hand
        return max(hand.fed[seat]) < self.feeding_limit

    def accepts(self, hand: MahjongHand, win: MahjongWin) -> bool:
        return scoring.is_winning(win, self.options)

    def score(self, win: MahjongWin) -> WinResult:
        return scoring.score_win(win, self.options)

    def kong_money(
        self, hand: MahjongHand, seat: int, meld: Meld, chain_payer: int | None
    ) -> list[Payment]:
        payer = chain_payer if self.options.lian_gang else None
        if int(meld.tile) in self._wild_set:
            return list(scoring.kong_money(meld, seat, self.options, jin=True))
        return list(scoring.kong_money(meld, seat, self.options, chain_payer=payer))

    def settle(self, hand: MahjongHand) -> list[Event]:
        events: list[Event] = []
        kong_paid = [p for p in hand.ledger if p.reason in ("gang", "jin_gang")]
        if hand.exhausted:
            # 荒庄: nobody is paid for a win and nobody fishes (J32); kong money stands
            hand.explanation = (
                exhausted(
                    "jiaxing",
                    "荒庄：无人和牌，不付和牌分，不钓鱼；杠钱照付",
                    "drawn hand: nobody won, nothing is paid for a win, no fishing;"
                    " kong money stands",
                    "J32, JA22",
                )
                .with_payments(_gang_lines(kong_paid))
                .to_json()
            )
            return events
        values: dict[int, int] = {}
        parts: list[Explanation] = []
        for seat in hand.winners:
            win = hand.win_info[seat]
            result = self.score(win)
            hand.win_results[seat] = result
            values[seat] = result.per_payer
            part = explain.explain_win(win, result)
            events.append(
                Event(
                    "score",
                    seat,
                    data={
                        "hand": _hand_text(win),
                        "items": [item.to_json() for item in result.items],
                        "per_payer": result.per_payer,
                        # 放炮 (one payer) or 自摸 (each pays): not always how it was won
                        "counts_as": result.extra["counts_as"],
                    },
                )
            )
            events.extend(_pay(hand, result.payments))
            if (
                win.win_type is WinType.DISCARD
                and win.source is not None
                and len(hand.melds[win.source]) == 4
            ):
                # 全求人反冲 (J30): the discarder was down to one tile behind four melds
                fan = scoring.fan_chong(win.source, seat, self.options)
                events.extend(_pay(hand, fan))
                part = part.with_payments(explain.payment_lines(win, fan))
            parts.append(part)
        explained = combine("jiaxing", parts)
        if self.fisher is not None:
            tail = hand.remaining_tail(self.options.fishing_tiles)
            payments, hits = scoring.fishing(
                [Tile(t) for t in tail], self.fisher, values, self.options
            )
            first = hand.win_info[hand.winners[0]]
            explained = explained + Explanation(
                "jiaxing",
                (explain.explain_fishing(self.fisher, [Tile(t) for t in tail], hits, values),),
                tuple(explain.payment_lines(first, payments)),
            )
            events.append(
                Event(
                    "fish",
                    self.fisher,
                    data={"tiles": " ".join(str(Tile(t)) for t in tail), "hits": list(hits)},
                )
            )
            events.extend(_pay(hand, payments))
        hand.explanation = explained.with_payments(_gang_lines(kong_paid)).to_json()
        return events


def _gang_lines(paid: list[Payment]) -> list[PaymentLine]:
    lines = []
    for payer, payee, reason, amount in grouped(paid):
        zh, en, seed = "杠钱（开杠时当场付）", "kong money (paid at the kong)", "J2, J27, J29"
        lines.append(PaymentLine(payer, payee, amount, reason, zh, en, seed))
    return lines


def _pay(hand: MahjongHand, payments: Any) -> list[Event]:
    out = []
    for p in payments:
        hand.ledger.append(p)
        out.append(
            Event(
                "payment",
                p.payee,
                data={"payer": p.payer, "payee": p.payee, "amount": p.amount, "reason": p.reason},
            )
        )
    return out


def _hand_text(win: MahjongWin) -> str:
    from paiju.components.notation import format_tile_counts

    return format_tile_counts(win.concealed)
