"""Jiaxing settlement: the one scoring function the engine and ``paiju score`` share.

Units (JA1): one unit, 分 = 张 = 番. A win "counts as 放炮" (one payer pays the discard
value) or "counts as 自摸" (each of the three pays the self-draw value); the items add up
to that per-payer value, and liability rules (承包, 封胡, 包胡, 连杠) only move who pays.

What the engine does with these functions, in order:

* before offering a win to a seat: ``seat not in sealed_seats(...)`` (封胡, J17);
* at each kong, once nobody robbed it: ``kong_money(meld, konger, options,
  chain_payer=lian_gang_payer(chain))`` (J2, J27, J29; a robbed added kong pays nothing,
  J13, so the engine resolves the robbing window first);
* at each win: ``score_win(win, options).payments`` (``kong_payments`` is the calculator's
  replay of the winner's kong money, already paid live: the engine must not pay it again);
* when a 全求人 seat discards into a win: ``fan_chong(discarder, winner, options)`` (J30);
* at the end of a hand after a self-drawn win, unless 荒庄: ``fishing(...)`` (J32).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from paiju.components.analysis import MAHJONG
from paiju.components.tiles import Tile
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
from paiju.variants.jiaxing import hun
from paiju.variants.jiaxing.items import ITEMS, PATTERN_IDS, item
from paiju.variants.jiaxing.options import JiaxingOptions

DECLARED_READY = WinFlag.DECLARED_READY
"""Jiaxing's own win flag: the winner declared ready (报听; needs ``ting_declaration``)."""

_ORDER = {item_id: i for i, item_id in enumerate(ITEMS)}


# -- 封胡 / 包胡: who fed whom -----------------------------------------------------------


def fed_counts(melds: Sequence[Meld]) -> dict[int, int]:
    """Sets each seat fed this hand's owner (碰, 明杠, 补杠 once; 暗杠 has no feeder)."""
    counts: dict[int, int] = {}
    for meld in melds:
        # a chow is not a 比 (JA14 counts pongs and exposed kongs)
        if meld.source is not None and meld.type is not MeldType.CHI:
            counts[meld.source] = counts.get(meld.source, 0) + 1
    return counts


def liable_feeder(melds: Sequence[Meld], options: JiaxingOptions) -> int | None:
    """The seat that fed the owner of ``melds`` at least ``feng_hu_threshold`` sets.

    That seat is sealed (may not win) and shares this owner's win (J17, J21). With a
    threshold of 1 or 2 two seats could qualify: the one that fed more is liable, and on
    a tie the one that fed first.
    """
    if not options.feng_hu:
        return None
    counts = fed_counts(melds)
    best: int | None = None
    for meld in melds:
        seat = meld.source
        if seat is None or counts.get(seat, 0) < options.feng_hu_threshold:
            continue
        if best is None or counts[seat] > counts[best]:
            best = seat
    return best


def sealed_seats(
    melds_by_seat: Sequence[Sequence[Meld]], options: JiaxingOptions
) -> frozenset[int]:
    """Seats that may not win this hand: each fed some one opponent enough sets (封胡)."""
    if not options.feng_hu:
        return frozenset()
    sealed: set[int] = set()
    for owner, melds in enumerate(melds_by_seat):
        for seat, n in fed_counts(melds).items():
            if n >= options.feng_hu_threshold and seat != owner:
                sealed.add(seat)
    return frozenset(sealed)


# -- kong money ----------------------------------------------------------------------


def lian_gang_payer(chain: Sequence[Meld]) -> int | None:
    """Who pays for the latest kong of an unbroken kong chain (连杠, J29/JA18).

    ``chain`` lists the chain's kongs in order, up to and including the latest. From the
    first exposed kong (直杠 or 补杠) on, its feeder pays everything; kongs before it (the
    chain began with 暗杠) settle normally, so None is returned for them.
    """
    for meld in chain:
        if meld.exposed:
            return meld.source
    return None


def staked(payments: Sequence[Payment], options: JiaxingOptions) -> list[Payment]:
    """JP2 底分: every amount in points times the stake unit ``di_fen`` (1: unchanged)."""
    unit = options.di_fen
    if unit == 1:
        return list(payments)
    return [Payment(p.payer, p.payee, p.amount * unit, p.reason) for p in payments]


def kong_money(
    meld: Meld,
    konger: int,
    options: JiaxingOptions,
    *,
    chain_payer: int | None = None,
    n_seats: int = 4,
    jin: bool = False,
) -> list[Payment]:
    """Money paid the moment a kong stands (J2, J27), times the stake unit (底分): 1 from
    the feeder of an exposed kong (for 补杠 the seat that fed the pong), 1 from each other
    seat for a 暗杠.

    Inside a 连杠 chain (``chain_payer`` from :func:`lian_gang_payer`, honoured when the
    ``lian_gang`` option is on) that one seat pays the whole amount: 1 for an exposed
    kong, 3 for a concealed one. A robbed added kong (抢杠) pays nothing: do not call this.
    """
    if not meld.is_kong:
        raise ValueError("kong money is paid for kongs only")
    concealed = meld.type is MeldType.CONCEALED_KONG
    if jin:
        # HA15 金杠: a concealed kong of four 混儿; each other seat pays jin_gang
        if not concealed or options.jin_gang <= 0:
            raise ValueError("a 金杠 is a concealed kong of 混儿 with the option jin_gang")
        others = [s for s in range(n_seats) if s != konger]
        payments = [Payment(s, konger, options.jin_gang, "jin_gang") for s in others]
    elif chain_payer is not None and options.lian_gang:
        if chain_payer == konger:
            raise ValueError("a player cannot pay their own kong money")
        amount = n_seats - 1 if concealed else 1
        payments = [Payment(chain_payer, konger, amount, "gang")]
    elif concealed:
        payments = [Payment(s, konger, 1, "gang") for s in range(n_seats) if s != konger]
    else:
        if meld.source is None or meld.source == konger:
            raise ValueError("an exposed kong needs a feeder other than the konger")
        payments = [Payment(meld.source, konger, 1, "gang")]
    return staked(payments, options)


def melds_kong_money(
    melds: Sequence[Meld],
    konger: int,
    options: JiaxingOptions,
    *,
    kong_chain: int = 1,
    n_seats: int = 4,
    wild_kinds: Sequence[int] = (),
) -> list[Payment]:
    """All kong money implied by one player's melds, the last ``kong_chain`` kongs forming
    a chain (the calculator's view; the engine pays each kong as it happens). A concealed
    kong of a kind in ``wild_kinds`` is a 金杠."""
    positions = [i for i, m in enumerate(melds) if m.is_kong]
    links = [False] * len(melds)
    for j in positions[max(1, len(positions) - kong_chain + 1) :]:
        links[j] = True
    return chained_kong_money(melds, links, konger, options, n_seats=n_seats, wild_kinds=wild_kinds)


def chained_kong_money(
    melds: Sequence[Meld],
    links: Sequence[bool],
    konger: int,
    options: JiaxingOptions,
    *,
    n_seats: int = 4,
    wild_kinds: Sequence[int] = (),
) -> list[Payment]:
    """All kong money of one player's melds (listed in the order they were made), where
    ``links[i]`` says that kong ``i`` was made on the replacement of the kong before it
    (连杠). Any number of chains and stand-alone kongs; the engine pays the same live. A
    concealed kong of a kind in ``wild_kinds`` is a 金杠 (HA15)."""
    return [
        p
        for _, _, paid in kong_money_by_meld(
            melds, links, konger, options, n_seats=n_seats, wild_kinds=wild_kinds
        )
        for p in paid
    ]


def kong_money_by_meld(
    melds: Sequence[Meld],
    links: Sequence[bool],
    konger: int,
    options: JiaxingOptions,
    *,
    n_seats: int = 4,
    wild_kinds: Sequence[int] = (),
) -> list[tuple[Meld, int | None, list[Payment]]]:
    """(kong, the 连杠 payer or None, its money) for each kong, as :func:`chained_kong_money`."""
    out: list[tuple[Meld, int | None, list[Payment]]] = []
    chain: list[Meld] = []
    for i, meld in enumerate(melds):
        if not meld.is_kong:
            chain = []
            continue
        chain = [*chain, meld] if links[i] and chain else [meld]
        if int(meld.tile) in wild_kinds:
            # 金杠 (HA15) stands outside any 连杠 chain
            out.append((meld, None, kong_money(meld, konger, options, n_seats=n_seats, jin=True)))
            continue
        payer = lian_gang_payer(chain) if options.lian_gang and len(chain) > 1 else None
        paid = kong_money(meld, konger, options, chain_payer=payer, n_seats=n_seats)
        out.append((meld, payer, paid))
    return out


def trailing_chain(melds: Sequence[Meld], links: Sequence[bool]) -> int:
    """Kongs in the chain that ends with the last meld (1 when it stands alone or is not a
    kong): the ``kong_chain`` of a bloom on that kong."""
    n = 0
    for i in range(len(melds) - 1, -1, -1):
        if not melds[i].is_kong:
            break
        n += 1
        if not links[i]:
            break
    return max(1, n)


# -- 全求人反冲 and 钓鱼 -------------------------------------------------------------------


def fan_chong(discarder: int, winner: int, options: JiaxingOptions) -> list[Payment]:
    """J30 全求人反冲: a seat that had four melds and one tile pays extra when its discard
    wins for someone (the engine knows the discarder's melds; call once per winner)."""
    if options.quan_qiu_ren_fan_chong <= 0:
        return []
    amount = options.quan_qiu_ren_fan_chong * options.di_fen
    return [Payment(discarder, winner, amount, "quan_qiu_ren_fan_chong")]


def fishing(
    tail: Sequence[Tile],
    fisher: int,
    winner_values: Mapping[int, int],
    options: JiaxingOptions,
    n_seats: int = 4,
) -> tuple[list[Payment], list[int]]:
    """J32 钓鱼: the fisher (last hand's self-drawer) counts the wall's tail tiles.

    ``tail``: the remaining wall tiles taken from the tail end, in the order taken; the
    first ``fishing_tiles`` are used (fewer if fewer remain). A tile counts its rank
    (suits 1–9; 东1 南2 西3 北4 中5 发6 白7) counter-clockwise starting with the fisher
    as 1. Seats are numbered in turn order, and Jiaxing turns go counter-clockwise, so the
    tile lands on seat ``(fisher + rank - 1) % n_seats``. ``winner_values`` maps each seat
    that won this hand to its per-payer hand value (``WinResult.per_payer``). For every hit
    winner, each seat other than the fisher pays the fisher that value times the hits on
    that winner. Returns the payments and the seat each tile landed on.
    """
    if not options.fishing:
        return [], []
    hits = [(fisher + tile.rank - 1) % n_seats for tile in tail[: options.fishing_tiles]]
    payments: list[Payment] = []
    for seat in dict.fromkeys(hits):
        value = winner_values.get(seat, 0)
        if value <= 0:
            continue
        times = hits.count(seat)
        payments.extend(
            Payment(payer, fisher, value * times * options.di_fen, "diao_yu")
            for payer in range(n_seats)
            if payer != fisher
        )
    return payments, hits


# -- the hand --------------------------------------------------------------------------


def _one_suit(win: MahjongWin) -> bool:
    kinds = [k for k, n in enumerate(win.concealed) if n] + [int(m.tile) for m in win.melds]
    if not kinds or any(k >= 27 for k in kinds):
        return False
    return len({k // 9 for k in kinds}) == 1


def _shapes(win: MahjongWin, options: JiaxingOptions) -> list[str]:
    """Readings of a complete hand: 'standard', 'all_triplets', 'qi_xiao_dui', 'da_qi_dui'."""
    shapes: list[str] = []
    decompositions = MAHJONG.decompositions(win.concealed, len(win.melds))
    if decompositions:
        triplets = any(d.all_triplets for d in decompositions) and not any(
            m.type is MeldType.CHI for m in win.melds
        )
        shapes.append("all_triplets" if triplets else "standard")
    if options.qi_xiao_dui and not win.melds and sum(win.concealed) == 14:
        counts = win.concealed
        if all(n in (0, 2) for n in counts):
            shapes.append("qi_xiao_dui")
        elif all(n in (0, 2, 4) for n in counts):
            if options.quad_in_seven_pairs == "da_qi_dui":
                shapes.append("da_qi_dui")
            elif options.quad_in_seven_pairs == "qi_xiao_dui":
                shapes.append("qi_xiao_dui")
    return shapes


class _Situation:
    """What about a win does not depend on how its concealed tiles are read."""

    def __init__(self, win: MahjongWin, options: JiaxingOptions) -> None:
        self.win = win
        self.options = options
        flags = win.flags
        kongs = [m for m in win.melds if m.is_kong]
        self.bloom = win.self_drawn and WinFlag.KONG_REPLACEMENT in flags
        chain_len = win.kong_chain if options.lian_gang else 1
        self.chain = kongs[-chain_len:] if kongs else []
        self.bloom_payer = lian_gang_payer(self.chain) if self.bloom else None
        robbed = win.win_type is WinType.ROBBED_KONG
        self.robbed = robbed
        self.discard_mode: bool
        self.payer: int | None
        # counts as 放炮 (one payer) or as 自摸 (three payers, or the robbed seat for all)
        if self.bloom_payer is not None:
            self.discard_mode, self.payer = True, self.bloom_payer
        elif win.self_drawn:
            self.discard_mode, self.payer = False, None
        elif robbed and options.qiang_gang == "self_draw":
            self.discard_mode, self.payer = False, win.source
        else:
            self.discard_mode, self.payer = True, win.source
        # "碰杠4次": any four melds, 暗杠 included (as in the score-cli example), and the
        # last tile won off another seat; a kong's replacement is self-drawn (J10)
        self.quan_qiu_ren = self.discard_mode and not self.bloom and len(win.melds) == 4
        self.one_suit = _one_suit(win)
        # 门清 needs a win that counts as 自摸; 暗杠 keep it (J5, J27)
        self.men_qing = not self.discard_mode and not any(m.exposed for m in win.melds)
        self.yi_pao = (
            win.win_type is not WinType.SELF_DRAW and win.discard_winners >= options.floor_winners
        )
        self.floor_applies = options.floor > 0 and (
            self.yi_pao or self.bloom or robbed or (win.self_drawn and WinFlag.LAST_TILE in flags)
        )

    def items(
        self,
        shape: str,
        *,
        one_suit: bool | None = None,
        hun: Sequence[ScoreItem] = (),
    ) -> list[ScoreItem]:
        """The items of one reading. ``one_suit`` overrides the hand's own 清一色 test (a
        混儿 reading decides it by faces); ``hun`` is that reading's 混儿 block (H8)."""
        win, options = self.win, self.options
        flags = win.flags
        discard_mode = self.discard_mode

        def value(item_id: str) -> int:
            row = ITEMS[item_id]
            v = row.value if discard_mode else row.alt_value
            assert v is not None, item_id
            return int(v)

        out: list[ScoreItem] = []
        # patterns
        if self.one_suit if one_suit is None else one_suit:
            out.append(item("qing_yi_se", value("qing_yi_se")))
        if shape in ("qi_xiao_dui", "da_qi_dui"):
            out.append(item(shape, value(shape)))
        if self.quan_qiu_ren:
            out.append(item("quan_qiu_ren", value("quan_qiu_ren")))
        if shape == "all_triplets" and not (self.quan_qiu_ren and options.quan_qiu_ren == "flat"):
            out.append(item("peng_peng_hu", value("peng_peng_hu")))
        patterns = sum(i.value for i in out if i.id in PATTERN_IDS)
        # special wins
        if self.bloom:
            bloom_id = "gang_shang_hua_ming" if self.discard_mode else "gang_shang_hua_an"
            out.append(item(bloom_id, value(bloom_id)))
        if WinFlag.AFTER_KONG_DISCARD in flags and win.win_type is WinType.DISCARD:
            if options.gang_shang_pao == "double" and patterns:
                out.append(item("gang_shang_pao", patterns))
            else:
                out.append(item("gang_shang_pao", value("gang_shang_pao")))
        if self.robbed:
            out.append(item("qiang_gang", value("qiang_gang")))
        if WinFlag.LAST_TILE in flags:
            if win.win_type is WinType.SELF_DRAW:
                out.append(item("hai_di_lao_yue", options.hai_di_lao_yue_value))
            elif win.win_type is WinType.DISCARD:
                out.append(item("hai_di_pao", value("hai_di_pao")))
        if WinFlag.HEAVENLY in flags:
            out.append(item("tian_hu", options.tian_hu_value))
        if WinFlag.EARTHLY in flags:
            out.append(item("di_hu", options.di_hu_value))
        if WinFlag.HUMAN in flags:
            out.append(item("ren_hu", options.ren_hu_value))
        # 门清 and the plain base
        # H8: the 混儿 block never suppresses the base unless hun_base is 'drop' (HA2)
        earned = bool(out) or (bool(hun) and options.hun_base == "drop")
        base_due = options.base == "always" or not (earned or self.men_qing)
        if self.men_qing:
            if options.men_qing == "replace_base":
                base_due = options.base == "always" or not earned
                out.append(item("men_qing", 4 if base_due else 1))
                base_due = False
            else:
                out.append(item("men_qing", value("men_qing")))
        if base_due:
            base_id = "fang_pao" if self.discard_mode else "zi_mo"
            out.append(item(base_id, value(base_id)))
        if options.ting_declaration and DECLARED_READY in flags:
            out.append(item("ting_pai", 1))
        out.extend(hun)
        total = sum(i.value for i in out)
        if self.floor_applies and total < options.floor:
            floor_id = "yi_pao_san_xiang" if self.yi_pao else "man_wu_fan"
            out.append(item(floor_id, options.floor - total))
            total = options.floor
        if self.bloom and len(self.chain) > 1:
            doublings = len(self.chain)
            if options.lian_gang_doubling == "per_extra_kong":
                doublings -= 1
            out.append(item("lian_gang", total * (2**doublings - 1)))
            total *= 2**doublings
        # JP1 封顶: the cap comes last, over every floor and doubling
        if 0 < options.feng_ding < total:
            out.append(item("feng_ding", options.feng_ding - total))
        out.sort(key=lambda i: _ORDER[i.id])
        return out


def _settle(sit: _Situation, items: Sequence[ScoreItem]) -> list[Payment]:
    win, options = sit.win, sit.options
    winner = win.winner
    per_payer = sum(i.value for i in items)

    def shares(payer: int, times: int = 1) -> list[Payment]:
        return [Payment(payer, winner, i.value * times, i.id) for i in items if i.value]

    feeder = liable_feeder(win.melds, options)
    if feeder == winner:
        feeder = None
    if sit.discard_mode:
        payer = sit.payer
        assert payer is not None
        if feeder is None:
            return shares(payer)
        if feeder == payer:
            return [*shares(payer), Payment(feeder, winner, per_payer, "feng_hu")]
        if options.feng_hu_other_discard == "bao_hu":
            return [Payment(feeder, winner, per_payer, "bao_hu")]
        return [*shares(payer), Payment(feeder, winner, per_payer, "feng_hu")]
    if sit.payer is not None:
        # 抢杠 read as 自摸: the robbed seat pays all three shares (J23); 封胡 adds nothing
        return shares(sit.payer, len(win.payers))
    if feeder is None:
        return [p for seat in win.payers for p in shares(seat)]
    extra = len(win.payers) - 1
    if options.feng_hu_self_draw == "feeder_pays_all":
        return [*shares(feeder), Payment(feeder, winner, per_payer * extra, "feng_hu")]
    return [
        *(p for seat in win.payers for p in shares(seat)),
        Payment(feeder, winner, per_payer, "feng_hu"),
    ]


def _invalid(win: MahjongWin) -> WinResult | None:
    expected = 14 - 3 * len(win.melds)
    held = sum(win.concealed)
    if held != expected:
        return WinResult.invalid(
            f"相公：应有{expected}张手牌，实有{held}张",
            f"wrong tile count: {expected} concealed tiles expected, {held} held",
        )
    if win.concealed[win.win_tile] == 0:
        return WinResult.invalid("和牌张不在手牌中", "the winning tile is not in the hand")
    if WinFlag.KONG_REPLACEMENT in win.flags and not any(m.is_kong for m in win.melds):
        return WinResult.invalid("杠上花却没有杠", "a kong-replacement win needs a kong")
    return None


def _zi_mo_refusal(win: MahjongWin, options: JiaxingOptions) -> WinResult | None:
    """JP3 只许自摸: with ``zi_mo_only`` a win off a discard or a robbed kong is refused."""
    if options.zi_mo_only and not win.self_drawn:
        return WinResult.invalid("只许自摸", "only self-drawn wins count")
    return None


def _hun_refusal(win: MahjongWin, options: JiaxingOptions) -> WinResult | None:
    """HA5 混儿局只能自摸, and a 混儿 can never be won off a discard or a robbed kong."""
    if win.self_drawn:
        return None
    if options.hun_self_draw_only:
        return WinResult.invalid("混儿局只能自摸", "with 混儿 only self-drawn wins count")
    if int(win.win_tile) in hun.kinds_for(win, options):
        return WinResult.invalid("混儿不能被和", "a 混儿 cannot be won off another seat")
    return None


def is_winning(win: MahjongWin, options: JiaxingOptions) -> bool:
    """Whether :func:`score_win` would call ``win`` valid, without scoring it (for claim
    windows: no decomposition is enumerated, save for a 混儿 起和 minimum)."""
    if _invalid(win) is not None or _zi_mo_refusal(win, options) is not None:
        return False
    kinds = hun.kinds_for(win, options)
    if kinds:
        if _hun_refusal(win, options) is not None:
            return False
        if not hun.is_complete(win, options, kinds):
            return False
        if options.hun_qi_hu == 0:
            return True
        result = score_win(win, options)
        _last_scored[0] = (win, options, result)
        return result.valid
    if MAHJONG.is_complete_standard(win.concealed, len(win.melds)):
        return True
    if not options.qi_xiao_dui:
        return False
    if win.melds or options.quad_in_seven_pairs == "not_allowed":
        return MAHJONG.is_seven_pairs(win.concealed, len(win.melds), quad_as_two_pairs=False)
    return MAHJONG.is_seven_pairs(win.concealed, len(win.melds))


_last_scored: list[tuple[MahjongWin, JiaxingOptions, WinResult] | None] = [None]
"""The scoring :func:`is_winning` has just done to test a 混儿 起和 minimum: a caller that
checks a win and then scores it (the rules' ``accepts`` then ``score``, as the lookahead
bot does for every win it weighs) has its readings enumerated once. Matched by the very
win and options objects, both frozen; handed out once, so no two callers share its
``extra``."""


def score_win(win: MahjongWin, options: JiaxingOptions) -> WinResult:
    """Score one winner: validity, items (best reading), payments, kong money, per payer.

    The caller has already checked that the winner is not sealed by 封胡
    (:func:`sealed_seats`); that needs every seat's melds, which a win does not carry.
    """
    last = _last_scored[0]
    if last is not None and last[0] is win and last[1] is options:
        _last_scored[0] = None
        return last[2]
    return _score_win(win, options)


def _score_win(win: MahjongWin, options: JiaxingOptions) -> WinResult:
    problem = _invalid(win) or _zi_mo_refusal(win, options)
    if problem is not None:
        return problem
    kinds = hun.kinds_for(win, options)
    if kinds:
        return _score_hun(win, options, kinds)
    shapes = _shapes(win, options)
    if not shapes:
        return WinResult.invalid("未成牌", "hand is not complete")
    sit = _Situation(win, options)
    best: list[ScoreItem] = []
    best_value = -1
    for shape in shapes:
        items = sit.items(shape)
        total = sum(i.value for i in items)
        if total > best_value:
            best, best_value = items, total
    return _result(win, sit, best, best_value)


def _result(win: MahjongWin, sit: _Situation, best: list[ScoreItem], best_value: int) -> WinResult:
    options = sit.options
    return WinResult(
        True,
        items=tuple(best),
        payments=tuple(staked(_settle(sit, best), options)),
        kong_payments=tuple(
            melds_kong_money(
                win.melds,
                win.winner,
                options,
                kong_chain=win.kong_chain,
                n_seats=win.n_seats,
                wild_kinds=hun.kinds_for(win, options),
            )
        ),
        per_payer=best_value,
        extra={
            "counts_as": "discard" if sit.discard_mode else "self_draw",
            "payer": sit.payer,
            # JP2 底分: the explanation shows the stake unit only when there is one
            **({"di_fen": options.di_fen} if options.di_fen != 1 else {}),
        },
    )


def _score_hun(win: MahjongWin, options: JiaxingOptions, kinds: tuple[int, ...]) -> WinResult:
    """H5–H9: every reading with its 混儿 block; the one worth most per payer wins."""
    refusal = _hun_refusal(win, options)
    if refusal is not None:
        return refusal
    readings = hun.readings(win, options, kinds)
    if not readings:
        return WinResult.invalid("未成牌（混儿也补不齐）", "hand is not complete, even with wilds")
    sit = _Situation(win, options)
    meld_kinds = [int(m.tile) for m in win.melds]
    best: list[ScoreItem] = []
    best_value = -1
    for reading in readings:
        block = hun.fan_items(reading, win, options)
        if not hun.meets_qi_hu(block, options):
            continue
        kinds_seen = [*reading.faces, *meld_kinds]
        one_suit = bool(kinds_seen) and all(k < 27 for k in kinds_seen)
        one_suit = one_suit and len({k // 9 for k in kinds_seen}) == 1
        items = sit.items(reading.shape, one_suit=one_suit, hun=block)
        total = sum(i.value for i in items)
        if total > best_value:
            best, best_value = items, total
    if best_value < 0:
        return WinResult.invalid(
            f"未达起和（混儿番须满{options.hun_qi_hu}）",
            f"below the 混儿 minimum (hun_qi_hu {options.hun_qi_hu})",
        )
    return _result(win, sit, best, best_value)
