# The C module built from _cencode.c (absent where no C compiler was found).
from typing import Any

def configure(
    meld_types: tuple[Any, ...],
    mahjong_phases: tuple[Any, ...],
    qinger_phases: tuple[Any, ...],
    jian_pai: bytes,
    /,
) -> None: ...
def mask(out: Any, legal: list[int], /) -> None: ...
def mahjong(
    hand: Any, seat: int, planes: Any, scalars: Any, round_wind: int, seen: Any, /
) -> None: ...
def qinger(
    hand: Any, seat: int, planes: Any, scalars: Any, round_wind: int, seen: Any, /
) -> None: ...
