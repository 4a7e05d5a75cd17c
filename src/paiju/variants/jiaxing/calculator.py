"""``paiju score`` for Jiaxing (``docs/spec/score-cli.md``): JSON in, JSON out.

Everything past the input checks is :func:`paiju.variants.jiaxing.scoring.score_win`, the
function the engine settles hands with. Beyond the shared flags, Jiaxing accepts
``declared_ready`` (报听, J22) when the option ``ting_declaration`` is on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from paiju.calculator import InputError, check_winner_cap, options_field, parse_mahjong_win
from paiju.variants.base import MahjongWin, MeldType, WinType, net
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.scoring import DECLARED_READY, score_win

VARIANT = "jiaxing"


def _check_flags(win: MahjongWin) -> None:
    """Flags that contradict the rest of the situation are malformed input."""
    flags = win.flags
    if "kong_replacement" in flags:
        if win.win_type is not WinType.SELF_DRAW:
            raise InputError("flags", "'kong_replacement' needs win_type self_draw")
        if not any(m.is_kong for m in win.melds):
            raise InputError("flags", "'kong_replacement' needs a kong among the melds")
    if "after_kong_discard" in flags and win.win_type is not WinType.DISCARD:
        raise InputError("flags", "'after_kong_discard' needs win_type discard")
    if "multiple_winners" in flags and win.self_drawn:
        raise InputError("flags", "'multiple_winners' needs a discard or a robbed kong")
    if "heavenly" in flags and (win.winner != win.dealer or not win.self_drawn or win.melds):
        raise InputError("flags", "'heavenly' (天胡) is the dealer's self-drawn opening hand")
    if "earthly" in flags and (win.winner == win.dealer or not win.self_drawn or win.melds):
        raise InputError("flags", "'earthly' (地胡) is a non-dealer's self-drawn first tile")
    if "human" in flags and (
        win.winner == win.dealer or win.win_type is not WinType.DISCARD or win.source != win.dealer
    ):
        raise InputError("flags", "'human' (人胡) is a non-dealer winning the dealer's discard")
    if "human" in flags and win.melds:
        raise InputError("flags", "'human' (人胡) is won on the first discard: nobody has melded")
    if "human" in flags and "after_kong_discard" in flags:
        raise InputError(
            "flags",
            "'human' (人胡) and 'after_kong_discard': a kong before the first discard"
            " is a claim, and 人胡 needs none",
        )
    for first in ("heavenly", "earthly", "human"):
        if first in flags and "last_tile" in flags:
            raise InputError(
                "flags", f"{first!r} is the first go-round, 'last_tile' the wall's last tile"
            )
    special = [f for f in ("heavenly", "earthly", "human") if f in flags]
    if len(special) > 1:
        raise InputError("flags", f"{special[0]!r} and {special[1]!r} cannot both apply")


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


def parse(obj: Mapping[str, Any]) -> tuple[MahjongWin, JiaxingOptions]:
    """The typed situation and options; raises InputError naming the bad field."""
    options: JiaxingOptions = options_field(obj, JiaxingOptions)
    if obj.get("draw_streak", 0) not in (0, None):
        raise InputError("draw_streak", "Jiaxing has no 荒庄 doubling (a Taixing field)")
    if obj.get("leopard", False) not in (False, None):
        raise InputError("leopard", "Jiaxing has no 豹子 doubling (a Taixing field)")
    flags = obj.get("flags", [])
    declared = False
    if isinstance(flags, list) and DECLARED_READY in flags:
        if not options.ting_declaration:
            raise InputError("flags", f"{DECLARED_READY!r} needs the option ting_declaration")
        declared = True
        obj = {**obj, "flags": [f for f in flags if f != DECLARED_READY]}
    win = parse_mahjong_win(obj, flowers_allowed=False, variant=VARIANT)
    if not options.chi:
        for i, meld in enumerate(win.melds):
            if meld.type is MeldType.CHI:
                raise InputError(f"melds[{i}].type", "chow (吃) needs the option chi")
    if declared:
        win = replace(win, flags=win.flags | {DECLARED_READY})
    _check_flags(win)
    _check_tiles(win)
    check_winner_cap(win, options.max_winners_per_discard)
    return win, options


def score_json(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The output object of ``paiju score`` for a Jiaxing situation."""
    win, options = parse(obj)
    result = score_win(win, options)
    if not result.valid:
        return {"valid": False, "reason": f"{result.reason_zh} / {result.reason_en}"}
    return {
        "valid": True,
        "variant": VARIANT,
        "items": [i.to_json() for i in result.items],
        "payments": net(result.payments, win.n_seats),
        "kong_payments": net(result.kong_payments, win.n_seats),
    }
