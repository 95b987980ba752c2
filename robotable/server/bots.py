"""Bots in seats: which agent plays a difficulty, and choosing moves off the event loop.

A difficulty is an agent spec for :func:`robotable.ai.make_agent` (``random``, ``heuristic``,
``ismcts:easy`` ...). A spec whose agent does not exist yet falls back to ``random``, and the lobby and
the table say so. Bots are stateless between moves: each decision builds its agent with a seed derived
from the table's seed, the seat and the move number. Search levels think by time (their CPU seconds
within a wall-clock cap), so the same position may get another move on a busier machine; the moves
played are recorded, so a restarted server or an undo replays exactly.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from robotable.ai import ISMCTSAgent, make_agent
from robotable.ai.base import Decision
from robotable.core import Action, BadInput, State

from . import levels
from .schemas import DIFFICULTIES

FALLBACK = "random"
#: Added to a seat in the seeds of optional moves, so they do not repeat the seat's own decisions' seeds.
OPTIONAL_SEATS = 1_000


def effective_agent(difficulty: str | None) -> str:
    """The agent spec that actually plays ``difficulty`` (``random`` for one not built yet)."""
    spec = difficulty or FALLBACK
    try:
        make_agent(spec, seed=0)
    except BadInput:
        return FALLBACK
    return spec


def check_difficulty(difficulty: str | None) -> str:
    """A difficulty the lobby offers (or a spec ``make_agent`` knows); BadInput otherwise."""
    spec = difficulty or FALLBACK
    if spec in DIFFICULTIES:
        return spec
    try:
        make_agent(spec, seed=0)
    except BadInput:
        raise BadInput(f"unknown bot difficulty {spec!r} (one of: {', '.join(DIFFICULTIES)})") from None
    return spec


def hand_over_level(control: dict[str, Any]) -> str:
    """The bot that takes a seat handed over by default: the strongest level that keeps the table moving
    at its clock (``control``, a time control's JSON). A bot's clock never runs, so what counts is how
    long the people wait for it: the top level thinks at most its wall-clock cap (1.8 s, and the turn's
    bots together ``ROBOTABLE_BOT_THINK`` at most), fine for turn-based and for live clocks of 3 minutes or
    more or 5 seconds of increment; a faster live clock (blitz) gets the medium search, a bullet clock
    (under a minute, under 2 s of increment) the heuristic, which answers in milliseconds."""
    if control.get("kind") != "live":
        return "ismcts:hard"
    base, increment = int(control.get("base", 0)), int(control.get("increment", 0))
    if base >= 180 or increment >= 5:
        return "ismcts:hard"
    if base >= 60 or increment >= 2:
        return "ismcts:medium"
    return "heuristic"


def difficulties() -> list[dict[str, object]]:
    """Every difficulty with the agent that plays it now and that agent's arena rating per game
    (``ratings``: ``{game: {"rating", "mu", "sigma", "games"}}``, empty without ratings; levels.py)."""
    out: list[dict[str, object]] = []
    for spec in DIFFICULTIES:
        agent = effective_agent(spec)
        note = None if agent == spec else f"not available yet: plays as {agent}"
        rated = levels.ratings_of(agent)
        out.append({"difficulty": spec, "agent": agent, "available": agent == spec, "note": note, "ratings": rated})
    return out


def level_rating(game: str, difficulty: str | None) -> dict[str, object] | None:
    """The arena rating, in ``game``, of the agent that plays ``difficulty`` (None if it has none)."""
    return levels.rating_of(game, effective_agent(difficulty))


def bot_seed(table_seed: int, seat: int, move_index: int) -> int:
    """The seed of one bot decision."""
    return (table_seed * 1_000_003 + move_index * 7919 + seat) % (2**63)


def seats_to_move(
    state: State, is_bot: Callable[[int], bool], difficulty: Callable[[int], str | None]
) -> list[tuple[int, str]]:
    """Bot seats that move now: every bot the game waits for when the only people it waits for are
    asked to answer something public (``State.answering``: a bot's offer, which they answer when they
    like while the bot's turn goes on); else only bots asked to answer (an offer a person made to a bot).

    In a simultaneous choice the bots choose after the people (their choices stay secret either
    way), which leaves a person's own secret choice undoable until the reveal. A bot whose turn it
    is never waits for a person to answer its offer: it plays on, and the offer lapses with its turn.
    """
    if state.is_over():
        return []
    waiting = state.to_act()
    answering = state.answering()
    if waiting and all(is_bot(s) or s in answering for s in waiting):
        movers = [s for s in waiting if is_bot(s)]
    else:
        movers = [s for s in answering if s in waiting and is_bot(s)]
    return [(s, difficulty(s) or FALLBACK) for s in movers]


def choose_moves(
    state: State,
    seats: list[tuple[int, str]],
    table_seed: int,
    first_index: int,
    wall: float | None = None,
    turn_based: bool = False,
    clock: Callable[[], float] = time.monotonic,
) -> list[tuple[int, Action]]:
    """Choose for each ``(seat, difficulty)`` in turn on a private copy (runs in a worker thread).

    Simultaneous choices are made one after the other on the copy; each bot sees only its own view,
    so the order reveals nothing. A search level thinks by time, as people play: its ``seconds`` of CPU
    time, within its wall-clock cap (``max_wall``, 1.8 s for hard). ``wall`` is how long the people at
    the table wait for this call in all (the worker's ``ROBOTABLE_BOT_THINK``): the bots choosing in it
    share what is left of it (``clock``), so three bots bidding in a 4-player TF22 battle keep the table
    waiting no longer than one. At a ``turn_based`` table ``wall`` replaces the levels' own caps: nobody
    watches the bot think, so the level spends its whole CPU budget even on a busy machine.
    """
    started = clock()
    work = state.clone()
    out: list[tuple[int, Action]] = []
    for offset, (seat, difficulty) in enumerate(seats):
        if seat not in work.to_act():
            break
        seed = bot_seed(table_seed, seat, first_index + offset)
        agent = make_agent(effective_agent(difficulty), seed=seed, budget="time", max_wall=wall if turn_based else None)
        if wall is not None and isinstance(agent, ISMCTSAgent):
            agent.wall_cap = max(0.0, wall - (clock() - started)) / (len(seats) - offset)  # its share of the rest
        action = agent.act(work, seat)
        work.apply(seat, action)
        out.append((seat, action))
    return out


def choose_optional_moves(
    state: State, seats: list[tuple[int, str]], table_seed: int, first_index: int
) -> list[tuple[int, Action]]:
    """Like :func:`choose_moves` for bots the game does not wait for (``State.optional_actors``): each
    may make a move (a trade offer at any time) or let the moment pass (``Agent.choose_optional``)."""
    work = state.clone()
    out: list[tuple[int, Action]] = []
    for offset, (seat, difficulty) in enumerate(seats):
        if seat not in work.optional_actors():
            continue
        seed = bot_seed(table_seed, seat + OPTIONAL_SEATS, first_index + offset)
        agent = make_agent(effective_agent(difficulty), seed=seed)
        action = agent.choose_optional(Decision.of(work, seat))
        if action is not None:
            work.apply(seat, action)
            out.append((seat, action))
    return out
