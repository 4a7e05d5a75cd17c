"""What a game is: the one object every front end asks about a variant.

A :class:`Variant` is the only place that says a game's names, its pieces, how many sit at
the table, its options (with labels, rule-book ids and bounds), its item table, its
calculator entry, how a match and a hand start, its bot levels and how its events are
shown to each seat. It is also the engine's :class:`~paiju.engine.match.GameFlow`, so a
:class:`~paiju.engine.match.Match` runs on it directly. The registry of all of them is
:data:`paiju.variants.VARIANTS`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from paiju.engine.events import Event, for_seat
from paiju.engine.fairness import HandRandom
from paiju.engine.mahjong import MahjongHand, MahjongRules
from paiju.engine.match import Hand, Match
from paiju.variants.base import (
    OptionField,
    OptionSpec,
    option_fields,
    options_from_mapping,
    options_to_mapping,
)
from paiju.variants.items import ItemRow

Pieces = Literal["tiles", "cards"]

PAYMENT_REASONS: dict[str, tuple[str, str]] = {
    "zi_mo": ("自摸", "self-drawn win"),
    "fang_pao": ("放炮", "win on a discard"),
    "qiang_gang": ("抢杠", "robbing a kong"),
    "bao_pai": ("包牌", "feeder liability"),
    "gang": ("杠钱", "kong money"),
    "bi_fen": ("比分", "score difference"),
}
"""Payment reasons some ledgers use that are not rows of their variant's item table."""

BOT_NAMES: dict[str, tuple[str, str]] = {
    "random": ("简单", "easy (random)"),
    "greedy": ("普通", "normal (greedy)"),
    "strong": ("强", "strong"),
    "learned": ("学习型", "learned"),
}
"""How a bot level is called where people see it."""


@dataclass(frozen=True, slots=True)
class Names:
    zh: str
    """简体中文, the default everywhere a player looks."""
    zht: str
    """The seed's 繁體 name."""
    en: str

    def get(self, lang: str) -> str:
        return self.en if lang == "en" else self.zh


Calculator = Callable[[Mapping[str, Any]], dict[str, Any]]
"""A calculator entry: a parsed ``paiju score`` document to its result JSON."""


@dataclass(frozen=True, slots=True)
class HandStart:
    """What a match gives the next hand: its seed, dealer, what carries over from the last
    hand (Jiaxing's fisher, Qing'er's dealer), and the fair deal's shuffler if any."""

    seed: int
    dealer: int
    carry: dict[str, Any]
    rng: HandRandom | None = None


class Variant(ABC):
    """One game. Subclasses fill in the class attributes and the hand/match hooks."""

    name: str
    names: ClassVar[Names]
    pieces: ClassVar[Pieces]
    options_type: ClassVar[type[Any]]
    option_specs: ClassVar[Mapping[str, OptionSpec]]
    rule_book: ClassVar[str]
    """The rule book's path in the repository (docs/rules/…)."""
    bot_levels: ClassVar[tuple[str, ...]] = ("random", "greedy", "strong")
    server_bot_levels: ClassVar[tuple[str, ...]] = ("random", "greedy", "strong")
    """The levels a server table offers (a bot that thinks too long per move is left out)."""
    default_bot: ClassVar[str] = "greedy"
    greedy_bot: ClassVar[str] = "greedy"
    """Which greedy bot plays this game (``greedy``, ``taixing_greedy``, ``qinger_greedy``)."""
    strong_search: ClassVar[str] = "lookahead"
    """The strong bot's default search on this game (``lookahead`` or ``montecarlo``)."""
    added_fields: ClassVar[frozenset[str]] = frozenset()
    """Event fields this game added after records were first written, as ``type.field``
    paths (``score.counts_as``); new options say so in their :class:`OptionSpec`."""

    # -- table and options ---------------------------------------------------------------

    def seats(self, options: Any) -> int:
        """Seats at the table with these options."""
        return 4

    def default_options(self) -> Any:
        return self.options_type()

    def parse_options(self, values: Mapping[str, Any]) -> Any:
        """Options from JSON-like values; :class:`~paiju.variants.base.OptionError` names
        an unknown option, a value of the wrong type or one out of bounds."""
        return options_from_mapping(self.options_type, values, self.option_specs)

    def options_json(self, options: Any) -> dict[str, Any]:
        return options_to_mapping(options)

    def resolve_profile(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """Option values with a ``"profile"`` entry (a named, versioned set of values)
        expanded, the given options over the profile's."""
        from paiju.variants.profiles import resolve

        return resolve(self.name, values)

    def profile_of(self, options_json: dict[str, Any]) -> dict[str, Any] | None:
        """The most specific profile these full options follow (name and version)."""
        from paiju.variants.profiles import describe

        return describe(self.name, options_json)

    def option_fields(self) -> list[OptionField]:
        return option_fields(self.options_type, self.option_specs)

    def record_additions(self) -> frozenset[str]:
        """What this game added to record lines after records were first written, as
        ``kind.field`` paths: :attr:`added_fields` and the header's options marked
        ``added``. A record that lacks them still verifies and resumes (docs/spec/record.md,
        "Records of an older engine")."""
        options = (f"header.options.{n}" for n, spec in self.option_specs.items() if spec.added)
        return self.added_fields | frozenset(options)

    # -- items and the calculator ----------------------------------------------------------

    @abstractmethod
    def item_rows(self) -> Mapping[str, ItemRow]:
        """The item table by id (``variants/<game>/items.py``)."""
        ...

    def item_name(self, item_id: str, lang: str = "zh") -> str:
        """The name of an item or payment reason in ``lang`` (the id if unknown)."""
        row = self.item_rows().get(item_id)
        if row is not None:
            return row.en if lang == "en" else row.zh
        pair = PAYMENT_REASONS.get(item_id)
        if pair is None:
            return item_id
        return pair[1] if lang == "en" else pair[0]

    def scored_item_name(self, item: Mapping[str, Any], lang: str = "zh") -> str:
        """The name in ``lang`` of a result item as events carry it (``{"id", "name",
        "value"}``, the name in 简体 with any count or factor: 见牌碰 ×2)."""
        name = item.get("name")
        row = self.item_rows().get(str(item.get("id")))
        if row is None or not isinstance(name, str):
            return self.item_name(str(item.get("id")), lang)
        return row.name_of(name, lang)

    def item_unit(self, item_id: str) -> str:
        """What an item's value counts: ``points`` (分), or ``fan`` / ``flower`` /
        ``multiplier`` / ``liability`` where a game counts in more than one unit (a
        payment reason outside the table counts points)."""
        row = self.item_rows().get(item_id)
        return "points" if row is None else row.unit

    def item_ids(self) -> list[str]:
        """Every id a ledger or result of this game may name, sorted."""
        return sorted(set(self.item_rows()) | set(PAYMENT_REASONS))

    calculator: ClassVar[staticmethod[[Mapping[str, Any]], dict[str, Any]]]
    """The game's ``paiju score`` entry (``variants/<game>/calculator.py``'s
    ``score_json``), set by each game as ``staticmethod(score_json)``."""

    def score_json(self, doc: Any) -> dict[str, Any]:
        """``paiju score``: a calculator document (already parsed JSON) to its result."""
        return type(self).calculator(doc)

    # -- play ----------------------------------------------------------------------------

    def new_match(self, options: Any, seed: int) -> Match:
        return Match(self, options, seed)

    def new_hand(
        self,
        options: Any,
        *,
        seed: int,
        dealer: int,
        carry: dict[str, Any],
        rng: HandRandom | None = None,
    ) -> Hand:
        """The next hand (the engine's ``GameFlow.new_hand``), dealt by :meth:`deal`."""
        return self.deal(options, HandStart(seed, dealer, carry, rng))

    @abstractmethod
    def deal(self, options: Any, start: HandStart) -> Hand:
        """This game's next hand from ``start``."""
        ...

    @abstractmethod
    def after_hand(
        self, options: Any, hand: Any, carry: dict[str, Any]
    ) -> tuple[bool, dict[str, Any]]:
        """(does the dealer keep the deal, the state carried into the next hand)."""
        ...

    def match_length(self, options: Any) -> tuple[int | None, int]:
        """(hands, rounds): a fixed number of hands, or else this many wind rounds."""
        return options.hands, options.rounds

    def play_on(self, options: Any, carry: dict[str, Any], extra_hands: int) -> bool:
        """Past the planned end of a match, must another hand be played? (No, by default.)"""
        return False

    def for_seat(self, event: Event, seat: int | None) -> dict[str, Any]:
        """The JSON of ``event`` as ``seat`` may see it (None: a spectator). Every game
        so far hides the same private events (the engine's filter)."""
        return for_seat(event, seat)

    # -- what the server publishes -----------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        """The JSON of ``/api/variants`` for this game."""
        default = self.default_options()
        return {
            "name": self.name,
            "names": {"zh": self.names.zh, "zht": self.names.zht, "en": self.names.en},
            "pieces": self.pieces,
            "seats": self.seats(default),
            "seats_option": self.seats_option(),
            "options": [f.to_json() for f in self.option_fields()],
            "bots": {
                "levels": list(self.bot_levels),
                "server": list(self.server_bot_levels),
                "default": self.default_bot,
                "names": {
                    level: {"zh": BOT_NAMES[level][0], "en": BOT_NAMES[level][1]}
                    for level in self.bot_levels
                },
            },
            "items": [
                {"id": item_id, "zh": row.zh, "zht": row.zh_hant, "en": row.en, "seed": row.rule}
                for item_id, row in self.item_rows().items()
            ],
            "rule_book": self.rule_book,
            "profiles": self.profiles(),
        }

    def profiles(self) -> list[dict[str, Any]]:
        """The named rule profiles of this game, the seed's defaults first."""
        from paiju.variants.profiles import PROFILES

        return [
            {
                "name": p.name,
                "version": p.version,
                "options": dict(p.options),
                "zh": p.zh,
                "en": p.en,
            }
            for p in PROFILES.values()
            if p.variant == self.name
        ]

    def seats_option(self) -> str | None:
        """The option that changes the number of seats, if any (a lobby redraws on it)."""
        return None

    def max_seats(self) -> int:
        """The most seats any options give (an RL game declares it before options)."""
        return self.seats(self.default_options())

    def __repr__(self) -> str:
        return f"<Variant {self.name}>"


class MahjongVariant(Variant):
    """A game played on the engine's :class:`~paiju.engine.mahjong.MahjongHand`: each
    hand is the shared state machine with this game's rules, built by :meth:`rules`."""

    pieces = "tiles"

    @abstractmethod
    def rules(self, options: Any, carry: dict[str, Any]) -> MahjongRules:
        """The rules of the next hand, given what the match carries into it."""
        ...

    def deal(self, options: Any, start: HandStart) -> MahjongHand:
        rules = self.rules(options, start.carry)
        return MahjongHand(rules, seed=start.seed, dealer=start.dealer, rng=start.rng)
