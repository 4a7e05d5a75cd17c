"""Properties of Qing'er scoring over random deals and random complete hands."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from paiju.components.cards import Card, full_deck
from paiju.engine.types import MeldType, WinType
from paiju.variants.qinger.options import STAKE_FORMS
from paiju.variants.qinger.scoring import (
    QingerMeld,
    QingerPlayer,
    QingerResult,
    QingerSituation,
    can_win,
    hand_value_before_multipliers,
    score_hand,
)

stakes_st = st.sampled_from(list(STAKE_FORMS.values()))
knocks_st = st.tuples(st.booleans(), st.booleans(), st.booleans())


def _check_ledger(result: QingerResult) -> None:
    assert result.valid
    assert sum(result.net) == 0
    for p in result.payments:
        assert p.amount > 0
        assert result.scores[p.payer] < result.scores[p.payee]
    for items, score in zip(result.items, result.scores, strict=True):
        assert sum(item.value for item in items) == score


@settings(max_examples=150, deadline=None)
@given(
    deck=st.permutations(full_deck()),
    sizes=st.tuples(*[st.integers(0, 23)] * 3),
    knocked=knocks_st,
    stakes=stakes_st,
    table=st.tuples(st.integers(0, 2), st.sampled_from(list(Card))),
)
def test_exhausted_stock_is_zero_sum(
    deck: list[Card],
    sizes: tuple[int, int, int],
    knocked: tuple[bool, bool, bool],
    stakes: tuple[int, int, int],
    table: tuple[int, Card],
) -> None:
    dealer, indicator = table
    players = []
    start = 0
    for seat in range(3):
        chunk = deck[start : start + sizes[seat]]
        start += sizes[seat]
        hand = [c for c in chunk if not c.is_flower]
        flowers = [c for c in chunk if c.is_flower]
        players.append(QingerPlayer.from_cards(hand, flowers=flowers, knocked=knocked[seat]))
    hand_ = QingerSituation(dealer, indicator, tuple(players), stakes=stakes)
    result = score_hand(hand_)
    _check_ledger(result)
    assert all(score >= 0 for score in result.scores)


_NUMBER_KINDS = list(range(27))
_FACE_CARDS = {27: (Card.HJ, Card.CJ), 28: (Card.HQ, Card.CQ), 29: (Card.HK, Card.CK)}


@st.composite
def complete_hands(draw: st.DrawFn) -> tuple[QingerPlayer, Card, list[int]]:
    """A 7-set + pair hand (some triplets exposed as pongs) within the deck's counts."""
    left = [c.copies for c in Card]
    concealed: list[Card] = []
    melds: list[QingerMeld] = []

    def take(kind: int, n: int) -> list[Card]:
        if kind < 27:
            assume(left[kind] >= n)
            left[kind] -= n
            return [Card(kind)] * n
        red, club = _FACE_CARDS[kind]
        out = []
        for _ in range(n):
            card = red if left[red] else club
            assume(left[card] > 0)
            left[card] -= 1
            out.append(card)
        return out

    for _ in range(7):
        if draw(st.booleans()):
            start = draw(st.sampled_from([k for k in _NUMBER_KINDS if k % 9 <= 6]))
            for k in range(start, start + 3):
                concealed += take(k, 1)
        else:
            kind = draw(st.integers(0, 29))
            cards = take(kind, 3)
            if draw(st.booleans()):
                melds.append(QingerMeld(MeldType.PONG, tuple(cards), draw(st.integers(1, 2))))
            else:
                concealed += cards
    concealed += take(draw(st.integers(0, 29)), 2)
    flowers = draw(st.lists(st.sampled_from([Card.BJ, Card.SJ, Card.AD]), max_size=3))
    for card in flowers:
        assume(left[card] > 0)
        left[card] -= 1
    win_card = draw(st.sampled_from(concealed))
    player = QingerPlayer.from_cards(concealed, melds, flowers, knocked=draw(st.booleans()))
    return player, win_card, left


@settings(max_examples=150, deadline=None)
@given(
    hand=complete_hands(),
    knocked=knocks_st,
    stakes=stakes_st,
    indicator=st.sampled_from(list(Card)),
)
def test_wins_are_zero_sum_and_respect_the_threshold(
    hand: tuple[QingerPlayer, Card, list[int]],
    knocked: tuple[bool, bool, bool],
    stakes: tuple[int, int, int],
    indicator: Card,
) -> None:
    winner, win_card, _left = hand
    others = (
        QingerPlayer.from_cards([], knocked=knocked[1]),
        QingerPlayer.from_cards([], knocked=knocked[2]),
    )
    situation = QingerSituation(
        0, indicator, (winner, *others), 0, WinType.SELF_DRAW, win_card, stakes=stakes
    )
    value = hand_value_before_multipliers(situation)
    assert value is not None
    result = score_hand(situation)
    if can_win(situation):
        assert value > 60
        _check_ledger(result)
        assert result.before_multipliers[0] == value
        assert result.scores[0] >= value
    else:
        assert value <= 60
        assert not result.valid and result.reason_zh == "不足60分"


# -- the calculator never fails with anything but an InputError ---------------------------

_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=6,
)


def _paths(obj: object, prefix: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [prefix] if prefix else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_calculator_rejects_garbage_cleanly(data: st.DataObject) -> None:
    import copy
    import json
    from pathlib import Path

    from paiju.calculator import InputError, score

    cases = json.loads(
        (Path(__file__).resolve().parents[2] / "data" / "qinger" / "score_cases.json").read_text(
            encoding="utf-8"
        )
    )
    case = data.draw(st.sampled_from([c for c in cases if c["exit"] != 2]))
    obj = copy.deepcopy(case["input"])
    # "variant" is dispatched by the shared plumbing, not by the Qing'er reader
    path = data.draw(st.sampled_from([p for p in _paths(obj) if p != ("variant",)]))
    target = obj
    for key in path[:-1]:
        target = target[key]  # type: ignore[index]
    target[path[-1]] = data.draw(_JSON_VALUES)  # type: ignore[index]
    try:
        status, out = score(obj)
    except InputError as exc:
        assert exc.field
    else:
        assert status in (0, 1)
        if status == 0:
            assert sum(out["payments"]) == 0
