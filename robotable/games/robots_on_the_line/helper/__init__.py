"""The assembly helper: the best finished robot a hand can sell to a buyer, or ``None``.

The search has two levels. A skeleton is the torso with connectors (extenders, elbows, splitters) on
its ports, in every rotation that fits, leaving slots: open ports that an end (head, base, hand,
antenna) will fill. Skeletons with fewer connectors come first. For each skeleton, ends are assigned to
the slots. Parts that no requirement or bonus of this buyer tells apart are one choice (all plain
one-eyed heads are alike to a buyer without an eye limit; slots alike to it are filled in one order),
and branches are cut when they cannot be ended, overshoot or can no longer reach an exact count
(eyes, heads, hands) or a size (tall, wide, long arm), or when the best conceivable sale is found.
A connector whose ports face other open ports closes them: robots with loops of tiles are found too
(two elbows may end two torso ports at once). Every robot kept is checked with :mod:`..geometry` like
any player's layout, with the fewest batteries that earn the most bonus tiles. A search stops after
``NODE_LIMIT`` steps with the best robot found so far and says so (:func:`search`,
``Answer.complete``); see benchmarks/assembly.py for how often that happens.

The helper is a search, not a rule of the game: the rules only ask it for its answers (:func:`robot_sales`
in ``legal_actions``). Its modules: :mod:`.buyers` (what a buyer asks, which parts it tells apart),
:mod:`.refusals` (hands refused before any search), :mod:`.finishable` (hands that finish no robot
for any buyer: a table shipped as data), :mod:`.tiles` (cells, slots, part signatures),
:mod:`.skeletons` (the search over the torso and connectors), :mod:`.ends` (ends on the open ports),
:mod:`.build` (the robot checked and priced) and :mod:`.sales` (the answers and their caches).

>>> from robotable.games.robots_on_the_line.components import REQUIREMENTS, part_index, torso_index
>>> hand = [part_index(p) for p in ("head-05", "base-10", "hand-16", "hand-20", "hand-01")]
>>> hands_3 = [r for r in REQUIREMENTS if r.id == "req-20"]
>>> best = best_robot(hand, torso_index("torso-11"), hands_3, (), pay=20)
>>> best.measures.hands, best.value      # 2-hands tile + one hand; the pink hand on the pink port: +$4
(3, 24)
>>> best_robot(hand[:3], torso_index("torso-11"), hands_3, (), pay=20) is None
True
"""

from .build import Assembly
from .buyers import ANY_BUYER, Buyer, buyer_of, extra_ports, part_facts, part_tally
from .refusals import hopeless, loop_turns_missing, may_end, refused, subset_sizes, too_small
from .sales import NODE_LIMIT, Answer, best_robot, robot_sales, search
from .skeletons import Search

__all__ = [
    "ANY_BUYER",
    "NODE_LIMIT",
    "Answer",
    "Assembly",
    "Buyer",
    "Search",
    "best_robot",
    "buyer_of",
    "extra_ports",
    "hopeless",
    "loop_turns_missing",
    "may_end",
    "part_facts",
    "part_tally",
    "refused",
    "robot_sales",
    "search",
    "subset_sizes",
    "too_small",
]
