"""Tiles and cards are named through one registry (components/pieces.py)."""

from __future__ import annotations

import pytest

from paiju.components.cards import Card
from paiju.components.pieces import Piece, PieceNames, name_pieces
from paiju.components.tiles import Tile


@pytest.mark.parametrize("kind", [Tile, Card])
def test_every_piece_has_a_name_in_each_language_and_no_two_share_one(
    kind: type[Piece],
) -> None:
    for language in ("zh", "zh_hant", "en"):
        names = [getattr(piece, language) for piece in kind]
        assert all(names)
        assert len(set(names)) == len(names)


def test_names_are_read_by_index() -> None:
    assert (Tile.M1.zh, Tile.M1.zh_hant, Tile.M1.en) == ("一万", "一萬", "1 Characters")
    assert (Tile.Z5.zh, Tile.F1.en) == ("中", "Spring")
    assert (Card.CK.zh, Card.CK.en) == ("草花K", "King of Clubs")
    assert (Card.AD.zh, Card.AD.zh_hant) == ("广告", "廣告")


def test_a_name_table_one_short_is_refused() -> None:
    names = PieceNames(tuple("x" * 35), tuple("x" * 36), tuple("x" * 36))
    with pytest.raises(ValueError, match="Card"):
        name_pieces(Card, names)
    assert Card.S1.zh == "黑桃1"
