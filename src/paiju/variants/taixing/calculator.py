"""``paiju score`` for ``"variant": "taixing"`` (``docs/spec/score-cli.md``).

Reads the situation, rejects malformed input with an :class:`InputError` naming the field
(exit 2), and reports :func:`score_win`'s answer: the items, the net win settlement, and
all-zero kong money (Taixing pays none).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.components.tiles import N_PLAYING_KINDS
from paiju.engine.types import MahjongWin, MeldType, WinFlag, WinType, net
from paiju.variants.situation import InputError, check_winner_cap, options_field, parse_mahjong_win
from paiju.variants.taixing.explain import explain_win
from paiju.variants.taixing.options import OPTION_SPECS, TaixingOptions
from paiju.variants.taixing.scoring import score_win

VARIANT = "taixing"


def _check(win: MahjongWin, options: TaixingOptions) -> None:
    """Input the rules cannot judge: impossible situations are malformed, not losing."""
    expected = 14 - 3 * len(win.melds)
    held = sum(win.concealed[:N_PLAYING_KINDS])
    if held != expected:
        raise InputError(
            "hand",
            f"with {len(win.melds)} melds the hand holds {expected} tiles "
            f"(winning tile included), not {held}",
        )
    if WinFlag.KONG_REPLACEMENT in win.flags:
        if win.win_type is not WinType.SELF_DRAW:
            raise InputError("flags", "kong_replacement is a self-drawn win (win_type self_draw)")
        if not any(m.is_kong for m in win.melds):
            raise InputError("flags", "kong_replacement needs a kong among the melds")
    if WinFlag.READY_AT_DEAL in win.flags:
        for i, meld in enumerate(win.melds):
            if meld.exposed:
                raise InputError(
                    f"melds[{i}]",
                    "'ready_at_deal' (天听, flags) locks the hand from the deal:"
                    " only a concealed kong can follow",
                )
    if (
        WinFlag.READY_AT_DEAL in win.flags
        and options.tian_ting_seats == "dealer"
        and win.winner != win.dealer
    ):
        raise InputError(
            "flags", "'ready_at_deal' (天听): under tian_ting_seats 'dealer' only the dealer"
        )


def score_json(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The output object for one decoded situation; raises InputError on bad input."""
    options = options_field(obj, TaixingOptions, OPTION_SPECS)
    win = parse_mahjong_win(obj, flowers_allowed=True, variant=VARIANT)
    for i, meld in enumerate(win.melds):
        if meld.type is MeldType.CHI:
            raise InputError(f"melds[{i}].type", "Taixing has no chow (不准吃, T4)")
    _check(win, options)
    check_winner_cap(win, options.max_winners_per_discard)
    result = score_win(win, options)
    if not result.valid:
        return {"valid": False, "reason": f"{result.reason_zh} / {result.reason_en}"}
    return {
        "valid": True,
        "variant": VARIANT,
        "items": [item.to_json() for item in result.items],
        "payments": net(result.payments, win.n_seats),
        "kong_payments": net(result.kong_payments, win.n_seats),
        "explanation": explain_win(win, result).to_json(),
    }
