"""``python -m robotable.ai.learn GAME``: self-play, train, write the weights (see :mod:`robotable.ai.learn`)."""

from __future__ import annotations

import sys

from .pipeline import main

if __name__ == "__main__":
    sys.exit(main())
