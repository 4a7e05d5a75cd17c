"""The strong bot: search. Two searches, chosen per game (``search``):

* ``lookahead`` (mahjong, the default for Jiaxing and Taixing): the exact expectimax of
  :mod:`paiju.bots.lookahead` over the seat's own next draws and the others' discards,
  each win valued by the variant's scorer; it decides discards and claims once the hand
  is within one tile of ready, and greedy decides before that;
* ``montecarlo`` (the default for Qing'er): determinized Monte Carlo over the tiles (cards)
  the seat cannot see, below;
* ``both``: the lookahead's choice is the default that Monte Carlo may overrule.

At a Monte Carlo decision with more than one sensible option the bot repeatedly

1. *determinizes*: deals the unseen multiset (the whole tile set minus its own concealed
   tiles, every meld, every discard and every flower shown) at random into the other
   seats' hands, each keeping its public size, and into the rest of the wall;
2. plays every candidate action on that same sample and finishes the hand with the
   rollout policy for all four seats: the variant's ``greedy`` bot by default, the very
   policy the search improves on (for mahjong, :class:`RolloutBot` is a faster option
   that skips ukeire: about three times the samples, but its different play measured
   slightly worse);

and picks the candidate with the best mean net score for its seat. All candidates share
the samples and the rollout players' seeds (common random numbers), so their difference is
measured with far less noise than their values. The loop stops at the time budget
(default 0.3 s per decision) or after a fixed number of samples (``rollouts``, which makes
decisions reproducible whatever the machine's speed).

What the bot reads of the real hand: ``legal_actions(seat)``, its own tiles, and public
state (melds, discards, flowers, wall size, whose turn, the tile on offer, feeding counts,
ready declarations). The copy it searches is rebuilt from those alone; the claim window
of the copy is recomputed from the sampled hands, so who else may claim is not read
either.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from paiju.bots.lookahead import DEFAULT_MODEL, Model, lookahead_action
from paiju.components.analysis import MAHJONG, QINGER
from paiju.engine import actions as A
from paiju.engine.mahjong import ACT, CLAIM, DECLARE, ROB, MahjongHand
from paiju.engine.match import Decide, play_hand
from paiju.engine.types import Meld, WinType

DEFAULT_BUDGET = 0.3
"""Seconds of Monte Carlo search per decision."""

SEARCHES = ("lookahead", "montecarlo", "both")
DEFAULT_SEARCH = {"jiaxing": "lookahead", "taixing": "lookahead", "qinger": "montecarlo"}
"""Per game, the search that measured best against greedy (docs/bots.md): on the mahjong
games the lookahead beats greedy by a wide margin where Monte Carlo at 0.3 s ties it
(Jiaxing) or gains less (Taixing)."""

DEFAULT_CANDIDATES = 4
"""Discards searched at one decision (the greedy ranking's best few)."""

DEFAULT_MARGIN = 3.0
"""Standard errors by which a candidate discard must beat the greedy choice to replace
it. Most discards differ by a few hundredths of a point while one sample's outcome
spreads over tens of points: with a small margin the search mostly follows noise (the
best of four noisy estimates), which measurably loses to greedy."""

DEFAULT_CLAIM_MARGIN = 3.0
"""The same for answers outside one's turn (pass / pong / kong / win). A smaller margin
here (1.0) measured worse than greedy on Jiaxing too."""

MIN_SAMPLES = 4
"""Samples taken even when the budget is already spent (a slow machine still searches)."""

Determinizer = Callable[[Any, int, random.Random], Any]


def meld_tiles(meld: Meld) -> list[int]:
    """The tiles a meld shows: a chow's run (from its lowest tile), or three or four
    alike."""
    tile = int(meld.tile)
    if meld.type.value == "chi":
        return [tile, tile + 1, tile + 2]
    return [tile] * meld.type.size


def unseen_tiles(hand: MahjongHand, seat: int) -> list[int]:
    """The tiles ``seat`` cannot see, ascending: every tile of the set minus its own
    concealed tiles, all melds, all discards, all flowers set aside, and an added kong's
    tile on offer (shown, though still counted in the konger's hand)."""
    tiles = hand.rules.tiles()
    left = [0] * (max(tiles) + 1)
    for t in tiles:
        left[t] += 1
    for k, n in enumerate(hand.counts[seat]):
        left[k] -= n
    for s in range(len(hand.counts)):
        for m in hand.melds[s]:
            for t in meld_tiles(m):
                left[t] -= 1
        for t in hand.discards[s]:
            left[t] -= 1
        for f in hand.flowers[s]:
            left[f] -= 1
    if hand.phase == ROB and hand.rob_seat != seat:
        left[hand.claim_tile] -= 1
    if min(left) < 0:  # pragma: no cover - the engine conserves tiles
        raise AssertionError("more tiles seen than the set holds")
    return [t for t, n in enumerate(left) for _ in range(n)]


_DEVELOPMENT: dict[tuple[int, int], tuple[float, ...]] = {
    (0, 0): (0.00, 0.02, 0.18, 0.41),
    (0, 1): (0.02, 0.12, 0.49, 0.29),
    (2, 0): (0.01, 0.12, 0.34, 0.39),
    (2, 1): (0.04, 0.30, 0.46, 0.20),
    (4, 0): (0.04, 0.27, 0.44, 0.23),
    (4, 1): (0.13, 0.41, 0.39, 0.07),
    (6, 0): (0.12, 0.40, 0.37, 0.11),
    (6, 1): (0.19, 0.51, 0.28, 0.02),
    (8, 0): (0.19, 0.49, 0.27, 0.05),
    (8, 1): (0.25, 0.58, 0.17, 0.00),
    (10, 0): (0.31, 0.47, 0.21, 0.01),
    (10, 1): (0.40, 0.48, 0.12, 0.00),
    (12, 0): (0.44, 0.45, 0.10, 0.01),
    (12, 1): (0.58, 0.39, 0.03, 0.00),
}
"""P(shanten = 0, 1, 2, 3) of a hand by (its seat's discards, rounded down to even and
capped at 12; melds, capped at 2), measured over 1,200 hands of greedy self-play
(Jiaxing). The remainder is "3 or more", sampled uniformly. A uniformly dealt hand sits
at 3–4 shanten, while by the middle of a hand real opponents are one or two tiles from
ready: samples that ignore this make every slow plan look safe."""
_DEVELOPMENT_TWO_MELDS = {
    0: (0.25, 0.38, 0.37, 0.0),
    2: (0.25, 0.38, 0.37, 0.0),
    4: (0.38, 0.38, 0.24, 0.0),
    6: (0.46, 0.53, 0.01, 0.0),
    8: (0.50, 0.48, 0.02, 0.0),
    10: (0.63, 0.37, 0.0, 0.0),
    12: (0.73, 0.27, 0.0, 0.0),
}


def target_shanten(discards: int, melds: int, rng: random.Random) -> int:
    """A shanten drawn from :data:`_DEVELOPMENT` for a seat with that public history."""
    bucket = min(discards, 12) // 2 * 2
    probs = _DEVELOPMENT_TWO_MELDS[bucket] if melds >= 2 else _DEVELOPMENT[(bucket, melds)]
    r = rng.random()
    acc = 0.0
    for sh, p in enumerate(probs):
        acc += p
        if r < acc:
            return sh
    return len(probs)


def _take_random(avail: list[int], n: int, rng: random.Random) -> list[int]:
    """``n`` tiles drawn without replacement from the counts ``avail`` (updated)."""
    flat = [k for k, c in enumerate(avail) for _ in range(c)]
    out = rng.sample(flat, n)
    for t in out:
        avail[t] -= 1
    return out


def discard_weights(discards: Sequence[int]) -> list[float]:
    """How likely a seat still holds each kind, relative to 1, judging by its discards: a
    player lets go of what it does not need, so the kinds it threw and their close
    neighbours are less likely to be in its sets (or its wait)."""
    w = [1.0] * 34
    for d in set(discards):
        w[d] *= 0.3
        if d < 27:
            pos = d % 9
            for off, f in ((-2, 0.8), (-1, 0.6), (1, 0.6), (2, 0.8)):
                if 0 <= pos + off < 9:
                    w[d + off] *= f
    return w


def _shaped_hand(
    avail: list[int],
    size: int,
    target: int,
    rng: random.Random,
    weights: Sequence[float] | None = None,
) -> list[int] | None:
    """``size`` tiles (3n + 1) from ``avail`` about ``target`` tiles from ready: a complete
    hand of random sets and a pair, one tile dropped, ``target`` tiles swapped for random
    ones. A set is kept with the probability ``weights`` gives its least likely kind.
    None (``avail`` untouched) when the pool cannot make the sets."""
    n_sets = (size - 1) // 3
    # a hand of n sets and a single is at most 2n from ready (four melds and one tile:
    # always ready); a deeper target would drop more tiles than the sets hold
    target = min(target, 2 * n_sets)
    tiles: list[int] = []
    chance = rng.random
    for _ in range(n_sets):
        for _attempt in range(40):
            k = rng.randrange(34)
            if k < 27 and k % 9 <= 6 and chance() < 0.7:
                if avail[k] and avail[k + 1] and avail[k + 2]:
                    group = [k, k + 1, k + 2]
                else:
                    continue
            elif avail[k] >= 3:
                group = [k, k, k]
            else:
                continue
            if weights is None or chance() < min(weights[t] for t in group):
                break
        else:
            break
        for t in group:
            avail[t] -= 1
        tiles.extend(group)
    else:
        for _attempt in range(40):
            k = rng.randrange(34)
            if avail[k] >= 2 and (weights is None or chance() < weights[k]):
                avail[k] -= 2
                tiles.extend((k, k))
                break
    if len(tiles) != size + 1:
        for t in tiles:
            avail[t] += 1
        return None
    rng.shuffle(tiles)
    dropped = tiles[: target + 1]
    kept = tiles[target + 1 :]
    kept.extend(_take_random(avail, target, rng))
    for t in dropped:
        avail[t] += 1
    return kept


def determinize_mahjong(
    hand: MahjongHand, seat: int, rng: random.Random, *, shaped: bool = True
) -> MahjongHand:
    """A copy of ``hand`` consistent with what ``seat`` sees, the hidden tiles resampled.

    Other seats keep their concealed counts' sizes; flowers (never held) go to the wall.
    With ``shaped`` each other seat's hand is built about as far from ready as a greedy
    player's usually is at its stage of the hand (:func:`target_shanten`), from the unseen
    tiles; otherwise the unseen tiles are dealt uniformly. The pending claim window (or
    抢杠 / 天听 window) is rebuilt from the sampled hands and holds no answer yet except
    that ``seat`` still has to give its own."""
    pool = unseen_tiles(hand, seat)
    flowers = [t for t in pool if t >= 34]
    avail = [0] * 34
    for t in pool:
        if t < 34:
            avail[t] += 1
    det = hand.copy()
    n_seats = len(hand.counts)
    for s in range(n_seats):
        if s == seat:
            continue
        size = sum(hand.counts[s])
        counts = bytearray(34)
        if hand.phase == ROB and s == hand.rob_seat:
            counts[hand.claim_tile] += 1
            size -= 1
        tiles = None
        if shaped and size % 3 == 1:
            declared = len(hand.melds[s])
            target = target_shanten(len(hand.discards[s]), declared, rng)
            if target < 3:
                weights = discard_weights(hand.discards[s])
                tiles = _shaped_hand(avail, size, target, rng, weights)
        if tiles is None:
            tiles = _take_random(avail, size, rng)
        for t in tiles:
            counts[t] += 1
        det.counts[s] = counts
    rest = [k for k, c in enumerate(avail) for _ in range(c)] + flowers
    rng.shuffle(rest)
    if len(rest) != hand.tail - hand.head:  # pragma: no cover - conservation again
        raise AssertionError("the unseen tiles do not fill the hands and the wall")
    det.wall = hand.wall[: hand.head] + rest + hand.wall[hand.tail :]
    det._waits = [None] * n_seats
    det._legal = {}
    current = hand.current
    if current != seat and det.drawn >= 0 and not det.counts[current][det.drawn]:
        # the seat to move drew a tile nobody else saw: any tile of its sampled hand
        det.drawn = next(k for k in range(34) if det.counts[current][k])
    if hand.phase in (CLAIM, ROB, DECLARE):
        det.pending = _rebuilt_window(hand, det, seat)
        det.answers = {}
    return det


def _rebuilt_window(hand: MahjongHand, det: MahjongHand, seat: int) -> dict[int, list[int]]:
    """The window's options for every seat, ``seat``'s own as the real hand offers them
    and the others' as the engine would offer them on the sampled hands."""
    own = list(hand.legal_actions(seat))
    pending: dict[int, list[int]] = {}
    tile = hand.claim_tile
    if hand.phase == CLAIM:
        source = hand.claim_from
        for s in _after(source, len(hand.counts)):
            opts = own if s == seat else det.claim_options(s, tile)
            if opts:
                pending[s] = opts
    elif hand.phase == ROB:
        for s in _after(hand.rob_seat, len(hand.counts)):
            if s == seat:
                pending[s] = own
            elif det._can_take(s, tile, WinType.ROBBED_KONG):
                pending[s] = [A.PASS, A.HU]
    else:
        for s in _after(hand.dealer, len(hand.counts)):
            if s == seat:
                pending[s] = own
            elif det.rules.is_ready(det, s, bytes(det.counts[s])):
                pending[s] = [A.PASS, A.DECLARE]
    return pending


def _after(seat: int, n: int) -> list[int]:
    return [(seat + i) % n for i in range(1, n)]


def determinize_qinger(hand: Any, seat: int, rng: random.Random) -> Any:
    """A copy of a Qing'er hand consistent with what ``seat`` sees: the other players'
    cards, the 见张 (until a knock shows it) and the stock resampled from the cards
    ``seat`` cannot see; flowers set aside stay where they are, and a hand past 补花 gets
    no flower back (they go to the stock). The copy's redeal shuffles are reseeded from
    ``rng``: the real hand's generator is hidden state too."""
    from paiju.components.cards import N_CARD_KINDS, full_deck
    from paiju.variants.qinger import hand as Q

    left = [0] * N_CARD_KINDS
    for deck_card in full_deck():
        left[int(deck_card)] += 1
    for k, n in enumerate(hand.counts[seat]):
        left[k] -= n
    for s in range(hand.n_seats):
        for m in hand.melds[s]:
            for meld_card in m.cards:
                left[int(meld_card)] -= 1
        for group in (hand.discards[s], hand.flowers[s]):
            for card in group:
                left[card] -= 1
        for shown in hand.takeoffs[s]:
            for card in shown:
                left[card] -= 1
    # the 见张 lies face up at the bottom of the stock until the last draw takes it
    indicator_down = hand.revealed and hand.head < len(hand.stock)
    if indicator_down:
        left[hand.indicator] -= 1
    if min(left) < 0:  # pragma: no cover - the engine conserves cards
        raise AssertionError("more cards seen than the deck holds")
    before_flowers = hand.phase == Q.KNOCK_PHASE
    flower = hand.is_flower
    pool = [c for c, n in enumerate(left) for _ in range(n)]
    rng.shuffle(pool)
    holdable = [c for c in pool if before_flowers or not flower[c]]
    aside = [c for c in pool if not (before_flowers or not flower[c])]
    det = hand.copy()
    det.rng = random.Random(rng.getrandbits(64))
    pos = 0
    for s in hand.players:
        if s == seat:
            continue
        size = sum(hand.counts[s])
        counts = bytearray(N_CARD_KINDS)
        kinds = bytearray(len(hand.kinds[s]))
        for card in holdable[pos : pos + size]:
            counts[card] += 1
            kind = Q.MELD_KIND[card]
            if kind >= 0:
                kinds[kind] += 1
        pos += size
        det.counts[s] = counts
        det.kinds[s] = kinds
        if hand.last_in[s] >= 0 and not counts[hand.last_in[s]]:
            det.last_in[s] = next(c for c in range(N_CARD_KINDS) if counts[c])
    rest = holdable[pos:] + aside
    rng.shuffle(rest)
    if indicator_down:
        det.stock = hand.stock[: hand.head] + rest + [hand.indicator]
    elif hand.revealed:
        det.stock = hand.stock[: hand.head] + rest
    else:
        det.indicator = rest.pop()
        det.stock = hand.stock[: hand.head] + rest
    if len(det.stock) != len(hand.stock):  # pragma: no cover - conservation again
        raise AssertionError("the unseen cards do not fill the hands and the stock")
    current = hand.current
    if current != seat and det.drawn >= 0 and not det.counts[current][det.drawn]:
        det.drawn = det.last_in[current]
    det._legal = {}
    if hand.phase == Q.CLAIM:
        det.pending = _qinger_window(hand, det, seat)
        det.answers = {}
    return det


def _qinger_window(hand: Any, det: Any, seat: int) -> dict[int, list[int]]:
    """The claim window on the sampled hands, as the Qing'er engine builds it."""
    from paiju.variants.qinger import hand as Q
    from paiju.variants.qinger import scoring as QS

    card, source = hand.claim_card, hand.claim_from
    kind = Q.MELD_KIND[card]
    meld_ok = det.head < len(det.stock)
    pending: dict[int, list[int]] = {}
    s = det.next_seat[source]
    while s != source:
        if s == seat:
            own = list(hand.legal_actions(seat))
            if own:
                pending[s] = own
        else:
            kinds = det.kinds[s]
            n = kinds[kind]
            opts: list[int] = []
            if meld_ok and n >= 2:
                opts.append(Q.PONG)
                if n == 3:
                    opts.append(Q.KONG)
            kinds[kind] = n + 1
            complete = QINGER.is_complete_standard(bytes(kinds), det.declared[s])
            kinds[kind] = n
            if complete and QS.can_win(
                det._scoring_hand([s], WinType.DISCARD, card, source), det.options
            ):
                opts.append(Q.HU)
            if opts:
                pending[s] = [Q.PASS, *opts]
        s = det.next_seat[s]
    return pending


def determinize(hand: Any, seat: int, rng: random.Random) -> Any:
    """A sample of ``hand`` as ``seat`` may imagine it. A game whose hand class offers
    ``determinize(seat, rng)`` supplies its own; mahjong hands use
    :func:`determinize_mahjong`."""
    own = getattr(hand, "determinize", None)
    if own is not None:
        return own(seat, rng)
    if isinstance(hand, MahjongHand):
        return determinize_mahjong(hand, seat, rng)
    if _is_qinger(hand):
        return determinize_qinger(hand, seat, rng)
    raise TypeError(f"no determinization for {type(hand).__name__}")


def _is_qinger(hand: Any) -> bool:
    from paiju.variants.qinger.hand import QingerHand

    return isinstance(hand, QingerHand)


def can_search(hand: Any) -> bool:
    return hasattr(hand, "determinize") or isinstance(hand, MahjongHand) or _is_qinger(hand)


def mahjong_candidates(hand: MahjongHand, seat: int, legal: Sequence[int], keep: int) -> list[int]:
    """The actions worth searching, best first by the greedy measure: every window answer;
    in a turn the ``keep`` discards leaving the lowest shanten (then most improving unseen
    tiles), their ready declarations, and every kong."""
    if hand.phase != ACT:
        return list(legal)
    from paiju.bots.simple import _ukeire, unseen_counts

    counts = bytearray(hand.counts[seat])
    declared = len(hand.melds[seat])
    discards = [a for a in legal if a < 34]
    ranked: list[tuple[int, float, int]] = []
    for a in discards:
        counts[a] -= 1
        ranked.append((MAHJONG.shanten(bytes(counts), declared), 0, a))
        counts[a] += 1
    ranked.sort()
    if len(ranked) > keep:
        unseen = unseen_counts(hand, seat)
        cut = ranked[keep - 1][0]
        close = [r for r in ranked if r[0] <= cut]
        scored = []
        for sh, _, a in close:
            counts[a] -= 1
            scored.append((sh, -_ukeire(counts, declared, sh, unseen), a))
            counts[a] += 1
        ranked = sorted(scored)[:keep]
    top = [a for _, _, a in ranked]
    out = list(top)
    for a in legal:
        if a >= 34 and (a < A.TING or a - A.TING in top):
            out.append(a)
    return out


def _closeness(counts: bytearray, k: int) -> int:
    """How much of the hand sits near kind ``k``: copies count most, then neighbours in
    the same suit. A cheap stand-in for ukeire when the rollouts choose a discard."""
    score = 4 * (counts[k] - 1)
    if k < 27:
        pos = k % 9
        base = k - pos
        for d, w in ((1, 2), (2, 1)):
            if pos - d >= 0:
                score += w * counts[base + pos - d]
            if pos + d < 9:
                score += w * counts[base + pos + d]
    return score


class RolloutBot:
    """The fast mahjong policy that finishes sampled hands: it wins when it can, keeps the
    lowest shanten (ties: the discard with the least of the hand around it, then at
    random), takes a kong that keeps the shanten and a pong that lowers it. Unlike
    ``greedy`` it never counts unseen tiles (ukeire), which makes it several times
    faster; ``greedy`` still ranks the candidates of the real decision. Select it with
    ``StrongBot(rollout="rollout")``."""

    name = "rollout"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed).random

    def __call__(self, hand: MahjongHand, seat: int) -> int:
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        for win in (A.ZIMO, A.HU, A.DECLARE):
            if win in legal:
                return win
        counts = bytearray(hand.counts[seat])
        declared = len(hand.melds[seat])
        shanten = MAHJONG.shanten
        if A.PASS in legal:
            tile = hand.claim_tile
            if A.PONG not in legal:
                return A.PASS
            now = shanten(bytes(counts), declared)
            counts[tile] -= 2
            after = 99
            for k in range(34):
                if counts[k]:
                    counts[k] -= 1
                    after = min(after, shanten(bytes(counts), declared + 1))
                    counts[k] += 1
            return A.PONG if after < now else A.PASS
        best: tuple[int, int, float] | None = None
        choice = legal[0]
        for action in legal:
            if action < 34:
                counts[action] -= 1
                sh = shanten(bytes(counts), declared)
                counts[action] += 1
                key = (sh, _closeness(counts, action), self._random())
            elif action < 102:
                tile = action - 34 if action < 68 else action - 68
                take = 4 if action < 68 else 1
                counts[tile] -= take
                sh = shanten(bytes(counts), declared + (action < 68))
                counts[tile] += take
                key = (sh - 1, -1, 0.0)
            else:
                continue
            if best is None or key < best:
                best, choice = key, action
        if A.TING + choice in legal:
            return A.TING + choice
        return choice


def qinger_candidates(hand: Any, seat: int, legal: Sequence[int], keep: int) -> list[int]:
    """Qing'er's actions worth searching: every answer outside a turn (knock or pass,
    takeoffs, claims); in a turn the ``keep`` discards leaving the hand closest to
    complete, and every kong or win."""
    from paiju.variants.qinger import hand as Q

    if hand.phase != Q.ACT:
        return list(legal)
    kinds = bytearray(hand.kinds[seat])
    declared = hand.declared[seat]
    ranked = []
    for a in legal:
        if a < Q.CONCEALED_KONG:
            kind = Q.MELD_KIND[a]
            if kind >= 0:
                kinds[kind] -= 1
            ranked.append((QINGER.shanten_standard(bytes(kinds), declared), a))
            if kind >= 0:
                kinds[kind] += 1
    ranked.sort()
    return [a for _, a in ranked[:keep]] + [a for a in legal if a >= Q.CONCEALED_KONG]


class StrongBot:
    """Search on top of greedy (see the module's docstring).

    ``search``: ``lookahead``, ``montecarlo`` or ``both`` (default: per game,
    :data:`DEFAULT_SEARCH`); a game without the lookahead (Qing'er) always uses Monte
    Carlo. ``lookahead``: the lookahead's :class:`~paiju.bots.lookahead.Model`.
    ``budget``: seconds of Monte Carlo per decision; ``rollouts``: a fixed number of
    samples instead (the decision then depends only on the seed and what the seat sees);
    ``candidates``:
    discards searched per turn; ``rollout``: the policy that finishes sampled hands
    (a bot name, ``greedy`` by default, or ``rollout`` for :class:`RolloutBot` in mahjong
    and greedy elsewhere); ``margin`` and ``claim_margin``:
    see :data:`DEFAULT_MARGIN` and :data:`DEFAULT_CLAIM_MARGIN`.
    """

    name = "strong"

    def __init__(
        self,
        seed: int = 0,
        variant: str = "jiaxing",
        *,
        budget: float = DEFAULT_BUDGET,
        rollouts: int | None = None,
        candidates: int = DEFAULT_CANDIDATES,
        rollout: str = "greedy",
        margin: float | None = None,
        claim_margin: float | None = None,
        search: str | None = None,
        lookahead: Model | None = None,
    ) -> None:
        search = search or DEFAULT_SEARCH.get(variant, "montecarlo")
        if search not in SEARCHES:
            raise ValueError(f"unknown search {search!r} (known: {', '.join(SEARCHES)})")
        if budget <= 0:
            raise ValueError(f"budget must be positive, not {budget}")
        if rollouts is not None and rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        if candidates < 1:
            raise ValueError(f"candidates must be at least 1, not {candidates}")
        from paiju.bots.simple import make_bot

        self.seed = seed
        self.variant = variant
        self.search = search
        self.lookahead = lookahead or DEFAULT_MODEL
        self.budget = budget
        self.rollouts = rollouts
        self.candidates = candidates
        self.rollout = rollout
        # the fast policy is mahjong's; other games finish their samples with greedy
        self._game_policy: Callable[[int], Decide] = lambda s: make_bot(
            "greedy" if rollout == "rollout" else rollout, s, variant
        )
        self.margin = DEFAULT_MARGIN if margin is None else margin
        self.claim_margin = DEFAULT_CLAIM_MARGIN if claim_margin is None else claim_margin
        # the real decision's default and ranking come from greedy, whatever finishes
        # the sampled hands
        self._fallback = make_bot("greedy", seed, variant)
        self._decisions = 0
        self.samples: list[int] = []
        """Samples taken at each searched decision (for the bench and for tuning)."""

    def __call__(self, hand: Any, seat: int) -> int:
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            return int(legal[0])
        default = int(self._fallback(hand, seat))
        if not can_search(hand):
            return default
        in_turn = False
        if isinstance(hand, MahjongHand):
            if A.ZIMO in legal:
                return A.ZIMO
            if self.search != "montecarlo":
                default = lookahead_action(hand, seat, legal, default, self.lookahead)
                if self.search == "lookahead":
                    return default
            cands = mahjong_candidates(hand, seat, legal, self.candidates)
            in_turn = hand.phase == ACT
        elif _is_qinger(hand):
            from paiju.variants.qinger import hand as Q

            cands = qinger_candidates(hand, seat, legal, self.candidates)
            in_turn = hand.phase == Q.ACT
        else:
            cands = list(legal)
        # the default first (greedy's, or the lookahead's): ties keep it
        cands = [default] + [a for a in cands if a != default]
        if len(cands) == 1:
            return default
        return self._search(hand, seat, cands, in_turn)

    def _search(self, hand: Any, seat: int, cands: list[int], in_turn: bool) -> int:
        self._decisions += 1
        # a fresh stream per decision: one decision's sample count (which follows the
        # clock) never shifts the samples of the next
        rng = random.Random(self.seed * 1_000_003 + self._decisions)
        n_seats = _n_seats(hand)
        # values[i][j]: candidate i's result on sample j (all candidates see each sample)
        policy = self._game_policy
        if self.rollout == "rollout" and isinstance(hand, MahjongHand):
            policy = RolloutBot
        values: list[list[float]] = [[] for _ in cands]
        deadline = time.perf_counter() + self.budget
        samples = 0
        while True:
            det = determinize(hand, seat, rng)
            seeds = [rng.getrandbits(32) for _ in range(n_seats)]
            for i, action in enumerate(cands):
                players = [policy(s) for s in seeds]
                values[i].append(self._rollout(det, seat, action, players))
            samples += 1
            if self.rollouts is not None:
                if samples >= self.rollouts:
                    break
            elif samples >= MIN_SAMPLES and time.perf_counter() >= deadline:
                break
        self.samples.append(samples)
        return cands[self._pick(values, self.margin if in_turn else self.claim_margin)]

    def _pick(self, values: list[list[float]], margin: float) -> int:
        """The candidate whose mean beats the default's (index 0) by the most, counted
        only when the paired difference is ``margin`` standard errors above zero."""
        base = values[0]
        n = len(base)
        best, best_gain = 0, 0.0
        for i in range(1, len(values)):
            diffs = [a - b for a, b in zip(values[i], base, strict=True)]
            gain = sum(diffs) / n
            if gain <= best_gain:
                continue
            if n > 1:
                var = sum((d - gain) ** 2 for d in diffs) / (n - 1)
                if gain <= margin * (var / n) ** 0.5:
                    continue
            best, best_gain = i, gain
        return best

    def _rollout(self, det: Any, seat: int, action: int, players: list[Decide]) -> float:
        h = det.copy()
        h.apply(action, seat)
        play_hand(h, players)
        return float(h.net()[seat])


def _n_seats(hand: Any) -> int:
    counts = getattr(hand, "counts", None)
    if counts is not None:
        return len(counts)
    return int(getattr(hand, "n_seats", 4))


def make_player(
    name: str,
    seed: int = 0,
    variant: str = "jiaxing",
    *,
    budget: float | None = None,
    search: str | None = None,
) -> Decide:
    """Any bot by name: ``strong`` (with ``budget`` seconds of Monte Carlo per decision
    and the ``search`` if given) or one of :func:`paiju.bots.simple.make_bot`'s."""
    if name == "strong":
        return StrongBot(seed, variant, budget=budget or DEFAULT_BUDGET, search=search)
    from paiju.bots.simple import make_bot

    return make_bot(name, seed, variant)
