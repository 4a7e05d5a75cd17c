"""Self-play throughput: whole hands with random bots, ours against RiichiEnv's.

Ours: one full-rules Jiaxing hand (deal, claims, kongs and kong money, 封胡, settlement,
钓鱼) per seed, four :class:`~paiju.bots.RandomBot` players choosing from
``legal_actions``. Peer: one riichi hand (game mode 0, a single kyoku) of ``riichienv``,
whose core is Rust, with its own ``RandomAgent`` players choosing from
``obs.legal_actions()``. Both sides play the same number of hands per timed pass.

``selfplay_taixing`` does the same with full-rules Taixing hands (144 tiles, the opening
and in-play flower replacement, 天听 declarations, 缺门 and the flower minimums checked
before a win is offered, settlement with 荒庄 and 豹子 doubling).
"""

from __future__ import annotations

from typing import Any

from paiju.bench import compare, register, result_line
from paiju.bots import RandomBot
from paiju.engine.mahjong import MahjongHand
from paiju.engine.match import play_hand
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules
from paiju.variants.taixing.options import TaixingOptions
from paiju.variants.taixing.rules import TaixingRules

_HANDS = 400
_HANDS_QUICK = 20


def _jiaxing_player() -> Any:
    options = JiaxingOptions()
    bots = [RandomBot(i) for i in range(4)]

    def one(seed: int) -> None:
        # a fisher every other hand, so 钓鱼 is part of the measured work
        hand = MahjongHand(
            JiaxingRules(options, seed % 4 if seed % 2 else None), seed=seed, dealer=seed % 4
        )
        play_hand(hand, bots)

    return one


def _taixing_player() -> Any:
    options = TaixingOptions()
    bots = [RandomBot(i) for i in range(4)]

    def one(seed: int) -> None:
        # a 荒庄 streak on some hands, so the doubling is part of the measured work
        hand = MahjongHand(TaixingRules(options, seed % 3), seed=seed, dealer=seed % 4)
        play_hand(hand, bots)

    return one


def _riichienv_player() -> Any:
    import importlib

    # riichienv ships no type information: reach it through importlib, typed as Any
    riichienv: Any = importlib.import_module("riichienv")
    agents_mod: Any = importlib.import_module("riichienv.agents")
    RiichiEnv, RandomAgent = riichienv.RiichiEnv, agents_mod.RandomAgent
    agents = [RandomAgent(i) for i in range(4)]

    def one(seed: int) -> None:
        env = RiichiEnv(game_mode=0, skip_mjai_logging=True, seed=seed)
        obs = env.reset()
        while not env.done():
            obs = env.step({pid: agents[pid].act(o) for pid, o in obs.items()})

    return one


@register("selfplay_jiaxing")
def _selfplay_jiaxing(repeats: int, quick: bool) -> dict[str, object]:
    return _versus_riichienv("selfplay_jiaxing", _jiaxing_player(), repeats, quick)


@register("selfplay_taixing")
def _selfplay_taixing(repeats: int, quick: bool) -> dict[str, object]:
    return _versus_riichienv("selfplay_taixing", _taixing_player(), repeats, quick)


def _versus_riichienv(name: str, ours: Any, repeats: int, quick: bool) -> dict[str, object]:
    seeds = list(range(_HANDS_QUICK if quick else _HANDS))
    try:
        theirs = _riichienv_player()
    except ImportError as exc:
        import sys

        from paiju.bench import rate

        print(f"paiju bench: {name}: riichienv unavailable ({exc})", file=sys.stderr)
        return result_line(name, rate(ours, seeds, repeats), "riichienv", None)
    return compare(
        name,
        ours=ours,
        our_inputs=seeds,
        peer="riichienv RandomAgent (riichi, 1 kyoku)",
        theirs=theirs,
        their_inputs=seeds,
        repeats=repeats,
    )


def _qinger_player() -> Any:
    from paiju.variants.qinger.hand import QingerHand
    from paiju.variants.qinger.options import QingerOptions

    options = QingerOptions()
    bots = [RandomBot(i) for i in range(3)]

    def one(seed: int) -> None:
        # the whole hand: knock round (and any redeal), 补花, 起飞, play, everyone scored
        hand = QingerHand(options, seed=seed, dealer=seed % 3)
        play_hand(hand, bots)

    return one


@register("selfplay_qinger")
def _selfplay_qinger(repeats: int, quick: bool) -> dict[str, object]:
    # no public engine plays Qing'er: the peer is this run's Jiaxing figure, same bots
    seeds = list(range(_HANDS_QUICK if quick else _HANDS))
    return compare(
        "selfplay_qinger",
        ours=_qinger_player(),
        our_inputs=seeds,
        peer="paiju selfplay_jiaxing (random bots, same run)",
        theirs=_jiaxing_player(),
        their_inputs=seeds,
        repeats=repeats,
    )
