"""Written Robots on the Line positions for the browser tests (servers run with --allow-positions)."""

from __future__ import annotations

from typing import Any

from robotable.games.robots_on_the_line import GAME
from robotable.games.robots_on_the_line.components import BONUS_TILES, BUYERS, PART_IDS, PARTS, REQUIREMENTS, TORSO_IDS
from robotable.games.robots_on_the_line.helper import best_robot


def sellable_position(
    seed: int = 1, num_players: int = 3, robots_sold: int = 3
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A start position in which seat 0 (no torso yet) can sell a robot once it takes the top torso.

    Seat 0's hand is its dealt hand plus the next parts of the draw piles (as if drawn earlier), until
    the assembly helper finds a robot with the torso on top of the stack; seat 0 has already sold
    ``robots_sold`` robots, so a fourth sale ends the game at the end of that turn. Answers the
    position (state JSON) and the helper's sale (its layout is the robot the test builds by hand).
    """
    state = GAME.start(num_players=num_players, seed=seed)
    data = state.to_json()
    torso = TORSO_IDS[data["torso_stack"][-1]]
    hand = [PART_IDS[p] for p in data["hands"][0]]
    drawn: list[int] = []
    piles = [list(p) for p in data["draw_piles"]]
    for step in range(40):
        best = None
        for buyer in data["buyers"]:
            b = BUYERS[[x.id for x in BUYERS].index(buyer["id"])]
            reqs = [REQUIREMENTS[[r.id for r in REQUIREMENTS].index(r)] for r in buyer["requirements"]]
            bonus = [BONUS_TILES[[t.id for t in BONUS_TILES].index(t)] for t in buyer["bonus_tiles"]]
            if any(r.kind == "magnets" for r in reqs):
                continue
            found = best_robot(hand, torso, reqs, bonus, b.pay)
            if found is not None and not found.batteries and (best is None or len(found.layout) < len(best[1].layout)):
                best = (buyer["id"], found)
        if best is not None:
            break
        pile = piles[step % 2]
        part = PART_IDS[pile.pop()]
        hand.append(part)
        drawn.append(part)
    else:
        raise ValueError(f"seed {seed}: no sellable hand found")
    data["draw_piles"] = piles
    data["hands"][0] = sorted(PARTS[p].id for p in hand)
    data["secret"][0] = sorted(set(data["secret"][0]) | {PARTS[p].id for p in drawn if PARTS[p].kind != "magnet"})
    data["robots_sold"][0] = robots_sold
    GAME.state_from_json(data)  # a valid position
    buyer_id, found = best
    sale = {
        "type": "sell_robot",
        "buyer": buyer_id,
        "layout": [list(item) for item in found.layout],
        "batteries": list(found.batteries),
        "magnets": list(found.magnets),
    }
    return data, sale


def quiet_sellable_position(seed: int = 5) -> tuple[dict[str, Any], dict[str, Any]]:
    """:func:`sellable_position` with the bots holding nothing (their parts back on the junk piles): no
    trade offer interrupts the person's turn, and no bot can sell a robot to the buyer the test wants
    before the person does, and each bot has $40 more from the bank, so it can still pay $1 for an offer
    after spending at random (random bots choose by timing-dependent turns, so both made tests flaky)."""
    position, sale = sellable_position(seed=seed)
    for seat in range(1, len(position["hands"])):
        position["junk_piles"][seat - 1] = position["junk_piles"][seat - 1] + position["hands"][seat]
        position["hands"][seat] = []
        position["secret"][seat] = []
        # money from the bank, so a random bot's spending never leaves it unable to pay for an offer
        position["money"][seat] += 40
        position["bank"] -= 40
    return position, sale
