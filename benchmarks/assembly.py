"""How long the Robots on the Line assembly helper takes on hands of 10, 15 and 20 parts.

Each trial deals a random hand and torso, and asks the helper for the best robot for every buyer of a
freshly set-up 4-player table (8 buyers with their requirement and bonus tiles). Run:

    .venv/bin/python benchmarks/assembly.py [trials per size, default 50]
"""

from __future__ import annotations

import sys
import time

from robotable.core import Rng
from robotable.games.robots_on_the_line import GAME, helper
from robotable.games.robots_on_the_line.components import BONUS_TILES, BUYERS, PARTS, REQUIREMENTS, TORSOS


def main(trials: int = 50) -> None:
    print(f"assembly helper, {trials} hands per size, each asked for all 8 buyers (node limit {helper.NODE_LIMIT})")
    print("times are CPU time of this process (wall time on a shared machine can be higher)")
    print(f"{'parts':>5} {'calls':>6} {'mean ms':>8} {'p95 ms':>7} {'max ms':>7} {'sold':>5} {'at limit':>8}")
    for size in (10, 15, 20):
        rng = Rng(size)
        times: list[float] = []
        found = limited = 0
        for trial in range(trials):
            table = GAME.start(4, seed=size * 1000 + trial)
            parts = list(range(len(PARTS)))
            rng.shuffle(parts)
            hand = tuple(sorted(parts[:size]))
            torso = rng.randrange(len(TORSOS))
            for slot, b in enumerate(table.buyers):
                reqs = [REQUIREMENTS[r] for r in table.buyer_reqs[slot]]
                bonus = [BONUS_TILES[t] for t in table.buyer_bonus[slot]]
                search = helper.Search(hand, torso, reqs, bonus, BUYERS[b].pay, helper.NODE_LIMIT)
                start = time.process_time()
                answer = search.run()
                times.append(time.process_time() - start)
                found += answer is not None
                limited += search.nodes > helper.NODE_LIMIT
        times.sort()
        mean = sum(times) / len(times) * 1000
        p95 = times[int(len(times) * 0.95)] * 1000
        print(f"{size:>5} {len(times):>6} {mean:>8.2f} {p95:>7.2f} {times[-1] * 1000:>7.1f} {found:>5} {limited:>8}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
