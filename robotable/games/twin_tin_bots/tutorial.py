"""The tutorial's lessons (``tutorial.json`` beside this module; see :mod:`robotable.core.tutorial`) and
how their written positions are completed (:func:`.positions.complete`). Texts: the catalogue's
``tutorial.*`` keys; what the lessons cover: docs/games/twin-tin-bots.md, "Tutorial"."""

from __future__ import annotations

from pathlib import Path

from .positions import complete

LESSONS = Path(__file__).with_name("tutorial.json")

__all__ = ["LESSONS", "complete"]
