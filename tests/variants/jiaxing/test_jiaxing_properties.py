"""Properties of Jiaxing settlement over random valid situations (hypothesis)."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from paiju.calculator import score
from paiju.components.tiles import Tile
from paiju.variants.jiaxing import JiaxingOptions, fishing
from paiju.variants.jiaxing.scoring import DECLARED_READY

MELD_TYPES = ("pong", "kong", "added_kong", "concealed_kong")


def _literal_options() -> dict[str, tuple[Any, ...]]:
    hints = typing.get_type_hints(JiaxingOptions)
    out: dict[str, tuple[Any, ...]] = {}
    for f in dataclasses.fields(JiaxingOptions):
        hint = hints[f.name]
        if typing.get_origin(hint) is typing.Literal:
            out[f.name] = typing.get_args(hint)
        elif hint is bool:
            out[f.name] = (False, True)
    return out


LITERALS = _literal_options()


@st.composite
def situations(draw: st.DrawFn) -> dict[str, Any]:
    counts = [0] * 34
    winner = draw(st.integers(0, 3))
    dealer = draw(st.integers(0, 3))
    others = [s for s in range(4) if s != winner]

    def take(kind: int, n: int) -> None:
        counts[kind] += n
        assume(counts[kind] <= 4)

    melds: list[dict[str, Any]] = []
    n_melds = draw(st.integers(0, 4))
    for _ in range(n_melds):
        kind = draw(st.integers(0, 33))
        mtype = draw(st.sampled_from(MELD_TYPES))
        size = 3 if mtype == "pong" else 4
        take(kind, size)
        meld: dict[str, Any] = {
            "type": mtype,
            "tiles": f"{Tile(kind).rank}" * size + Tile(kind).suit,
        }
        if mtype != "concealed_kong":
            meld["from"] = draw(st.sampled_from(others))
        melds.append(meld)
    hand: list[int] = []
    seven_pairs = n_melds == 0 and draw(st.booleans())
    if seven_pairs:
        for _ in range(7):
            kind = draw(st.integers(0, 33))
            take(kind, 2)
            hand += [kind, kind]
    else:
        for _ in range(4 - n_melds):
            if draw(st.booleans()):
                suit = draw(st.integers(0, 2))
                start = suit * 9 + draw(st.integers(0, 6))
                for k in range(start, start + 3):
                    take(k, 1)
                    hand.append(k)
            else:
                kind = draw(st.integers(0, 33))
                take(kind, 3)
                hand += [kind] * 3
        pair = draw(st.integers(0, 33))
        take(pair, 2)
        hand += [pair, pair]
    win_kind = draw(st.sampled_from(hand))
    kongs = sum(1 for m in melds if m["type"] != "pong")
    robbable = counts[win_kind] == 1
    win_types = ["self_draw", "discard"] + (["robbed_kong"] if robbable else [])
    win_type = draw(st.sampled_from(win_types))
    flags: set[str] = set()
    source: int | None = None
    if win_type == "self_draw":
        if kongs and draw(st.booleans()):
            flags.add("kong_replacement")
            # the replacement is drawn for the most recent meld, so that meld is a kong
            last = max(i for i, m in enumerate(melds) if m["type"] != "pong")
            melds.append(melds.pop(last))
        if not melds and draw(st.booleans()):
            flags.add("heavenly" if winner == dealer else "earthly")
    else:
        source = draw(st.sampled_from(others))
        if draw(st.booleans()):
            flags.add("multiple_winners")
        if win_type == "discard":
            if draw(st.booleans()):
                flags.add("after_kong_discard")
            if (
                source == dealer
                and winner != dealer
                and not melds
                and "after_kong_discard" not in flags
                and draw(st.booleans())
            ):
                flags.add("human")
    first_round = {"heavenly", "earthly", "human"} & flags
    if win_type != "robbed_kong" and not first_round and draw(st.booleans()):
        flags.add("last_tile")
    options = {name: draw(st.sampled_from(values)) for name, values in LITERALS.items()}
    if seven_pairs and options["quad_in_seven_pairs"] == "not_allowed":
        assume(all(counts[k] == 2 for k in hand))
    # a 混儿 situation needs its indicator field: test_jiaxing_hun covers those
    options["hun"] = False
    options["feng_hu_threshold"] = draw(st.integers(1, 4))
    options["floor"] = draw(st.integers(0, 12))
    # the profile options (JP1–JP4): a cap and a stake unit keep every settlement zero-sum;
    # 只许自摸 refuses the other win types (tests/variants/test_profiles.py)
    options["feng_ding"] = draw(st.integers(0, 20))
    options["di_fen"] = draw(st.integers(1, 3))
    if win_type != "self_draw":
        options["zi_mo_only"] = False
    # JP4 七小对 off makes a seven-pairs hand no hand (the calculator cases cover it)
    if seven_pairs:
        options["qi_xiao_dui"] = True
    if options["ting_declaration"] and draw(st.booleans()):
        flags.add(DECLARED_READY)
    text = "".join(f"{Tile(k).rank}{Tile(k).suit}" for k in sorted(hand))
    situation: dict[str, Any] = {
        "variant": "jiaxing",
        "options": options,
        "dealer": dealer,
        "winner": winner,
        "hand": text,
        "melds": melds,
        "win_tile": str(Tile(win_kind)),
        "win_type": win_type,
        "flags": sorted(flags),
        "kong_chain": draw(st.integers(1, max(1, kongs))),
    }
    if source is not None:
        situation["from"] = source
    return situation


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(situations())
def test_random_valid_situations_settle_to_zero(situation: dict[str, Any]) -> None:
    status, out = score(situation)
    assert status == 0, out
    assert out["valid"] is True
    assert sum(out["payments"]) == 0
    assert sum(out["kong_payments"]) == 0
    winner = situation["winner"]
    assert out["payments"][winner] > 0
    assert out["kong_payments"][winner] >= 0
    # every item adds, save the cap (JP1), which takes off what lies above it
    assert all(item["value"] > 0 or item["id"] == "feng_ding" for item in out["items"])
    cap = situation["options"]["feng_ding"]
    if cap:
        assert sum(item["value"] for item in out["items"]) <= cap
    assert len({item["id"] for item in out["items"]}) == len(out["items"])


@given(
    st.lists(st.integers(0, 33), max_size=5),
    st.integers(0, 3),
    st.dictionaries(st.integers(0, 3), st.integers(1, 200), max_size=4),
)
def test_fishing_sums_to_zero_and_pays_the_fisher(
    tail: list[int], fisher: int, values: dict[int, int]
) -> None:
    payments, hits = fishing([Tile(k) for k in tail], fisher, values, JiaxingOptions())
    assert len(hits) == min(3, len(tail))
    assert all(p.payee == fisher and p.payer != fisher and p.amount > 0 for p in payments)
    expected = sum(values.get(seat, 0) for seat in hits) * 3
    assert sum(p.amount for p in payments) == expected
