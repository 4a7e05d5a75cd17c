"""Jiaxing's hooks into the shared mahjong engine: who may win, kong money, settlement.

Scoring itself is :func:`paiju.variants.jiaxing.scoring.score_win`, the same function the
``paiju score`` calculator calls; this module only decides *when* to call it and adds the
engine-only payments (全求人反冲, 钓鱼).
"""

from __future__ import annotations

from typing import Any

from paiju.components.tiles import Tile
from paiju.engine.events import Event
from paiju.engine.fairness import HandRandom
from paiju.engine.mahjong import MahjongHand, MahjongRules
from paiju.variants.base import MahjongWin, Meld, Payment, WinResult, WinType
from paiju.variants.jiaxing import scoring
from paiju.variants.jiaxing.options import JiaxingOptions


class JiaxingRules(MahjongRules):
    """One hand's rules. ``fisher`` is the seat that self-drew last hand (钓鱼), if any."""

    name = "jiaxing"

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

    def may_win(self, hand: MahjongHand, seat: int) -> bool:
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
        return list(scoring.kong_money(meld, seat, self.options, chain_payer=payer))

    def settle(self, hand: MahjongHand) -> list[Event]:
        events: list[Event] = []
        if hand.exhausted:
            # 荒庄: nobody is paid for a win and nobody fishes (J32); kong money stands
            return events
        values: dict[int, int] = {}
        for seat in hand.winners:
            win = hand.win_info[seat]
            result = self.score(win)
            hand.win_results[seat] = result
            values[seat] = result.per_payer
            events.append(
                Event(
                    "score",
                    seat,
                    data={
                        "hand": _hand_text(win),
                        "items": [item.to_json() for item in result.items],
                        "per_payer": result.per_payer,
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
                events.extend(_pay(hand, scoring.fan_chong(win.source, seat, self.options)))
        if self.fisher is not None:
            tail = hand.remaining_tail(self.options.fishing_tiles)
            payments, hits = scoring.fishing(
                [Tile(t) for t in tail], self.fisher, values, self.options
            )
            events.append(
                Event(
                    "fish",
                    self.fisher,
                    data={"tiles": " ".join(str(Tile(t)) for t in tail), "hits": list(hits)},
                )
            )
            events.extend(_pay(hand, payments))
        return events


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


class JiaxingFlow:
    """How a Jiaxing match runs hands (engine.match.VariantFlow)."""

    name = "jiaxing"
    n_seats = 4
    options_type = JiaxingOptions

    def new_hand(
        self,
        options: JiaxingOptions,
        *,
        seed: int,
        dealer: int,
        carry: dict[str, Any],
        rng: HandRandom | None = None,
    ) -> MahjongHand:
        rules = JiaxingRules(options, carry.get("fisher"))
        return MahjongHand(rules, seed=seed, dealer=dealer, rng=rng)

    def after_hand(
        self, options: JiaxingOptions, hand: MahjongHand, carry: dict[str, Any]
    ) -> tuple[bool, dict[str, Any]]:
        # the dealer keeps the deal on their own win, and on 荒庄 by default (JA22)
        keeps = hand.dealer in hand.winners or (hand.exhausted and options.dealer_stays_on_draw)
        fisher = None
        if hand.winners and hand.win_info[hand.winners[0]].self_drawn:
            fisher = hand.winners[0]
        return keeps, {"fisher": fisher}

    def match_length(self, options: JiaxingOptions) -> tuple[int | None, int]:
        return options.hands, options.rounds
