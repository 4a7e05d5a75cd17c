"""The real-time game server (FastAPI + websockets): an optional extra, ``pip install
paiju[server]``. The engine never imports this package."""

from __future__ import annotations

__all__ = ["create_app"]


def create_app(*args: object, **kwargs: object) -> object:
    """Build the FastAPI app (see :func:`paiju.server.app.create_app`)."""
    from paiju.server.app import create_app as build

    return build(*args, **kwargs)  # type: ignore[arg-type]
