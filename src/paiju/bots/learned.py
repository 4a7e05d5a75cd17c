"""The learned bot: a small policy network trained by ``paiju train``, run with numpy.

A weights file (``.npz``) holds the layers of a multilayer perceptron over the seat's
observation (the planes of :mod:`paiju.rl.encode`, flattened, followed by the
scalars): ``w0, b0, w1, b1, …`` (ReLU between layers; the last layer gives one logit per
action code), plus ``variant`` and ``n_planes`` / ``n_scalars`` to check that the file
fits the game. The bot plays the legal action with the highest logit; with one legal
action it does not run the network. It reads only what its seat may see (the encoder's
normal planes). Shipped weights live in ``paiju/bots/weights/<variant>.npz``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.rl.codecs import codec_for

WEIGHTS_DIR = Path(__file__).parent / "weights"


class LearnedBotError(ValueError):
    """A weights file that is missing or does not fit the game."""


def weights_path(variant: str) -> Path:
    return WEIGHTS_DIR / f"{variant}.npz"


class Policy:
    """The network of one weights file (numpy arrays, float32)."""

    def __init__(self, layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]):
        self.layers = layers

    @classmethod
    def load(cls, path: Path, variant: str, n_inputs: int, n_actions: int) -> Policy:
        if not path.is_file():
            raise LearnedBotError(
                f"no learned weights for {variant} at {path} (train them: paiju train {variant})"
            )
        with np.load(path, allow_pickle=False) as data:
            if str(data["variant"]) != variant:
                raise LearnedBotError(f"{path} holds weights for {data['variant']}, not {variant}")
            layers = []
            i = 0
            while f"w{i}" in data:
                layers.append((data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32)))
                i += 1
        if not layers or layers[0][0].shape[0] != n_inputs or layers[-1][0].shape[1] != n_actions:
            raise LearnedBotError(f"{path} does not fit {variant}'s observation or actions")
        return cls(layers)

    def logits(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                np.maximum(x, 0.0, out=x)
        return x


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

    def features(self, hand: Any, seat: int) -> npt.NDArray[np.float32]:
        planes, scalars = self.encoder.encode(hand, seat)
        return np.concatenate((planes.ravel(), scalars))

    def __call__(self, hand: Any, seat: int) -> int:
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            return int(legal[0])
        logits = self.policy.logits(self.features(hand, seat))
        best = max(legal, key=lambda a: float(logits[a]))
        return int(best)
