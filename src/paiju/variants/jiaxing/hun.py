"""混儿: Jiaxing's optional wild-tile rule set (option ``hun``; rule book section 混儿).

The turned-up indicator's kind and the next kind(s) in its cycle are wild (H2). This
module knows the cycles, reads a winning hand with :data:`paiju.components.wild.WILD`
(every reading with each wild's face and the winning tile's wait), and judges the six
fans on one reading (H5, H6) and their stacking (H7). Putting the fans beside the Jiaxing
items (H8) is :mod:`paiju.variants.jiaxing.scoring`'s job.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from paiju.components.analysis import Shape
from paiju.components.wild import WILD, WildWait, split_wilds
from paiju.engine.types import MahjongWin, MeldType, ScoreItem, WinFlag, WinType
from paiju.variants.jiaxing.items import item
from paiju.variants.jiaxing.options import JiaxingOptions

FIVE_WAN = 4
"""The kind index of 5万 (捉伍儿's tile)."""


def next_kind(kind: int) -> int:
    """The next kind in the indicator cycle (H2): 9→1 in a suit, 北→东, 白→中."""
    if kind < 27:
        return kind - kind % 9 + (kind % 9 + 1) % 9
    if kind < 31:
        return 27 + (kind - 27 + 1) % 4
    return 31 + (kind - 31 + 1) % 3


def wild_kinds(indicator: int, n: int) -> tuple[int, ...]:
    """The indicator's kind and the ``n − 1`` kinds after it (H2, HA3)."""
    if not 0 <= indicator < 34:
        raise ValueError(f"the indicator must be a playing tile, got kind {indicator}")
    out = [indicator]
    while len(out) < n:
        out.append(next_kind(out[-1]))
    return tuple(dict.fromkeys(out))


def kinds_for(win: MahjongWin, options: JiaxingOptions) -> tuple[int, ...]:
    """The wild kinds of ``win`` (empty when the 混儿 rules are off or no indicator)."""
    if not options.hun or win.hun is None:
        return ()
    return wild_kinds(int(win.hun), options.hun_kinds)


def live_wilds(win: MahjongWin, kinds: Sequence[int]) -> tuple[bytes, int]:
    """The winner's natural counts and the wilds held (a 金杠's tiles are melded, not
    wild: melds never count)."""
    return split_wilds(win.concealed, kinds)


def is_complete(win: MahjongWin, options: JiaxingOptions, kinds: Sequence[int]) -> bool:
    natural, wilds = live_wilds(win, kinds)
    declared = len(win.melds)
    quad = options.quad_in_seven_pairs != "not_allowed"
    if options.hun_in_seven_pairs or declared:
        if WILD.is_complete(
            natural,
            wilds,
            declared,
            seven_pairs=options.qi_xiao_dui,
            quad_as_two_pairs=quad,
        ):
            return True
    elif WILD.is_complete_standard(natural, wilds, declared):
        return True
    if not declared and not options.hun_in_seven_pairs and options.qi_xiao_dui:
        # a 混儿 keeps its own face in seven pairs (HA13 b)
        counts = bytes(win.concealed[:34])
        return WILD.is_seven_pairs(counts, 0, quad_as_two_pairs=quad)
    return False


@dataclass(frozen=True, slots=True)
class HunReading:
    """One reading of the winner's hand, reduced to what the items need.

    ``shape``: 'standard', 'all_triplets', 'qi_xiao_dui' or 'da_qi_dui' (as the plain
    scorer names them); ``faces``: every concealed tile's face in this reading (a 混儿 as
    what it stands for); the fan flags judged on this reading."""

    shape: str
    faces: tuple[int, ...]
    hun_er_diao: bool
    zhuo_wu_er: bool
    long: bool
    ben_hun_er_long: bool
    mei_hun_er: bool


def readings(win: MahjongWin, options: JiaxingOptions, kinds: Sequence[int]) -> list[HunReading]:
    """Every distinct reading of a complete hand (empty if it is not complete)."""
    natural, wilds = live_wilds(win, kinds)
    declared = len(win.melds)
    win_kind = int(win.win_tile)
    win_wild = win_kind in kinds
    held_wild_faces = sorted(k for k in kinds for _ in range(win.concealed[k]))
    held_wild = Counter(held_wild_faces)
    none_held = wilds == 0
    chi_runs = {int(m.tile) for m in win.melds if m.type is MeldType.CHI}
    chi = any(m.type is MeldType.CHI for m in win.melds)
    hun_suit = kinds[0] // 9 if kinds and kinds[0] < 27 else -1
    printed = tuple(k for k in range(34) for _ in range(win.concealed[k]))
    out: set[HunReading] = set()

    def mei(stand_ins: Sequence[int]) -> bool:
        if options.mei_hun_er == "none_held":
            return none_held
        return sorted(stand_ins) == held_wild_faces

    def faces_of(blocks_faces: Sequence[int]) -> tuple[int, ...]:
        if options.hun_in_patterns == "face":
            return printed
        return tuple(sorted(blocks_faces))

    for r in WILD.readings(natural, wilds, win_kind, win_wild, declared):
        diao = r.wait is WildWait.ANY and (r.block.shape is Shape.PAIR or options.hun_er_diao_set)
        zhuo = (
            r.win_face == FIVE_WAN
            and r.block.shape is Shape.RUN
            and r.block.kind == FIVE_WAN - 1
            and (options.zhuo_wu_er_hun == "allowed" or (not r.block.wild and not r.win_wild))
        )
        runs = {b.kind: b for b in r.runs()}
        long_suit = -1
        own_face = False
        for start in (0, 9, 18):
            parts = [start, start + 3, start + 6]
            have = [runs.get(p) for p in parts]
            if all(h is not None or p in chi_runs for h, p in zip(have, parts, strict=True)):
                long_suit = start // 9
                wild_faces = Counter(f for h in have if h is not None for f in h.wild)
                # HA10 b: each 混儿 in the 龙 stands for its own printed kind, so the faces
                # stood in must be covered by the 混儿 held, kind by kind (a 4万 混儿 for a
                # 3万 is not its own face even when 3万 is wild too)
                own_face = wild_faces <= held_wild
                break
        is_long = long_suit >= 0
        ben = is_long and long_suit == hun_suit and (options.ben_hun_er_long == "suit" or own_face)
        faces = [f for b in r.blocks for f in b.faces]
        all_triplets = r.all_triplets and not chi
        out.add(
            HunReading(
                "all_triplets" if all_triplets else "standard",
                faces_of(faces),
                diao,
                zhuo,
                is_long,
                ben,
                mei(r.stand_ins),
            )
        )
    if not declared and options.qi_xiao_dui:
        quad_ok = options.quad_in_seven_pairs != "not_allowed"
        if options.hun_in_seven_pairs:
            sps = WILD.seven_pairs_readings(
                natural, wilds, win_kind, win_wild, quad_as_two_pairs=quad_ok
            )
        else:
            sps = WILD.seven_pairs_readings(
                bytes(win.concealed[:34]), 0, win_kind, False, quad_as_two_pairs=quad_ok
            )
        # HA12 b: 大七对's four alike by the printed faces (a 混儿 standing in for the
        # fourth does not make them)
        printed_quad = 4 in win.concealed[:34]
        for sp in sps:
            has_quad = printed_quad if options.hun_in_patterns == "face" else sp.has_quad
            quad_read = has_quad and options.quad_in_seven_pairs == "da_qi_dui"
            shape = "da_qi_dui" if quad_read else "qi_xiao_dui"
            faces = [f for p in sp.pairs for f in p.faces]
            out.add(
                HunReading(
                    shape,
                    faces_of(faces),
                    sp.wait is WildWait.ANY and options.hun_in_seven_pairs,
                    False,
                    False,
                    False,
                    mei(sp.stand_ins),
                )
            )
    return sorted(out, key=lambda h: (h.shape, h.faces, h.hun_er_diao, h.zhuo_wu_er))


def fan_items(reading: HunReading, win: MahjongWin, options: JiaxingOptions) -> list[ScoreItem]:
    """The 混儿 block of one reading (H6, H7), as items; empty when no fan applies under
    ``add`` stacking."""
    gang_kai = (
        options.gang_kai
        and win.win_type is WinType.SELF_DRAW
        and WinFlag.KONG_REPLACEMENT in win.flags
    )
    if options.hun_stacking == "add":
        out = []
        if reading.zhuo_wu_er:
            out.append(item("zhuo_wu_er", 3))
        if reading.long:
            out.append(item("long", 4))
        if reading.ben_hun_er_long:
            out.append(item("ben_hun_er_long", 4))
        if reading.mei_hun_er:
            out.append(item("mei_hun_er", 2))
        if reading.hun_er_diao:
            out.append(item("hun_er_diao", 2))
        if gang_kai:
            out.append(item("gang_kai", 2))
        return out
    # Tianjin: add first, then double once for each of the four (H10's listing)
    out = []
    if reading.zhuo_wu_er:
        out.append(item("zhuo_wu_er", 3))
    if reading.long:
        out.append(item("long", 4))
    if not out:
        out.append(item("ti_liu", 1))
    total = sum(i.value for i in out)
    for flag, item_id in (
        (reading.ben_hun_er_long, "ben_hun_er_long"),
        (reading.mei_hun_er, "mei_hun_er"),
        (reading.hun_er_diao, "hun_er_diao"),
        (gang_kai, "gang_kai"),
    ):
        if flag:
            out.append(item(item_id, total))
            total *= 2
    return out


def meets_qi_hu(block: Sequence[ScoreItem], options: JiaxingOptions) -> bool:
    """HA6 起和 on the 混儿 block."""
    if options.hun_qi_hu == 0:
        return True
    value = sum(i.value for i in block)
    if value >= options.hun_qi_hu:
        return True
    ids = {i.id for i in block}
    return options.hun_qi_hu == 3 and bool(ids & {"mei_hun_er", "gang_kai"})
