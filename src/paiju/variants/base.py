"""What every variant shares above the engine: options parsed from JSON.

Standard library only.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from paiju.components.boundedjson import preview


class OptionError(ValueError):
    """An unknown option name or a value of the wrong type or range."""


def options_from_mapping(
    cls: type[Any],
    values: typing.Mapping[str, Any],
    specs: typing.Mapping[str, OptionSpec] | None = None,
) -> Any:
    """Build a frozen options dataclass from JSON-like values, checking names and types.

    Enum-typed fields accept their value strings; ``Literal`` fields their listed values.
    With ``specs``, integers are also held to each option's bounds.
    """
    if not isinstance(values, typing.Mapping):
        raise OptionError("options must be an object")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for name, value in values.items():
        if name not in fields:
            raise OptionError(f"unknown option {preview(name)}")
        kwargs[name] = _coerce(name, hints[name], value)
        spec = specs.get(name) if specs is not None else None
        if spec is not None and isinstance(kwargs[name], int) and not isinstance(value, bool):
            if spec.minimum is not None and kwargs[name] < spec.minimum:
                raise OptionError(f"option {preview(name)} must be at least {spec.minimum}")
            if spec.maximum is not None and kwargs[name] > spec.maximum:
                raise OptionError(f"option {preview(name)} must be at most {spec.maximum}")
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise OptionError(f"bad options: {exc}") from None


def _coerce(name: str, hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        if value not in typing.get_args(hint):
            allowed = ", ".join(repr(a) for a in typing.get_args(hint))
            raise OptionError(
                f"option {preview(name)} must be one of {allowed}, not {preview(value)}"
            )
        return value
    if origin in (typing.Union, types.UnionType):
        errors = []
        for arm in typing.get_args(hint):
            if arm is type(None):
                if value is None:
                    return None
                continue
            try:
                return _coerce(name, arm, value)
            except OptionError as exc:
                errors.append(str(exc))
        raise OptionError(f"option {preview(name)}: bad value {preview(value)}")
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        try:
            return hint(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in hint)
            raise OptionError(
                f"option {preview(name)} must be one of {allowed}, not {preview(value)}"
            ) from None
    if hint is bool:
        if not isinstance(value, bool):
            raise OptionError(f"option {preview(name)} must be true or false, not {preview(value)}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"option {preview(name)} must be an integer, not {preview(value)}")
        return value
    raise OptionError(f"option {preview(name)} cannot be set from JSON")


def options_to_mapping(options: Any) -> dict[str, Any]:
    """The JSON form of an options dataclass (for record headers)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        out[f.name] = value.value if isinstance(value, StrEnum) else value
    return out


# -- option metadata ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """What a front end shows for one option: labels, the rule-book item, bounds.

    Bounds are checked by :func:`options_from_mapping`, so a lobby form, the CLI and a
    record header are held to the same range.
    """

    zh: str
    en: str
    rule: str
    """The seed item or ambiguity id in the variant's rule book (J18, TA5, QA1 …)."""
    minimum: int | None = None
    maximum: int | None = None
    added: bool = False
    """The option came after records were first written: a record header without it was
    played with its default (a new option's default is the play before it), and replays
    so (docs/spec/record.md, "Records of an older engine"). Changing the default of such
    an option later would read those records wrongly: it is a breaking change."""


@dataclass(frozen=True, slots=True)
class OptionField:
    """One option as ``/api/variants`` and ``paiju variants`` publish it."""

    name: str
    type: str
    """``bool``, ``int`` or ``choice``."""
    default: Any
    nullable: bool
    spec: OptionSpec
    choices: tuple[Any, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "nullable": self.nullable,
            "choices": list(self.choices),
            "minimum": self.spec.minimum,
            "maximum": self.spec.maximum,
            "label": {"zh": self.spec.zh, "en": self.spec.en},
            "rule": self.spec.rule,
        }


def option_fields(cls: type[Any], specs: typing.Mapping[str, OptionSpec]) -> list[OptionField]:
    """Every field of an options dataclass with its type, default and spec, in order."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        nullable = False
        origin = typing.get_origin(hint)
        if origin in (typing.Union, types.UnionType):
            arms = [a for a in typing.get_args(hint) if a is not type(None)]
            nullable = len(arms) < len(typing.get_args(hint))
            hint = arms[0]
        choices: tuple[Any, ...] = ()
        if typing.get_origin(hint) is typing.Literal:
            kind, choices = "choice", typing.get_args(hint)
        elif isinstance(hint, type) and issubclass(hint, StrEnum):
            kind, choices = "choice", tuple(m.value for m in hint)
        elif hint is bool:
            kind = "bool"
        else:
            kind = "int"
        default = f.default
        if isinstance(default, StrEnum):
            default = default.value
        out.append(OptionField(f.name, kind, default, nullable, specs[f.name], choices))
    return out
