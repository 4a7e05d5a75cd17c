"""Typed errors of the engine; both are ValueErrors so callers can catch either broadly."""


class InvalidActionError(ValueError):
    """The action is malformed: not an action code, a bad string, a seat out of range."""


class IllegalActionError(ValueError):
    """The action is well-formed but not legal for that seat now. Nothing was changed."""
