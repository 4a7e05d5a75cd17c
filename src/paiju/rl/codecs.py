"""Per-game action codecs: the one place in ``paiju.rl`` that knows which game is which.

An environment's action space is ``Discrete(n_actions)`` and an action is the engine's
own dense action code (``paiju.engine.actions`` for the mahjong games,
``paiju.engine.qinger`` for Qing'er), so no translation happens on the hot path; the
codec names each code (:func:`action_table`, the table in ``docs/rl.md``), chooses the
observation encoder, the players of a hand and the shaping potential.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paiju.components.analysis import MAHJONG, QINGER
from paiju.engine import actions as MA
from paiju.engine import qinger as QA
from paiju.rl.encode import MahjongEncoder, QingerEncoder


@dataclass(frozen=True)
class Codec:
    n_actions: int
    encoder: type[MahjongEncoder] | type[QingerEncoder]
    action_str: Callable[[int], str]
    players: Callable[[Any], list[int]]
    """The seats that play this hand (Qing'er's fourth participant sits one out)."""
    shanten: Callable[[Any, int], int]
    """Tiles from ready of a seat's hand, for the optional shaping potential."""
    pass_action: int
    groups: tuple[tuple[str, int, int], ...]
    """(meaning, first code, last code) rows of the action table."""


def _mahjong_shanten(hand: Any, seat: int) -> int:
    return int(MAHJONG.shanten(bytes(hand.counts[seat]), len(hand.melds[seat])))


def _qinger_shanten(hand: Any, seat: int) -> int:
    return int(QINGER.shanten(bytes(hand.kinds[seat]), hand.declared[seat]))


_MAHJONG = Codec(
    n_actions=MA.N_ACTIONS,
    encoder=MahjongEncoder,
    action_str=MA.to_str,
    players=lambda hand: [0, 1, 2, 3],
    shanten=_mahjong_shanten,
    pass_action=MA.PASS,
    groups=(
        ("discard tile kind k (d1m … d7z)", MA.DISCARD, MA.DISCARD + 33),
        ("concealed kong of k 暗杠 (an1m …)", MA.CONCEALED_KONG, MA.CONCEALED_KONG + 33),
        ("added kong of k 补杠 (jia1m …)", MA.ADDED_KONG, MA.ADDED_KONG + 33),
        ("self-drawn win 自摸 (zimo)", MA.ZIMO, MA.ZIMO),
        ("pass on a claim / declaration (pass)", MA.PASS, MA.PASS),
        ("pong the discard 碰 (pong)", MA.PONG, MA.PONG),
        ("exposed kong of the discard 明杠 (kong)", MA.KONG, MA.KONG),
        ("win on the discard or robbed kong 胡 (hu)", MA.HU, MA.HU),
        ("chow, discard low / middle / high 吃 (chi0-2)", MA.CHI_LOW, MA.CHI_HIGH),
        ("declare ready after the deal 天听 (ting)", MA.DECLARE, MA.DECLARE),
        ("discard k and declare ready 报听 (ting1m …)", MA.TING, MA.TING + 33),
    ),
)

_QINGER = Codec(
    n_actions=QA.N_ACTIONS,
    encoder=QingerEncoder,
    action_str=QA.to_str,
    players=lambda hand: sorted(hand.players),
    shanten=_qinger_shanten,
    pass_action=QA.PASS,
    groups=(
        ("discard card kind c (d1s … dAD)", QA.DISCARD, QA.DISCARD + 35),
        ("concealed kong 暗笃 of meld kind k (an1s … anK)", QA.CONCEALED_KONG, QA.ADDED_KONG - 1),
        ("added kong of k (jia1s … jiaK)", QA.ADDED_KONG, QA.TAKEOFF - 1),
        ("takeoff 起飞 of four alike k (qifei1s …)", QA.TAKEOFF, QA.TAKEOFF_JOKERS - 1),
        ("takeoff of all five jokers 五喜 (wuxi)", QA.TAKEOFF_JOKERS, QA.TAKEOFF_JOKERS),
        ("self-drawn win 自摸 (zimo)", QA.ZIMO, QA.ZIMO),
        ("pass (claims, knock round, takeoffs)", QA.PASS, QA.PASS),
        ("pong 碰 (pong)", QA.PONG, QA.PONG),
        ("kong of the discard 笃 (kong)", QA.KONG, QA.KONG),
        ("win on the discard 胡 (hu)", QA.HU, QA.HU),
        ("knock 敲 (knock)", QA.KNOCK, QA.KNOCK),
    ),
)

CODECS: dict[str, Codec] = {"jiaxing": _MAHJONG, "taixing": _MAHJONG, "qinger": _QINGER}
"""Variant name → its codec."""


def codec_for(variant: str) -> Codec:
    codec = CODECS.get(variant)
    if codec is None:
        raise ValueError(f"no RL codec for variant {variant!r} (known: {', '.join(CODECS)})")
    return codec


def action_table(variant: str) -> list[tuple[int, str]]:
    """Every action code of ``variant``'s action space with its string form."""
    codec = codec_for(variant)
    return [(a, codec.action_str(a)) for a in range(codec.n_actions)]
