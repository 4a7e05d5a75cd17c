"""Review (复盘) and player statistics over records."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from paiju.bots import make_player
from paiju.bots.strong import StrongBot
from paiju.cli import main
from paiju.engine import actions as A
from paiju.engine.match import Decide, Match
from paiju.engine.record import dump_lines, record_match
from paiju.review import ReviewError, format_review, review_record
from paiju.variants import VARIANTS


def record(variant: str, players: Sequence[Decide], seed: int, **options: Any) -> list[Any]:
    flow = VARIANTS[variant]
    opts = flow.options_type(**options)
    match = Match(flow, opts, seed)
    names = [getattr(p, "name", "custom") for p in players]
    return record_match(match, list(players), names)


def greedy(variant: str, seats: range) -> list[Decide]:
    return [make_player("greedy", 100 + s, variant) for s in seats]


@pytest.mark.parametrize("variant", ["jiaxing", "taixing"])
def test_the_strong_bot_agrees_with_its_own_record(variant: str) -> None:
    lines = record(variant, [StrongBot(7, variant), *greedy(variant, range(1, 4))], 3, hands=2)
    review = review_record(lines, 0, seed=7)
    assert review.hands >= 2 and len(review.decisions) > 10
    # the same seed replays the same decisions (greedy's tie-breaks included): exactly
    assert review.agreement == 1.0 and review.given_up == 0 and review.mistakes() == []
    # another seed differs only where greedy breaks exact ties at random
    other = review_record(lines, 0, seed=8)
    assert other.agreement >= 0.9


def test_a_random_record_agrees_far_less() -> None:
    variant = "jiaxing"
    lines = record(
        variant, [make_player("random", 1, variant), *greedy(variant, range(1, 4))], 4, hands=2
    )
    review = review_record(lines, 0)
    assert len(review.decisions) > 10
    assert review.agreement < 0.5
    costs = [d.given_up for d in review.mistakes()]
    assert costs and costs == sorted(costs, reverse=True) and review.given_up > 0


class PassesAWin:
    """Strong, except that it passes up the first win it is offered: a discard win
    (``pass``), or a self-drawn one (it plays on, by the discard the bot values most
    after the win)."""

    name = "passer"

    def __init__(self, self_drawn: bool) -> None:
        self.strong = StrongBot(2, "jiaxing")
        self.self_drawn = self_drawn
        self.passed: tuple[int, int] | None = None
        self.hand = 0
        self.turn = 0
        self._last: object = None

    def __call__(self, hand: Any, seat: int) -> int:
        legal = hand.legal_actions(seat)
        if hand is not self._last:
            self._last, self.turn = hand, 0
            self.hand += 1
        if len(legal) > 1:
            self.turn += 1
        win = A.ZIMO if self.self_drawn else A.HU
        if self.passed is None and win in legal:
            self.passed = (self.hand, self.turn)
            ev = self.strong.evaluate(hand, seat, detail=True)
            if win == A.HU:
                return A.PASS
            rest = [a for a in ev.values if a != A.ZIMO and ev.values[a].points is not None]
            return max(rest, key=lambda a: ev.values[a].points or 0.0)
        return self.strong(hand, seat)


@pytest.mark.parametrize("self_drawn", [True, False])
def test_passing_a_legal_win_is_reported(self_drawn: bool) -> None:
    for seed in range(30):
        passer = PassesAWin(self_drawn)
        seats = [*greedy("jiaxing", range(2)), passer, *greedy("jiaxing", range(3, 4))]
        lines = record("jiaxing", seats, seed, hands=2)
        if passer.passed is None:
            continue
        review = review_record(lines, 2, seed=2)
        (pass_up,) = [d for d in review.decisions if (d.hand, d.turn) == passer.passed]
        assert not pass_up.agree and pass_up.bot == ("zimo" if self_drawn else "hu")
        values = {c.action: c.value for c in pass_up.candidates}
        win = values[pass_up.bot]
        assert win.win == 1.0 and win.points is not None and win.points > 0
        played = values[pass_up.choice]
        assert played.points is not None
        if self_drawn:
            # a self-drawn win given up: the costliest decision of the record
            assert review.mistakes()[0] is pass_up
            assert pass_up.given_up == pytest.approx(win.points - played.points)
        else:
            # a discard win given up costs what the win pays beyond the hand's value
            # played on (a concealed hand may be worth about as much waiting for a
            # self-draw: then nothing is counted)
            cost = win.points - played.points
            assert pass_up.given_up == (cost if cost > review.tolerance else 0.0)
            if cost > review.tolerance:
                assert pass_up in review.mistakes()[:5]
        return
    pytest.fail("no win offered to seat 2 in 30 matches")


@pytest.mark.slow
def test_qinger_is_reviewed_by_monte_carlo() -> None:
    # about a minute on two cores: a whole Qing'er hand played and reviewed by search
    variant = "qinger"
    strong = StrongBot(5, variant, rollouts=2)
    lines = record(variant, [strong, *greedy(variant, range(1, 3))], 6, hands=1)
    review = review_record(lines, 0, seed=5, rollouts=2)
    assert review.decisions and review.agreement == 1.0
    searched = [d for d in review.decisions if d.search == "montecarlo"]
    assert searched and all(
        all(c.value.win is not None and c.value.points is not None for c in d.candidates)
        for d in searched
    )


def test_the_review_as_json_and_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    variant = "jiaxing"
    lines = record(
        variant, [make_player("random", 1, variant), *greedy(variant, range(1, 4))], 5, hands=1
    )
    path = tmp_path / "r.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        dump_lines(lines, fh)
    assert main(["review", str(path), "--seat", "0", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["seat"] == 0 and 0 <= doc["agreement"] <= 1
    assert doc["n_decisions"] == len(doc["decisions"]) > 0
    costs = [m["given_up"] for m in doc["mistakes"]]
    assert costs == sorted(costs, reverse=True) and all(c > 0 for c in costs)
    first = doc["decisions"][0]
    assert {"hand", "turn", "move", "line", "choice", "bot", "agree", "given_up"} <= set(first)
    assert lines[first["line"] - 1]["type"] == "action"
    assert main(["review", str(path), "--seat", "0", "--lang", "en", "--summary"]) == 0
    text = capsys.readouterr().out
    assert "agreement" in text and "costliest decisions" in text
    review = review_record(lines, 0)
    assert "一致率" in format_review(review)
    # bad input: a clear message, exit 2, no traceback
    assert main(["review", str(path), "--seat", "7"]) == 2
    assert "no seat 7" in capsys.readouterr().err
    assert main(["review", str(path), "--seat", "0", "--bot", "oracle"]) == 2
    assert "unknown review bot" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{}\n", encoding="utf-8")
    assert main(["review", str(bad), "--seat", "0"]) == 2
    assert main(["review", str(tmp_path / "none.jsonl"), "--seat", "0"]) == 2
    tampered = [dict(x) for x in lines]
    acts = [i for i, x in enumerate(tampered) if x.get("type") == "action"]
    tampered[acts[3]]["action"] = "d9z"
    with pytest.raises(ReviewError, match="does not verify"):
        review_record(tampered, 0)


def test_each_view_carries_the_totals_as_its_hand_began() -> None:
    variant = "jiaxing"
    lines = record(
        variant, [make_player("random", 1, variant), *greedy(variant, range(1, 4))], 4, hands=3
    )
    review = review_record(lines, 0, views=True)
    nets = [r["net"] for r in lines if r.get("type") == "hand_end"]
    assert len(nets) == 3
    for d in review.decisions:
        assert d.view is not None
        expected = [sum(n[s] for n in nets[: d.hand - 1]) for s in range(4)]
        assert d.view["match_totals"] == expected
        assert all("hand" not in p for p in d.view["players"][1:])
    assert {d.hand for d in review.decisions} == {1, 2, 3}
    # without views, nothing of the table is kept
    assert all(d.view is None for d in review_record(lines, 0).decisions)


@pytest.mark.parametrize("variant", ["jiaxing", "qinger"])
def test_greedy_reviews_with_values(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    n = VARIANTS[variant].seats(VARIANTS[variant].options_type())
    players: list[Decide] = [make_player("random", 1, variant), *greedy(variant, range(1, n))]
    lines = record(variant, players, 4, hands=1)
    review = review_record(lines, 0, bot="greedy")
    valued = review.decisions
    assert len(valued) > 5
    for d in valued:
        # every decision is valued (Qing'er's knocks and takeoffs too), the choice among them
        assert d.choice in [c.action for c in d.candidates]
        assert all(c.value.points is not None and c.value.win is not None for c in d.candidates)
        assert d.search == "greedy"
    if variant == "qinger":
        assert any(c.action == "knock" for d in valued for c in d.candidates)
    # a random player gives up points by greedy's own measure, costliest first
    assert review.agreement < 0.6 and review.given_up > 0
    costs = [d.given_up for d in review.mistakes()]
    assert costs == sorted(costs, reverse=True)
    # greedy's own record, reviewed with greedy's seed, agrees everywhere
    players = [make_player("greedy", 9, variant), *greedy(variant, range(1, n))]
    again = review_record(record(variant, players, 4, hands=1), 0, bot="greedy", seed=9)
    assert again.agreement == 1.0 and again.given_up == 0


def test_the_review_tells_its_progress_move_by_move() -> None:
    variant = "jiaxing"
    lines = record(
        variant, [make_player("random", 1, variant), *greedy(variant, range(1, 4))], 4, hands=1
    )
    heard: list[tuple[int, int]] = []
    review_record(lines, 0, moves=lambda done, total: heard.append((done, total)))
    actions = sum(1 for r in lines if r.get("type") == "action")
    assert heard[-1] == (actions, actions)
    assert [d for d, _ in heard] == sorted(d for d, _ in heard)
    assert {t for _, t in heard} == {actions} and len(heard) > actions // 2


def test_the_strong_bot_values_hands_too_far_for_its_lookahead_by_greedys_measure() -> None:
    variant = "jiaxing"
    lines = record(
        variant, [make_player("random", 1, variant), *greedy(variant, range(1, 4))], 4, hands=1
    )
    review = review_record(lines, 0)
    far = [d for d in review.decisions if d.search == "greedy"]
    assert far
    for d in far:
        assert any((c.value.points or 0.0) > 0 for c in d.candidates), d
        assert all(c.value.win is not None for c in d.candidates)
