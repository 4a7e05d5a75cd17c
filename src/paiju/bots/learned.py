"""The learned bot: a small policy network trained by ``paiju train``, run with numpy.

A weights file (``.npz``) holds the layers of a multilayer perceptron over the seat's
observation (the planes of :mod:`paiju.rl.encode`, flattened, followed by the
scalars): ``w0, b0, w1, b1, …`` (ReLU between layers; the last layer gives one logit per
action code), plus ``variant`` and ``n_planes`` / ``n_scalars`` to check that the file
fits the game. The bot plays the legal action with the highest logit; with one legal
action it does not run the network. It reads only what its seat may see (the encoder's
normal planes). Shipped weights live in ``paiju/bots/weights/<variant>.npz``.

With ``greedy_input`` set in the file (``paiju train``'s default) the input ends with a
one-hot row over the action codes: the action the game's greedy bot would take for the
seat (greedy too reads only the seat's own tiles and public state), and that row, times
the file's ``hint_scale``, is also added to the logits. The network is then a residual
policy: it starts as greedy and learns where its teacher plays differently.

With ``candidate_features`` set in the file, one more row over the action codes comes
before greedy's: :func:`candidate_row`, the score by which the strong bot's lookahead
moves greedy's discard far from ready (improving tiles, a held pair's counted as pongs
too); that row, times the file's ``candidate_scale``, is also added to the logits, so
the untrained network already plays that tie-break, and its layers are spent on the
rest.

With ``decides`` in the file (a list of :data:`DECISION_KINDS`, from ``paiju train
--decides``) the network makes only those kinds of decision and the bot plays greedy's
action at every other (the network was trained on those kinds alone).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.rl.codecs import codec_for

WEIGHTS_DIR = Path(__file__).parent / "weights"
WEIGHTS_ENV = "PAIJU_LEARNED_WEIGHTS"
"""An environment variable naming a directory of ``<variant>.npz`` files to use instead
of the shipped ones (to evaluate a training run in ``paiju arena`` before shipping it)."""


class LearnedBotError(ValueError):
    """A weights file that is missing or does not fit the game."""


def weights_path(variant: str) -> Path:
    folder = os.environ.get(WEIGHTS_ENV)
    return (Path(folder) if folder else WEIGHTS_DIR) / f"{variant}.npz"


Decide = Callable[[Any, int], int]

DECISION_KINDS = ("turn", "claim", "knock", "takeoff")
"""What a decision is about (:func:`decision_kind`): the seat's own turn (discard, kong,
self-drawn win), an answer to another seat's discard (pass, chow, pong, kong, win), and
Qing'er's knock (敲) and takeoff (起飞) answers."""


def decision_kind(hand: Any) -> str:
    """The :data:`DECISION_KINDS` entry of the decision ``hand`` waits for."""
    from paiju.variants.qinger.hand import QingerHand

    if isinstance(hand, QingerHand):
        from paiju.variants.qinger import hand as Q

        return {Q.KNOCK_PHASE: "knock", Q.TAKEOFF_PHASE: "takeoff", Q.CLAIM: "claim"}.get(
            hand.phase, "turn"
        )
    from paiju.engine.mahjong import ACT

    return "turn" if hand.phase == ACT else "claim"


CANDIDATE_SCALE = 40.0
"""Divides :func:`candidate_row`'s tile counts (as the encoder's ukeire plane does)."""


def candidate_row(
    hand: Any, seat: int, n_actions: int, default: int | None = None
) -> npt.NDArray[np.float32]:
    """The strong bot's far-hand tie-break as one value per action code, from the seat's
    own tiles and the tiles it has seen. In a mahjong seat's own turn with every discard
    leaving it two or more from ready (beyond the lookahead's depth), for each discard
    that keeps the best shanten: the unseen tiles that would then lower the shanten, a
    tile the hand holds a pair of counted ``1 + 3 * DISCARD_RATE`` times (it may come as
    a pong of any seat's discard), divided by :data:`CANDIDATE_SCALE` — the score by
    which :func:`paiju.bots.lookahead._far_discard` moves greedy's discard. Zero
    everywhere else: claims, kongs, hands nearer ready, other games, and (``default``:
    greedy's action) where greedy's own choice is not a best-shanten discard (the
    tie-break then keeps it)."""
    from paiju.bots.lookahead import DISCARD_RATE, MAX_SHANTEN
    from paiju.engine.mahjong import ACT, MahjongHand

    row = np.zeros(n_actions, dtype=np.float32)
    if not isinstance(hand, MahjongHand) or hand.phase != ACT or hand.current != seat:
        return row
    from paiju.bots.simple import _ukeire, reader, unseen_counts
    from paiju.engine import actions as A

    legal = hand.legal_actions(seat)
    tiles = [a for a in legal if a < 34]
    if len(tiles) < 2:
        return row
    read = reader(hand, seat)
    counts = bytearray(hand.counts[seat][:34])
    declared = len(hand.melds[seat])
    after: dict[int, bytearray] = {}
    shanten: dict[int, int] = {}
    for t in tiles:
        counts[t] -= 1
        after[t] = bytearray(counts)
        shanten[t] = read.shanten(bytes(counts), declared)
        counts[t] += 1
    best = min(shanten.values())
    if best <= MAX_SHANTEN:
        return row
    if default is not None:
        base = default - A.TING if default >= A.TING else default
        if base >= 34 or shanten.get(base) != best:
            return row
    unseen = unseen_counts(hand, seat)
    pong = 1.0 + 3.0 * DISCARD_RATE
    for t in tiles:
        if shanten[t] == best:
            score = _ukeire(after[t], declared, best, unseen, pong, shanten=read.shanten)
            row[t] = score / CANDIDATE_SCALE
    return row


def features(
    encoder: Any,
    hand: Any,
    seat: int,
    n_actions: int,
    greedy: Decide | None = None,
    *,
    candidates: bool = False,
) -> npt.NDArray[np.float32]:
    """The network's input for ``seat``: the planes (flattened), the scalars, with
    ``candidates`` the :func:`candidate_row`, and with ``greedy`` the one-hot row of the
    greedy bot's action (always last: the residual adds it to the logits)."""
    planes, scalars = encoder.encode(hand, seat)
    parts = [planes.ravel(), scalars]
    default = None if greedy is None else int(greedy(hand, seat))
    if candidates:
        parts.append(candidate_row(hand, seat, n_actions, default))
    if default is not None:
        hint = np.zeros(n_actions, dtype=np.float32)
        hint[default] = 1.0
        parts.append(hint)
    return np.concatenate(parts)


class Policy:
    """The network of one weights file (numpy arrays, float32)."""

    def __init__(
        self,
        layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
        greedy_input: bool = False,
        hint_scale: float = 0.0,
        candidate_features: bool = False,
        candidate_scale: float = 0.0,
        *,
        decides: frozenset[str] | None = None,
    ):
        self.layers = layers
        self.greedy_input = greedy_input
        self.hint_scale = hint_scale
        self.candidate_features = candidate_features
        self.candidate_scale = candidate_scale
        self.decides = decides
        """The decision kinds the network makes (None: all); greedy makes the others."""

    @classmethod
    def load(cls, path: Path, variant: str, n_inputs: int, n_actions: int) -> Policy:
        """``n_inputs``: the observation's size (planes and scalars); a file with
        ``greedy_input`` takes ``n_actions`` more, and one with ``candidate_features``
        ``n_actions`` more again."""
        if not path.is_file():
            raise LearnedBotError(
                f"no learned weights for {variant} at {path} (train them: paiju train {variant})"
            )
        with np.load(path, allow_pickle=False) as data:
            if str(data["variant"]) != variant:
                raise LearnedBotError(f"{path} holds weights for {data['variant']}, not {variant}")
            greedy_input = bool(data["greedy_input"]) if "greedy_input" in data else False
            hint_scale = float(data["hint_scale"]) if "hint_scale" in data else 0.0
            cands = bool(data["candidate_features"]) if "candidate_features" in data else False
            cand_scale = float(data["candidate_scale"]) if "candidate_scale" in data else 0.0
            decides = frozenset(str(k) for k in data["decides"]) if "decides" in data else None
            layers = []
            i = 0
            while f"w{i}" in data:
                layers.append((data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)))
                i += 1
        width = n_inputs + n_actions * (int(greedy_input) + int(cands))
        if not layers or layers[0][0].shape[0] != width or layers[-1][0].shape[1] != n_actions:
            raise LearnedBotError(f"{path} does not fit {variant}'s observation or actions")
        if decides is not None and not decides <= set(DECISION_KINDS):
            raise LearnedBotError(f"{path} names unknown decision kinds: {sorted(decides)}")
        return cls(layers, greedy_input, hint_scale, cands, cand_scale, decides=decides)

    def logits(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0.0, out=h)
        n = h.shape[0]
        if self.greedy_input:
            h += self.hint_scale * x[-n:]
        if self.candidate_features:
            # the candidate row sits just before greedy's (or last without it)
            end = len(x) - (n if self.greedy_input else 0)
            h += self.candidate_scale * x[end - n : end]
        return h


_CACHE: dict[tuple[str, str], Policy] = {}


class LearnedBot:
    """Plays ``variant`` with the network in ``path`` (default: the shipped weights)."""

    name = "learned"

    def __init__(self, seed: int = 0, variant: str = "jiaxing", path: Path | None = None):
        codec = codec_for(variant)
        self.encoder = codec.encoder(shanten=True)
        self.variant = variant
        n_inputs = self.encoder.n_planes * self.encoder.kinds + self.encoder.n_scalars
        where = path if path is not None else weights_path(variant)
        key = (variant, str(where))
        policy = _CACHE.get(key)
        if policy is None:
            policy = _CACHE[key] = Policy.load(where, variant, n_inputs, codec.n_actions)
        self.policy = policy
        self.n_actions = codec.n_actions
        self.greedy: Decide | None = None
        if policy.greedy_input or policy.decides is not None:
            from paiju.bots.greedy import greedy_bot

            self.greedy = greedy_bot(variant, seed)

    def features(self, hand: Any, seat: int) -> npt.NDArray[np.float32]:
        return features(
            self.encoder,
            hand,
            seat,
            self.n_actions,
            self.greedy if self.policy.greedy_input else None,
            candidates=self.policy.candidate_features,
        )

    def __call__(self, hand: Any, seat: int) -> int:
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            return int(legal[0])
        decides = self.policy.decides
        if decides is not None and decision_kind(hand) not in decides and self.greedy:
            return int(self.greedy(hand, seat))
        logits = self.policy.logits(self.features(hand, seat))
        best = max(legal, key=lambda a: float(logits[a]))
        return int(best)
