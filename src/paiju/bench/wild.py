"""Bench lines for the wild-tile analyser (混儿) against brute-force substitution.

The peer is what one writes without a wild-aware analyser: try every multiset of faces
the hand's wilds could stand for (``combinations_with_replacement`` over the 34 kinds),
substitute, and ask the plain analyser (:data:`paiju.components.analysis.MAHJONG`, itself
the fastest plain check paiju has). A substitution that would put a fifth copy of a kind
in the hand is skipped, as the plain analyser has no such hands; the peer therefore does
slightly less work than a complete reference. Both sides get the same hands in the same
run; ``ours_per_s`` is hands per second.

Inputs: a 136-tile wall in which the indicator 1万 is out of play, so 2万 and 3万 are the
wild kinds (3 + 4 = 7 live wilds, H2). Half the hands are complete hands with one to three
tiles turned into wilds (none of them held a wild kind), half are 14 tiles drawn from
that wall with their wilds as dealt (at most three; see ``_MAX_WILDS``).
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

from paiju.bench import SEED, compare, random_complete, register
from paiju.components.analysis import MAHJONG
from paiju.components.wild import WILD

_WILD_KINDS = (1, 2)
"""2万 and 3万: the wilds when 1万 is turned up (hun_kinds 2)."""

_MAX_WILDS = 3
"""Dealt hands with more wilds (about 3 in 100) are dealt again: the peer's substitutions
grow as 34^n/n!, and four wilds would make its line take minutes."""

_N = 1_000
_N_QUICK = 40


def _wall() -> list[int]:
    wall = [k for k in range(34) for _ in range(4)]
    wall.remove(0)  # the indicator, set aside
    return wall


def _split(counts: list[int]) -> tuple[bytes, int]:
    wilds = sum(counts[k] for k in _WILD_KINDS)
    natural = list(counts)
    for k in _WILD_KINDS:
        natural[k] = 0
    return bytes(natural), wilds


def wild_inputs(n: int, seed: int = SEED) -> list[tuple[bytes, int]]:
    """``n`` hands as (natural counts, wilds held); see the module docstring."""
    rng = random.Random(seed)
    wall = _wall()
    out: list[tuple[bytes, int]] = []
    for i in range(n):
        if i % 2 == 0:
            natural = random_complete(rng)
            while any(natural[k] for k in _WILD_KINDS):
                natural = random_complete(rng)
            wilds = 0
            held = [k for k in range(34) for _ in range(natural[k])]
            for k in rng.sample(held, min(len(held), 1 + i % 3)):
                natural[k] -= 1
                wilds += 1
            out.append((bytes(natural), wilds))
        else:
            while True:
                counts = [0] * 34
                for k in rng.sample(wall, 14):
                    counts[k] += 1
                hand = _split(counts)
                if hand[1] <= _MAX_WILDS:
                    break
            out.append(hand)
    return out


def brute_complete(hand: tuple[bytes, int]) -> bool:
    natural, wilds = hand
    c = bytearray(natural)
    for faces in combinations_with_replacement(range(34), wilds):
        for f in faces:
            c[f] += 1
        ok = max(c) <= 4 and MAHJONG.is_complete(bytes(c))
        for f in faces:
            c[f] -= 1
        if ok:
            return True
    return False


def brute_shanten(hand: tuple[bytes, int]) -> int:
    natural, wilds = hand
    c = bytearray(natural)
    best = 99
    for faces in combinations_with_replacement(range(34), wilds):
        for f in faces:
            c[f] += 1
        if max(c) <= 4:
            best = min(best, MAHJONG.shanten(bytes(c)))
        for f in faces:
            c[f] -= 1
    return best


def _ours_complete(hand: tuple[bytes, int]) -> bool:
    return WILD.is_complete(hand[0], hand[1])


def _ours_shanten(hand: tuple[bytes, int]) -> int:
    return WILD.shanten(hand[0], hand[1])


@register("win_check_wild")
def _win_check_wild(repeats: int, quick: bool) -> dict[str, object]:
    hands = wild_inputs(_N_QUICK if quick else _N)
    return compare(
        "win_check_wild",
        ours=_ours_complete,
        our_inputs=hands,
        peer="brute-force substitution × MAHJONG.is_complete",
        theirs=brute_complete,
        their_inputs=hands,
        repeats=repeats,
    )


@register("shanten_wild")
def _shanten_wild(repeats: int, quick: bool) -> dict[str, object]:
    # shanten needs every substitution (no early exit): fewer hands keep the peer short
    hands = wild_inputs((_N_QUICK if quick else _N) // 4)
    return compare(
        "shanten_wild",
        ours=_ours_shanten,
        our_inputs=hands,
        peer="brute-force substitution × MAHJONG.shanten",
        theirs=brute_shanten,
        their_inputs=hands,
        repeats=repeats,
    )
