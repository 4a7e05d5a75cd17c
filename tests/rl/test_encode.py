"""Observation encoders: shapes, and that a seat's observation reads nothing it cannot see."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from paiju.components.cards import N_CARD_KINDS
from paiju.rl import Table, aec_env
from paiju.rl.encode import MahjongEncoder
from paiju.variants.qinger.hand import MELD_KIND

GAMES = ["jiaxing", "taixing", "qinger"]


def _played(variant: str, seed: int, moves: int) -> Table:
    table = Table(variant)
    table.seed(seed)
    table.new_hand()
    rng = random.Random(seed)
    hand = table.hand
    for _ in range(moves):
        if hand.is_over:
            break
        seat = hand.to_act()[0]
        hand.apply(rng.choice(hand.legal_actions(seat)), seat)
    return table


def _resample_mahjong(hand: object, seat: int, rng: random.Random) -> None:
    h: object = hand
    others = [s for s in range(4) if s != seat]
    pool = [k for s in others for k in range(34) for _ in range(h.counts[s][k])]  # type: ignore[attr-defined]
    sizes = [sum(h.counts[s]) for s in others]  # type: ignore[attr-defined]
    # flowers stay where they are in the wall: they never enter a hand's counts
    spots = [i for i in range(h.head, h.tail) if h.wall[i] < 34]  # type: ignore[attr-defined]
    pool += [h.wall[i] for i in spots]  # type: ignore[attr-defined]
    rng.shuffle(pool)
    pos = 0
    for s, n in zip(others, sizes, strict=True):
        c = bytearray(34)
        for k in pool[pos : pos + n]:
            c[k] += 1
        h.counts[s] = c  # type: ignore[attr-defined]
        pos += n
        if h.current == s and h.drawn >= 0:  # type: ignore[attr-defined]
            h.drawn = pool[pos - 1]  # type: ignore[attr-defined]
    for i, k in zip(spots, pool[pos:], strict=True):
        h.wall[i] = k  # type: ignore[attr-defined]
    h._legal = {}  # type: ignore[attr-defined]


def _resample_qinger(hand: object, seat: int, rng: random.Random) -> None:
    h: object = hand
    others = [s for s in h.players if s != seat]  # type: ignore[attr-defined]
    pool = [c for s in others for c in range(N_CARD_KINDS) for _ in range(h.counts[s][c])]  # type: ignore[attr-defined]
    sizes = [sum(h.counts[s]) for s in others]  # type: ignore[attr-defined]
    pool += h.stock[h.head :]  # type: ignore[attr-defined]
    hidden_indicator = not h.revealed  # type: ignore[attr-defined]
    if hidden_indicator:
        pool.append(h.indicator)  # type: ignore[attr-defined]
    rng.shuffle(pool)
    pos = 0
    for s, n in zip(others, sizes, strict=True):
        c = bytearray(N_CARD_KINDS)
        k = bytearray(30)
        for card in pool[pos : pos + n]:
            c[card] += 1
            if MELD_KIND[card] >= 0:
                k[MELD_KIND[card]] += 1
        h.counts[s], h.kinds[s] = c, k  # type: ignore[attr-defined]
        pos += n
    if hidden_indicator:
        h.indicator = pool[pos]  # type: ignore[attr-defined]
        pos += 1
    h.stock[h.head :] = pool[pos:]  # type: ignore[attr-defined]
    h._legal = {}  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", GAMES)
@pytest.mark.parametrize("seed", range(6))
def test_observation_ignores_hidden_state(variant: str, seed: int) -> None:
    """Other seats' tiles and the wall resampled: the seat's observation is the same,
    and the oracle observation (which reads them) changes."""
    table = _played(variant, seed, moves=12 + 7 * seed)
    oracle = Table(variant, oracle=True)
    rng = random.Random(seed)
    resample = _resample_qinger if variant == "qinger" else _resample_mahjong
    for seat in table.players:
        before = table.encoder.encode(table.hand, seat)
        before_oracle = oracle.encoder.encode(table.hand, seat)
        changed = table.hand.copy()
        for _ in range(20):
            resample(changed, seat, rng)
            o_after = oracle.encoder.encode(changed, seat)
            if not np.array_equal(o_after[0], before_oracle[0]):
                break
        after = table.encoder.encode(changed, seat)
        np.testing.assert_array_equal(before[0], after[0])
        np.testing.assert_array_equal(before[1], after[1])
        assert not np.array_equal(before_oracle[0], o_after[0])


@pytest.mark.parametrize("variant", GAMES)
def test_shapes_match_names(variant: str) -> None:
    for oracle, shanten in ((False, False), (True, False), (False, True), (True, True)):
        enc = Table(variant, oracle=oracle, shanten=shanten).encoder
        names = enc.plane_names + (enc.oracle_plane_names if oracle else [])
        assert enc.shape == (len(names), enc.kinds)
        table = _played(variant, 3, 30)
        planes, scalars = enc.encode(table.hand, table.hand.to_act()[0])
        assert planes.shape == enc.shape and planes.dtype == np.float32
        assert scalars.shape == (len(enc.scalar_names),)
        assert planes.min() >= 0.0 and planes.max() <= 1.0


@pytest.mark.parametrize("variant", GAMES)
def test_own_hand_planes_are_the_hand(variant: str) -> None:
    table = _played(variant, 5, 20)
    for seat in table.players:
        planes, _ = table.encoder.encode(table.hand, seat)
        counts = planes[0:4].sum(axis=0)
        assert counts.tolist() == list(table.hand.counts[seat])


def test_mask_is_the_engine_legal_actions() -> None:
    env = aec_env("jiaxing")
    env.reset(seed=4)
    for _ in range(200):
        agent = env.agent_selection
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            break
        seat = int(agent.split("_")[1])
        legal = env.unwrapped.table.hand.legal_actions(seat)  # type: ignore[attr-defined]
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def _scalar(enc: object, scalars: np.ndarray, name: str) -> float:
    return float(scalars[enc.scalar_names.index(name)])  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", GAMES)
def test_named_scalars_hold_their_values(variant: str) -> None:
    """Each scalar sits where its name says (checked on values the hand states)."""
    table = _played(variant, 7, 25)
    hand = table.hand
    enc = table.encoder
    for seat in table.players:
        _, sc = enc.encode(hand, seat)
        assert sc.sum() > 0
        left = hand.wall_left / 136.0 if variant != "qinger" else hand.stock_left / 126.0
        first = "wall_left/136" if variant != "qinger" else "stock_left/126"
        assert _scalar(enc, sc, first) == pytest.approx(left)
        assert _scalar(enc, sc, "seat0.net/100") == pytest.approx(hand.net()[seat] / 100.0)
        dealer_flags = [n for n in enc.scalar_names if n.startswith("dealer_is_seat")]
        assert sum(_scalar(enc, sc, n) for n in dealer_flags) == 1.0
        assert _scalar(enc, sc, "dealer_is_seat0") == float(seat == hand.dealer)
        concealed = "seat0.concealed/14" if variant != "qinger" else "seat0.concealed/23"
        n = 14.0 if variant != "qinger" else 23.0
        assert _scalar(enc, sc, concealed) == pytest.approx(sum(hand.counts[seat]) / n)
    if variant == "taixing":
        for seat in table.players:
            _, sc = enc.encode(hand, seat)
            flowers = _scalar(enc, sc, "seat0.flowers/8")
            assert flowers == pytest.approx(len(hand.flowers[seat]) / 8.0)


@pytest.mark.parametrize("variant", GAMES)
def test_discard_planes_and_recency(variant: str) -> None:
    table = _played(variant, 9, 40)
    hand = table.hand
    enc = table.encoder
    seat = table.players[0]
    planes, _ = enc.encode(hand, seat)
    d = hand.discards[seat]
    rows = [enc.plane_names.index(f"seat0.discards>={i}") for i in (1, 2, 3, 4)]
    assert planes[rows].sum(axis=0).tolist() == np.bincount(d, minlength=enc.kinds).tolist()
    if d:
        rec = planes[enc.plane_names.index("seat0.discard_recency")]
        assert rec[d[-1]] == 1.0


def test_shanten_planes_mark_the_best_discards() -> None:
    from paiju.components.analysis import MAHJONG

    for seed in range(4):
        table = _played("jiaxing", seed, 2 * seed)
        table.encoder = MahjongEncoder(shanten=True)
        hand = table.hand
        seat = hand.to_act()[0]
        if hand.phase != 0:
            continue
        planes, sc = table.encoder.encode(hand, seat)
        names = table.encoder.plane_names
        keeps = planes[names.index("discard_keeps_shanten")]
        c = bytearray(hand.counts[seat])
        d = len(hand.melds[seat])
        after = {}
        for k in range(34):
            if c[k]:
                c[k] -= 1
                after[k] = MAHJONG.shanten(bytes(c), d)
                c[k] += 1
        best = min(after.values())
        assert sorted(np.flatnonzero(keeps).tolist()) == sorted(
            k for k, v in after.items() if v == best
        )
        assert sc[table.encoder.scalar_names.index("shanten/8")] == pytest.approx(
            MAHJONG.shanten(bytes(c), d) / 8.0
        )


def test_docs_list_every_action_group_and_shape() -> None:
    from pathlib import Path

    from paiju.rl.codecs import CODECS
    from paiju.rl.encode import QingerEncoder

    doc = (Path(__file__).parents[2] / "docs" / "rl.md").read_text(encoding="utf-8")
    for codec in CODECS.values():
        for _, first, last in codec.groups:
            cell = f"| {first} |" if first == last else f"| {first}–{last} |"
            assert cell in doc, cell
    for enc in (MahjongEncoder, QingerEncoder):
        plain, more = enc(), enc(shanten=True)
        assert f"| {plain.shape[0]} × {plain.kinds} | {more.shape[0]} × {more.kinds} |" in doc
        assert f"| {plain.n_scalars} |" in doc


@pytest.fixture(params=["c", "python"])
def encoder_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both ways :meth:`encode` computes: the C module and the Python path without it."""
    from paiju.rl import encode as E

    if request.param == "c" and E._C is None:
        pytest.skip("the encoders' C module was not built here")
    if request.param == "python":
        monkeypatch.setattr(E, "_C", None)
    return str(request.param)


def test_c_module_is_built_where_a_compiler_is() -> None:
    """`make` builds the C module wherever a C compiler is found: a failed build would
    otherwise pass unnoticed, only slower."""
    import os
    import shutil
    import sysconfig

    from paiju.rl import encode as E

    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if os.environ.get("PAIJU_NO_C") or os.environ.get("PAIJU_PURE_PYTHON") or not shutil.which(cc):
        pytest.skip("no C compiler here, or the C module is turned off")
    assert E._C is not None


@pytest.mark.parametrize("variant", GAMES)
def test_c_module_refuses_a_corrupted_hand(variant: str) -> None:
    """An index out of range in the hand is a ValueError naming it, never a write past
    the planes."""
    from paiju.rl import encode as E

    if E._C is None:
        pytest.skip("the encoders' C module was not built here")
    table = _played(variant, 3, 20)
    hand = table.hand
    seat = hand.to_act()[0]
    table.encoder.encode(hand, seat)
    hand.discards[hand.players[1] if variant == "qinger" else 1].append(999)
    with pytest.raises(ValueError, match="discard is not a kind"):
        table.encoder.encode(hand, seat)
    hand.discards = "not seats"
    with pytest.raises(ValueError, match="discards is not a list of seats"):
        table.encoder.encode(hand, seat)


@pytest.mark.parametrize(
    ("variant", "options"),
    [("jiaxing", {}), ("jiaxing", {"chi": True}), ("taixing", {})],
)
@pytest.mark.parametrize("kw", [{}, {"oracle": True, "shanten": True}])
def test_incremental_mahjong_encoding_equals_the_reference(
    variant: str, options: dict[str, object], kw: dict[str, bool], encoder_path: str
) -> None:
    """The fast encoder (the C module, or the Python path keeping public tables between
    calls); called for random seats at random moments (so several changes pile up
    between two calls, and one encoder meets several hands), it must give exactly what
    the plain one computes."""
    from paiju.engine import actions as A

    table = Table(variant, options)
    fast, plain = MahjongEncoder(**kw), MahjongEncoder(**kw)
    rng = random.Random(5)
    melds = 0
    for seed in range(12):
        table.seed(seed)
        table.new_hand()
        hand = table.hand
        while not hand.is_over:
            for seat in range(4):
                if rng.random() < 0.3:
                    a, b = fast.encode(hand, seat), plain.encode_reference(hand, seat)
                    np.testing.assert_array_equal(a[0], b[0])
                    np.testing.assert_array_equal(a[1], b[1])
            seat = hand.to_act()[0]
            legal = hand.legal_actions(seat)
            # claims and kongs taken often, so melds of every kind appear
            claims = [x for x in legal if x != A.PASS and (x >= 104 or 34 <= x < 102)]
            hand.apply(rng.choice(claims if claims and rng.random() < 0.7 else legal), seat)
        melds += sum(len(m) for m in hand.melds)
    assert melds > 20


@pytest.mark.parametrize("options", [{}, {"participants": 4}])
@pytest.mark.parametrize("kw", [{}, {"oracle": True, "shanten": True}])
def test_incremental_qinger_encoding_equals_the_reference(
    options: dict[str, object], kw: dict[str, bool], encoder_path: str
) -> None:
    """As for mahjong: the incremental Qing'er encoder, called for random seats at random
    moments of hands with melds, takeoffs, flowers and knocks, equals the plain one."""
    from paiju.rl.encode import QingerEncoder
    from paiju.variants.qinger import hand as QA

    table = Table("qinger", options)
    fast, plain = QingerEncoder(**kw), QingerEncoder(**kw)
    rng = random.Random(7)
    shown = takeoffs = 0
    # deals 12 and 18 hold four alike: takeoffs happen (they are rare in random deals);
    # the shanten planes cost more, so fewer hands with them
    for seed in (12, 13, 18, 19) if kw else range(10, 22):
        table.seed(seed)
        table.new_hand()
        hand = table.hand
        while not hand.is_over:
            for seat in range(table.n_seats):
                if rng.random() < 0.3:
                    a, b = fast.encode(hand, seat), plain.encode_reference(hand, seat)
                    np.testing.assert_array_equal(a[0], b[0])
                    np.testing.assert_array_equal(a[1], b[1])
            seat = hand.to_act()[0]
            legal = hand.legal_actions(seat)
            claims = [x for x in legal if x != QA.PASS and x >= QA.CONCEALED_KONG]
            hand.apply(rng.choice(claims if claims and rng.random() < 0.7 else legal), seat)
        shown += sum(len(m) for m in hand.melds)
        takeoffs += sum(len(t) for t in hand.takeoffs)
    assert shown > 20 and takeoffs > 0


def test_action_mask_both_ways(encoder_path: str) -> None:
    """The mask has 1 exactly at the legal codes, from the C module or from Python."""
    from paiju.rl.encode import action_mask

    mask = action_mask(10, [0, 3, 9])
    assert mask.dtype == np.int8 and mask.tolist() == [1, 0, 0, 1, 0, 0, 0, 0, 0, 1]
    assert action_mask(4, []).tolist() == [0, 0, 0, 0]
    if encoder_path == "c":
        with pytest.raises(ValueError, match="no action code 10"):
            action_mask(10, [10])
