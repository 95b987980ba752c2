"""Research environments on top of the game contract (optional extra ``robotable[research]``).

- :mod:`robotable.adapters.openspiel`: every game registered with ``pyspiel`` as a Python game.
- :mod:`robotable.adapters.pettingzoo`: AEC environments (and a parallel one for simultaneous choices).
- :mod:`robotable.adapters.gymnasium`: single-agent environments, the other seats played by Robotable agents.

The adapters see a game only through the contract: its integer action encoding
(:meth:`robotable.core.Game.action_index`) and each seat's ``view``, never the hidden state. This package
imports nothing heavy itself; numpy, pyspiel, pettingzoo and gymnasium are imported by the submodules.
"""

from __future__ import annotations

__all__: list[str] = []
