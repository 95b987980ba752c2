"""The web app. For now a placeholder page: the lobby and tables arrive with the browser issue."""

from __future__ import annotations

from .app import create_app, run

__all__ = ["create_app", "run"]
