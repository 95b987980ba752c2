"""Positions built by hand: start a game, then move named tiles where a test wants them.

Every helper keeps the 136 parts, the 20 torsos and the money conserved (what it displaces goes to the
bottom of a draw pile), so the state stays one the engine could load from JSON.
"""

from __future__ import annotations

from collections.abc import Sequence

from robotable.games.robots_on_the_line import GAME, RotlState
from robotable.games.robots_on_the_line.components import (
    BONUS_IDS,
    BUYER_IDS,
    BUYERS,
    BUYERS_IN_PLAY,
    PART_IDS,
    REQUIREMENT_IDS,
    TORSO_IDS,
)
from robotable.games.robots_on_the_line.line import EMPTY


def fresh(num_players: int = 2, seed: int = 1, **options: object) -> RotlState:
    """A new game with the given house rules."""
    return GAME.start(num_players, seed=seed, options=options)


def take_out(state: RotlState, name: str) -> int:
    """Remove part ``name`` from wherever it is; returns its int."""
    part = PART_IDS[name]
    for line in state.lines:
        if part in line:
            line[line.index(part)] = EMPTY
            return part
    for pile in state.draw + state.junk:
        if part in pile:
            pile.remove(part)
            return part
    for seat, hand in enumerate(state.hands):
        if part in hand:
            hand.remove(part)
            state.secret[seat] = [x for x in state.secret[seat] if x != part]
            return part
    raise AssertionError(f"{name} is out of the game")


def set_line(state: RotlState, line: int, names: Sequence[str | None]) -> None:
    """Put ``names`` on ``line``, space 1 first (``None`` = empty)."""
    for part in state.lines[line]:
        if part != EMPTY:
            state.draw[line].insert(0, part)
    state.lines[line] = [EMPTY] * len(state.lines[line])
    for space, name in enumerate(names):
        if name is not None:
            state.lines[line][space] = take_out(state, name)
    check(state)


def set_junk(state: RotlState, pile: int, names: Sequence[str]) -> None:
    """Make junk pile ``pile`` exactly ``names``, bottom first."""
    state.draw[pile][:0] = state.junk[pile]
    state.junk[pile] = []
    for name in names:
        state.junk[pile].append(take_out(state, name))
    check(state)


def set_draw_top(state: RotlState, line: int, names: Sequence[str]) -> None:
    """The next parts drawn for ``line``, in drawing order."""
    for name in reversed(names):
        state.draw[line].append(take_out(state, name))
    check(state)


def set_hand(
    state: RotlState, seat: int, names: Sequence[str], torso: str | None = None, money: int | None = None
) -> None:
    """Give ``seat`` exactly these parts (all seen by everyone) and this torso."""
    state.draw[0][:0] = state.hands[seat]
    state.hands[seat] = []
    state.secret[seat] = []
    state.hands[seat] = sorted(take_out(state, n) for n in names)
    if state.torso[seat] >= 0:
        state.torso_pile.insert(0, state.torso[seat])
        state.torso[seat] = -1
    if torso is not None:
        state.torso_pile.remove(TORSO_IDS[torso])
        state.torso[seat] = TORSO_IDS[torso]
    if money is not None:
        state.bank += state.money[seat] - money
        state.money[seat] = money
    check(state)


def set_buyer(state: RotlState, buyer: str, requirements: Sequence[str], bonus_tiles: Sequence[str]) -> int:
    """Put ``buyer`` in play with these tiles (others keep theirs unless they clash); returns its slot."""
    b = BUYER_IDS[buyer]
    reqs = [REQUIREMENT_IDS[r] for r in requirements]
    bonus = [BONUS_IDS[t] for t in bonus_tiles]
    state.buyer_reqs = [[r for r in rs if r not in reqs] for rs in state.buyer_reqs]
    state.buyer_bonus = [[t for t in ts if t not in bonus] for ts in state.buyer_bonus]
    state.buyer_money = list(state.buyer_money)
    state.buyers = list(state.buyers)
    if b not in state.buyers:  # swap out the last buyer
        state.buyers.pop()
        state.buyer_reqs.pop()
        state.buyer_bonus.pop()
        state.bank += state.buyer_money.pop()
        state.buyers.append(b)
        order = sorted(range(len(state.buyers)), key=state.buyers.__getitem__)
        state.buyer_reqs.append([])
        state.buyer_bonus.append([])
        money = BUYERS[b].robots * BUYERS[b].pay
        state.bank -= money
        state.buyer_money.append(money)
        state.buyers = [state.buyers[i] for i in order]
        state.buyer_reqs = [state.buyer_reqs[i] for i in order]
        state.buyer_bonus = [state.buyer_bonus[i] for i in order]
        state.buyer_money = [state.buyer_money[i] for i in order]
    slot = state.buyers.index(b)
    state.buyer_reqs[slot] = reqs
    state.buyer_bonus[slot] = bonus
    assert len(state.buyers) == BUYERS_IN_PLAY[state.num_players]
    check(state)
    return slot


def check(state: RotlState) -> None:
    problems = state.check_invariants()
    assert not problems, problems
