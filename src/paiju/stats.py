"""Each player's statistics over game records.

A player is a name in the records' headers (``seats``): the same name in several records
(or at several seats of one record) is one player. Everything but the agreement comes
from the record lines themselves: hands played, wins (and how many self-drawn), deal-ins
(another seat won on this player's discard, or robbed its kong), net points, and the
scoring items of the player's own winning hands. With ``agreement`` each record is also
reviewed for every seat of the player by the strong bot (:mod:`paiju.review`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


class StatsError(ValueError):
    """A record that cannot be counted (not a paiju record, or not verified for review)."""


@dataclass
class PlayerStats:
    name: str
    variants: set[str] = field(default_factory=set)
    matches: int = 0
    hands: int = 0
    wins: int = 0
    self_drawn: int = 0
    deal_ins: int = 0
    points: int = 0
    items: dict[str, int] = field(default_factory=dict)
    item_variant: dict[str, str] = field(default_factory=dict)
    """The game each item id was scored in (for its name)."""
    match_points: list[int] = field(default_factory=list)
    """Net points of each match, in the order of the records (for a chart)."""
    decisions: int = 0
    agreed: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    @property
    def self_draw_share(self) -> float:
        return self.self_drawn / self.wins if self.wins else 0.0

    @property
    def deal_in_rate(self) -> float:
        return self.deal_ins / self.hands if self.hands else 0.0

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    @property
    def agreement(self) -> float | None:
        return self.agreed / self.decisions if self.decisions else None

    def item_name(self, item_id: str, lang: str = "zh") -> str:
        from paiju.variants import VARIANTS

        variant = VARIANTS.get(self.item_variant.get(item_id, ""))
        return item_id if variant is None else variant.item_name(item_id, lang)

    def to_json(self) -> dict[str, Any]:
        agreement = self.agreement
        return {
            "name": self.name,
            "variants": sorted(self.variants),
            "matches": self.matches,
            "hands": self.hands,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "self_draw_share": round(self.self_draw_share, 4),
            "deal_ins": self.deal_ins,
            "deal_in_rate": round(self.deal_in_rate, 4),
            "points": self.points,
            "points_per_hand": round(self.points_per_hand, 4),
            "items": {
                k: {"zh": self.item_name(k), "en": self.item_name(k, "en"), "count": n}
                for k, n in sorted(self.items.items(), key=lambda kv: (-kv[1], kv[0]))
            },
            "match_points": self.match_points,
            "agreement": None if agreement is None else round(agreement, 4),
            "decisions_reviewed": self.decisions,
        }


def record_stats(
    matches: Sequence[list[dict[str, Any]]], *, agreement: bool = False
) -> list[PlayerStats]:
    """The statistics of every player in ``matches`` (each a parsed record: a header
    line, then its hands), sorted by name. A file holding several records counts each."""
    players: dict[str, PlayerStats] = {}
    for records in matches:
        for one in _split(records):
            _count(one, players, agreement)
    return [players[k] for k in sorted(players)]


def _split(records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    starts = [i for i, r in enumerate(records) if "record" in r]
    if not starts or starts[0] != 0:
        raise StatsError("not a paiju record (no header on line 1)")
    ends = [*starts[1:], len(records)]
    return [records[a:b] for a, b in zip(starts, ends, strict=True)]


def _count(records: list[dict[str, Any]], players: dict[str, PlayerStats], agree: bool) -> None:
    seats = seat_counts(records)
    names = [p.name for p in seats]
    for name in dict.fromkeys(names):
        mine = players.setdefault(name, PlayerStats(name))
        mine.matches += 1
        # one match of a name sitting at several seats is one point of the chart
        mine.match_points.append(sum(p.match_points[0] for p in seats if p.name == name))
        for p in seats:
            if p.name == name:
                _add(mine, p)
    if agree:
        from paiju.review import ReviewError, review_record

        for s, name in enumerate(names):
            try:
                review = review_record(records, s)
            except ReviewError as exc:
                raise StatsError(str(exc)) from None
            players[name].decisions += len(review.decisions)
            players[name].agreed += sum(d.agree for d in review.decisions)


def seat_counts(records: list[dict[str, Any]]) -> list[PlayerStats]:
    """One record's counts for each seat (``matches`` 1, ``match_points`` the seat's
    total), named as the header names the seat."""
    head = records[0] if records else {}
    if head.get("record") != "paiju":
        raise StatsError("not a paiju record (no header on line 1)")
    names = head.get("seats")
    variant = head.get("variant")
    if not isinstance(names, list) or not names or not isinstance(variant, str):
        raise StatsError("the header names no seats or no variant")
    mine = [PlayerStats(str(n), variants={variant}, matches=1) for n in names]
    n = len(mine)
    totals = [0] * n
    last_giver: int | None = None
    winners: list[int] = []
    for line in records[1:]:
        kind = line.get("type")
        seat = line.get("seat")
        if kind in ("discard", "added_kong") and isinstance(seat, int):
            last_giver = seat
        elif kind == "win":
            winners = [w for w in line.get("winners", []) if isinstance(w, int)]
            how = line.get("how")
            source = line.get("from", last_giver)
            for w in winners:
                if 0 <= w < n:
                    mine[w].wins += 1
                    mine[w].self_drawn += how == "self_draw"
            if how != "self_draw" and isinstance(source, int) and 0 <= source < n:
                mine[source].deal_ins += 1
        elif kind == "score" and isinstance(seat, int) and seat in winners and 0 <= seat < n:
            p = mine[seat]
            for item in line.get("items", []):
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    p.items[item["id"]] = p.items.get(item["id"], 0) + 1
                    p.item_variant.setdefault(item["id"], variant)
        elif kind == "hand_end":
            net = line.get("net", [])
            for s in range(n):
                mine[s].hands += 1
                if s < len(net) and isinstance(net[s], int):
                    mine[s].points += net[s]
                    totals[s] += net[s]
            winners, last_giver = [], None
    for s in range(n):
        mine[s].match_points.append(totals[s])
    return mine


def _add(into: PlayerStats, one: PlayerStats) -> None:
    """Adds the counts of ``one`` (matches and the chart excepted) to ``into``."""
    into.variants |= one.variants
    into.hands += one.hands
    into.wins += one.wins
    into.self_drawn += one.self_drawn
    into.deal_ins += one.deal_ins
    into.points += one.points
    for k, count in one.items.items():
        into.items[k] = into.items.get(k, 0) + count
    for k, game in one.item_variant.items():
        into.item_variant.setdefault(k, game)
    into.decisions += one.decisions
    into.agreed += one.agreed


def merge_stats(name: str, parts: Sequence[PlayerStats]) -> PlayerStats:
    """One player's statistics from several seats' counts (each one match), in order."""
    out = PlayerStats(name)
    for p in parts:
        _add(out, p)
        out.matches += p.matches
        out.match_points.extend(p.match_points)
    return out


def format_stats(stats: Sequence[PlayerStats], lang: str = "zh") -> str:
    en = lang == "en"
    out: list[str] = []
    for p in stats:
        agreement = p.agreement
        agree = "–" if agreement is None else f"{100 * agreement:.1f}%"
        if en:
            out.append(
                f"{p.name}: {p.hands} hands in {p.matches} matches, win rate "
                f"{100 * p.win_rate:.1f}% (self-drawn {100 * p.self_draw_share:.0f}%), deal-in "
                f"rate {100 * p.deal_in_rate:.1f}%, {p.points_per_hand:+.2f} points a hand, "
                f"agreement with strong {agree}"
            )
        else:
            out.append(
                f"{p.name}：{p.matches} 场 {p.hands} 局，和牌率 {100 * p.win_rate:.1f}%"
                f"（自摸占 {100 * p.self_draw_share:.0f}%），放铳率 {100 * p.deal_in_rate:.1f}%，"
                f"每局 {p.points_per_hand:+.2f} 分，与强机器人一致率 {agree}"
            )
        if p.items:
            top = sorted(p.items.items(), key=lambda kv: (-kv[1], kv[0]))
            shown = ", ".join(f"{p.item_name(k, lang)} ×{n}" for k, n in top)
            out.append(("  items: " if en else "  番种：") + shown)
    return "\n".join(out)
