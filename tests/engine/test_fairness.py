"""Fair deals (docs/spec/fair-deal.md): the module against the test vectors and against a
second implementation written from the spec; walls in matches come from the scheme; records
verify, and every kind of tampering is refused with the line named."""

from __future__ import annotations

import contextlib
import copy
import hashlib
import hmac
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.cli import main
from paiju.engine.fairness import (
    SCHEME,
    FairDeal,
    FairDealError,
    FairRandom,
    commitment,
    hand_key,
    hand_message,
    offline_server_seed,
    rebuild_wall,
    shuffle,
)
from paiju.engine.record import read_record, replay
from paiju.variants import find_variant

VECTORS = json.loads(
    (Path(__file__).parent.parent / "data" / "fair" / "vectors.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("size", [126, 136, 144])
def test_shuffle_makes_the_orders_random_shuffle_makes(size: int) -> None:
    # the engines' own shuffle of a plain random.Random must draw exactly as the
    # standard one does: recorded deals replay by seed (a Qing'er deck, walls with and
    # without flowers)
    for seed in range(300):
        ours = list(range(size))
        theirs = list(ours)
        rng, ref = random.Random(seed), random.Random(seed)
        shuffle(rng, ours)
        ref.shuffle(theirs)
        assert ours == theirs
        assert rng.getstate() == ref.getstate()


# -- a second implementation, from the spec's words alone -------------------------------


def _spec_words(key: bytes, label: str) -> Any:
    block = 0
    while True:
        digest = hmac.new(key, f"{label}:{block}".encode(), hashlib.sha256).digest()
        for k in range(0, 32, 4):
            yield int.from_bytes(digest[k : k + 4], "big")
        block += 1


def _spec_uniform(words: Any, n: int) -> int:
    limit = 2**32 - 2**32 % n
    while (w := next(words)) >= limit:
        pass
    return int(w % n)


def _spec_wall(case: dict[str, Any], j: int) -> list[int]:
    server_seed = bytes.fromhex(case["server_seed"])
    room, hand, seeds, pieces = case["room"], case["hand"], case["client_seeds"], case["pieces"]
    message = json.dumps([SCHEME, room, hand, seeds], separators=(",", ":")).encode()
    key = hmac.new(server_seed, message, hashlib.sha256).digest()
    words = _spec_words(key, f"wall/{j}")
    out = sorted(pieces)
    for i in range(len(out) - 1, 0, -1):
        k = _spec_uniform(words, i + 1)
        out[i], out[k] = out[k], out[i]
    return out


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda c: c["name"])
def test_vectors(case: dict[str, Any]) -> None:
    seed = bytes.fromhex(case["server_seed"])
    room, seeds, hand = case["room"], case["client_seeds"], case["hand"]
    assert commitment(seed) == case["commitment"] == hashlib.sha256(seed).hexdigest()
    assert hand_message(room, hand, seeds).decode() == case["message"]
    key = hand_key(seed, room, hand, seeds)
    assert key.hex() == case["hand_key"]
    rng = FairRandom(key)
    for j, wall in enumerate(case["walls"]):
        pieces = list(reversed(case["pieces"]))  # any order in: the shuffle sorts first
        rng.shuffle(pieces)
        assert pieces == wall == rebuild_wall(key, j, wall)
        assert wall == _spec_wall(case, j)
        assert sorted(wall) == case["pieces"]
    assert [rng.randint(a, b) for a, b in case["rolls"]] == case["roll_results"]
    deal = FairDeal.create(seed, room, seeds)
    assert deal.first_dealer(4) == case["first_dealer_4"]
    assert deal.first_dealer(3) == case["first_dealer_3"]


def test_the_worked_example_of_the_spec() -> None:
    case = VECTORS["cases"][0]
    assert case["walls"] == [[2, 7, 3, 5, 6, 1, 4, 0]]
    assert case["roll_results"] == [5, 1]


@given(st.binary(min_size=32, max_size=32), st.integers(0, 200), st.integers(1, 150))
def test_a_wall_is_a_permutation_and_rebuilds_from_its_number(
    seed: bytes, hand: int, n: int
) -> None:
    key = hand_key(seed, "r", hand, ["a", ""])
    rng = FairRandom(key)
    first, second = list(range(n)), list(range(n))
    rng.shuffle(first)
    rng.randint(1, 6)
    rng.shuffle(second)
    assert sorted(first) == sorted(second) == list(range(n))
    assert rebuild_wall(key, 0, first) == first
    assert rebuild_wall(key, 1, second) == second


def test_every_input_changes_the_wall() -> None:
    seed = bytes(range(32))
    base = hand_key(seed, "ABC123", 0, ["alice", "", "bob", ""])
    variants = [
        hand_key(bytes(range(1, 33)), "ABC123", 0, ["alice", "", "bob", ""]),
        hand_key(seed, "ABC124", 0, ["alice", "", "bob", ""]),
        hand_key(seed, "ABC123", 1, ["alice", "", "bob", ""]),
        hand_key(seed, "ABC123", 0, ["alicf", "", "bob", ""]),
        hand_key(seed, "ABC123", 0, ["", "alice", "bob", ""]),
    ]
    pieces = [k for k in range(34) for _ in range(4)]
    walls = {tuple(rebuild_wall(k, 0, pieces)) for k in [base, *variants]}
    assert len(walls) == 6


def test_a_copy_draws_on_its_own() -> None:
    rng = FairRandom(b"k" * 32)
    rng.randint(1, 6)
    twin = copy.copy(rng)
    a, b = list(range(20)), list(range(20))
    twin.shuffle(a)
    assert rng.walls == []
    rng.shuffle(b)
    assert a == b and rng.randint(1, 6) == twin.randint(1, 6)


@pytest.mark.parametrize(
    ("kwargs", "problem"),
    [
        ({"client_seeds": ("a b",)}, "client seed"),
        ({"client_seeds": ("x" * 65,)}, "client seed"),
        ({"room": ""}, "room"),
        ({"room": "a b"}, "room"),
        ({"commitment": "00"}, "commitment"),
        ({"server_seed": b"\0" * 32}, "does not hash"),
    ],
)
def test_bad_parameters_are_refused(kwargs: dict[str, Any], problem: str) -> None:
    fields: dict[str, Any] = {
        "commitment": commitment(b"\1" * 32),
        "room": "r",
        "client_seeds": ("",),
        "server_seed": b"\1" * 32,
    }
    fields.update(kwargs)
    with pytest.raises(FairDealError, match=problem):
        FairDeal(**fields)


def test_the_seed_is_needed_to_deal() -> None:
    stated = FairDeal(commitment(b"\1" * 32), "r", ("",))
    with pytest.raises(FairDealError, match="revealed at match end"):
        stated.hand_random(0)
    assert "server_seed" not in json.dumps(stated.header())


# -- records ----------------------------------------------------------------------------


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module", params=["jiaxing", "taixing", "qinger"])
def record(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("fair") / f"{request.param}.jsonl"
    status, _, _ = _run(
        [
            "simulate",
            request.param,
            "--seed",
            "5",
            "--options",
            '{"hands": 2}',
            "--record",
            str(path),
            "--quiet",
        ]
    )
    assert status == 0
    return path


def test_simulated_records_are_fair_deals_and_verify(record: Path) -> None:
    lines = read_record(str(record))
    head, end = lines[0], lines[-1]
    assert head["fair"]["scheme"] == SCHEME and head["fair"]["room"] == "simulate"
    assert bytes.fromhex(end["server_seed"]) == offline_server_seed(5)
    assert commitment(offline_server_seed(5)) == head["fair"]["commitment"]
    ends = [x for x in lines if x.get("type") == "hand_end"]
    assert len(ends) == 2 and all(x["walls"] for x in ends)
    # the first deal is the front of the recorded wall, after the dice's break
    status, out, err = _run(["verify", str(record)])
    assert (status, err) == (0, "") and out.startswith("ok: 1 record(s), ")
    assert replay(lines, find_variant).ok


def test_the_deal_comes_from_the_recorded_wall() -> None:
    from paiju.engine.match import Match
    from paiju.variants import VARIANTS

    flow = VARIANTS["jiaxing"]
    fair = FairDeal.create(bytes(range(32)), "ABC123", ["alice", "", "bob", ""])
    match = Match(flow, flow.options_type(hands=1), 0, fair=fair)
    hand = match.new_hand()
    wall = rebuild_wall(fair.key(0), 0, [k for k in range(34) for _ in range(4)])
    cut, _ = hand.rules.wall_break(hand.dice, hand.dealer, len(wall))
    assert hand.wall == wall[cut:] + wall[:cut]
    assert list(hand.dice) == [1 + x for x in _dice(fair.key(0))]
    assert match.first_dealer == fair.first_dealer(4)


def _dice(key: bytes) -> list[int]:
    words = _spec_words(key, "roll")
    return [_spec_uniform(words, 6), _spec_uniform(words, 6)]


def _tampered(path: Path, change: Any) -> tuple[int, str]:
    lines = read_record(str(path))
    change(lines)
    bad = path.with_suffix(".bad.jsonl")
    bad.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    status, out, err = _run(["verify", str(bad)])
    assert out == "" and err.count("\n") == 1
    return status, err


def _first(lines: list[dict[str, Any]], kind: str) -> int:
    return next(i for i, x in enumerate(lines) if x.get("type") == kind)


def test_a_tampered_wall_is_refused_at_its_line(record: Path) -> None:
    def swap(lines: list[dict[str, Any]]) -> None:
        wall = lines[_first(lines, "hand_end")]["walls"][0]
        k = next(i for i in range(1, len(wall)) if wall[i] != wall[0])
        wall[0], wall[k] = wall[k], wall[0]

    lines = read_record(str(record))
    status, err = _tampered(record, swap)
    assert status == 1 and f"line {_first(lines, 'hand_end') + 1}:" in err


def test_a_tampered_commitment_or_seed_is_refused_on_line_1(record: Path) -> None:
    def commit(lines: list[dict[str, Any]]) -> None:
        lines[0]["fair"]["commitment"] = commitment(b"other")

    def reveal(lines: list[dict[str, Any]]) -> None:
        lines[-1]["server_seed"] = "00" * 32

    for change in (commit, reveal):
        status, err = _tampered(record, change)
        assert status == 1 and "line 1: the commitment is not the SHA-256" in err


def test_a_tampered_client_seed_changes_the_first_deal(record: Path) -> None:
    def seed(lines: list[dict[str, Any]]) -> None:
        lines[0]["fair"]["client_seeds"][0] = "mine"

    lines = read_record(str(record))
    status, err = _tampered(record, seed)
    # the first line it changes is the first hand's dealer or its deal
    first_deal = next(
        i for i, x in enumerate(lines) if x.get("type") in ("deal", "draw_for_dealer")
    )
    assert status == 1
    assert any(f"line {n + 1}: differs" in err for n in range(1, first_deal + 1)), err


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda lines: lines[-1].pop("server_seed"), "does not reveal the server seed"),
        (lambda lines: lines.pop(), "ends before match_end reveals"),
        (lambda lines: lines[-1].update(server_seed="xyz"), "64 lowercase hex digits"),
        (lambda lines: lines[0]["fair"].update(scheme="paiju-fair-0"), "line 1: fair: unknown"),
        (lambda lines: lines[0]["fair"].update(client_seeds="abc"), "line 1: fair: 'client_seeds'"),
        (lambda lines: lines[0].pop("fair"), "line 1: the header has no 'fair'"),
    ],
)
def test_broken_fair_fields_are_refused(record: Path, change: Any, message: str) -> None:
    status, err = _tampered(record, change)
    assert status == 1 and message in err, err


def test_play_without_a_seed_commits_to_a_secret_seed(tmp_path: Path) -> None:
    from paiju.engine.fairness import new_client_seed, new_server_seed
    from paiju.tui.session import PlaySession

    secret = new_server_seed()
    fair = FairDeal.create(secret, "play", [new_client_seed(), "", "", ""])
    session = PlaySession("jiaxing", seed=1, fair=fair)
    assert session.lines[0]["fair"]["commitment"] == commitment(secret)
    assert secret.hex() not in json.dumps(session.lines)
