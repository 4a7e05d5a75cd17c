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

A file with ``kind == "danger"`` (``paiju train <variant> --danger``,
:mod:`paiju.rl.danger`) holds another network: ``dw0, db0, …`` over the default
encoder's observation (planes flattened, then scalars; no shanten planes) giving one
logit per tile kind, the chance that discarding it now lets another seat win on it.
The bot then plays greedy, except at its own turn's discard (:class:`DangerPolicy`):
where greedy's discard looks dangerous it takes a safer one. A file without ``kind``
is the policy network above.
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


VALUE_ROWS = (
    "ready_draw",
    "ready_discard",
    "ready_tiles",
    "near_value",
    "near_share",
    "valued",
    "wall_left",
)
"""The rows of :func:`value_rows`, in order."""

VALUE_SCALE = 0.5
"""Points per unit in :func:`value_rows`' value rows."""

READY_TILES_SCALE = 20.0
"""Tiles per unit in :func:`value_rows`' ``ready_tiles`` row."""


def value_rows(hand: Any, seat: int, n_actions: int) -> npt.NDArray[np.float32]:
    """What the scorer pays one step out, per candidate action, from the seat's own
    tiles, the tiles it has seen and the rules: one row per name of :data:`VALUE_ROWS`
    over the action codes. Filled for a mahjong seat's discards in its own turn (a ready
    declaration's code gets its discard's rows) and for pass / pong / kong when a pong or
    kong is offered, wherever the hand the action leaves is ready or one tile from it
    (the lookahead's region, :data:`~paiju.bots.lookahead.MAX_SHANTEN`); zero elsewhere.

    For a ready hand (each wait's chance is its unseen copies over all unseen tiles):
    ``ready_draw`` the chance-weighted points of winning on each wait by self-draw,
    ``ready_discard`` the same on another seat's discard (where one may let it go),
    both / :data:`VALUE_SCALE`, ``ready_tiles`` the unseen copies of the waits the rules
    would accept / :data:`READY_TILES_SCALE` (Taixing's 缺门 and flower minimums make a
    wait worth nothing). For a hand one from ready: ``near_value`` the chance-weighted
    best ``ready_draw + ready_discard`` over each improving draw's discards, and
    ``near_share`` the chance of an improving draw that leads to a ready hand some wait
    of which pays. ``valued`` is 1 where the rows are filled, ``wall_left`` the wall's
    tiles / 136 there. No hazard, no horizon: how these weigh against each other and
    against greedy's choice is what the network learns."""
    from paiju.engine.mahjong import ACT, CLAIM, MahjongHand

    rows = np.zeros((len(VALUE_ROWS), n_actions), dtype=np.float32)
    if not isinstance(hand, MahjongHand):
        return rows
    from paiju.bots.lookahead import WinLookahead
    from paiju.bots.simple import reader, unseen_counts
    from paiju.components.tiles import Tile
    from paiju.engine import actions as A
    from paiju.engine.types import Meld, MeldType

    legal = hand.legal_actions(seat)
    in_turn = hand.phase == ACT and hand.current == seat
    claim = hand.phase == CLAIM and (A.PONG in legal or A.KONG in legal)
    if not in_turn and not claim:
        return rows
    read = reader(hand, seat)
    unseen = unseen_counts(hand, seat)
    melds = list(hand.melds[seat])
    look = WinLookahead(hand, seat, melds, unseen=unseen, read=read)
    ready_memo: dict[tuple[int, bytes], tuple[float, float, float]] = {}

    def ready(lk: WinLookahead, key: bytes) -> tuple[float, float, float]:
        got = ready_memo.get((id(lk), key))
        if got is not None:
            return got
        draw = ron = tiles = 0.0
        sh, ways = lk.ways(key)
        if sh == 0 and ways is not None:
            for p, full, w, ron_too in ways:
                g = lk.win_gain(full, w, True)
                r = lk.win_gain(full, w, False) if ron_too else 0.0
                draw += p * g
                ron += p * r
                if g > 0 or r > 0:
                    tiles += p
        got = ready_memo[id(lk), key] = (draw, ron, tiles * lk.total)
        return got

    def vector(lk: WinLookahead, key: bytes) -> list[float] | None:
        sh, ways = lk.ways(key)
        if ways is None:
            return None
        if sh == 0:
            draw, ron, tiles = ready(lk, key)
            return [draw / VALUE_SCALE, ron / VALUE_SCALE, tiles / READY_TILES_SCALE, 0.0, 0.0]
        value = share = 0.0
        for p, afters in ways:
            best = 0.0
            for after in afters:
                d, r, _ = ready(lk, after)
                best = max(best, d + r)
            value += p * best
            if best > 0:
                share += p
        return [0.0, 0.0, 0.0, value / VALUE_SCALE, share]

    wall = hand.wall_left / 136.0

    def put(action: int, vec: list[float] | None) -> None:
        if vec is not None:
            rows[:5, action] = vec
            rows[5, action] = 1.0
            rows[6, action] = wall

    counts = bytearray(hand.counts[seat][:34])
    if in_turn:
        for t in sorted({a for a in legal if a < 34}):
            if not read.discardable[t]:
                continue
            counts[t] -= 1
            vec = vector(look, bytes(counts))
            counts[t] += 1
            put(t, vec)
            if A.TING + t in legal:
                put(A.TING + t, vec)
        return rows
    tile = hand.claim_tile

    def after_claim(kind: MeldType) -> WinLookahead:
        claimed = Meld(kind, Tile(tile), hand.claim_from)
        return WinLookahead(hand, seat, [*melds, claimed], unseen=unseen, read=read)

    put(A.PASS, vector(look, bytes(counts)))
    if A.PONG in legal:
        pong = after_claim(MeldType.PONG)
        counts[tile] -= 2
        best: list[float] | None = None
        for d in range(34):
            if counts[d] and read.discardable[d]:
                counts[d] -= 1
                vec = vector(pong, bytes(counts))
                counts[d] += 1
                if vec is not None and (best is None or _worth(vec) > _worth(best)):
                    best = vec
        counts[tile] += 2
        put(A.PONG, best)
    if A.KONG in legal:
        kong = after_claim(MeldType.KONG)
        counts[tile] -= 3
        put(A.KONG, vector(kong, bytes(counts)))
        counts[tile] += 3
    return rows


VALUED_ROW = VALUE_ROWS.index("valued")

PRIOR_ROWS = tuple(VALUE_ROWS.index(name) for name in ("ready_draw", "ready_discard", "near_value"))
"""The rows whose sum is the value head's prior: the points one step out."""

VALUE_HEAD_GAIN = 100.0
"""Logits per unit of the value head's network output: the rows that tell candidates
apart differ by hundredths, and the hint's margin is 4 logits."""

VALUE_INPUTS = len(VALUE_ROWS) + 2
"""What the value head reads per action: its :func:`value_rows` column, then greedy's
hint and the candidate row at that action (0 where the network has none)."""


def value_head_input(
    x: npt.NDArray[np.float32],
    values: npt.NDArray[np.float32],
    greedy_input: bool,
    candidate_features: bool,
) -> npt.NDArray[np.float32]:
    """The value head's input, one row per action code (``n_actions × VALUE_INPUTS``),
    for one example (``x`` the network's input, ``values`` its :func:`value_rows`)."""
    n = values.shape[1]
    hint = x[-n:] if greedy_input else np.zeros(n, np.float32)
    end = len(x) - (n if greedy_input else 0)
    cand = x[end - n : end] if candidate_features else np.zeros(n, np.float32)
    return np.concatenate((values, hint[None], cand[None]), axis=0).T.astype(np.float32)


def _worth(vec: list[float]) -> float:
    return vec[0] + vec[1] + vec[3]


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


Layers = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]

N_KINDS = 34
"""Tile kinds: a danger network's outputs, one per discard code 0–33."""


def observation_size(variant: str) -> int:
    """The length of a danger network's input: planes × kinds + scalars."""
    enc = codec_for(variant).encoder()
    return int(enc.n_planes * enc.kinds + enc.n_scalars)


def observe(encoder: Any, hand: Any, seat: int) -> npt.NDArray[np.float32]:
    """A danger network's input for ``seat``: the planes (flattened), then the scalars."""
    planes, scalars = encoder.encode(hand, seat)
    return np.concatenate((planes.ravel(), scalars)).astype(np.float32, copy=False)


def forward(layers: Layers, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """A multilayer perceptron's output: ``x @ w + b`` a layer, ReLU between layers."""
    h = x
    last = len(layers) - 1
    for i, (w, b) in enumerate(layers):
        h = h @ w + b
        if i < last:
            np.maximum(h, 0.0, out=h)
    return h


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
        value_layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]] | None = None,
        value_scale: float = 0.0,
    ):
        self.layers = layers
        self.greedy_input = greedy_input
        self.hint_scale = hint_scale
        self.candidate_features = candidate_features
        self.candidate_scale = candidate_scale
        self.decides = decides
        """The decision kinds the network makes (None: all); greedy makes the others."""
        self.value_layers = value_layers or []
        """The per-candidate head over :func:`value_rows` (empty: none)."""
        self.value_scale = value_scale
        """Logits per unit of the head's prior (the :data:`PRIOR_ROWS`' sum)."""

    @property
    def value_features(self) -> bool:
        return bool(self.value_layers)

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
            value_scale = float(data["value_scale"]) if "value_scale" in data else 0.0
            value_layers = []
            i = 0
            while f"vw{i}" in data:
                value_layers.append(
                    (data[f"vw{i}"].astype(np.float32), data[f"vb{i}"].astype(np.float32))
                )
                i += 1
        width = n_inputs + n_actions * (int(greedy_input) + int(cands))
        if not layers or layers[0][0].shape[0] != width or layers[-1][0].shape[1] != n_actions:
            raise LearnedBotError(f"{path} does not fit {variant}'s observation or actions")
        if decides is not None and not decides <= set(DECISION_KINDS):
            raise LearnedBotError(f"{path} names unknown decision kinds: {sorted(decides)}")
        if value_layers and value_layers[0][0].shape[0] != VALUE_INPUTS:
            raise LearnedBotError(f"{path}: its value head does not read {VALUE_INPUTS} inputs")
        return cls(
            layers,
            greedy_input,
            hint_scale,
            cands,
            cand_scale,
            decides=decides,
            value_layers=value_layers,
            value_scale=value_scale,
        )

    def logits(
        self, x: npt.NDArray[np.float32], values: npt.NDArray[np.float32] | None = None
    ) -> npt.NDArray[np.float32]:
        """One logit per action code for the input ``x``; with a value head, ``values``
        (:func:`value_rows`) is required."""
        h = forward(self.layers, x)
        n = h.shape[0]
        if self.greedy_input:
            h += self.hint_scale * x[-n:]
        if self.candidate_features:
            # the candidate row sits just before greedy's (or last without it)
            end = len(x) - (n if self.greedy_input else 0)
            h += self.candidate_scale * x[end - n : end]
        if self.value_layers:
            if values is None:
                raise LearnedBotError("this network's value head needs value_rows")
            h += self.value_head(x, values)
        return h

    def value_head(
        self, x: npt.NDArray[np.float32], values: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        """The head's term of each action's logit, zero where the rows are not filled:
        ``value_scale`` times the prior (the points one step out, :data:`PRIOR_ROWS`)
        plus :data:`VALUE_HEAD_GAIN` times a small network over the action's
        :func:`value_rows` column, greedy's hint and the candidate row at that action
        (:func:`value_head_input`)."""
        out = np.zeros(values.shape[1], dtype=np.float32)
        where = np.flatnonzero(values[VALUED_ROW])
        if not len(where):
            return out
        h = forward(
            self.value_layers,
            value_head_input(x, values, self.greedy_input, self.candidate_features)[where],
        )
        prior = values[list(PRIOR_ROWS)][:, where].sum(axis=0)
        out[where] = self.value_scale * prior + VALUE_HEAD_GAIN * h[:, 0]
        return out


class DangerPolicy:
    """The danger network of a ``kind == "danger"`` file and the bot's decision
    parameters: ``threshold`` (a discard whose chance of dealing in is at most this is
    safe), ``slack`` (the shanten the bot may give up, against greedy's discard, to
    play a safe one), ``ukeire`` (the tie-break among the safe discards) and
    ``from_shanten`` (how far from ready the hand must be for the bot to avoid danger)."""

    def __init__(
        self,
        layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
        threshold: float,
        slack: int,
        ukeire: bool = False,
        from_shanten: int = 0,
    ):
        self.layers = layers
        self.threshold = threshold
        self.slack = slack
        self.ukeire = ukeire
        """Among the safe discards nearest ready, prefer greedy's own measure (the most
        unseen tiles that would then lower the shanten) before the lower chance."""
        self.from_shanten = from_shanten
        """The bot avoids danger only where greedy's discard leaves the hand this many
        tiles from ready or more (0: everywhere); nearer, a win is worth the risk."""

    @classmethod
    def load(cls, path: Path, variant: str) -> DangerPolicy:
        with np.load(path, allow_pickle=False) as data:
            if str(data["variant"]) != variant:
                raise LearnedBotError(f"{path} holds weights for {data['variant']}, not {variant}")
            layers = []
            i = 0
            while f"dw{i}" in data:
                w = data[f"dw{i}"].astype(np.float32)
                layers.append((w, data[f"db{i}"].astype(np.float32)))
                i += 1
            threshold = float(data["threshold"])
            slack = int(data["slack"])
            ukeire = bool(data["ukeire"]) if "ukeire" in data else False
            from_shanten = int(data["from_shanten"]) if "from_shanten" in data else 0
        n_inputs = observation_size(variant)
        if not layers or layers[0][0].shape[0] != n_inputs or layers[-1][0].shape[1] != N_KINDS:
            raise LearnedBotError(f"{path} does not fit {variant}'s observation")
        return cls(layers, threshold, slack, ukeire, from_shanten)

    def chances(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """The chance, per tile kind, that discarding it lets another seat win."""
        h = forward(self.layers, x)
        return 1.0 / (1.0 + np.exp(-h.astype(np.float64)))

    def discard(self, hand: Any, seat: int, legal: list[int], default: int, encoder: Any) -> int:
        """The discard to play in place of greedy's ``default`` (a tile kind)."""
        from paiju.bots.simple import reader

        p = self.chances(observe(encoder, hand, seat))
        if p[default] <= self.threshold:
            return default
        tiles = sorted({a for a in legal if a < len(p)})
        read = reader(hand, seat)
        counts = bytearray(hand.counts[seat][: len(p)])
        declared = len(hand.melds[seat])
        shanten: dict[int, int] = {}
        for t in tiles:
            counts[t] -= 1
            shanten[t] = read.shanten(bytes(counts), declared)
            counts[t] += 1
        if shanten.get(default, 0) < self.from_shanten:
            return default
        # greedy's discard is one of the tiles; the slack bounds how far from ready the
        # safer discard may leave the hand
        limit = shanten.get(default, min(shanten.values())) + self.slack
        near = [t for t in tiles if shanten[t] <= limit]
        safe = [t for t in near if p[t] <= self.threshold]
        if safe:
            best = min(shanten[t] for t in safe)
            nearest = [t for t in safe if shanten[t] == best]
            if self.ukeire and len(nearest) > 1:
                # greedy restricted to the safe discards: its own measure decides, so the
                # detour costs as little of the hand's speed as it can
                from paiju.bots.simple import _ukeire, unseen_counts

                unseen = unseen_counts(hand, seat)
                tiles_in: dict[int, float] = {}
                for t in nearest:
                    counts[t] -= 1
                    tiles_in[t] = _ukeire(counts, declared, best, unseen, shanten=read.shanten)
                    counts[t] += 1
                return min(nearest, key=lambda t: (-tiles_in[t], float(p[t]), t))
            # greedy's own choice where it is among them (it is not: it was dangerous),
            # then the safer
            return min(nearest, key=lambda t: (t != default, float(p[t]), t))
        # nothing safe: the least dangerous (greedy's if it is that)
        return min(near, key=lambda t: (float(p[t]), t != default, t))


def _load(path: Path, variant: str, n_inputs: int, n_actions: int) -> Policy | DangerPolicy:
    """The network of a weights file: a danger file or the policy network."""
    if path.is_file():
        with np.load(path, allow_pickle=False) as data:
            kind = str(data["kind"]) if "kind" in data else None
        if kind == "danger":
            return DangerPolicy.load(path, variant)
        if kind is not None:
            raise LearnedBotError(f"{path} holds an unknown kind of network: {kind!r}")
    return Policy.load(path, variant, n_inputs, n_actions)


_CACHE: dict[tuple[str, str], Policy | DangerPolicy] = {}


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
        net = _CACHE.get(key)
        if net is None:
            net = _CACHE[key] = _load(where, variant, n_inputs, codec.n_actions)
        self.n_actions = codec.n_actions
        self.greedy: Decide | None = None
        self.danger: DangerPolicy | None = None
        if isinstance(net, DangerPolicy):
            from paiju.bots.greedy import greedy_bot

            self.danger = net
            # the danger network reads the default encoding (no shanten planes)
            self.danger_encoder = codec.encoder()
            self.greedy = greedy_bot(variant, seed)
            # never consulted with a danger file; kept so that the attribute is a Policy
            self.policy = Policy([])
            return
        self.policy = net
        if net.greedy_input or net.decides is not None:
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
        if self.danger is not None and self.greedy is not None:
            return self._danger_call(hand, seat, legal, self.danger, self.greedy)
        decides = self.policy.decides
        if decides is not None and decision_kind(hand) not in decides and self.greedy:
            return int(self.greedy(hand, seat))
        values = value_rows(hand, seat, self.n_actions) if self.policy.value_features else None
        logits = self.policy.logits(self.features(hand, seat), values)
        best = max(legal, key=lambda a: float(logits[a]))
        return int(best)

    def _danger_call(
        self, hand: Any, seat: int, legal: list[int], danger: DangerPolicy, greedy: Decide
    ) -> int:
        """Greedy's action, except a plain discard at the seat's own turn, which the
        danger network may replace (wins, kongs, ready declarations and claims stay
        greedy's: greedy takes wins first, and the network judges only discards)."""
        from paiju.engine.mahjong import ACT

        action = int(greedy(hand, seat))
        if not 0 <= action < 34 or hand.phase != ACT or hand.current != seat:
            return action
        return danger.discard(hand, seat, legal, action, self.danger_encoder)
