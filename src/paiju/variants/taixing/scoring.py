"""Taixing win scoring: legality (shape, 缺门, flower minimums) and settlement.

One function, :func:`score_win`, scores a win for both the engine and ``paiju score``.
The computation is the one of ``analysis.md`` §3.4 with decisions TA1:

    per payer = max(F, floor) × N × streak factor × (2 if 豹子)

where F is the flower count (flower tiles plus meld flowers, T11), N the sum of big-hand
fan or 1 for a small hand, and the floor 2 on a self-draw, 3 on a discard or robbed kong,
3 on 杠开 (T25). When a hand can be read more than one way (e.g. seven pairs or four
sets), the reading worth most is scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from paiju.components.analysis import MAHJONG, Decomposition
from paiju.components.tiles import FLOWER_TILES, N_PLAYING_KINDS, Tile
from paiju.engine.types import (
    MahjongWin,
    Meld,
    MeldType,
    Payment,
    ScoreItem,
    WinFlag,
    WinResult,
    WinType,
)
from paiju.variants.taixing.items import BY_ID, FAN_ORDER
from paiju.variants.taixing.options import TaixingOptions

ALL_FLOWERS = frozenset(FLOWER_TILES)
HONOURS = range(27, N_PLAYING_KINDS)
FLOWER_SOURCE_ORDER = (
    "hua_pai",
    "feng_peng",
    "ming_gang",
    "an_gang",
    "feng_gang",
    "feng_an_gang",
    "feng_bu_gang",
    "feng_an_ke",
)

ReadingKind = Literal["standard", "qi_dui", "no_shape", "hua_hu"]


@dataclass(frozen=True, slots=True)
class _Reading:
    kind: ReadingKind
    decomposition: Decomposition | None = None


@dataclass(slots=True)
class _Evaluation:
    """One legal reading of the win, valued."""

    reading: _Reading
    fans: list[str]
    big: bool
    sources: dict[str, int]
    flowers: int
    threshold: int
    base: int = 0
    fan_total: int = 0
    per_payer: int = 0
    factors: list[tuple[str, int]] = field(default_factory=list)


# -- flowers -------------------------------------------------------------------------------


def is_feng(tile: Tile | int, options: TaixingOptions) -> bool:
    """风 for meld flowers: 东南西北, and 中发白 unless ``dragons_are_feng`` is off (TA4)."""
    t = Tile(tile)
    return t.is_wind or (t.is_dragon and options.dragons_are_feng)


def meld_flowers(meld: Meld, options: TaixingOptions) -> tuple[str, int] | None:
    """The flower source id and flowers one meld is worth (T11, TA3), or None."""
    feng = is_feng(meld.tile, options)
    if meld.type is MeldType.PONG:
        return ("feng_peng", BY_ID["feng_peng"].base) if feng else None
    if meld.type is MeldType.KONG:
        source = "feng_gang" if feng else "ming_gang"
        return source, BY_ID[source].base
    if meld.type is MeldType.ADDED_KONG:
        if feng:
            return "feng_bu_gang", options.feng_bu_gang_flowers
        return "ming_gang", BY_ID["ming_gang"].base
    source = "feng_an_gang" if feng else "an_gang"
    return source, BY_ID[source].base


def _flower_sources(
    win: MahjongWin, options: TaixingOptions, concealed_triplets: Sequence[int]
) -> dict[str, int]:
    sources = dict.fromkeys(FLOWER_SOURCE_ORDER, 0)
    sources["hua_pai"] = len(win.flowers)
    for meld in win.melds:
        found = meld_flowers(meld, options)
        if found is not None:
            sources[found[0]] += found[1]
    for kind in concealed_triplets:
        if not is_feng(kind, options):
            continue
        # a triplet finished by another player's tile is as exposed as a pong
        if not win.self_drawn and kind == win.win_tile:
            sources["feng_peng"] += BY_ID["feng_peng"].base
        else:
            sources["feng_an_ke"] += options.feng_an_ke_flowers
    return {k: v for k, v in sources.items() if v}


def _triplets_held(concealed: Sequence[int]) -> list[int]:
    """Honour kinds held three or more times: a triplet in every reading but 七对."""
    return [k for k in HONOURS if concealed[k] >= 3]


def _concealed_triplets(win: MahjongWin, reading: _Reading) -> list[int]:
    if reading.kind == "qi_dui":
        return []
    if reading.kind == "standard" and reading.decomposition is not None:
        return [k for k in reading.decomposition.triplets if k >= 27]
    return _triplets_held(win.concealed)


def flower_count(win: MahjongWin, options: TaixingOptions) -> int:
    """F: flower tiles plus meld flowers (T11), for the reading :func:`score_win` scores.

    For a hand that is not a legal win, honour triplets held in hand are counted as
    concealed triplets.
    """
    best = _best(win, options)
    if isinstance(best, _Evaluation):
        return best.flowers
    return sum(_flower_sources(win, options, _triplets_held(win.concealed)).values())


def _threshold(win: MahjongWin, options: TaixingOptions, flowers: int) -> int:
    return len(win.flowers) if options.threshold_flowers == "tiles_only" else flowers


def _minimum(win: MahjongWin, options: TaixingOptions) -> int:
    return options.min_flowers_self_draw if win.self_drawn else options.min_flowers_discard


def meets_minimum(win: MahjongWin, options: TaixingOptions) -> bool:
    """Whether the small-hand flower minimum lets this win stand.

    True for a big hand, or when the flowers counted under TA2 reach 2 on a self-draw, 3
    on a discard (the option values). Shape and 缺门 are not judged here: a hand with no
    legal reading is judged on its flowers alone.
    """
    evaluations = _evaluations(win, options)
    if evaluations:
        return any(_allowed(e, win, options) for e in evaluations)
    flowers = sum(_flower_sources(win, options, _triplets_held(win.concealed)).values())
    return _threshold(win, options, flowers) >= _minimum(win, options)


def _allowed(e: _Evaluation, win: MahjongWin, options: TaixingOptions) -> bool:
    return e.big or e.threshold >= _minimum(win, options)


# -- shapes --------------------------------------------------------------------------------


def is_hua_hu(flowers: Sequence[Tile]) -> bool:
    """花胡 (T20): all eight flowers set aside."""
    return set(flowers) >= ALL_FLOWERS


def _total_counts(concealed: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    total = list(concealed[:N_PLAYING_KINDS])
    for meld in melds:
        total[meld.tile] += meld.type.size
    return total


def lacks_a_suit(concealed: Sequence[int], melds: Sequence[Meld]) -> bool:
    """缺门 (T6): the hand, melds included, has no tile of at least one of 万/筒/索."""
    total = _total_counts(concealed, melds)
    return any(not any(total[s * 9 : s * 9 + 9]) for s in range(3))


def dropping_suit(concealed: Sequence[int], melds: Sequence[Meld]) -> int | None:
    """The number suit (0 万, 1 筒, 2 索) a hand gives up for 缺门 (T6): the one it holds
    fewest tiles of, melds included, among the suits it has not melded (a melded suit can
    no longer go); the first on a tie. A suit already missing is its own answer. None when
    every suit is melded (the hand can no longer lack one)."""
    total = _total_counts(concealed, melds)
    melded = {meld.tile // 9 for meld in melds if meld.tile < 27}
    free = [s for s in range(3) if s not in melded]
    if not free:
        return None
    return min(free, key=lambda s: (sum(total[s * 9 : s * 9 + 9]), s))


def _readings(
    concealed: Sequence[int], melds: Sequence[Meld], options: TaixingOptions
) -> list[_Reading]:
    declared = len(melds)
    key = bytes(concealed[:N_PLAYING_KINDS])
    out: list[_Reading] = []
    if MAHJONG.is_complete_standard(key, declared):
        for dec in MAHJONG.decompositions(key, declared):
            if options.shapes == "seed_abc" and len(dec.triplets) + declared not in (0, 1, 4):
                continue
            out.append(_Reading("standard", dec))
    if options.qi_dui and MAHJONG.is_seven_pairs(
        key, declared, quad_as_two_pairs=options.qi_dui_quad
    ):
        out.append(_Reading("qi_dui"))
    if not options.feng_yi_se_needs_shape and sum(key) + 3 * declared == 14:
        total = _total_counts(key, melds)
        if not any(total[:27]):
            out.append(_Reading("no_shape"))
    return out


def is_winning_shape(
    concealed: Sequence[int],
    melds: Sequence[Meld],
    flowers: Sequence[Tile],
    options: TaixingOptions,
) -> bool:
    """Quick legality of a 14-tile hand: 花胡, or a shape (T6, TA12–TA14) lacking a suit.

    The small-hand flower minimums depend on how the tile arrives; see :func:`meets_minimum`.
    ``concealed`` is a count vector (34 or more entries) including the winning tile.
    """
    if is_hua_hu(flowers):
        return True
    return bool(_readings(concealed, melds, options)) and lacks_a_suit(concealed, melds)


# -- fan -----------------------------------------------------------------------------------


def _tian_ting(win: MahjongWin, options: TaixingOptions) -> bool:
    if options.tian_ting == "ready_at_deal":
        return WinFlag.READY_AT_DEAL in win.flags
    return WinFlag.HEAVENLY in win.flags and win.winner == win.dealer


def _fans(win: MahjongWin, options: TaixingOptions, reading: _Reading) -> list[str]:
    if reading.kind == "hua_hu":
        # won on the eighth flower whatever the tiles: nothing about them scores
        return ["hua_hu"]
    total = _total_counts(win.concealed, win.melds)
    suits = {s for s in range(3) if any(total[s * 9 : s * 9 + 9])}
    honours = any(total[27:N_PLAYING_KINDS])
    fans: set[str] = set()
    if len(suits) == 1:
        fans.add("hun_yi_se" if honours else "qing_yi_se")
    elif not suits:
        fans.add("feng_yi_se")
    dec = reading.decomposition
    if reading.kind == "standard" and dec is not None:
        if dec.full_straight(MAHJONG.run_group_starts):
            fans.add("yi_tiao_long")
        if dec.all_triplets:
            fans.add("dui_dui_hu")
    if reading.kind == "qi_dui":
        fans.add("qi_dui")
    if len(win.melds) == 4 and (options.da_diao_che_self_draw or not win.self_drawn):
        fans.add("da_diao_che")
    if _tian_ting(win, options):
        fans.add("tian_ting")
    if WinFlag.KONG_REPLACEMENT in win.flags and options.gang_kai == "fan_and_floor":
        fans.add("gang_kai")
    if win.win_type is WinType.ROBBED_KONG:
        fans.add("qiang_gang")
    if is_hua_hu(win.flowers):
        fans.add("hua_hu")
    return [f for f in FAN_ORDER if f in fans]


def streak_factor(streak: int, options: TaixingOptions) -> int:
    """荒庄 doubling (T9, TA7): ×2^n compounding, or ×(n + 1) linear."""
    if options.draw_streak_growth == "linear":
        return streak + 1
    return 1 << streak


def _floor(win: MahjongWin, options: TaixingOptions) -> int:
    if WinFlag.KONG_REPLACEMENT in win.flags:
        return options.floor_kong_replacement
    return options.floor_self_draw if win.self_drawn else options.floor_discard


def _evaluate(win: MahjongWin, options: TaixingOptions, reading: _Reading) -> _Evaluation:
    fans = _fans(win, options, reading)
    big = bool(fans) or (WinFlag.KONG_REPLACEMENT in win.flags and options.gang_kai == "floor_only")
    sources = _flower_sources(win, options, _concealed_triplets(win, reading))
    flowers = sum(sources.values())
    e = _Evaluation(reading, fans or ["xiao_hu"], big, sources, flowers, 0)
    e.threshold = _threshold(win, options, flowers)
    counted = flowers + 1 if options.flower_base == "plus_one" else flowers
    e.base = max(counted, _floor(win, options))
    e.fan_total = sum(BY_ID[f].base for f in e.fans)
    if win.draw_streak:
        e.factors.append(("huang_zhuang", streak_factor(win.draw_streak, options)))
    if win.leopard:
        e.factors.append(("bao_zi", BY_ID["bao_zi"].base))
    e.per_payer = e.base * e.fan_total
    for _, factor in e.factors:
        e.per_payer *= factor
    return e


def _evaluations(win: MahjongWin, options: TaixingOptions) -> list[_Evaluation]:
    """Every legal reading, valued (minimums not yet applied)."""
    if not lacks_a_suit(win.concealed, win.melds):
        return []
    return [_evaluate(win, options, r) for r in _readings(win.concealed, win.melds, options)]


def _best(win: MahjongWin, options: TaixingOptions) -> _Evaluation | WinResult:
    """The reading worth most, or an invalid result saying why there is none."""
    expected = 14 - 3 * len(win.melds)
    held = sum(win.concealed[:N_PLAYING_KINDS])
    if held != expected:
        return WinResult.invalid(
            f"牌数不对：应有{expected}张，实有{held}张",
            f"wrong tile count: {expected} tiles expected in hand, {held} held",
        )
    hua_hu = is_hua_hu(win.flowers)
    readings = _readings(win.concealed, win.melds, options)
    if not readings and not hua_hu:
        return WinResult.invalid("不成胡牌牌型", "not a winning shape")
    lacks = lacks_a_suit(win.concealed, win.melds)
    if not lacks and not hua_hu:
        return WinResult.invalid("未缺门", "hand does not lack a suit", "no_missing_suit")
    if not lacks or not readings:
        # 花胡 on its own: no shape, no missing suit, won on drawing the eighth flower
        if not win.self_drawn:
            return WinResult.invalid(
                "花胡须摸到第八张花时自摸", "花胡 is won by drawing the eighth flower (self_draw)"
            )
        return _evaluate(win, options, _Reading("hua_hu"))
    evaluations = [_evaluate(win, options, r) for r in readings]
    allowed = [e for e in evaluations if _allowed(e, win, options)]
    if not allowed:
        need = _minimum(win, options)
        have = max(e.threshold for e in evaluations)
        how_zh, how_en = ("自摸", "a self-draw") if win.self_drawn else ("放炮", "a discard")
        return WinResult.invalid(
            f"花数不足：{how_zh}需{need}花，只有{have}花",
            f"not enough flowers: {need} needed on {how_en}, {have} held",
            "too_few_flowers",
        )
    return max(allowed, key=lambda e: (e.per_payer, e.fan_total))


def is_winning(win: MahjongWin, options: TaixingOptions) -> bool:
    """Whether :func:`score_win` would accept this win (shape, 缺门, flower minimum, and
    只许自摸 under ``zi_mo_only``)."""
    if options.zi_mo_only and not win.self_drawn:
        return False
    best = _best(win, options)
    _last_best[0] = (win, options, best)
    return isinstance(best, _Evaluation)


_last_best: list[tuple[MahjongWin, TaixingOptions, _Evaluation | WinResult] | None] = [None]
"""The reading :func:`is_winning` last found: a caller that checks a win and then scores
it (the rules' ``accepts`` then ``score``, as the lookahead bot does for every win it
weighs) has it found once. Matched by the very win and options objects, both frozen."""


def _best_again(win: MahjongWin, options: TaixingOptions) -> _Evaluation | WinResult:
    last = _last_best[0]
    if last is not None and last[0] is win and last[1] is options:
        return last[2]
    return _best(win, options)


# -- settlement ----------------------------------------------------------------------------


def feeder(win: MahjongWin, options: TaixingOptions) -> int | None:
    """包牌 (T24, TA11): the seat that fed the winner enough pongs/exposed kongs, if any."""
    if not options.bao_pai:
        return None
    fed = [0] * win.n_seats
    for meld in win.melds:
        if meld.source is not None:
            fed[meld.source] += 1
    for seat, n in enumerate(fed):
        if n >= options.bao_pai_threshold and seat != win.winner:
            return seat
    return None


def _payers(win: MahjongWin, options: TaixingOptions) -> tuple[tuple[int, ...], str]:
    if win.win_type is WinType.SELF_DRAW:
        return win.payers, "zi_mo"
    if win.source is None:
        raise ValueError(f"a {win.win_type.value} win needs the seat it came from")
    if win.win_type is WinType.ROBBED_KONG:
        if options.qiang_gang_payer == "all_three":
            return win.payers, "qiang_gang"
        return (win.source,), "qiang_gang"
    return (win.source,), "fang_pao"


def score_win(win: MahjongWin, options: TaixingOptions) -> WinResult:
    """Score one Taixing win: items, the settlement ledger and the amount per payer.

    Invalid wins (no shape, no missing suit, too few flowers for a small hand, wrong tile
    count) come back with ``valid`` False and a 简体 / English reason.
    """
    if options.zi_mo_only and not win.self_drawn:
        return WinResult.invalid("只许自摸", "only self-drawn wins count")
    best = _best_again(win, options)
    if isinstance(best, WinResult):
        return best
    items: list[ScoreItem] = [BY_ID[f].scored() for f in best.fans]
    items.append(BY_ID["hua"].scored(best.flowers))
    counted = best.flowers + 1 if options.flower_base == "plus_one" else best.flowers
    if best.base > counted:
        items.append(BY_ID["di_hua"].scored(best.base))
    items.extend(BY_ID[name].scored(factor) for name, factor in best.factors)
    # TP1 封顶: the amount per payer after every doubling, each 包牌 share alike
    per_payer = best.per_payer
    if 0 < options.feng_ding < per_payer:
        per_payer = options.feng_ding
        items.append(BY_ID["feng_ding"].scored(per_payer))
    # TP2 底分: payments in points, the items and the amount per payer in 花
    paid = per_payer * options.di_fen
    payers, reason = _payers(win, options)
    liable = feeder(win, options)
    payments: list[Payment]
    if liable is not None and payers != (liable,):
        shares = len(payers)
        items.append(BY_ID["bao_pai"].scored(shares))
        payments = [Payment(liable, win.winner, paid * shares, "bao_pai")]
    else:
        payments = [Payment(p, win.winner, paid, reason) for p in payers]
    return WinResult(
        True,
        items=tuple(items),
        payments=tuple(payments),
        per_payer=per_payer,
        extra={
            "reading": best.reading.kind,
            "flowers": best.flowers,
            # a copy: the reading may be handed out again (:func:`_best_again`)
            "flower_sources": dict(best.sources),
            "base": best.base,
            "fan": best.fan_total,
            "feeder": liable,
            "uncapped": best.per_payer,
            **({"di_fen": options.di_fen} if options.di_fen != 1 else {}),
        },
    )
