"""``paiju score`` for Qing'er (``docs/spec/score-cli.md``, section Qing'er).

Only translation and input checks live here; :func:`paiju.variants.qinger.scoring.score_hand`
does the scoring, exactly as the engine settles a hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.calculator import InputError, options_field, seat
from paiju.components.boundedjson import preview
from paiju.components.cards import N_CARD_KINDS, Card
from paiju.components.notation import NotationError, parse_cards
from paiju.variants.base import MeldType, WinType
from paiju.variants.qinger.explain import explain_hand
from paiju.variants.qinger.options import STAKE_FORMS, QingerOptions
from paiju.variants.qinger.scoring import (
    N_PLAYERS,
    QingerHand,
    QingerMeld,
    QingerPlayer,
    is_joker_takeoff,
    is_quad_takeoff,
    score_hand,
)

_TOP_KEYS = frozenset(
    {
        "variant",
        "options",
        "stakes",
        "dealer",
        "indicator",
        "winner",
        "win_type",
        "win_tile",
        "from",
        "players",
    }
)
_PLAYER_KEYS = frozenset({"hand", "melds", "flowers", "takeoffs", "knocked"})
_MELD_KEYS = frozenset({"type", "tiles", "from"})


def cards_field(
    obj: Mapping[str, Any], name: str, where: str, *, default: str | None = None
) -> list[Card]:
    """Read a card string (notation.md) from ``obj[name]``; errors name ``where``."""
    value = obj.get(name, default)
    if not isinstance(value, str):
        raise InputError(where, f"expected a card string, not {preview(value)}")
    try:
        return parse_cards(value)
    except NotationError as exc:
        raise InputError(where, str(exc)) from None


def _one_card(obj: Mapping[str, Any], name: str) -> Card:
    cards = cards_field(obj, name, name)
    if len(cards) != 1:
        raise InputError(name, f"expected one card, found {len(cards)}")
    return cards[0]


def _check_keys(obj: Mapping[str, Any], allowed: frozenset[str], where: str) -> None:
    unknown = sorted(k for k in obj if k not in allowed)
    if unknown:
        raise InputError(f"{where}{unknown[0]}", "unknown field")


class _Counter:
    """Card counts over every player, so that an impossible total names its field."""

    def __init__(self) -> None:
        self.counts = [0] * N_CARD_KINDS

    def add(self, cards: list[Card], where: str) -> None:
        for card in cards:
            self.counts[card] += 1
            if self.counts[card] > card.copies:
                raise InputError(
                    where,
                    f"{self.counts[card]} × {card} ({card.zh}) across all players, "
                    f"but only {card.copies} exist",
                )


def _stakes(obj: Mapping[str, Any], options: QingerOptions) -> tuple[int, int, int]:
    raw = obj.get("stakes")
    if raw is None:
        return options.stakes
    forms = list(STAKE_FORMS.values())
    if not isinstance(raw, list) or any(type(x) is not int for x in raw) or tuple(raw) not in forms:
        allowed = " or ".join(str(list(f)) for f in forms)
        raise InputError("stakes", f"expected {allowed}, not {preview(raw)}")
    return (raw[0], raw[1], raw[2])


def _melds(raw: Any, where: str, own_seat: int, counter: _Counter) -> list[QingerMeld]:
    if not isinstance(raw, list):
        raise InputError(where, "expected a list")
    melds = []
    for i, m in enumerate(raw):
        at = f"{where}[{i}]"
        if not isinstance(m, dict):
            raise InputError(at, "expected an object")
        _check_keys(m, _MELD_KEYS, f"{at}.")
        try:
            mtype = MeldType(str(m.get("type")))
        except ValueError:
            raise InputError(f"{at}.type", f"unknown meld type {preview(m.get('type'))}") from None
        cards = cards_field(m, "tiles", f"{at}.tiles")
        kinds = {c.meld_kind for c in cards}
        if len(cards) != mtype.size or len(kinds) != 1 or -1 in kinds:
            raise InputError(f"{at}.tiles", f"a {mtype.value} is {mtype.size} cards of one kind")
        counter.add(cards, f"{at}.tiles")
        source: int | None = None
        if mtype is MeldType.CONCEALED_KONG:
            if m.get("from") is not None:
                raise InputError(f"{at}.from", "a concealed kong has no feeder")
        else:
            source = seat(m, "from", N_PLAYERS)
            if source == own_seat:
                raise InputError(f"{at}.from", "a player cannot feed their own meld")
        melds.append(QingerMeld(mtype, tuple(cards), source))
    return melds


def _player(raw: Any, index: int, options: QingerOptions, counter: _Counter) -> QingerPlayer:
    where = f"players[{index}]"
    if not isinstance(raw, dict):
        raise InputError(where, "expected an object")
    _check_keys(raw, _PLAYER_KEYS, f"{where}.")
    if "hand" not in raw:
        raise InputError(f"{where}.hand", "missing")
    hand = cards_field(raw, "hand", f"{where}.hand")
    for card in hand:
        if card.is_joker or (card is Card.AD and options.advert_is_flower):
            raise InputError(f"{where}.hand", f"{card} is set aside, list it in 'flowers'")
    counter.add(hand, f"{where}.hand")
    melds = _melds(raw.get("melds", []), f"{where}.melds", index, counter)
    flowers = cards_field(raw, "flowers", f"{where}.flowers", default="")
    for card in flowers:
        if not (card.is_joker or (card is Card.AD and options.advert_is_flower)):
            what = "jokers and 广告 (AD)" if options.advert_is_flower else "jokers"
            raise InputError(f"{where}.flowers", f"{card} is not a flower; only {what} go here")
    counter.add(flowers, f"{where}.flowers")
    takeoffs_raw = raw.get("takeoffs", [])
    if not isinstance(takeoffs_raw, list):
        raise InputError(f"{where}.takeoffs", "expected a list of card strings")
    takeoffs = []
    for i, t in enumerate(takeoffs_raw):
        at = f"{where}.takeoffs[{i}]"
        if not isinstance(t, str):
            raise InputError(at, f"expected a card string, not {preview(t)}")
        cards = cards_field({"t": t}, "t", at)
        by_rank = options.takeoff_face_quads_by_rank
        if not (is_quad_takeoff(cards, by_rank=by_rank) or is_joker_takeoff(cards)):
            what = "of one rank" if by_rank else "of one suit and rank (Q6; ♥K♥K♥K♣K is not)"
            raise InputError(at, f"a takeoff (起飞) is four cards {what}, or BJBJBJSJSJ (五喜)")
        counter.add(cards, at)
        takeoffs.append(tuple(cards))
    knocked = raw.get("knocked", False)
    if not isinstance(knocked, bool):
        raise InputError(f"{where}.knocked", f"expected true or false, not {preview(knocked)}")
    player = QingerPlayer.from_cards(hand, melds, flowers, takeoffs, knocked)
    size = sum(player.meld_kind_counts()) + 3 * player.declared
    if size > 23:
        raise InputError(
            f"{where}.hand", f"{size} cards counting each set as three; at most 23 fit a hand"
        )
    return player


def _check_takeoffs_beside_indicator(players_raw: list[Any], indicator: Card) -> None:
    """Takeoffs are shown at the deal, while the 见张 lies face up at the bottom of the
    stock (QA5): with it they cannot use more copies of a card than exist (so no 五喜起飞
    under a joker 见张, Q19)."""
    counts = [0] * N_CARD_KINDS
    counts[indicator] += 1
    for i, raw in enumerate(players_raw):
        for j, text in enumerate(raw.get("takeoffs", [])):
            for card in parse_cards(text):
                counts[card] += 1
                if counts[card] > card.copies:
                    raise InputError(
                        f"players[{i}].takeoffs[{j}]",
                        f"{card} ({card.zh}) is the 见张 (indicator), which lies at the bottom"
                        " of the stock during the deal: the takeoffs and the 见张 would need"
                        f" {counts[card]} of the {card.copies} that exist",
                    )


def parse_hand(obj: Mapping[str, Any]) -> tuple[QingerHand, QingerOptions]:
    """The typed situation and options; raises :class:`InputError` naming the field."""
    _check_keys(obj, _TOP_KEYS, "")
    options: QingerOptions = options_field(obj, QingerOptions)
    stakes = _stakes(obj, options)
    dealer = seat(obj, "dealer", N_PLAYERS)
    assert dealer is not None
    indicator = _one_card(obj, "indicator")
    winner = seat(obj, "winner", N_PLAYERS, optional=True)
    players_raw = obj.get("players")
    if not isinstance(players_raw, list) or len(players_raw) != N_PLAYERS:
        found = len(players_raw) if isinstance(players_raw, list) else repr(players_raw)
        raise InputError("players", f"expected a list of {N_PLAYERS} players, got {found}")
    counter = _Counter()
    players = tuple(_player(p, i, options, counter) for i, p in enumerate(players_raw))
    _check_takeoffs_beside_indicator(players_raw, indicator)
    win_type: WinType | None = None
    win_card: Card | None = None
    source: int | None = None
    if winner is None:
        for name in ("win_type", "win_tile", "from"):
            if obj.get(name) is not None:
                raise InputError(name, "must be null when there is no winner")
    else:
        raw_type = obj.get("win_type")
        if raw_type not in (WinType.SELF_DRAW.value, WinType.DISCARD.value):
            raise InputError(
                "win_type", f"expected 'self_draw' or 'discard', not {preview(raw_type)}"
            )
        win_type = WinType(raw_type)
        win_card = _one_card(obj, "win_tile")
        if win_card.meld_kind < 0:
            raise InputError("win_tile", f"{win_card} is a flower and cannot win")
        if not players[winner].concealed[win_card]:
            raise InputError("win_tile", "the winner's hand must include the winning card")
        if win_type is WinType.DISCARD:
            source = seat(obj, "from", N_PLAYERS)
            if source == winner:
                raise InputError("from", "the winner cannot be the discarder")
        elif obj.get("from") is not None:
            raise InputError("from", "a self-drawn win has no discarder")
        size = sum(players[winner].meld_kind_counts()) + 3 * players[winner].declared
        if size != 23:
            raise InputError(
                f"players[{winner}].hand",
                f"the winner holds {size} cards counting each set as three; a complete"
                " hand is 23 (7 sets and a pair, the winning card included)",
            )
    hand = QingerHand(dealer, indicator, players, winner, win_type, win_card, source, stakes)
    return hand, options


def score_json(obj: Mapping[str, Any]) -> dict[str, Any]:
    """The ``paiju score`` answer for a Qing'er situation."""
    hand, options = parse_hand(obj)
    result = score_hand(hand, options)
    if not result.valid:
        return {"valid": False, "reason": f"{result.reason_zh} / {result.reason_en}"}
    return {
        "valid": True,
        "variant": "qinger",
        "scores": list(result.scores),
        "items": [[item.to_json() for item in items] for items in result.items],
        "payments": list(result.net),
        "explanation": explain_hand(hand, result).to_json(),
    }
