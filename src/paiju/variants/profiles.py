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
            "jiaxing-feng-ding-20",
            1,
            "jiaxing",
            {"feng_ding": 20},
            "嘉兴麻将·封顶20",
            "Jiaxing with a win cap of 20 per payer (封顶)",
        ),
        Profile(
            "jiaxing-di-fen-2",
            1,
            "jiaxing",
            {"di_fen": 2},
            "嘉兴麻将·底分2",
            "Jiaxing paid at 2 per point (底分)",
        ),
        Profile(
            "jiaxing-zi-mo",
            1,
            "jiaxing",
            {"zi_mo_only": True},
            "嘉兴麻将·只许自摸",
            "Jiaxing, self-drawn wins only",
        ),
        Profile(
            "jiaxing-no-qi-dui",
            1,
            "jiaxing",
            {"qi_xiao_dui": False},
            "嘉兴麻将·不带七对",
            "Jiaxing without seven pairs (七小对, 大七对)",
        ),
        Profile(
            "taixing", 1, "taixing", {}, "泰兴麻将（种子默认）", "Taixing, the seed's defaults"
        ),
        Profile(
            "taixing-zi-mo",
            1,
            "taixing",
            {"zi_mo_only": True},
            "泰兴麻将·只许自摸",
            "Taixing, self-drawn wins only",
        ),
        Profile(
            "taixing-feng-ding-50",
            1,
            "taixing",
            {"feng_ding": 50},
            "泰兴麻将·封顶50",
            "Taixing with a win cap of 50 per payer (封顶)",
        ),
        Profile(
            "taixing-di-fen-2",
            1,
            "taixing",
            {"di_fen": 2},
            "泰兴麻将·底分2",
            "Taixing paid at 2 per 花 (底分)",
        ),
        Profile(
            "taixing-no-qi-dui",
            1,
            "taixing",
            {"qi_dui": False},
            "泰兴麻将·不带七对",
            "Taixing without seven pairs (七对)",
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
        Profile(
            "qinger-zi-mo",
            1,
            "qinger",
            {"zi_mo_only": True},
            "青儿·只许自摸",
            "Qing'er, self-drawn wins only",
        ),
        Profile(
            "qinger-feng-ding-300",
            1,
            "qinger",
            {"feng_ding": 300},
            "青儿·封顶300",
            "Qing'er with a cap of 300 per pair and hand (封顶)",
        ),
        Profile(
            "qinger-3-4-5",
            1,
            "qinger",
            {"stake_form": "3-4-5"},
            "青儿·注码3-4-5",
            "Qing'er at the seed's highest stake form (底分: 3/4/5)",
        ),
    )
}
"""Every profile by name. A win cap (封顶), a stake unit (底分), self-draw only and seven
pairs on/off are Jiaxing's ``feng_ding``, ``di_fen``, ``zi_mo_only`` and ``qi_xiao_dui``
and Taixing's ``feng_ding``, ``di_fen``, ``zi_mo_only`` and ``qi_dui``; Qing'er has
``zi_mo_only`` and ``feng_ding`` (per pair), its stake unit is the seed's own
``stake_form`` (Q1), and seven pairs has no meaning in its 23-card hands."""


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


def overrides(
    variant: str, options: Mapping[str, Any], defaults: Mapping[str, Any]
) -> dict[str, Any]:
    """The options that differ from the values of the profile :func:`describe` names
    (``defaults``: the variant's own option values)."""
    named = describe(variant, options)
    base = PROFILES[named["name"]].options if named else {}
    expected = {**defaults, **base}
    return {k: v for k, v in options.items() if k in expected and expected[k] != v}
