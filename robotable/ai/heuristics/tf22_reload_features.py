"""TF22: RELOAD! as the learned value model sees a position: a few numbers per seat.

Everything comes from what every seat can see (hands, discards, ships, CC piles, chipcards, the revealed
cards and the round); the stack's order and the others' unrevealed choices are never read, so a
determinized state at a rollout's cut-off gives the same features as the true one. Each seat's features
are its own quantity *relative to the other seats* (its value less the others' mean, or less the best
other), so the model's strength score of a seat compares it with the table, and a pairwise comparison of
two seats is the difference of their scores.

>>> from robotable import games
>>> state = games.load("tf22-reload").start(2, seed=3)
>>> rows = features(state)
>>> len(rows), len(rows[0]) == len(NAMES), rows[0] == [-x for x in rows[1]]
(2, True, True)
"""

from __future__ import annotations

import math

from robotable.core import State
from robotable.games.tf22_reload.components import (
    BATTLES_PER_ROUND,
    FULL_STACK_BONUS,
    NUM_COLOURS,
    ROUNDS,
    card_colour,
    card_value,
)
from robotable.games.tf22_reload.state import Tf22State

#: The game this module describes.
GAME_ID = "tf22-reload"
#: Battles in a whole game.
BATTLES = BATTLES_PER_ROUND * ROUNDS

#: The features, in the order of a row (each is the seat's value less the other seats' mean unless said).
NAMES: tuple[str, ...] = (
    "proj",  # projected total if the game were scored now (as the hand-written evaluator), / 10
    "proj_x_progress",  # the same times the share of the game's battles already begun
    "proj_x_progress2",  # ... times that share squared (a lead counts more and more as the end nears)
    "lead_over_best",  # projected total less the best other seat's (not the mean), / 10
    "hand_sum",  # face values in hand, / 10
    "hand_sum_x_left",  # the same times the share of battles left
    "hand_size",  # cards in hand, / 7
    "has_7",  # the 7 in hand
    "has_1",  # the 1 in hand (ties two 1s, neutralizes a 7)
    "chips",  # chipcards, / 3 (tie-break, and R uses)
    "chips_x_left",  # chipcards times the share of battles left (R d buys a container for 3)
    "containers",  # containers on the ship, / 10
    "open_stacks",  # height of yellow-based stacks that can still become four-colour stacks, / 4
    "near_full",  # stacks of three that can still be completed
    "majority_margin",  # over colours: the seat's container lead over the best other, clipped to +-2, / 4
    "pile_faces",  # face values in the CC pile this round, / 10 (they score at the round's end)
    "load_pending",  # the seat won the battle and now places the activated container
    "prize_x_best_card",  # the battle's prize (revealed faces + container) times the seat's highest card, / 28
)

#: Features whose linear weight may not be negative: each is something a seat is better off having more of
#: (points, cards, chipcards, containers...). Fitted freely, self-play's outcomes give some of them
#: negative weights by confounding (a seat that took its discards back with R holds more cards because it
#: was losing battles), and search then spends cards and chipcards for nothing: the unconstrained model
#: won 32 of 100 games as medium's evaluator against the hand-written one; the constrained one, with the
#: same held-out loss, 23.5 of 40 at that level and 23 of 60 at today's medium (docs/ai.md).
NONNEGATIVE: frozenset[str] = frozenset(NAMES)


def features(state: State) -> list[list[float]]:
    """One row of :data:`NAMES` per seat for a TF22 state (not over), relative to the other seats."""
    s = state
    if not isinstance(s, Tf22State):
        raise TypeError(f"TF22: RELOAD! features of a {type(s).__name__}")
    n = s.num_players
    ships, piles, hands = s.ships, s.cc_piles, s.hands
    first_round = s.round == 1
    begun = (s.round - 1) * BATTLES_PER_ROUND + s.battle
    progress = begun / BATTLES
    left = 1.0 - progress
    counts = []
    for ship in ships:
        row = [0] * NUM_COLOURS
        for stack in ship:
            for colour in stack:
                row[colour] += 1
        counts.append(row)
    faces = []
    for pile in piles:
        row = [0] * NUM_COLOURS
        for c in pile:
            row[card_colour(c)] += card_value(c)
        faces.append(row)
    # The round's points as rules.score_round gives them (strict majority: the faces; else half).
    proj = []
    margins = []
    for seat in range(n):
        mine_counts, points, margin = counts[seat], 0, 0
        for colour in range(NUM_COLOURS):
            mine = mine_counts[colour]
            best = max(counts[o][colour] for o in range(n) if o != seat)
            diff = mine - best
            margin += 2 if diff > 2 else -2 if diff < -2 else diff
            if mine:
                points += faces[seat][colour] if diff > 0 else faces[seat][colour] // 2
        containers = sum(mine_counts)
        full = sum(1 for stack in ships[seat] if len(stack) == NUM_COLOURS)
        banked = s.scores[seat][0] + s.scores[seat][1]
        total = banked + points + containers + (containers if first_round else 0) + FULL_STACK_BONUS * full
        proj.append(total)
        margins.append(margin)
    prize = 0
    if len(s.revealed) == 2 and s.phase == 0:
        prize = card_value(s.revealed[0]) + card_value(s.revealed[1]) + (s.activated >= 0)
    loading = s.winner if s.phase == 1 else -1
    raw: list[list[float]] = []
    for seat in range(n):
        ship, hand = ships[seat], hands[seat]
        p = proj[seat] / 10
        hand_sum = sum(hand) / 10
        chips = s.chips[seat] / 3
        opened = [len(st) for st in ship if st and st[0] == 0 and len(st) < NUM_COLOURS]
        raw.append(
            [
                p,
                p * progress,
                p * progress * progress,
                0.0,  # filled below
                hand_sum,
                hand_sum * left,
                len(hand) / 7,
                1.0 if 7 in hand else 0.0,
                1.0 if 1 in hand else 0.0,
                chips,
                chips * left,
                sum(counts[seat]) / 10,
                sum(opened) / 4,
                float(sum(1 for h in opened if h == NUM_COLOURS - 1)),
                margins[seat] / 4,
                sum(faces[seat]) / 10,
                1.0 if seat == loading else 0.0,
                prize * (max(hand) if hand else 0) / 28,
            ]
        )
    width = len(NAMES)
    out: list[list[float]] = []
    for seat in range(n):
        others = [raw[o] for o in range(n) if o != seat]
        relative = [raw[seat][k] - sum(r[k] for r in others) / (n - 1) for k in range(width)]
        relative[3] = (proj[seat] - max(proj[o] for o in range(n) if o != seat)) / 10
        out.append(relative)
    return out


def handwritten_pair(row: list[float], other: list[float], players: int) -> float:
    """The hand-written evaluator's chance that one seat finishes ahead of another (a soft comparison of
    projected totals, 3 points ~ a clear edge), from the two seats' rows: the reference the pipeline
    reports its held-out loss beside."""
    diff = (row[0] - other[0]) * 10 * (players - 1) / players  # the rows' "proj" is relative to the mean
    return 1.0 / (1.0 + math.exp(-diff / 3.0))
