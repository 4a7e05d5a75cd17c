"""The environments: one hand (局) of full rules per episode.

:class:`Table` holds what every front end shares (the variant's flow and options, the
seeded stream of deals, the hand, the encoder, rewards); :class:`PaijuAEC` is the
PettingZoo AEC environment (agents are the seats; after a discard each seat with a
claim option gets a turn of its own, in the engine's order), :class:`PaijuParallel` the
PettingZoo parallel one (every seat the engine waits for answers in the same step: the
claim window is simultaneous, as at a table) and :mod:`paiju.rl.gym` one seat against
bots.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.env import AECIterable

from paiju.engine.errors import IllegalActionError
from paiju.rl.codecs import Codec, codec_for
from paiju.rl.encode import action_mask
from paiju.variants import Variant

Obs = dict[str, npt.NDArray[Any]]

ILLEGAL_MODES = ("raise", "pass")


def _flow(variant: str) -> Variant:
    from paiju.variants import find_variant

    return find_variant(variant)


class Table:
    """One variant's deals, hand, observations and rewards, for any environment API.

    ``options``: the variant's rule options by name (as in ``paiju arena --options``).
    ``shaping``: weight of the optional potential-based shaping (0: none; see
    :meth:`potentials`). ``reward_scale`` multiplies every reward (points are the raw
    settlement points otherwise). ``oracle``: observations add the hidden planes;
    ``shanten``: they add the three discard-shanten planes (what the learned bot reads).
    ``illegal``: ``"raise"`` (an illegal action raises :class:`IllegalActionError`,
    nothing changes) or ``"pass"`` (it is replaced by the seat's first legal action,
    ``pass`` where offered, and ``info["illegal"]`` is set).
    """

    def __init__(
        self,
        variant: str,
        options: dict[str, Any] | None = None,
        *,
        oracle: bool = False,
        shanten: bool = False,
        shaping: float = 0.0,
        reward_scale: float = 1.0,
        illegal: str = "raise",
    ) -> None:
        self.variant = variant
        self.flow = _flow(variant)
        self.codec: Codec = codec_for(variant)
        self.options = self.flow.parse_options(dict(options or {}))
        self.n_seats: int = self.flow.seats(self.options)
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be one of {ILLEGAL_MODES}, not {illegal!r}")
        self.illegal = illegal
        self.encoder = self.codec.encoder(oracle=oracle, shanten=shanten)
        self.shaping = float(shaping)
        self.reward_scale = float(reward_scale)
        self.n_actions = self.codec.n_actions
        self._rng = random.Random()
        self.hand: Any = None
        self._net = [0] * self.n_seats
        self._paid = 0
        self._phi = [0.0] * self.n_seats

    # -- spaces ----------------------------------------------------------------------
    def observation_space(self) -> spaces.Dict:
        enc = self.encoder
        return spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, enc.shape, dtype=np.float32),
                "scalars": spaces.Box(-np.inf, np.inf, (enc.n_scalars,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8),
            }
        )

    def action_space(self) -> spaces.Discrete:
        return spaces.Discrete(self.n_actions)

    # -- play --------------------------------------------------------------------------
    def seed(self, seed: int | None) -> None:
        self._rng = random.Random(seed)

    def new_hand(self) -> None:
        """The next deal of the stream: a hand seed and a dealer from the table's RNG."""
        rng = self._rng
        hand_seed = rng.getrandbits(48)
        dealer = rng.randrange(self.n_seats)
        self.hand = self.flow.new_hand(self.options, seed=hand_seed, dealer=dealer, carry={})
        self._net = [0] * self.n_seats
        self._paid = 0
        self._phi = self.potentials()

    @property
    def players(self) -> list[int]:
        return self.codec.players(self.hand)

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        return action_mask(self.n_actions, self.hand.legal_actions(seat))

    def observe(self, seat: int) -> Obs:
        planes, scalars = self.encoder.encode(self.hand, seat)
        return {"observation": planes, "scalars": scalars, "action_mask": self.mask(seat)}

    def legalize(self, action: Any, seat: int) -> tuple[int, bool]:
        """``action`` as an int if legal for ``seat``; else raise or substitute."""
        legal = self.hand.legal_actions(seat)
        try:
            code = int(action)
        except (TypeError, ValueError):
            code = -1
        if code in legal and not isinstance(action, bool):
            return code, False
        if self.illegal == "raise":
            shown = self.codec.action_str(code) if 0 <= code < self.n_actions else repr(action)
            raise IllegalActionError(
                f"action {shown} is not legal for seat {seat} now "
                f"(legal: {', '.join(self.codec.action_str(a) for a in legal)})"
            )
        return self.default_action(seat), True

    def default_action(self, seat: int) -> int:
        """``pass`` where offered, else the seat's first legal action."""
        legal = self.hand.legal_actions(seat)
        if not legal:
            raise IllegalActionError(f"seat {seat} has nothing to do now")
        return self.codec.pass_action if self.codec.pass_action in legal else int(legal[0])

    def potentials(self) -> list[float]:
        """Shaping potential per seat: −``shaping`` × tiles from ready (0 without shaping)."""
        if not self.shaping:
            return [0.0] * self.n_seats
        out = [0.0] * self.n_seats
        for s in self.players:
            out[s] = -self.shaping * self.codec.shanten(self.hand, s)
        return out

    def rewards_due(self) -> bool:
        """Whether :meth:`rewards` would give anything but zeros (something was paid
        since the last call, or shaping is on)."""
        return bool(self.shaping) or len(self.hand.ledger) != self._paid

    def rewards(self) -> list[float]:
        """Each seat's reward since the last call: points won or paid (kong money is
        paid during the hand, the settlement at its end) times ``reward_scale``, plus the
        change of the shaping potential; at the end the potential is paid back, so the
        shaping adds a constant per deal and seat and leaves the best play unchanged."""
        if not self.shaping and len(self.hand.ledger) == self._paid:
            # nothing paid since the last call (most steps): no sums to redo
            return [0.0] * self.n_seats
        self._paid = len(self.hand.ledger)
        net = self.hand.net()
        scale = self.reward_scale
        out = [(net[s] - self._net[s]) * scale for s in range(self.n_seats)]
        self._net = net
        if self.shaping:
            phi = [0.0] * self.n_seats if self.hand.is_over else self.potentials()
            for s in range(self.n_seats):
                out[s] += phi[s] - self._phi[s]
            self._phi = phi
        return out

    def render(self) -> str:
        hand = self.hand
        if hand is None:
            return "(no hand: call reset)"
        lines = []
        view = hand.view(None)
        head = {k: v for k, v in view.items() if k in ("variant", "dealer", "phase", "current")}
        left = view.get("wall_left", view.get("stock_left"))
        lines.append(" ".join(f"{k}={v}" for k, v in head.items()) + f" left={left}")
        for s in range(self.n_seats):
            p = hand.view(s)["players"][s]
            melds = " ".join(f"{m['type']}:{m.get('tile', m.get('cards'))}" for m in p["melds"])
            extra = f" flowers: {p['flowers']}" if p.get("flowers") else ""
            lines.append(
                f"seat {s}: {p.get('hand', '')} | melds: {melds or '-'} | "
                f"discards: {p['discards'] or '-'}{extra}"
            )
        lines.append(f"net: {hand.net()}")
        return "\n".join(lines) + "\n"


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def _agents(env: PaijuAEC, left: int) -> Iterator[str]:
    # AECIterator's __next__ as a generator: resuming one costs less than calling a
    # __next__ written in Python, on every step
    while left > 0 and env.agents:
        left -= 1
        yield env.agent_selection


class _AgentIterable(AECIterable):  # type: ignore[misc]
    """What :meth:`AECEnv.agent_iter` gives (the same agents, checks and ``max_iter``)."""

    def __iter__(self) -> Iterator[str]:
        return _agents(self.env, self.max_iter)


class PaijuAEC(AECEnv[str, Obs, int]):  # type: ignore[misc]
    """A PettingZoo AEC environment over one hand of full rules (see :func:`aec_env`)."""

    def __init__(
        self,
        variant: str,
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        max_cycles: int | None = None,
        **table: Any,
    ) -> None:
        super().__init__()
        self.metadata = {
            "render_modes": ["ansi"],
            "name": f"paiju_{variant}_v0",
            "is_parallelizable": False,
        }
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.table = Table(variant, options, **table)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [agent_name(s) for s in range(self.table.n_seats)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        obs_space = self.table.observation_space()
        act_space = self.table.action_space()
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, act_space)
        self._seeded = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new hand. ``seed`` restarts the stream of deals (the same seed, the same
        deals); without it the stream goes on (or starts from OS entropy). ``options``
        is accepted for the PettingZoo API and not read: the rules are fixed when the
        environment is made."""
        if seed is not None or not self._seeded:
            self.table.seed(seed)
            self._seeded = True
        t = self.table
        t.new_hand()
        self.agents = [agent_name(s) for s in t.players]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        # every agent ends at once (the hand is over, or max_cycles truncates them all):
        # one flag answers "is the selected agent dead?" without two dict lookups
        self._ended = False
        self._moves = dict.fromkeys(self.agents, 0)
        self.agent_selection = agent_name(t.hand.to_act()[0])
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._informed: str | None = None
        self._rewarded = False
        self._inform(self.agent_selection, False)

    def _inform(self, agent: str, illegal: bool) -> None:
        # only the agent to act has legal actions: the others' infos are empty (their
        # masks would be all zero)
        t = self.table
        self._legal = legal = t.hand.legal_actions(self._seat[agent])
        self._mask = mask = action_mask(t.n_actions, legal)
        self.infos[agent] = (
            {"action_mask": mask, "illegal": True} if illegal else {"action_mask": mask}
        )
        self._informed = agent

    def observe(self, agent: str) -> Obs:
        seat = self._seat[agent]
        t = self.table
        if agent == self._informed:
            planes, scalars = t.encoder.encode(t.hand, seat)
            return {"observation": planes, "scalars": scalars, "action_mask": self._mask.copy()}
        return t.observe(seat)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # AECEnv.last with observe's usual case inlined (the selected agent, alive); the
        # observation is Any, as from PettingZoo's untyped base (None without observe)
        agent = self.agent_selection
        if agent == self._informed and observe:
            t = self.table
            planes, scalars = t.encoder.encode(t.hand, self._seat[agent])
            obs: Obs | None = {
                "observation": planes,
                "scalars": scalars,
                "action_mask": self._mask.copy(),
            }
        else:
            obs = self.observe(agent) if observe else None
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> AECIterable:
        return _AgentIterable(self, max_iter)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self._ended:
            self._was_dead_step(action)
            return
        t = self.table
        seat = self._seat[agent]
        hand = t.hand
        # the selected agent's legal actions as taken for its mask: only the environment
        # moves the hand in between, so they are still the engine's
        if type(action) is int and action in self._legal:
            code, substituted = action, False
        else:
            code, substituted = t.legalize(action, seat)
        self._cumulative_rewards[agent] = 0.0
        hand.apply(code, seat)
        if self.max_cycles is None:
            # the engine waits for nobody exactly when the hand is over: to_act alone
            # tells both (is_over is a property call more)
            acting = hand.to_act()
            nxt = self.possible_agents[acting[0]] if acting else self._terminate(agent)
        else:
            nxt = self._next_capped(agent, self.max_cycles)
        # most steps pay nothing: the rewards stay zeros and nothing is accumulated
        # (Table.rewards_due inlined)
        if t.shaping or len(hand.ledger) != t._paid:
            rewards = t.rewards()
            for a in self.agents:
                self.rewards[a] = rewards[self._seat[a]]
            self._rewarded = True
            self._accumulate_rewards()
        elif self._rewarded:
            for a in self.rewards:
                self.rewards[a] = 0.0
            self._rewarded = False
        self.agent_selection = nxt
        # a new dict, not the old one cleared: an info handed out earlier stays as it was
        self.infos[agent] = {}
        if self._ended:
            self._informed = None
        else:
            self._inform(nxt, substituted)
        if self.render_mode == "ansi":
            print(self.render(), end="")

    def _terminate(self, agent: str) -> str:
        if not self.table.hand.is_over:
            raise RuntimeError("the engine waits for no seat, yet the hand is not over")
        for a in self.agents:
            self.terminations[a] = True
        self._ended = True
        return agent

    def _next_capped(self, agent: str, cap: int) -> str:
        """The next agent to act under ``max_cycles`` (after ``agent`` moved)."""
        t = self.table
        hand = t.hand
        moves = self._moves
        moves[agent] += 1
        nxt = agent
        while not hand.is_over:
            nxt = self.possible_agents[hand.to_act()[0]]
            if moves[nxt] < cap:
                break
            if all(n >= cap for n in moves.values()):
                for a in self.agents:
                    self.truncations[a] = True
                self._ended = True
                break
            # an agent that has used its max_cycles decisions waits for the others;
            # the engine still needs its answer: the default one (pass where offered)
            waiting = self._seat[nxt]
            hand.apply(t.default_action(waiting), waiting)
        if hand.is_over:
            for a in self.agents:
                self.terminations[a] = True
            self._ended = True
        return nxt

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self.table.render()

    def close(self) -> None:
        pass


class PaijuParallel(ParallelEnv[str, Obs, int]):  # type: ignore[misc]
    """A PettingZoo parallel environment: each step every seat the engine waits for
    acts (one in a turn; every claimant at once after a discard); the actions of the
    other seats are ignored (their action masks are all zero)."""

    def __init__(
        self,
        variant: str,
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        *,
        max_cycles: int | None = None,
        **table: Any,
    ) -> None:
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.metadata = {"render_modes": ["ansi"], "name": f"paiju_{variant}_v0"}
        self.table = Table(variant, options, **table)
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [agent_name(s) for s in range(self.table.n_seats)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        self._obs_space = self.table.observation_space()
        self._act_space = self.table.action_space()
        self._seeded = False
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        if seed is not None or not self._seeded:
            self.table.seed(seed)
            self._seeded = True
        self.table.new_hand()
        self.agents = [agent_name(s) for s in self.table.players]
        self.cycles = 0
        return self._observe_all(), {a: {} for a in self.agents}

    def _observe_all(self) -> dict[str, Obs]:
        return {a: self.table.observe(self._seat[a]) for a in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        t = self.table
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        for seat in t.hand.to_act():
            a = agent_name(seat)
            if a not in actions:
                raise IllegalActionError(f"{a} must act now and sent no action")
            code, substituted = t.legalize(actions[a], seat)
            if substituted:
                infos[a]["illegal"] = True
            t.hand.apply(code, seat)
        self.cycles += 1
        r = t.rewards()
        over = bool(t.hand.is_over)
        cut = not over and self.max_cycles is not None and self.cycles >= self.max_cycles
        obs = self._observe_all()
        rewards = {a: r[self._seat[a]] for a in self.agents}
        terms = dict.fromkeys(self.agents, over)
        truncs = dict.fromkeys(self.agents, cut)
        if over or cut:
            self.agents = []
        if self.render_mode == "ansi":
            print(t.render(), end="")
        return obs, rewards, terms, truncs, infos

    def render(self) -> str | None:
        return self.table.render() if self.render_mode is not None else None

    def close(self) -> None:
        pass


def aec_env(
    variant: str,
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> PaijuAEC:
    """A PettingZoo AEC environment of ``variant`` (``jiaxing``, ``taixing``, ``qinger``).

    Keywords: ``max_cycles`` (every agent makes at most this many decisions: one that
    has made them waits, its answers taken by the default, until all have; then every
    agent is truncated),
    ``oracle``, ``shaping``, ``reward_scale``, ``illegal`` (see :class:`Table`)."""
    return PaijuAEC(variant, options, render_mode, **kwargs)


def parallel_env(
    variant: str,
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> PaijuParallel:
    """The PettingZoo parallel form (``max_cycles``: truncate after this many steps)."""
    return PaijuParallel(variant, options, render_mode, **kwargs)
