"""Jiaxing rules as the engine plays them: fixed walls, one scenario per flow rule."""

from __future__ import annotations

import itertools

import pytest

from paiju.components.notation import parse_tiles
from paiju.engine import actions as A
from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.engine.mahjong import CLAIM, END, ROB, MahjongHand, arrange_wall
from paiju.engine.match import Match
from paiju.engine.session import play_match
from paiju.engine.types import Meld, MeldType, WinType
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules
from paiju.variants.jiaxing.variant import JIAXING


def tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text)]


def make_hand(
    hands: list[str],
    draws: str = "",
    tail: str = "",
    *,
    dealer: int = 0,
    options: JiaxingOptions | None = None,
    fisher: int | None = None,
) -> MahjongHand:
    wall = arrange_wall([tiles(h) for h in hands], tiles(draws), tiles(tail), dealer=dealer)
    return MahjongHand(JiaxingRules(options or JiaxingOptions(), fisher), wall=wall, dealer=dealer)


def act(hand: MahjongHand, text: str, seat: int | None = None) -> None:
    hand.apply(A.parse(text), seat)


def reasons(hand: MahjongHand) -> list[tuple[int, int, int, str]]:
    return [(p.payer, p.payee, p.amount, p.reason) for p in hand.ledger]


KONG_DEAL = [
    "1347m147p258s1234z",
    "333m258m369p147s5z",
    "69m258p369s11567z",
    "2468m2468p2468s7z",
]


def test_deal_gives_fourteen_to_the_dealer_and_thirteen_to_others() -> None:
    hand = make_hand(KONG_DEAL)
    assert [sum(c) for c in hand.counts] == [14, 13, 13, 13]
    assert hand.wall_left == 136 - 53
    assert hand.to_act() == [0]


def test_exposed_kong_money_is_paid_on_the_spot_by_the_feeder() -> None:
    """J2/J27: 明杠 1 from the seat whose tile was konged; replacement from the tail."""
    hand = make_hand(KONG_DEAL, tail="5z")
    act(hand, "d3m")
    assert hand.phase == CLAIM
    assert hand.legal_actions(1) == [A.PASS, A.PONG, A.KONG]
    act(hand, "kong", 1)
    assert reasons(hand) == [(0, 1, 1, "gang")]
    assert hand.current == 1 and hand.drawn == tiles("5z")[0]
    assert hand.fed[0][1] == 1
    assert hand.melds[1] == [Meld(MeldType.KONG, parse_tiles("3m")[0], 0)]


def test_concealed_kong_money_from_each_other_seat() -> None:
    """J2: 暗杠 1 from each of the three, paid at once."""
    hand = make_hand(
        [
            "5555p147m258s1234z",
            "333m258m369p147s5z",
            "69m2p8p369s11567z7m",
            "2468m2468p2468s7z",
        ],
        tail="6z",
    )
    act(hand, "an5p")
    assert hand.net() == [3, -1, -1, -1]
    assert hand.current == 0 and hand.drawn == tiles("6z")[0]


ROB_DEAL = [
    "7s147m258p1s1234z56z",
    "77s258m369p2s4s567z",
    "123m456m789m11p68s",
    "2468m2468p2459s3z",
]


def _pong_then_draw_fourth(hand: MahjongHand) -> None:
    act(hand, "d7s")
    # seat 2 could win on 7s too but passes; seat 1 pongs
    assert A.HU in hand.legal_actions(2)
    act(hand, "pass", 2)
    act(hand, "pong", 1)
    act(hand, "d2s")
    for seat in (2, 3, 0):
        assert hand.current == seat
        act(hand, "d4z")
    assert hand.current == 1 and hand.drawn == tiles("7s")[0]


def test_added_kong_can_be_robbed_and_then_pays_no_kong_money() -> None:
    """J13/J23: only an added kong can be robbed; the robbed seat pays; no kong money."""
    hand = make_hand(ROB_DEAL, draws="4z4z4z7s")
    _pong_then_draw_fourth(hand)
    act(hand, "jia7s")
    assert hand.phase == ROB
    assert hand.legal_actions(2) == [A.PASS, A.HU]
    act(hand, "hu", 2)
    assert hand.phase == END
    win = hand.win_info[2]
    assert win.win_type is WinType.ROBBED_KONG and win.source == 1
    assert all(p.reason != "gang" for p in hand.ledger)
    assert all(p.payer == 1 for p in hand.ledger)
    assert sum(hand.net()) == 0


def test_unrobbed_added_kong_pays_the_pong_feeder_then_chain_liability() -> None:
    """J29: 续杠 then 暗杠 on the replacement: the first feeder pays 1 + 3 = 4."""
    deal = list(ROB_DEAL)
    deal[1] = "77s258m999p14s567z"  # holds 999p for a concealed kong after the replacement
    deal[2] = "123m456m78m11p68s5z"  # no longer waits on 7s
    hand = make_hand(deal, draws="4z4z4z7s", tail="9p")
    act(hand, "d7s")
    act(hand, "pong", 1)
    act(hand, "d4s")
    for seat in (2, 3, 0):
        assert hand.current == seat
        act(hand, "d4z")
    act(hand, "jia7s")
    assert hand.net() == [-1, 1, 0, 0]
    assert hand.drawn == tiles("9p")[0]
    act(hand, "an9p")
    assert hand.net() == [-4, 4, 0, 0]
    assert hand.kong_chain == 2


def test_sealed_feeder_may_not_win() -> None:
    """J17 封胡: a seat that fed one opponent three sets cannot win this hand."""
    hand = make_hand(
        [
            "123m456m789m123p11z",
            "333m258m369p147s5z",
            "69m258p369s22567z",
            "2468m2468p2468s7z",
        ]
    )
    assert A.ZIMO in hand.legal_actions(0)
    sealed = make_hand(
        [
            "123m456m789m123p11z",
            "333m258m369p147s5z",
            "69m258p369s22567z",
            "2468m2468p2468s7z",
        ]
    )
    sealed.fed[0][1] = 3
    sealed._legal.clear()
    assert A.ZIMO not in sealed.legal_actions(0)
    off = make_hand(
        [
            "123m456m789m123p11z",
            "333m258m369p147s5z",
            "69m258p369s22567z",
            "2468m2468p2468s7z",
        ],
        options=JiaxingOptions(feng_hu=False),
    )
    off.fed[0][1] = 3
    assert A.ZIMO in off.legal_actions(0)


def test_heavenly_win() -> None:
    """J16/J24 天胡: the dealer's dealt hand is complete."""
    hand = make_hand(
        [
            "123m456m789m123p11z",
            "333m258m369p147s5z",
            "69m258p369s22567z",
            "2468m2468p2468s7z",
        ]
    )
    act(hand, "zimo")
    assert "heavenly" in hand.win_info[0].flags
    assert hand.net()[0] > 0 and sum(hand.net()) == 0
    ids = [i.id for i in hand.win_results[0].items]
    assert "tian_hu" in ids


MULTI_DEAL = [
    "5s9m3p7p9s1234z6z 7z 1m 2m",
    "123m456m789m111p5s",
    "123p456p789p111s5s",
    "234s678s111z222z5s",
]


def test_one_discard_several_winners_discarder_pays_each() -> None:
    """JA19 / J18: any number of winners on one discard; the 一炮三响 floor."""
    deal = [d.replace(" ", "") for d in MULTI_DEAL]
    deal[0] = "5s9m3p7p8p9s34z67z1m2m3m4m"
    hand = make_hand(deal)
    act(hand, "d5s")
    assert set(hand.to_act()) == {1, 2, 3}
    for seat in (1, 2, 3):
        act(hand, "hu", seat)
    assert hand.winners == [1, 2, 3]
    for seat in (1, 2, 3):
        assert "multiple_winners" in hand.win_info[seat].flags
        assert hand.win_info[seat].discard_winners == 3
        assert "human" in hand.win_info[seat].flags
    assert all(p.payer == 0 for p in hand.ledger)
    assert hand.net()[0] == -sum(hand.net()[1:])


def test_max_winners_option_keeps_the_nearest_in_turn_order() -> None:
    deal = [d.replace(" ", "") for d in MULTI_DEAL]
    deal[0] = "5s9m3p7p8p9s34z67z1m2m3m4m"
    hand = make_hand(deal, options=JiaxingOptions(max_winners_per_discard=1))
    act(hand, "d5s")
    for seat in (3, 2, 1):
        act(hand, "hu", seat)
    assert hand.winners == [1]


def test_kong_replacement_win_is_gang_shang_hua() -> None:
    """J11: 暗杠杠上花: each pays 9 (+ the kong money already paid)."""
    hand = make_hand(
        [
            "9999p123m456m78m11z",
            "333m258m368p147s5z",
            "69m258p369s22567z",
            "2468m2468p2468s7z",
        ],
        tail="9m",
    )
    act(hand, "an9p")
    assert A.ZIMO in hand.legal_actions(0)
    act(hand, "zimo")
    win = hand.win_info[0]
    assert "kong_replacement" in win.flags
    ids = [i.id for i in hand.win_results[0].items]
    assert "gang_shang_hua_an" in ids
    assert hand.net()[1] == hand.net()[2] == hand.net()[3]


EARTHLY_DEAL = [
    "9m3p7p9s1234z67z1m2m3m4m",
    "123m456m789m111p5s",
    "69m258p369s22567z",
    "2468p2468s7z 5m 6m 7m 8m",
]


def test_earthly_win_on_first_draw() -> None:
    """J26 地胡: a non-dealer self-draws on their first draw, nobody has claimed."""
    hand = make_hand(EARTHLY_DEAL, draws="5s")
    act(hand, "d9m")
    act(hand, "zimo")
    assert "earthly" in hand.win_info[1].flags


def test_fishing_after_a_self_drawn_win() -> None:
    """J32 钓鱼: the last tiles from the tail, counted from the fisher; hits on a winner."""
    deal = [d.replace(" ", "") for d in MULTI_DEAL]
    deal[0] = "5s9m3p7p8p9s34z67z1m2m3m4m"
    hand = make_hand(deal, tail="2m1z6m", fisher=0)
    act(hand, "d5s")
    act(hand, "hu", 1)
    for seat in (2, 3):
        act(hand, "pass", seat)
    fish = [e for e in hand.log if e.type == "fish"]
    assert fish and fish[0].data["hits"] == [1, 0, 1]
    per = hand.win_results[1].per_payer
    fish_pay = [p for p in hand.ledger if p.reason == "diao_yu"]
    assert sorted((p.payer, p.amount) for p in fish_pay) == [
        (1, 2 * per),
        (2, 2 * per),
        (3, 2 * per),
    ]


def test_no_fishing_after_exhaustive_draw() -> None:
    hand = make_hand(KONG_DEAL, fisher=0)
    hand.tail = hand.head  # nothing left to draw
    act(hand, "d3m")  # with the wall empty nobody may pong: the next draw finds nothing
    assert hand.exhausted and hand.phase == END
    assert not any(e.type == "fish" for e in hand.log)
    assert hand.ledger == []


def test_last_tile_self_draw_is_hai_di() -> None:
    """J14 海底捞月: the winning draw is the wall's last tile."""
    hand = make_hand(EARTHLY_DEAL, draws="5s")
    hand.tail = hand.head + 1  # one tile left: seat 1's draw
    act(hand, "d9m")
    act(hand, "zimo")
    assert "last_tile" in hand.win_info[1].flags
    assert "hai_di_lao_yue" in [i.id for i in hand.win_results[1].items]


def test_illegal_and_malformed_actions_change_nothing() -> None:
    hand = make_hand(KONG_DEAL)
    before = (hand.view(0), len(hand.log), [bytes(c) for c in hand.counts])
    with pytest.raises(IllegalActionError):
        hand.apply(A.parse("d9s"))  # not in hand
    with pytest.raises(IllegalActionError):
        hand.apply(A.PONG, 1)  # nobody discarded
    with pytest.raises(InvalidActionError):
        hand.apply(999)
    with pytest.raises(InvalidActionError):
        A.parse("discard 5m")
    assert (hand.view(0), len(hand.log), [bytes(c) for c in hand.counts]) == before


def test_quan_qiu_ren_fan_chong_charges_the_one_tile_discarder() -> None:
    """J30: a seat down to one tile behind four melds that deals in pays +9."""
    deal = [d.replace(" ", "") for d in MULTI_DEAL]
    deal[0] = "5s9m3p7p8p9s34z67z1m2m3m4m"
    hand = make_hand(deal)
    hand.melds[0] = [Meld(MeldType.PONG, parse_tiles("1z")[0], 1)] * 4
    act(hand, "d5s")
    act(hand, "hu", 1)
    for seat in (2, 3):
        act(hand, "pass", seat)
    assert any(p.reason == "quan_qiu_ren_fan_chong" and p.payer == 0 for p in hand.ledger)


def test_match_dealer_rotation_and_fisher_carry() -> None:
    flow = JIAXING
    options = JiaxingOptions(hands=6)
    from paiju.bots import GreedyBot

    match = Match(flow, options, seed=3)
    summaries = list(play_match(match, [GreedyBot(i) for i in range(4)]))
    assert len(summaries) == 6
    for prev, cur in itertools.pairwise(summaries):
        keeps = prev.dealer in prev.winners or prev.exhausted
        assert (cur.dealer == prev.dealer) == keeps
    assert sum(match.totals()) == 0


CHI_DEAL = [
    "1347m147p258s1234z",
    "45m258m369p147s5z6z",
    "33m9m258p369s1567z",
    "2468m2468p2468s7z",
]


def test_chi_is_off_by_default() -> None:
    """JA3: no 吃 unless the option says so."""
    hand = make_hand(CHI_DEAL)
    act(hand, "d3m")
    assert all(not (A.CHI_LOW <= a <= A.CHI_HIGH) for a in hand.legal_actions(1))


def test_chi_option_lets_the_next_seat_claim_a_run() -> None:
    """JA3 (b): with ``chi`` on, the seat after the discarder may chow; pong beats chow."""
    hand = make_hand(CHI_DEAL, options=JiaxingOptions(chi=True))
    act(hand, "d3m")
    assert A.CHI_LOW in hand.legal_actions(1) and A.CHI_MID in hand.legal_actions(1)
    assert not any(A.CHI_LOW <= a <= A.CHI_HIGH for a in hand.legal_actions(2))
    act(hand, "chi0", 1)
    act(hand, "pass", 2)
    assert hand.melds[1] == [Meld(MeldType.CHI, parse_tiles("3m")[0], 0)]
    assert hand.current == 1 and hand.drawn == -1
    assert hand.fed[0][1] == 0  # a chow is not a 比 for 封胡
    assert A.ZIMO not in hand.legal_actions(1)
    pong_first = make_hand(CHI_DEAL, options=JiaxingOptions(chi=True))
    act(pong_first, "d3m")
    act(pong_first, "chi0", 1)
    act(pong_first, "pong", 2)
    assert pong_first.current == 2 and pong_first.melds[1] == []


def test_ting_declaration_option_locks_the_hand_and_scores_ting_pai() -> None:
    """JA20 / J22: 报听 +1; after declaring only the drawn tile may go (or a win)."""
    deal = [
        "123m456m789m11p55s7z",
        "333m258m369p147s5z",
        "69m258p369s11567z",
        "2468m2468p2468s7z",
    ]
    plain = make_hand(deal)
    assert all(a < A.TING for a in plain.legal_actions(0))
    hand = make_hand(deal, draws="2z2z2z5s", options=JiaxingOptions(ting_declaration=True))
    assert A.TING + tiles("7z")[0] in hand.legal_actions(0)
    act(hand, "ting7z")
    assert hand.ready[0]
    for seat in (1, 2, 3):
        assert hand.current == seat
        act(hand, "d2z")
    assert hand.current == 0 and hand.legal_actions(0) == [tiles("5s")[0], A.ZIMO]
    act(hand, "zimo")
    assert "declared_ready" in hand.win_info[0].flags
    assert "ting_pai" in [i.id for i in hand.win_results[0].items]
