"""Qing'er (青儿) cards: the 126-card deck, 36 kinds with stable small-integer indices.

0–8 ♠1–9, 9–17 ♥1–9, 18–26 ♣1–9, 27–29 ♥J ♥Q ♥K, 30–32 ♣J ♣Q ♣K, 33 大鬼, 34 小鬼, 35 广告.

For hand analysis a card maps to a *meld kind* (:func:`meld_kind`): number cards keep
their index (0–26); face cards meld by rank, so ♥K and ♣K are both kind 29 (QA6).
Jokers and the advert card are set aside and never reach the analyser.
"""

from __future__ import annotations

from paiju.components.pieces import Piece, PieceNames, name_pieces

N_CARD_KINDS = 36
N_MELD_KINDS = 30
"""27 number kinds + J, Q, K by rank."""
DECK_SIZE = 126


class Card(Piece):
    """One kind of Qing'er card. ``Card.S1`` is ♠1, ``Card.CK`` is ♣K, ``Card.BJ`` is 大鬼."""

    S1 = 0
    S2 = 1
    S3 = 2
    S4 = 3
    S5 = 4
    S6 = 5
    S7 = 6
    S8 = 7
    S9 = 8
    H1 = 9
    H2 = 10
    H3 = 11
    H4 = 12
    H5 = 13
    H6 = 14
    H7 = 15
    H8 = 16
    H9 = 17
    C1 = 18
    C2 = 19
    C3 = 20
    C4 = 21
    C5 = 22
    C6 = 23
    C7 = 24
    C8 = 25
    C9 = 26
    HJ = 27
    HQ = 28
    HK = 29
    CJ = 30
    CQ = 31
    CK = 32
    BJ = 33
    SJ = 34
    AD = 35

    @property
    def suit(self) -> str:
        """Notation suit letter s, h, c; empty for jokers and the advert card."""
        if self < 27:
            return "shc"[self // 9]
        if self < 33:
            return "hc"[(self - 27) // 3]
        return ""

    @property
    def rank(self) -> str:
        """'1'–'9', 'J', 'Q', 'K'; 'BJ', 'SJ', 'AD' for the three special cards."""
        if self < 27:
            return str(self % 9 + 1)
        if self < 33:
            return "JQK"[(self - 27) % 3]
        return ("BJ", "SJ", "AD")[self - 33]

    @property
    def is_number(self) -> bool:
        return self < 27

    @property
    def is_face(self) -> bool:
        return 27 <= self < 33

    @property
    def is_joker(self) -> bool:
        return self in (Card.BJ, Card.SJ)

    @property
    def is_flower(self) -> bool:
        """Jokers and the advert card: set aside and replaced (补花, QA11)."""
        return self >= 33

    @property
    def copies(self) -> int:
        return _COPIES[self]

    @property
    def meld_kind(self) -> int:
        """Analyser kind (0–29), or -1 for cards that never sit in a hand."""
        return _MELD_KIND[self]

    def __str__(self) -> str:
        if self >= 33:
            return self.rank
        return self.rank + self.suit


_COPIES = tuple([4] * 27 + [3, 3, 3, 1, 1, 1, 3, 2, 1])
assert sum(_COPIES) == DECK_SIZE
_MELD_KIND: tuple[int, ...] = (*range(27), 27, 28, 29, 27, 28, 29, -1, -1, -1)

_SUIT_ZH = ("黑桃", "红桃", "草花")
_SUIT_ZH_HANT = ("黑桃", "紅桃", "草花")
_SUIT_EN = ("Spades", "Hearts", "Clubs")
_FACE_EN = {"J": "Jack", "Q": "Queen", "K": "King"}


def _names(suits: tuple[str, str, str], specials: tuple[str, str, str]) -> tuple[str, ...]:
    names = [suits[s] + str(r + 1) for s in range(3) for r in range(9)]
    names += [suits[s] + f for s in (1, 2) for f in "JQK"]
    return (*names, *specials)


_NAMES_ZH = _names(_SUIT_ZH, ("大鬼", "小鬼", "广告"))
_NAMES_ZH_HANT = _names(_SUIT_ZH_HANT, ("大鬼", "小鬼", "廣告"))
_NAMES_EN = tuple(
    [f"{r + 1} of {_SUIT_EN[s]}" for s in range(3) for r in range(9)]
    + [f"{_FACE_EN[f]} of {_SUIT_EN[s]}" for s in (1, 2) for f in "JQK"]
    + ["Big Joker", "Small Joker", "Advertisement"]
)
name_pieces(Card, PieceNames(_NAMES_ZH, _NAMES_ZH_HANT, _NAMES_EN))

ALL_CARDS: tuple[Card, ...] = tuple(Card)


_FULL_DECK = tuple(card for card in ALL_CARDS for _ in range(card.copies))


def full_deck() -> list[Card]:
    """All 126 cards in index order (shuffle with a seeded ``random.Random``)."""
    return list(_FULL_DECK)
