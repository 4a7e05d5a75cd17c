"""Rule profiles: named, versioned sets of option values (issue 16, item 4).

A profile fixes the values of some options of one variant; every option it does not name
keeps its default. ``--options`` (and any options mapping read by :func:`resolve`) may name
a profile under the key ``"profile"`` and override single options beside it::

    {"profile": "jiaxing-hun", "hun_kinds": 1}

A record's header names the profile its full options were built from
(:func:`describe`): the most specific profile of the variant whose values all hold, with
its version; :func:`overrides` lists the options that differ from it. A profile's
version goes up whenever its values change, so an old record still says which table of
values it was played under.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from paiju.variants.base import OptionError


@dataclass(frozen=True)
class Profile:
    name: str
    version: int
    variant: str
    options: Mapping[str, Any]
    zh: str
    en: str


PROFILES: dict[str, Profile] = {
    p.name: p
    for p in (
        Profile(
            "jiaxing", 1, "jiaxing", {}, "嘉兴麻将（种子默认）", "Jiaxing, the seed's defaults"
        ),
        Profile(
            "jiaxing-hun",
            1,
            "jiaxing",
            {"hun": True},
            "嘉兴麻将·混儿",
            "Jiaxing with 混儿 wild tiles (rule book §11 defaults)",
        ),
        Profile(
            "jiaxing-hun-tianjin",
            1,
            "jiaxing",
            {"hun": True, "hun_stacking": "tianjin", "hun_self_draw_only": True, "hun_qi_hu": 2},
            "嘉兴麻将·混儿（天津算法：先加后乘、只许自摸、2番起和）",
            "Jiaxing with 混儿, Tianjin style: doubling fans, self-draw only, 2 to win",
        ),
        Profile(
            "jiaxing-chi",
            1,
            "jiaxing",
            {"chi": True},
            "嘉兴麻将·可吃",
            "Jiaxing with chow (吃) allowed",
        ),
        Profile(
            "taixing", 1, "taixing", {}, "泰兴麻将（种子默认）", "Taixing, the seed's defaults"
        ),
        Profile(
            "taixing-seven-pairs-no-quad",
            1,
            "taixing",
            {"qi_dui_quad": False},
            "泰兴麻将·七对不含四张",
            "Taixing, four alike never count as two pairs in 七对",
        ),
        Profile(
            "qinger", 1, "qinger", {}, "青儿（种子默认，三人）", "Qing'er, the seed's defaults"
        ),
        Profile("qinger-4", 1, "qinger", {"participants": 4}, "青儿·四人", "Qing'er for four"),
    )
}
"""Every profile by name. Self-draw only, a win cap (封顶) and a stake unit (底分) have
no profile yet: no variant has such an option except 混儿's ``hun_self_draw_only``."""


def find_profile(name: object) -> Profile:
    if not isinstance(name, str) or name not in PROFILES:
        known = ", ".join(PROFILES)
        raise OptionError(f"unknown profile {name!r} (known: {known})")
    return PROFILES[name]


def resolve(variant: str, mapping: Mapping[str, Any]) -> dict[str, Any]:
    """The option overrides of ``mapping`` with its ``"profile"`` (if any) expanded: the
    profile's values first, the mapping's own options over them."""
    if "profile" not in mapping:
        return dict(mapping)
    profile = find_profile(mapping["profile"])
    if profile.variant != variant:
        raise OptionError(f"profile {profile.name!r} is for {profile.variant}, not {variant}")
    rest = {k: v for k, v in mapping.items() if k != "profile"}
    return {**profile.options, **rest}


def describe(variant: str, options: Mapping[str, Any]) -> dict[str, Any] | None:
    """For a record header: the most specific profile whose values all hold in the full
    ``options``, and its version (the options beside it say what else was set)."""
    best: Profile | None = None
    for p in PROFILES.values():
        if p.variant != variant or any(options.get(k) != v for k, v in p.options.items()):
            continue
        if best is None or len(p.options) > len(best.options):
            best = p
    if best is None:
        return None
    return {"name": best.name, "version": best.version}


def overrides(variant: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options that differ from the values of the profile :func:`describe` names."""
    named = describe(variant, options)
    defaults = _defaults(variant)
    base = PROFILES[named["name"]].options if named else {}
    expected = {**defaults, **base}
    return {k: v for k, v in options.items() if k in expected and expected[k] != v}


def _defaults(variant: str) -> dict[str, Any]:
    from paiju.variants.base import options_to_mapping
    from paiju.variants.registry import flows

    flow = flows()[variant]
    return dict(options_to_mapping(flow.options_type()))
