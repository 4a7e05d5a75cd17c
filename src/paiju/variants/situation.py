"""Reading ``paiju score`` situations from JSON: the field readers every game's calculator
shares (docs/spec/score-cli.md). A bad field raises :class:`InputError` naming it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.components.boundedjson import preview
from paiju.components.notation import NotationError, parse_tile, parse_tiles
from paiju.components.tiles import N_PLAYING_KINDS, Tile
from paiju.engine.types import MahjongWin, Meld, MeldType, WinFlag, WinType
from paiju.variants.base import OptionError, OptionSpec, options_from_mapping


class InputError(ValueError):
    """Malformed calculator input (exit 2). The message names the field."""

    def __init__(self, fieldname: str, problem: str) -> None:
        self.field = fieldname
        super().__init__(f"{fieldname}: {problem}")


MAX_STREAK = 30
"""荒庄 in a row a situation may name: Taixing doubles per drawn hand, and 2**30 times a
win is already beyond any table's stakes (a larger number would only build huge integers)."""


def seat(obj: Mapping[str, Any], name: str, n_seats: int, *, optional: bool = False) -> int | None:
    value = obj.get(name)
    if value is None:
        if optional:
            return None
        raise InputError(name, "missing seat")
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < n_seats:
        raise InputError(name, f"seat must be an integer 0…{n_seats - 1}, not {preview(value)}")
    return value


def tiles_field(obj: Mapping[str, Any], name: str, *, default: str | None = None) -> list[Tile]:
    value = obj.get(name, default)
    if not isinstance(value, str):
        raise InputError(name, f"expected a tile string, not {preview(value)}")
    try:
        return parse_tiles(value)
    except NotationError as exc:
        raise InputError(name, str(exc)) from None


def options_field(
    obj: Mapping[str, Any], cls: type[Any], specs: Mapping[str, OptionSpec] | None = None
) -> Any:
    raw = obj.get("options", {})
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise InputError("options", "expected an object of option overrides")
    try:
        return options_from_mapping(cls, raw, specs)
    except OptionError as exc:
        raise InputError("options", str(exc)) from None


FLAG_OWNERS: dict[WinFlag, str] = {
    WinFlag.KONG_REPLACEMENT: "jiaxing taixing",
    WinFlag.AFTER_KONG_DISCARD: "jiaxing",
    WinFlag.LAST_TILE: "jiaxing",
    WinFlag.HEAVENLY: "jiaxing taixing",
    WinFlag.EARTHLY: "jiaxing",
    WinFlag.HUMAN: "jiaxing",
    WinFlag.MULTIPLE_WINNERS: "jiaxing taixing",
    WinFlag.READY_AT_DEAL: "taixing",
    WinFlag.DECLARED_READY: "jiaxing",
}
"""Which games know each win flag: a game refuses the flags of another the same way."""


def check_flags_known(flags: list[str], variant: str) -> None:
    """Every flag must be one ``variant`` knows (exit 2 naming ``flags``)."""
    known = {str(f): owners for f, owners in FLAG_OWNERS.items()}
    for flag in flags:
        owners = known.get(flag)
        if owners is None:
            raise InputError("flags", f"unknown flag {preview(flag)}")
        if variant not in owners.split():
            raise InputError(
                "flags", f"{flag!r} is a {owners.split()[0]} flag; {variant} does not know it"
            )


def parse_mahjong_win(obj: Mapping[str, Any], *, flowers_allowed: bool, variant: str) -> MahjongWin:
    """Read the Jiaxing/Taixing situation into a :class:`MahjongWin` (exit-2 checks only)."""
    dealer = seat(obj, "dealer", 4)
    winner = seat(obj, "winner", 4)
    assert dealer is not None and winner is not None
    hand = tiles_field(obj, "hand")
    if any(t.is_flower for t in hand):
        raise InputError("hand", "flowers are set aside, list them in 'flowers'")
    melds_raw = obj.get("melds", [])
    if not isinstance(melds_raw, list):
        raise InputError("melds", "expected a list")
    melds: list[Meld] = []
    counts = [0] * N_PLAYING_KINDS
    for t in hand:
        counts[t] += 1
    for i, m in enumerate(melds_raw):
        where = f"melds[{i}]"
        if not isinstance(m, dict):
            raise InputError(where, "expected an object")
        try:
            mtype = MeldType(str(m.get("type")))
        except ValueError:
            raise InputError(
                f"{where}.type", f"unknown meld type {preview(m.get('type'))}"
            ) from None
        tiles = tiles_field(m, "tiles") if "tiles" in m else []
        if mtype is MeldType.CHI:
            run = sorted(tiles)
            if (
                len(run) != 3
                or not all(t.is_number for t in run)
                or run[0].suit != run[2].suit
                or [run[1] - run[0], run[2] - run[1]] != [1, 1]
            ):
                raise InputError(f"{where}.tiles", "a chi is three consecutive tiles of one suit")
            tiles = run
        elif not tiles or len(tiles) != mtype.size or len(set(tiles)) != 1:
            raise InputError(f"{where}.tiles", f"a {mtype.value} is {mtype.size} identical tiles")
        if tiles[0].is_flower:
            raise InputError(f"{where}.tiles", "flowers do not form melds")
        source: int | None = None
        if mtype is MeldType.CONCEALED_KONG:
            if m.get("from") is not None:
                raise InputError(f"{where}.from", "a concealed kong has no feeder")
        else:
            source = seat(m, "from", 4)
            if source == winner:
                raise InputError(f"{where}.from", "a player cannot feed their own meld")
        for t in tiles:
            counts[t] += 1
        melds.append(Meld(mtype, tiles[0], source))
    flags_given = obj.get("flags", [])
    if isinstance(flags_given, list) and WinFlag.KONG_REPLACEMENT in flags_given:
        kong_at = [i for i, m in enumerate(melds) if m.is_kong]
        if kong_at and kong_at[-1] != len(melds) - 1:
            raise InputError(
                f"melds[{kong_at[-1] + 1}]",
                "listed after the last kong, but 'kong_replacement' (flags) wins on that"
                " kong's replacement: melds are listed in the order they were made",
            )
    for k, n in enumerate(counts):
        if n > 4:
            raise InputError("hand", f"{n} × {Tile(k)} ({Tile(k).zh}), but only 4 exist")
    flowers = tiles_field(obj, "flowers", default="")
    if flowers and not flowers_allowed:
        raise InputError("flowers", "this variant has no flowers")
    if any(not t.is_flower for t in flowers):
        raise InputError("flowers", "only flower tiles (f) belong here")
    if len(set(flowers)) != len(flowers):
        raise InputError("flowers", "each flower exists once")
    win_raw = obj.get("win_tile")
    if not isinstance(win_raw, str):
        raise InputError("win_tile", "expected one tile")
    try:
        win_tile = parse_tile(win_raw)
    except NotationError as exc:
        raise InputError("win_tile", str(exc)) from None
    if win_tile.is_flower:
        raise InputError("win_tile", "a flower cannot be the winning tile")
    if win_tile not in hand:
        raise InputError("win_tile", "the hand must include the winning tile")
    try:
        win_type = WinType(str(obj.get("win_type")))
    except ValueError:
        raise InputError("win_type", f"unknown win type {preview(obj.get('win_type'))}") from None
    source = None
    if win_type is not WinType.SELF_DRAW:
        source = seat(obj, "from", 4)
        if source == winner:
            raise InputError("from", "the winner cannot be the discarder")
    elif obj.get("from") is not None:
        raise InputError("from", "a self-drawn win has no discarder")
    flags_raw = obj.get("flags", [])
    if not isinstance(flags_raw, list) or not all(isinstance(f, str) for f in flags_raw):
        raise InputError("flags", "expected a list of strings")
    check_flags_known(flags_raw, variant)
    streak = obj.get("draw_streak", 0)
    if isinstance(streak, bool) or not isinstance(streak, int) or not 0 <= streak <= MAX_STREAK:
        raise InputError("draw_streak", f"expected an integer 0…{MAX_STREAK}")
    leopard = obj.get("leopard", False)
    if not isinstance(leopard, bool):
        raise InputError("leopard", "expected true or false")
    winners = _discard_winners(obj, win_type, flags_raw)
    chain = obj.get("kong_chain", 1)
    if isinstance(chain, bool) or not isinstance(chain, int) or not 1 <= chain <= 4:
        raise InputError("kong_chain", "expected an integer 1…4 (a hand holds at most 4 kongs)")
    concealed = [0] * N_PLAYING_KINDS
    for t in hand:
        concealed[t] += 1
    return MahjongWin(
        dealer=dealer,
        winner=winner,
        concealed=tuple(concealed),
        melds=tuple(melds),
        win_tile=win_tile,
        win_type=win_type,
        source=source,
        flowers=tuple(flowers),
        draw_streak=streak,
        leopard=leopard,
        kong_chain=chain,
        discard_winners=winners,
        flags=frozenset(WinFlag(f) for f in flags_raw)
        | ({WinFlag.MULTIPLE_WINNERS} if winners > 1 else set()),
    )


def _discard_winners(obj: Mapping[str, Any], win_type: WinType, flags: list[str]) -> int:
    """``discard_winners``: how many won on this discard (this winner included).

    The flag ``multiple_winners`` alone, without the number, is read as 一炮三响 (three),
    the case the flag was defined for."""
    raw = obj.get("discard_winners")
    flagged = WinFlag.MULTIPLE_WINNERS in flags
    if raw is None:
        return 3 if flagged and win_type is not WinType.SELF_DRAW else 1
    if isinstance(raw, bool) or not isinstance(raw, int) or not 1 <= raw <= 3:
        raise InputError("discard_winners", f"expected 1, 2 or 3 winners, not {raw!r}")
    if win_type is WinType.SELF_DRAW and raw != 1:
        raise InputError("discard_winners", "a self-drawn win has one winner")
    if flagged and raw == 1:
        raise InputError("discard_winners", "the flag 'multiple_winners' says more than one")
    return raw


def check_winner_cap(win: MahjongWin, cap: int | None) -> None:
    """The option ``max_winners_per_discard`` bounds ``discard_winners``."""
    if cap is not None and win.discard_winners > cap:
        raise InputError(
            "discard_winners",
            f"{win.discard_winners} winners, but max_winners_per_discard is {cap}",
        )
