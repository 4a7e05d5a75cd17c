"""``paiju score`` for Jiaxing (``docs/spec/score-cli.md``): JSON in, JSON out.

Everything past the input checks is :func:`paiju.variants.jiaxing.scoring.score_win`, the
function the engine settles hands with. Beyond the shared flags, Jiaxing accepts
``declared_ready`` (报听, J22) when the option ``ting_declaration`` is on, and the field
``hun`` (the turned-up 混儿 indicator) with the option ``hun`` (rule book §11.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from paiju.components.tiles import Tile
from paiju.engine.types import MahjongWin, MeldType, Payment, WinFlag, WinType, net
from paiju.variants.explain import Explanation
from paiju.variants.jiaxing import explain
from paiju.variants.jiaxing.hun import kinds_for as hun_kinds_for
from paiju.variants.jiaxing.hun import wild_kinds
from paiju.variants.jiaxing.options import OPTION_SPECS, JiaxingOptions
from paiju.variants.jiaxing.scoring import (
    DECLARED_READY,
    fan_chong,
    fishing,
    kong_money_by_meld,
    score_win,
    trailing_chain,
)
from paiju.variants.situation import (
    InputError,
    check_winner_cap,
    options_field,
    parse_mahjong_win,
    seat,
    tiles_field,
)

VARIANT = "jiaxing"


def _check_flags(win: MahjongWin) -> None:
    """Flags that contradict the rest of the situation are malformed input."""
    flags = win.flags
    if WinFlag.KONG_REPLACEMENT in flags:
        if win.win_type is not WinType.SELF_DRAW:
            raise InputError("flags", "'kong_replacement' needs win_type self_draw")
        if not any(m.is_kong for m in win.melds):
            raise InputError("flags", "'kong_replacement' needs a kong among the melds")
    if WinFlag.AFTER_KONG_DISCARD in flags and win.win_type is not WinType.DISCARD:
        raise InputError("flags", "'after_kong_discard' needs win_type discard")
    if WinFlag.MULTIPLE_WINNERS in flags and win.self_drawn:
        raise InputError("flags", "'multiple_winners' needs a discard or a robbed kong")
    if WinFlag.HEAVENLY in flags and (win.winner != win.dealer or not win.self_drawn or win.melds):
        raise InputError("flags", "'heavenly' (天胡) is the dealer's self-drawn opening hand")
    if WinFlag.EARTHLY in flags and (win.winner == win.dealer or not win.self_drawn or win.melds):
        raise InputError("flags", "'earthly' (地胡) is a non-dealer's self-drawn first tile")
    if WinFlag.HUMAN in flags and (
        win.winner == win.dealer or win.win_type is not WinType.DISCARD or win.source != win.dealer
    ):
        raise InputError("flags", "'human' (人胡) is a non-dealer winning the dealer's discard")
    if WinFlag.HUMAN in flags and win.melds:
        raise InputError("flags", "'human' (人胡) is won on the first discard: nobody has melded")
    if WinFlag.HUMAN in flags and WinFlag.AFTER_KONG_DISCARD in flags:
        raise InputError(
            "flags",
            "'human' (人胡) and 'after_kong_discard': a kong before the first discard"
            " is a claim, and 人胡 needs none",
        )
    for first in (WinFlag.HEAVENLY, WinFlag.EARTHLY, WinFlag.HUMAN):
        if first in flags and WinFlag.LAST_TILE in flags:
            raise InputError(
                "flags", f"'{first}' is the first go-round, 'last_tile' the wall's last tile"
            )
    special = [f for f in (WinFlag.HEAVENLY, WinFlag.EARTHLY, WinFlag.HUMAN) if f in flags]
    if len(special) > 1:
        raise InputError("flags", f"'{special[0]}' and '{special[1]}' cannot both apply")


def _check_tiles(win: MahjongWin) -> None:
    expected = 14 - 3 * len(win.melds)
    held = sum(win.concealed)
    if held != expected:
        raise InputError(
            "hand",
            f"{held} tiles, but with {len(win.melds)} melds the hand holds {expected}"
            " (including the winning tile)",
        )
    if win.win_type is WinType.ROBBED_KONG:
        # the robbed seat shows three of the kind in its pong; the winner holds the fourth
        held_kind = win.concealed[win.win_tile] + sum(
            m.type.size for m in win.melds if m.tile == win.win_tile
        )
        if held_kind != 1:
            raise InputError(
                "win_tile", "the robbed seat holds the other three, the winner only the one robbed"
            )
    kongs = sum(1 for m in win.melds if m.is_kong)
    if win.kong_chain > 1 and win.kong_chain > kongs:
        raise InputError("kong_chain", f"a chain of {win.kong_chain} kongs, but {kongs} in melds")


def _hun_field(obj: Mapping[str, Any], win: MahjongWin, options: JiaxingOptions) -> MahjongWin:
    """H10: the indicator ``hun`` and the exit-2 refusals of a 混儿 situation."""
    if "hun" not in obj or obj.get("hun") is None:
        if options.hun:
            raise InputError("hun", "options.hun needs the turned-up indicator tile 'hun'")
        return win
    if not options.hun:
        raise InputError("hun", "a 'hun' indicator needs the option hun")
    tiles = tiles_field(obj, "hun")
    if len(tiles) != 1:
        raise InputError("hun", f"expected exactly one tile, got {len(tiles)}")
    indicator = tiles[0]
    if indicator.is_flower:
        raise InputError("hun", "the indicator is a playing tile, not a flower")
    kinds = wild_kinds(int(indicator), options.hun_kinds)
    for i, meld in enumerate(win.melds):
        if any(int(t) in kinds for t in meld.tiles):
            jin = meld.type is MeldType.CONCEALED_KONG and options.jin_gang > 0
            if not jin:
                raise InputError(
                    f"melds[{i}]",
                    "a meld cannot contain a 混儿 (a concealed kong of one needs jin_gang)",
                )
    copies = win.concealed[int(indicator)] + sum(
        1 for m in win.melds for t in m.tiles if int(t) == int(indicator)
    )
    if options.hun_indicator_out and copies > 3:
        raise InputError("hand", f"{copies} copies of the indicator {indicator}: at most 3 remain")
    if not win.self_drawn and int(win.win_tile) in kinds:
        raise InputError("win_tile", "a 混儿 is never discarded, so it cannot be won off a seat")
    return replace(win, hun=indicator)


def _links(obj: Mapping[str, Any], win: MahjongWin) -> list[bool]:
    """``melds[i].chain``: kong ``i`` was made on the replacement of kong ``i - 1`` (连杠)."""
    raw = obj.get("melds", [])
    links = [False] * len(win.melds)
    for i, meld in enumerate(win.melds):
        value = raw[i].get("chain", False)
        if not isinstance(value, bool):
            raise InputError(f"melds[{i}].chain", "expected true or false")
        if not value:
            continue
        if not meld.is_kong or i == 0 or not win.melds[i - 1].is_kong:
            raise InputError(
                f"melds[{i}].chain",
                "a chained kong (连杠) is a kong made on the replacement of the kong listed"
                " just before it",
            )
        if meld.type is MeldType.KONG:
            raise InputError(
                f"melds[{i}].chain",
                "a kong of a discard is never made on a replacement tile: only a concealed"
                " or an added kong continues a chain",
            )
        links[i] = True
    return links


def parse(obj: Mapping[str, Any]) -> tuple[MahjongWin, JiaxingOptions]:
    """The typed situation and options; raises InputError naming the bad field."""
    options: JiaxingOptions = options_field(obj, JiaxingOptions, OPTION_SPECS)
    if obj.get("draw_streak", 0) not in (0, None):
        raise InputError("draw_streak", "Jiaxing has no 荒庄 doubling (a Taixing field)")
    if obj.get("leopard", False) not in (False, None):
        raise InputError("leopard", "Jiaxing has no 豹子 doubling (a Taixing field)")
    flags = obj.get("flags", [])
    declared = False
    if isinstance(flags, list) and DECLARED_READY in flags:
        if not options.ting_declaration:
            raise InputError("flags", f"'{DECLARED_READY}' needs the option ting_declaration")
        declared = True
        obj = {**obj, "flags": [f for f in flags if f != DECLARED_READY]}
    win = parse_mahjong_win(obj, flowers_allowed=False, variant=VARIANT)
    if not options.chi:
        for i, meld in enumerate(win.melds):
            if meld.type is MeldType.CHI:
                raise InputError(f"melds[{i}].type", "chow (吃) needs the option chi")
    if declared:
        win = replace(win, flags=win.flags | {DECLARED_READY})
    win = _hun_field(obj, win, options)
    links = _links(obj, win)
    if any(links):
        derived = trailing_chain(win.melds, links)
        if "kong_chain" in obj and obj["kong_chain"] != derived:
            raise InputError(
                "kong_chain",
                f"the melds' chain flags make a final chain of {derived}, not {obj['kong_chain']}",
            )
        win = replace(win, kong_chain=derived)
    _check_flags(win)
    _check_tiles(win)
    check_winner_cap(win, options.max_winners_per_discard)
    return win, options


def _links_of(obj: Mapping[str, Any], win: MahjongWin) -> list[bool]:
    if any(isinstance(m, dict) and m.get("chain") for m in obj.get("melds", [])):
        return _links(obj, win)
    positions = [i for i, m in enumerate(win.melds) if m.is_kong]
    links = [False] * len(win.melds)
    for j in positions[max(1, len(positions) - win.kong_chain + 1) :]:
        links[j] = True
    return links


def _int_field(obj: Mapping[str, Any], name: str, low: int, high: int) -> int | None:
    value = obj.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(name, f"expected an integer {low}…{high}, not {value!r}")
    return value


def _sealed(obj: Mapping[str, Any], win: MahjongWin, options: JiaxingOptions) -> int | None:
    """``fed_by_winner``: sets the winner fed each seat this hand (封胡 seals at 3)."""
    raw = obj.get("fed_by_winner")
    if raw is None:
        return None
    if (
        not isinstance(raw, list)
        or len(raw) != win.n_seats
        or any(isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 4 for n in raw)
    ):
        raise InputError("fed_by_winner", "expected 4 integers 0…4, one per seat")
    if raw[win.winner]:
        raise InputError("fed_by_winner", "a player never feeds their own melds")
    if not options.feng_hu:
        return None
    for seat_, n in enumerate(raw):
        if n >= options.feng_hu_threshold:
            return seat_
    return None


def _fishing(
    obj: Mapping[str, Any], win: MahjongWin, options: JiaxingOptions
) -> tuple[int, list[Tile]] | None:
    raw = obj.get("fishing")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise InputError("fishing", "expected an object {fisher, tail}")
    unknown = sorted(k for k in raw if k not in ("fisher", "tail"))
    if unknown:
        raise InputError(f"fishing.{unknown[0]}", "unknown field")
    if not options.fishing:
        raise InputError("fishing", "钓鱼 needs the option fishing")
    fisher = seat(raw, "fisher", win.n_seats)
    assert fisher is not None
    try:
        tail = tiles_field(raw, "tail")
    except InputError as exc:
        raise InputError("fishing.tail", str(exc).split(": ", 1)[-1]) from None
    if len(tail) > options.fishing_tiles:
        raise InputError(
            "fishing.tail", f"{len(tail)} tiles, but fishing takes {options.fishing_tiles}"
        )
    counts = list(win.concealed)
    for m in win.melds:
        for t in m.tiles:
            counts[t] += 1
    for t in tail:
        counts[t] += 1
        if counts[t] > 4:
            raise InputError("fishing.tail", f"a fifth {t} ({t.zh}) with the winner's tiles")
    return fisher, tail


def score_json(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The output object of ``paiju score`` for a Jiaxing situation."""
    win, options = parse(obj)
    melds_of_discarder = _int_field(obj, "discarder_melds", 0, 4)
    if melds_of_discarder is not None and win.win_type is not WinType.DISCARD:
        raise InputError("discarder_melds", "the discarder's melds belong to a discard win")
    sealed = _sealed(obj, win, options)
    fish = _fishing(obj, win, options)
    if sealed is not None:
        return {
            "valid": False,
            "reason": f"封胡：和家已喂给座位{sealed} {options.feng_hu_threshold} 组，本局不能和"
            f" / 封胡: the winner fed seat {sealed} {options.feng_hu_threshold} sets and may"
            " not win this hand",
        }
    result = score_win(win, options)
    if not result.valid:
        return {"valid": False, "reason": f"{result.reason_zh} / {result.reason_en}"}
    payments: list[Payment] = list(result.payments)
    if melds_of_discarder == 4 and win.source is not None:
        payments += fan_chong(win.source, win.winner, options)
    by_meld = kong_money_by_meld(
        win.melds,
        _links_of(obj, win),
        win.winner,
        options,
        n_seats=win.n_seats,
        wild_kinds=hun_kinds_for(win, options),
    )
    kong = [p for _, _, paid in by_meld for p in paid]
    explanation = explain.explain_win(win, result).with_payments(
        explain.payment_lines(win, payments[len(result.payments) :])
    )
    out: dict[str, Any] = {
        "valid": True,
        "variant": VARIANT,
        "items": [i.to_json() for i in result.items],
        "payments": net(payments, win.n_seats),
        "kong_payments": net(kong, win.n_seats),
    }
    if fish is not None:
        fisher, tail = fish
        paid, hits = fishing(tail, fisher, {win.winner: result.per_payer}, options, win.n_seats)
        out["fishing"] = {"hits": hits, "payments": net(paid, win.n_seats)}
        explanation = explanation + Explanation(
            VARIANT,
            (explain.explain_fishing(fisher, tail, hits, {win.winner: result.per_payer}),),
            tuple(explain.payment_lines(win, paid)),
        )
    explanation = explanation.with_payments(explain.kong_lines(win.winner, by_meld))
    out["explanation"] = explanation.to_json()
    return out
