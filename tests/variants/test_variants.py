"""The registry: every variant says what its game is, the same way."""

from __future__ import annotations

import dataclasses
import json

import pytest

from paiju.variants import VARIANTS, UnknownVariantError, find_variant
from paiju.variants.base import OptionError


def test_registry_holds_the_three_games() -> None:
    assert list(VARIANTS) == ["jiaxing", "taixing", "qinger"]
    assert find_variant("qinger").pieces == "cards"
    with pytest.raises(UnknownVariantError, match="known: jiaxing, taixing, qinger"):
        find_variant("tianjin")
    with pytest.raises(UnknownVariantError):
        find_variant(["jiaxing"])


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_option_has_a_label_a_rule_and_its_type(name: str) -> None:
    variant = VARIANTS[name]
    fields = variant.option_fields()
    assert [f.name for f in fields] == [f.name for f in dataclasses.fields(variant.options_type)]
    for f in fields:
        assert f.spec.zh and f.spec.en and f.spec.rule
        assert f.type in ("bool", "int", "choice")
        assert (f.type == "choice") == bool(f.choices)
    described = json.loads(json.dumps(variant.describe(), ensure_ascii=False))
    assert described["names"]["zh"] and described["names"]["zht"] and described["names"]["en"]
    assert set(described["bots"]["server"]) <= set(described["bots"]["levels"])
    assert described["rule_book"].startswith("docs/rules/")


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_bounds_are_enforced_when_options_are_parsed(name: str) -> None:
    variant = VARIANTS[name]
    with pytest.raises(OptionError, match="at most 64"):
        variant.parse_options({"hands": 10**4000})
    with pytest.raises(OptionError, match="unknown option"):
        variant.parse_options({"no_such_rule": True})
    with pytest.raises(OptionError, match="must be an object"):
        variant.parse_options([("hands", 1)])  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="bad value '1'"):
        variant.parse_options({"hands": "1"})
    assert variant.parse_options({}) == variant.default_options()


def test_qinger_seats_follow_participants() -> None:
    qinger = find_variant("qinger")
    assert qinger.seats(qinger.parse_options({"participants": 4})) == 4
    assert qinger.seats_option() == "participants"
    assert qinger.describe()["seats"] == 3


def test_item_names_and_units() -> None:
    assert find_variant("jiaxing").item_name("qing_yi_se") == "清一色"
    assert find_variant("jiaxing").item_name("qing_yi_se", "en") == "one suit, no honours"
    assert find_variant("taixing").item_name("gang") == "杠钱"
    assert find_variant("jiaxing").item_name("made_up") == "made_up"
    assert find_variant("taixing").item_unit("xiao_hu") == "fan"
    assert find_variant("jiaxing").item_unit("qing_yi_se") == "points"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_max_seats_is_the_most_any_seat_choice_gives(name: str) -> None:
    variant = VARIANTS[name]
    option = variant.seats_option()
    if option is None:
        seen = {variant.seats(variant.default_options())}
    else:
        field = next(f for f in variant.option_fields() if f.name == option)
        seen = {variant.seats(variant.parse_options({option: c})) for c in field.choices}
    assert variant.max_seats() == max(seen)
