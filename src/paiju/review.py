"""Review (复盘): every decision of one seat in a record set beside a bot's.

The record is replayed once (:func:`paiju.engine.record.replay`, which also verifies it).
At each decision of the seat with more than one legal action the bot values the
candidates from what that seat could see (:meth:`paiju.bots.strong.StrongBot.evaluate`,
the function its play uses) with the action actually chosen always among them. A
decision *agrees* when the choice is the bot's, or one the bot finds exactly as good.
The points it *gave up* are the bot's value of its own choice minus its value of the
choice made; they count as zero for an agreeing decision, where either value is unknown,
and within the tolerance: :data:`TOLERANCE` points for exact values (the lookahead),
and two standard errors of the paired difference for sampled ones (Monte Carlo).

The bot replays the seat's decisions in order, as it would have met them in play, so a
bot with the same seed as the one that played the record decides exactly as it did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from paiju.bots.values import Evaluation, Value
from paiju.engine.errors import InvalidActionError
from paiju.engine.grammar import Action, Verb
from paiju.engine.record import replay
from paiju.variants import find_variant

TOLERANCE = 0.05
"""Points below which a lookahead value difference is not counted as given up."""

TOP_ALTERNATIVES = 3
"""Candidates listed per decision besides the choice made and the bot's."""

REVIEW_BOTS = ("strong", "greedy")

WORDS = {
    "pass": ("过", "pass"),
    "pong": ("碰", "pong"),
    "kong": ("杠", "kong"),
    "hu": ("胡", "win"),
    "zimo": ("自摸", "self-draw"),
    "ting": ("听", "declare ready"),
    "knock": ("敲", "knock"),
}


class ReviewError(ValueError):
    """A record that cannot be reviewed (malformed, not verified, no such seat)."""


@dataclass
class Candidate:
    action: str
    value: Value

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action}
        for key in ("points", "win", "deal_in"):
            got = getattr(self.value, key)
            out[key] = None if got is None else round(got, 4)
        return out


@dataclass
class Decision:
    """One decision of the reviewed seat (docs/bots.md, paiju review)."""

    # the server publishes this JSON shape: paiju.server.rest.ReviewDecision is made from
    # these fields and their docstrings, so they are its documentation too

    hand: int
    """From 1 over the record."""
    turn: int
    """The seat's own decision number in that hand, from 1."""
    move: int
    """The hand's action number (every seat's), from 1."""
    line: int
    """The record line of the action, from 1."""
    choice: str
    bot: str
    """The strong bot's choice."""
    agree: bool
    given_up: float
    """Expected points given up against the bot's choice (0 when as good)."""
    search: str
    candidates: list[Candidate]
    view: dict[str, Any] | None = None
    """The table as the seat saw it before choosing (its own view, as in ``state``, so
    nothing of another seat's concealed hand, with ``match_totals``: the totals as the
    hand began); absent when no views were asked."""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "turn": self.turn,
            "move": self.move,
            "line": self.line,
            "choice": self.choice,
            "bot": self.bot,
            "agree": self.agree,
            "given_up": round(self.given_up, 4),
            "search": self.search,
            "candidates": [c.to_json() for c in self.candidates],
        }
        if self.view is not None:
            out["view"] = self.view
        return out


@dataclass
class Review:
    variant: str
    seat: int
    bot: str
    hands: int = 0
    decisions: list[Decision] = field(default_factory=list)
    tolerance: float = TOLERANCE
    seats: list[str] = field(default_factory=list)
    """The record header's name for each seat (``bot:strong`` for a bot)."""

    @property
    def agreement(self) -> float:
        if not self.decisions:
            return 1.0
        return sum(d.agree for d in self.decisions) / len(self.decisions)

    @property
    def given_up(self) -> float:
        return sum(d.given_up for d in self.decisions)

    def mistakes(self) -> list[Decision]:
        """Decisions that gave up points, costliest first."""
        costly = [d for d in self.decisions if d.given_up > 0]
        return sorted(costly, key=lambda d: (-d.given_up, d.hand, d.turn))

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "seat": self.seat,
            "bot": self.bot,
            "seats": self.seats,
            "hands": self.hands,
            "n_decisions": len(self.decisions),
            "agreement": round(self.agreement, 4),
            "given_up": round(self.given_up, 4),
            "given_up_per_hand": round(self.given_up / self.hands, 4) if self.hands else 0.0,
            "tolerance": self.tolerance,
            "mistakes": [d.to_json() for d in self.mistakes()],
            "decisions": [d.to_json() for d in self.decisions],
        }


def review_record(
    records: list[dict[str, Any]],
    seat: int,
    *,
    bot: str = "strong",
    seed: int = 0,
    rollouts: int | None = 8,
    tolerance: float = TOLERANCE,
    progress: Callable[[int, int], None] | None = None,
    views: bool = False,
    moves: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``seat``'s decisions in ``records`` (parsed record lines) with ``bot``
    (seeded ``seed``; Monte Carlo with ``rollouts`` samples a decision, None: the
    bot's time budget). ``progress(done, total)`` hears of each hand finished and
    ``moves(done, total)`` of each move of the record replayed; ``views``
    keeps with each decision the seat's own view of the table at that moment. Raises
    :class:`ReviewError` for a record that does not verify or a seat it does not have."""
    if not records or records[0].get("record") != "paiju":
        raise ReviewError("not a paiju record (no header on line 1)")
    variant = records[0].get("variant")
    seats = records[0].get("seats")
    if not isinstance(variant, str):
        raise ReviewError("the header names no variant")
    if not isinstance(seats, list) or not isinstance(seat, int) or not 0 <= seat < len(seats):
        n = len(seats) if isinstance(seats, list) else 0
        raise ReviewError(f"no seat {seat!r} in this record (seats 0–{n - 1})")
    if bot not in REVIEW_BOTS:
        raise ReviewError(f"unknown review bot {bot!r} (known: {', '.join(REVIEW_BOTS)})")
    try:
        evaluate = _evaluator(bot, seed, variant, rollouts)
    except ValueError as exc:
        raise ReviewError(str(exc)) from None
    action_lines = [i + 1 for i, r in enumerate(records) if r.get("type") == "action"]
    total = sum(1 for r in records if r.get("type") == "hand")
    before = _totals_before_each_hand(records) if views else []
    out = Review(variant, seat, bot, tolerance=tolerance, seats=[str(s) for s in seats])
    state = _Cursor()

    def on_decision(hand: Any, who: int, code: int) -> None:
        line = action_lines[state.action] if state.action < len(action_lines) else 0
        state.action += 1
        if moves is not None:
            moves(state.action - 1, len(action_lines))
        if hand is not state.hand:
            state.hand, state.moves, state.turn = hand, 0, 0
            if progress is not None:
                progress(out.hands, total)
            out.hands += 1
        state.moves += 1
        if who != seat or len(hand.legal_actions(who)) < 2:
            return
        state.turn += 1
        seen = _seat_view(hand, who) if views else None
        if seen is not None and out.hands <= len(before):
            seen["match_totals"] = before[out.hands - 1]
        ev = evaluate(hand, who, code)
        out.decisions.append(
            _decision(
                hand,
                ev,
                code,
                hand_no=out.hands,
                turn=state.turn,
                move=state.moves,
                line=line,
                tolerance=tolerance,
                view=seen,
            )
        )

    result = replay(records, find_variant, on_decision)
    if progress is not None:
        progress(out.hands, total)
    if moves is not None:
        moves(state.action, len(action_lines))
    if not result.ok:
        where = f"line {result.line}: " if result.line else ""
        raise ReviewError(f"the record does not verify: {where}{result.message}")
    return out


@dataclass
class _Cursor:
    """Where the replay is: the hand object, its moves so far, the seat's decisions in
    it, and the record's action lines consumed."""

    hand: object = None
    moves: int = 0
    turn: int = 0
    action: int = 0


def _evaluator(
    bot: str, seed: int, variant: str, rollouts: int | None
) -> Callable[[Any, int, int], Evaluation]:
    from paiju.bots.greedy_values import GreedyJudge
    from paiju.bots.strong import StrongBot

    if bot == "strong":
        strong = StrongBot(seed, variant, rollouts=rollouts)

        def by_strong(hand: Any, seat: int, code: int) -> Evaluation:
            return strong.evaluate(hand, seat, detail=True, include=(code,))

        return by_strong
    judge = GreedyJudge(variant, seed)

    def by_greedy(hand: Any, seat: int, code: int) -> Evaluation:
        return judge.evaluate(hand, seat, detail=True)

    return by_greedy


def _decision(
    hand: Any,
    ev: Evaluation,
    code: int,
    *,
    hand_no: int,
    turn: int,
    move: int,
    line: int,
    tolerance: float,
    view: dict[str, Any] | None = None,
) -> Decision:
    agree = code == ev.choice or code in ev.ties
    given = 0.0
    best, theirs = ev.points(ev.choice), ev.values.get(code)
    if not agree and best is not None and theirs is not None and theirs.points is not None:
        diff = best - theirs.points
        noise = 2 * theirs.stderr if theirs.stderr is not None else 0.0
        if diff > max(tolerance, noise):
            given = diff
    ranked = sorted(
        ev.values.items(),
        key=lambda kv: (kv[1].points is None, -(kv[1].points or 0.0), kv[0]),
    )
    shown = [a for a, _ in ranked[:TOP_ALTERNATIVES]]
    for a in (ev.choice, code):
        if a in ev.values and a not in shown:
            shown.append(a)
    return Decision(
        hand=hand_no,
        turn=turn,
        move=move,
        line=line,
        choice=hand.action_str(code),
        bot=hand.action_str(ev.choice),
        agree=agree,
        given_up=given,
        search=ev.search,
        candidates=[Candidate(hand.action_str(a), ev.values[a]) for a in shown],
        view=view,
    )


def _totals_before_each_hand(records: list[dict[str, Any]]) -> list[list[int]]:
    """The match totals as each hand of the record began (public: the table shows them)."""
    out: list[list[int]] = []
    running: list[int] = []
    for r in records:
        if "record" in r:
            running = [0] * len(r.get("seats") or [])
        elif r.get("type") == "hand":
            out.append(list(running))
        elif r.get("type") == "hand_end":
            net = r.get("net") or []
            running = [
                t + (net[i] if i < len(net) and isinstance(net[i], int) else 0)
                for i, t in enumerate(running)
            ]
    return out


def _seat_view(hand: Any, seat: int) -> dict[str, Any]:
    """What ``seat`` saw: the engine's view for that seat, without the hand's event log
    (the board says it, and it would make a long record's review many times larger)."""
    view: dict[str, Any] = hand.view(seat)
    view.pop("events", None)
    return view


def action_label(text: str, lang: str) -> str:
    """An action string as a player reads it (``d5m`` → ``打 5m``, ``pong`` → ``碰``)."""
    word = WORDS.get(text)
    if word is not None:
        return word[1] if lang == "en" else word[0]
    try:
        action = Action.parse(text)
    except InvalidActionError:
        return text
    if action.verb is Verb.DISCARD and action.piece:
        return ("discard " if lang == "en" else "打 ") + action.piece
    return text


def format_review(review: Review, lang: str = "zh", *, every: bool = True) -> str:
    """The review as text: each decision (``every``), then the summary."""
    en = lang == "en"
    lines: list[str] = []

    def fmt(v: float | None, pct: bool = False) -> str:
        if v is None:
            return "–"
        return f"{100 * v:.0f}%" if pct else f"{v:+.2f}"

    if every:
        for d in review.decisions:
            mark = "=" if d.agree else ("✗" if d.given_up > 0 else "≈")
            head = (
                f"hand {d.hand} turn {d.turn}: played {action_label(d.choice, lang)}, "
                f"bot {action_label(d.bot, lang)}"
                if en
                else f"第{d.hand}局 第{d.turn}手: 实际 {action_label(d.choice, lang)}，"
                f"机器人 {action_label(d.bot, lang)}"
            )
            cost = (
                (f", gave up {d.given_up:.2f}" if en else f"，损失 {d.given_up:.2f} 分")
                if d.given_up > 0
                else ""
            )
            lines.append(f"{mark} {head}{cost}")
            for c in d.candidates:
                v = c.value
                label = action_label(c.action, lang)
                lines.append(
                    f"    {label:<10} "
                    + ("points " if en else "期望 ")
                    + fmt(v.points)
                    + ("  win " if en else "  和牌 ")
                    + fmt(v.win, True)
                    + ("  deal-in " if en else "  放铳 ")
                    + fmt(v.deal_in, True)
                )
    n = len(review.decisions)
    per_hand = review.given_up / review.hands if review.hands else 0.0
    if en:
        lines.append(
            f"seat {review.seat}, {review.variant}, reviewed by {review.bot}: "
            f"{review.hands} hands, {n} decisions, agreement {100 * review.agreement:.1f}%, "
            f"points given up {review.given_up:.2f} "
            f"({per_hand:.2f} a hand; tolerance {review.tolerance})"
        )
        lines.append("costliest decisions:")
    else:
        lines.append(
            f"座位 {review.seat}（{review.variant}，{review.bot} 复盘）：{review.hands} 局，"
            f"{n} 个决策，一致率 {100 * review.agreement:.1f}%，损失 {review.given_up:.2f} 分"
            f"（每局 {per_hand:.2f}；容差 {review.tolerance}）"
        )
        lines.append("损失最大的决策：")
    worst = review.mistakes()[:5]
    if not worst:
        lines.append("  (none)" if en else "  （无）")
    for d in worst:
        lines.append(
            f"  hand {d.hand} turn {d.turn}: {action_label(d.choice, lang)} → "
            f"{action_label(d.bot, lang)}, {d.given_up:.2f}"
            if en
            else f"  第{d.hand}局 第{d.turn}手：{action_label(d.choice, lang)} → "
            f"{action_label(d.bot, lang)}，{d.given_up:.2f} 分"
        )
    return "\n".join(lines)


def progress_bar(stream: IO[str] | None = None, lang: str = "zh") -> Callable[[int, int], None]:
    """A ``progress`` callback drawing the simulator's bar, by hands, on stderr."""
    from paiju.simulator import Progress

    bar: dict[str, Progress] = {}

    def update(done: int, total: int) -> None:
        if "bar" not in bar:
            label = "review" if lang == "en" else "复盘"
            bar["bar"] = Progress(total, label, "hands" if lang == "en" else "局", stream)
        if done > bar["bar"].done:
            bar["bar"].update(done - bar["bar"].done)

    return update
