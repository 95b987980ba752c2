"""The web app: lobby, tables with websockets, bots in seats, storage, replays. See docs/server.md."""

from __future__ import annotations

from .app import create_app, run

__all__ = ["create_app", "run"]
