"""Rule profiles: resolution of ``{"profile": ...}`` overrides and the record header."""

from __future__ import annotations

import pytest

from paiju.bots import GreedyBot
from paiju.engine.match import Match
from paiju.engine.record import record_match, replay
from paiju.variants.base import OptionError, options_from_mapping
from paiju.variants.jiaxing.flow import JiaxingFlow
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.profiles import PROFILES, describe, overrides, resolve
from paiju.variants.registry import flows


def test_every_profile_builds_valid_options() -> None:
    for profile in PROFILES.values():
        flow = flows()[profile.variant]
        options = options_from_mapping(flow.options_type, dict(profile.options))
        assert describe(profile.variant, _mapping(options))["name"] == profile.name  # type: ignore[index]
        assert profile.version >= 1 and profile.zh and profile.en


def _mapping(options: object) -> dict[str, object]:
    from paiju.variants.base import options_to_mapping

    return dict(options_to_mapping(options))


def test_resolve_expands_the_profile_and_keeps_overrides() -> None:
    assert resolve("jiaxing", {"profile": "jiaxing-hun", "hun_kinds": 1}) == {
        "hun": True,
        "hun_kinds": 1,
    }
    assert resolve("jiaxing", {"chi": True}) == {"chi": True}


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"profile": "nope"}, "unknown profile"),
        ({"profile": "taixing"}, "is for taixing"),
        ({"profile": 3}, "unknown profile"),
    ],
)
def test_bad_profiles_are_named(mapping: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        resolve("jiaxing", mapping)


def test_describe_names_overrides() -> None:
    options = _mapping(JiaxingOptions(hun=True, hun_kinds=1))
    assert describe("jiaxing", options) == {"name": "jiaxing-hun", "version": 1}
    assert overrides("jiaxing", options) == {"hun_kinds": 1}
    assert overrides("jiaxing", _mapping(JiaxingOptions())) == {}


def test_record_header_names_the_profile_and_replays() -> None:
    match = Match(JiaxingFlow(), JiaxingOptions(hun=True, hands=1), seed=5)
    lines = record_match(match, [GreedyBot(i) for i in range(4)], ["a", "b", "c", "d"])
    assert lines[0]["profile"] == {"name": "jiaxing-hun", "version": 1}
    assert lines[0]["options"]["hun"] is True
    assert replay(lines).ok
