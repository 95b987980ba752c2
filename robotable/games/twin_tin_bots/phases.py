"""Where a turn of Twin Tin Bots stands: its phase, and the point the program run has reached.

A turn is the programming step (``CHANGE``), then the run of the active colour's programs (``RUN``),
which stops at a decision the rules give a player (``ZAP``: what a zapped robot does; ``BLOB``: where
a zapped Blob goes; ``CRYSTAL``: where a new crystal enters) and goes on once it is taken.
"""

from __future__ import annotations

from typing import NamedTuple

CHANGE, RUN, ZAP, BLOB, CRYSTAL, OVER = range(6)
PHASES = ("change", "run", "zap", "blob", "crystal", "over")
#: The phases that wait for a player's decision in the middle of the run.
DECISIONS = (ZAP, BLOB, CRYSTAL)


class RunPoint(NamedTuple):
    """The next operation of the program run: the active colour's ``robot`` (0 = A, 1 = B), its
    program ``slot`` (0-2; 3 once the robot's program has ended) and the tile's ``op`` (an order such as
    Forward 2x is several operations).

    >>> RunPoint(1, 2, 0)._replace(op=1)
    RunPoint(robot=1, slot=2, op=1)
    """

    robot: int
    slot: int
    op: int


#: The run point of a turn that has not started running.
START = RunPoint(0, 0, 0)
