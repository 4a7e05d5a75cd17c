"""Bot speed: greedy decisions per second, and the strong bot's time per decision.

``greedy_decisions``: four :class:`~paiju.bots.GreedyBot` players play whole Jiaxing hands
in one process; the rate counts every decision they make (turns and claim answers) and
includes the engine's own work between decisions, as a rollout sees it. One untimed pass
first fills the analyser's tables.

``strong_decision_ms``: one :class:`~paiju.bots.strong.StrongBot` with Jiaxing's default
search (the lookahead) against three greedy bots; every decision where it had a choice is
timed. The line adds ``p50_ms`` and ``p99_ms`` to the usual fields (``ours_per_s`` is
decisions per second at the mean). ``strong_decision_ms_montecarlo``: the same with the
Monte Carlo search at its default budget (Qing'er's default search).
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from paiju.bench import rate, register, result_line
from paiju.bots import GreedyBot
from paiju.engine.mahjong import MahjongHand
from paiju.engine.match import play_hand
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules

_HANDS = 100
_HANDS_QUICK = 4
_STRONG_HANDS = 3
_STRONG_HANDS_LOOKAHEAD = 40
_STRONG_HANDS_QUICK = 1


def _counting_greedy() -> tuple[Any, list[int]]:
    options = JiaxingOptions()
    calls = [0]
    bots = [GreedyBot(i) for i in range(4)]

    def counted(bot: GreedyBot) -> Any:
        def decide(hand: MahjongHand, seat: int) -> int:
            calls[0] += 1
            return bot(hand, seat)

        return decide

    players = [counted(b) for b in bots]

    def one(seed: int) -> None:
        hand = MahjongHand(JiaxingRules(options), seed=seed, dealer=seed % 4)
        play_hand(hand, players)

    return one, calls


@register("greedy_decisions")
def _greedy_decisions(repeats: int, quick: bool) -> dict[str, object]:
    one, calls = _counting_greedy()
    seeds = list(range(_HANDS_QUICK if quick else _HANDS))
    for seed in seeds:
        one(seed)
    calls[0] = 0
    hands_per_s = rate(one, seeds, repeats)
    # every pass plays the same hands, so each makes the same number of decisions
    per_hand = calls[0] / (len(seeds) * (max(1, repeats) + 1))
    return result_line("greedy_decisions", hands_per_s * per_hand, None, None)


@register("strong_decision_ms")
def _strong_decision_ms(repeats: int, quick: bool) -> dict[str, object]:
    hands = _STRONG_HANDS_QUICK if quick else _STRONG_HANDS_LOOKAHEAD
    return _strong_line("strong_decision_ms", "lookahead", hands)


@register("strong_decision_ms_montecarlo")
def _strong_decision_ms_montecarlo(repeats: int, quick: bool) -> dict[str, object]:
    hands = _STRONG_HANDS_QUICK if quick else _STRONG_HANDS
    return _strong_line("strong_decision_ms_montecarlo", "montecarlo", hands)


def _strong_line(name: str, search: str, n_hands: int) -> dict[str, object]:
    from paiju.bots.strong import StrongBot

    options = JiaxingOptions()
    times: list[float] = []
    for seed in range(n_hands):
        strong = StrongBot(seed, search=search)

        def timed(hand: MahjongHand, seat: int, strong: StrongBot = strong) -> int:
            start = time.perf_counter()
            action = strong(hand, seat)
            if len(hand.legal_actions(seat)) > 1:
                times.append((time.perf_counter() - start) * 1000)
            return action

        players: list[Any] = [timed] + [GreedyBot(seed * 4 + i) for i in range(1, 4)]
        play_hand(MahjongHand(JiaxingRules(options), seed=seed, dealer=seed % 4), players)
    times.sort()
    mean = statistics.fmean(times) if times else 0.0
    line = result_line(name, 1000 / mean if mean else 0.0, None, None)
    line["decisions"] = len(times)
    line["p50_ms"] = round(_quantile(times, 0.5), 1)
    line["p99_ms"] = round(_quantile(times, 0.99), 1)
    return line


def _quantile(ordered: list[float], q: float) -> float:
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]
