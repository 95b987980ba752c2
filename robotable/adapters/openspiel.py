"""Robotable games as OpenSpiel (``pyspiel``) Python games.

Importing this module registers every game that has an integer action encoding under
``robotable_<id with underscores>`` (``robotable_tf22_reload``, ``robotable_twin_tin_bots``, ...)::

    import pyspiel
    from robotable.adapters import openspiel

    game = openspiel.load_game("twin-tin-bots", players=3, options={"simplified": True})
    # or: pyspiel.load_game("robotable_twin_tin_bots", {"players": 3, "options": '{"simplified": true}'})

How the games are modelled (see docs/research.md):

- **Chance.** Every random event of a Robotable game comes from the state's own generator, seeded once:
  ``(game, options, seed, moves)`` is the whole game. So the game opens with explicit chance nodes that
  draw the seed uniformly, one byte (256 outcomes) per node, ``seed_bytes`` of them (parameter, default
  4: 2**32 equally likely games), high byte first (``EXPLICIT_STOCHASTIC``). By default
  (``chance_draws=1``, explicit chance) the seed then fixes only what every seat sees of the setup, and
  the deal (the game's ``chance_deal``) and every later draw from a face-down pile (its
  ``chance_draws``) are chance nodes where they happen, over the kinds in the pile in proportion to their
  counts: a pile's order is not decided until it is drawn from, so no state or clone holds a future
  draw. ``chance_draws=0`` is the faster seed mode: the deal and every later shuffle or draw are a
  function of the seed, and the history is a Robotable record ``[seed bytes..., move, move, ...]``.
  ``safe_clones=1`` makes ``clone()`` withdraw other seats' unrevealed secret choices into chance nodes,
  so clone-based search (``MCTSBot``) cannot read them; ``resample_from_infostate`` returns a real state
  whose history replays to it.
- **Dynamics.** TF22: RELOAD! is ``SIMULTANEOUS``: the battle choice is a simultaneous node of every
  seat; the winner's load decision is an ordinary decision node. The other games are ``SEQUENTIAL``
  with imperfect information; their pending decisions are decision nodes of the seat the rules name.
- **Actions.** The game's stable integer encoding (:meth:`robotable.core.Game.action_index`), decoded
  through the state's legal actions (an index may stand for the free-form choice the state lists, such
  as a Robots on the Line sale). Where the rules wait for several seats of a sequential game (a trade
  offer to answer during someone's turn), the node belongs to the first; the others act after it.
- **Observations** come from ``state.view(seat)`` only: the string is the view as canonical JSON, the
  tensor the game's feature planes (its ``observation_encoder``; every value in [0, 1], the same layout
  for every seat; the observer's ``dict`` holds each plane, shaped, by name; see docs/research.md). The
  information state has perfect recall: the string adds the seat's own actions and a SHA-256 chain over
  everything it observed in order (each new view, each own action); the tensor adds its last
  ``RECALL_FRAMES`` distinct views and last ``RECALL_ACTIONS`` own actions (see
  :class:`RobotableObserver`). With ``public_info`` only, the spectator's view (laid out for the seat);
  with ``private_info`` only, the features of the seat's view that differ from the spectator's.
- **Utility.** Robotable's payoff: 1 shared among the winners, so ``CONSTANT_SUM`` with sum 1.
- **Length.** TF22 is bounded by its rules (56 steps). Twin Tin Bots has no bound in its rules (random
  play takes thousands of steps), so ``max_game_length`` (default 20000) cuts a game off: the state
  becomes terminal and every seat gets ``1 / players``. Set it higher to make cut-offs rarer. Robots on
  the Line ends by its rules (the line runs out; random play takes a few hundred steps), but with no
  simple bound, so the same default applies as a safety net. ``max_rounds`` (Twin Tin Bots) instead stops a
  game after that many rounds with a scored outcome: ranked as the rules rank an ended game.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import itertools
import json
import random
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Mapping
from itertools import chain
from math import prod
from typing import Any, SupportsIndex

import greenlet  # type: ignore[import-untyped]  # greenlet ships no type stubs
import numpy as np
import pyspiel

from robotable.core import Action, BadInput, Game, Rng, State, load

from ._common import (
    canonical,
    check_max_rounds,
    check_setup,
    default_max_steps,
    describe_index,
    encodable_games,
    encoder_of,
    is_simultaneous,
    legal_by_index,
    load_encodable,
    private_features,
    private_part,
    round_limit_result,
    rule_bound,
)

try:  # counting into a plain dict in C: what Counter does, without its Python-level __init__ and update
    from _collections import _count_elements  # type: ignore[import-not-found]  # CPython's, as Counter uses
except ImportError:  # pragma: no cover  (other Python implementations)

    def _count_elements(mapping: dict[Any, int], iterable: Any) -> None:
        for item in iterable:
            mapping[item] = mapping.get(item, 0) + 1


#: Chance nodes (one byte of the seed each) that open a game, by default.
SEED_BYTES = 4
#: Outcomes of each chance node.
CHANCE_OUTCOMES = 256
#: With ``chance_draws``, a bound on the hidden draws one step makes (for ``max_chance_nodes_in_history``).
DRAWS_PER_STEP = 16
_OUTCOMES = [(byte, 1.0 / CHANCE_OUTCOMES) for byte in range(CHANCE_OUTCOMES)]
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def encode_options(options: Mapping[str, Any]) -> str:
    """Options as a pyspiel parameter value: OpenSpiel game strings cannot hold JSON's commas, so
    anything but ``{}`` is stored as unpadded URL-safe base64 of the canonical JSON."""
    if not options:
        return "{}"
    return base64.urlsafe_b64encode(canonical(dict(options)).encode()).decode().rstrip("=")


def decode_options(value: object) -> object:
    """Read the ``options`` parameter: a JSON object (as a string) or :func:`encode_options`' form."""
    if not isinstance(value, str) or value.lstrip().startswith("{") or not value:
        return value
    try:
        return json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
    except ValueError:
        raise BadInput(f"options must be a JSON object (or its encoded form), got {value!r}") from None


def short_name(game_id: str) -> str:
    """The pyspiel name of a Robotable game: ``robotable_`` and the id with underscores."""
    return "robotable_" + game_id.replace("-", "_")


class _Context:
    """Everything fixed for one loaded game. States refer to it (``_ctx``): a deep copy (pyspiel's clone)
    shares it, and a pickle names it by the game's key (the unpickling process has loaded that game)."""

    def __init__(self, game: Game, players: int, options: dict[str, Any], params: Mapping[str, Any]) -> None:
        self.game = game
        self.players = players
        self.options = options
        self.num_actions = game.num_distinct_actions(players, options)
        self.seed_bytes = params["seed_bytes"]
        self.max_steps = params["max_game_length"]
        self.max_rounds = params["max_rounds"] or None
        self.chance_draws = bool(params["chance_draws"])
        self.safe_clones = bool(params["safe_clones"])
        #: Draws for safe clones (``safe_clones=1``).
        self.clone_rng = random.Random(0)
        self.encoder = encoder_of(game)
        self.simultaneous = is_simultaneous(game)
        #: Whether new states keep each seat's recall (set once an information state is asked for).
        self.recall = False
        #: The chance outcome of a hidden pile's item (``chance_draws``), remembered.
        self.outcome_of = _Outcomes(game.chance_draws)
        #: Whether a pending move's states keep a copy of the state before the move (set once one was
        #: asked for at a chance node: a clone, an observation, a pickle; see _Engine).
        self.keep_before = False
        self.key = ""  # set by the game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Context:
        return self

    def __reduce__(self) -> tuple[Callable[[str], _Context], tuple[str]]:
        return _context, (self.key,)


def _context(key: str) -> _Context:
    """The context of a loaded game by its key (what an unpickled state refers to)."""
    try:
        return _CONTEXTS[key]
    except KeyError:
        raise BadInput(f"a pickled state of a game not loaded in this process: {key}") from None


_CONTEXTS: dict[str, _Context] = {}
#: Versions of Robotable states inside pyspiel states, for the observation and legal-action memos. A
#: version is drawn when an :class:`_Engine` is built (a new game, a clone, an unpickled or deserialized
#: state) and again when it changes; it is never pickled, so a state restored in another process (or
#: in a forked worker) gets a version that process has never used for another state.
_UIDS = itertools.count(1)
#: The legal actions of the last state version asked: ``(version, {seat: (by index, sorted indices)})``.
_LEGAL: tuple[int, dict[int, tuple[dict[int, Action], list[int]]]] = (0, {})


class _Engine:
    """Holds a Robotable state (and each seat's own past actions) inside a pyspiel state: copied with
    ``clone``, pickled as its JSON.

    Pickling through ``to_json``/``state_from_json`` means every OpenSpiel (de)serialization is also a
    check of the game's exact JSON round trip.

    With explicit chance, a move waiting for its draws is played in place, up to its first undecided
    draw, in a worker greenlet (``worker``) that waits there for the chance node's outcome; ``state``
    is then the state before the move (what a clone copies and an observer reads). It is kept as a
    copy once a game has been asked for it at such a node (``_Context.keep_before``); until then it is
    rebuilt on demand by replaying the owner's history up to the move (``owner``; ``start``: the history
    items before the move).
    """

    __slots__ = ("_state", "own", "owner", "recall", "start", "version", "worker")

    def __init__(self, state: State, own: list[list[int]], recall: list[_Recall] | None = None) -> None:
        self._state: State | None = state
        self.own = own
        self.recall = recall  # per seat, once perfect recall is asked for (see _Recall)
        self.version = next(_UIDS)
        self.worker: Any = None  # a greenlet suspended at the pending move's next undecided draw
        self.owner: Any = None  # a weak reference to the pyspiel state, while ``_state`` is not kept
        self.start = 0

    @property
    def state(self) -> State:
        """The Robotable state (before the pending move while its draws are chance nodes)."""
        state = self._state
        if state is None:
            state = self._state = self._rebuild()
        return state

    @state.setter
    def state(self, state: State) -> None:
        self._state = state

    def _rebuild(self) -> State:
        """The state before the pending move, replayed from the owner's history: from now on the
        game keeps it as a copy (asked once at a pending node, likely asked again)."""
        owner = self.owner() if self.owner is not None else None
        if owner is None:
            raise RuntimeError("the state before a pending move is gone with its pyspiel state")
        ctx = owner.ctx
        ctx.keep_before = True
        if not owner._pending:  # the deal: the state the seed started
            seed = int.from_bytes(owner._seed, "big")
            return ctx.game.start(ctx.players, seed=seed, options=ctx.options)
        history = [[h.player, h.action] for h in owner.full_history()]
        again = replay(owner.get_game(), history[: self.start])
        return again._engine.state  # type: ignore[union-attr]

    def changed(self) -> None:
        """Mark a change of the state: memos of the old version no longer apply."""
        self.version = next(_UIDS)

    def observed(self, moves: list[tuple[int, int]]) -> None:
        """After ``moves`` (seat, index) changed the state: each seat's recall notes its own action and
        what it now sees (nothing when recall is not kept)."""
        if self.recall is None:
            return
        for seat, index in moves:
            self.recall[seat].act(index)
        state = self.state
        for seat, memory in enumerate(self.recall):
            memory.see(state.view(seat))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        recall = None if self.recall is None else [memory.copy() for memory in self.recall]
        return _Engine(self.state.clone(), [seat[:] for seat in self.own], recall)

    def __reduce__(self) -> tuple[Callable[..., _Engine], tuple[str, str, list[list[int]]]]:
        state = self.state
        return _engine_from_json, (state.game.id, json.dumps(state.to_json()), self.own)


def _engine_from_json(game_id: str, data: str, own: list[list[int]]) -> _Engine:
    return _Engine(load(game_id).state_from_json(json.loads(data)), own)


#: Earlier observations (distinct views, newest first) in the information state tensor.
RECALL_FRAMES = 4
#: Own actions (newest first) in the information state tensor.
RECALL_ACTIONS = 64


class _Recall:
    """One seat's memory of a game: a SHA-256 chain over everything it observed, in order (each view
    that differs from the one before, and each of its own actions), and its last views.

    Two observation histories give the same chain only if they are the same (up to a SHA-256
    collision), so the chain is a bounded perfect-recall information state."""

    __slots__ = ("chain", "frames", "view")

    def __init__(self) -> None:
        self.chain = hashlib.sha256()
        self.view: Any = None  # the view seen last
        self.frames: list[Any] = []  # earlier views, newest first (at most RECALL_FRAMES)

    def act(self, index: int) -> None:
        self.chain.update(b"a%d;" % index)

    def see(self, view: Any) -> None:
        if view == self.view:
            return
        if self.view is not None:
            self.frames = [self.view, *self.frames[: RECALL_FRAMES - 1]]
        self.view = view
        text = repr(view)  # views are JSON data built in a fixed order: repr is exact and faster than JSON
        self.chain.update(b"o%d:" % len(text) + text.encode())

    def digest(self) -> str:
        return self.chain.hexdigest()

    def copy(self) -> _Recall:
        other = _Recall.__new__(_Recall)
        other.chain, other.view, other.frames = self.chain.copy(), self.view, self.frames
        return other


class RobotableSpielGame(pyspiel.Game):
    """A Robotable game as a pyspiel game; parameters ``players``, ``options`` (a JSON object as a string),
    ``seed_bytes``, ``max_game_length`` and ``max_rounds`` (0: none; for games that declare a round
    limit, such as Twin Tin Bots: the game stops after that many rounds, scored as the rules rank it)."""

    def __init__(self, game_type: pyspiel.GameType, game: Game, params: Mapping[str, Any] | None = None) -> None:
        params = {**game_type.parameter_specification, **(params or {})}
        unknown = set(params) - set(game_type.parameter_specification)
        if unknown:
            raise BadInput(f"{short_name(game.id)}: unknown parameter(s) {', '.join(sorted(unknown))}")
        players, options = check_setup(game, params["players"], decode_options(params["options"]))
        for key in ("seed_bytes", "max_game_length"):
            if not isinstance(params[key], int) or params[key] < 1:
                raise BadInput(f"{short_name(game.id)}: parameter {key!r} must be a positive integer")
        if not isinstance(params["max_rounds"], int) or params["max_rounds"] < 0:
            raise BadInput(f"{short_name(game.id)}: parameter 'max_rounds' must be 0 (no limit) or a positive integer")
        check_max_rounds(game, params["max_rounds"])
        for key in ("chance_draws", "safe_clones"):
            if params[key] not in (0, 1):
                raise BadInput(f"{short_name(game.id)}: parameter {key!r} must be 0 or 1")
        if params["chance_draws"] and game.chance_draws is None:
            raise BadInput(f"{game.id} declares no hidden draws (chance_draws is for games that do)")
        if params["chance_draws"] and not hasattr(game.chance_draws, "replace"):
            raise BadInput(f"{game.id}: its chance_draws has no replace(), which chance_draws=1 needs")
        if params["seed_bytes"] > 7:
            raise BadInput(f"{short_name(game.id)}: seed_bytes is at most 7 (seeds are below 2**62)")
        ctx = _Context(game, players, options, params)
        ctx.simultaneous = game_type.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        info = pyspiel.GameInfo(
            num_distinct_actions=ctx.num_actions,
            max_chance_outcomes=max(CHANCE_OUTCOMES, ctx.num_actions if ctx.safe_clones else 0),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=ctx.max_steps,
        )
        super().__init__(game_type, info, {**params, "options": encode_options(options)})
        self.key = canonical(
            [
                game_type.short_name,
                players,
                options,
                ctx.seed_bytes,
                ctx.max_steps,
                ctx.max_rounds,
                ctx.chance_draws,
                ctx.safe_clones,
            ]
        )
        ctx.key = self.key
        _CONTEXTS.setdefault(self.key, ctx)  # one context per key: states refer to it

    def new_initial_state(self) -> RobotableSpielState:
        """The root: the first chance node drawing the seed."""
        return RobotableSpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The seed's bytes, and with ``chance_draws`` a bound on the draws (``DRAWS_PER_STEP`` a step)."""
        ctx = _CONTEXTS[self.key]
        return ctx.seed_bytes + (ctx.max_steps * DRAWS_PER_STEP if ctx.chance_draws else 0)

    def deserialize_state(self, text: str) -> RobotableSpielState:
        """The state :meth:`RobotableSpielState.serialize` wrote: JSON only (no pickle, so no code runs).

        The history is replayed from the root through the game's rules and the result must match the
        stored Robotable state; anything else raises :class:`robotable.BadInput` naming the problem."""
        return state_from_json(self, text)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Mapping[str, Any] | None = None
    ) -> RobotableObserver:
        """An observer built from views (see the module docstring)."""
        return RobotableObserver(
            _CONTEXTS[self.key], iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )

    @property
    def robotable(self) -> Game:
        """The Robotable game behind this pyspiel game."""
        return _CONTEXTS[self.key].game


class _Undecided:
    """A move reached a draw no chance node has decided yet: the pile and its outcomes there (what the
    worker greenlet hands back while it waits for the outcome)."""

    __slots__ = ("counts", "name", "outcomes")

    def __init__(self, name: str, outcomes: tuple[tuple[int, float], ...], counts: Mapping[int, int]) -> None:
        self.name, self.outcomes, self.counts = name, outcomes, counts


def _worker_loop(job: tuple[Any, ...]) -> None:
    """A worker greenlet: runs ``job`` (a function and its arguments) and hands back ``("done", result)``
    or ``("error", exception)``, then waits for the next job. A job that needs a chance outcome hands
    back an :class:`_Undecided` and waits for the outcome (see :meth:`_Arranged.pop`)."""
    while True:
        try:
            reply: Any = ("done", job[0](*job[1:]))
        except Exception as exc:  # handed to the caller (a GreenletExit, when dropped while waiting, is not)
            reply = ("error", exc)
        job = greenlet.getcurrent().parent.switch(reply)


#: Idle worker greenlets of this thread (greenlets run in the thread that made them).
_WORKERS = threading.local()


def _idle_workers() -> list[Any]:
    """This thread's idle worker greenlets."""
    try:
        idle: list[Any] = _WORKERS.idle
    except AttributeError:
        idle = _WORKERS.idle = []
    return idle


class _Moves(tuple):
    """Moves waiting for their draws, ``(seat, index, action)``: immutable, so a clone shares them."""

    __slots__ = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Moves:
        return self


class _Outcomes:
    """A game's ``chance_draws.outcome``, remembered per (pile, item) for items that are numbers or
    strings (values that never change), with each pile's items of each kind."""

    __slots__ = ("draws", "known", "of_kind", "tables")

    def __init__(self, draws: Any) -> None:
        self.draws = draws
        self.tables: dict[str, dict[int | str, int]] = {}  # per pile name: item -> outcome, remembered
        self.known: dict[str, set[Any]] = {}  # per pile name, the items remembered
        self.of_kind: dict[tuple[str, int], set[Any]] = {}  # per (pile name, outcome), its items remembered

    def __call__(self, name: str, item: Any) -> int:
        kind = type(item)
        if kind is not int and kind is not str:
            return self.draws.outcome(name, item)
        table = self.tables.get(name)
        if table is None:
            table = self.tables[name] = {}
        try:
            return table[item]
        except KeyError:
            outcome: int = self.draws.outcome(name, item)
            table[item] = outcome
            self.known.setdefault(name, set()).add(item)
            self.of_kind.setdefault((name, outcome), set()).add(item)
            return outcome

    def top_known(self, pile: list[Any], name: str, outcome: int) -> int:
        """:meth:`top` for a pile whose every item's kind is remembered: the topmost of the items known to
        be of that kind, found in C."""
        at = -1
        for item in self.of_kind.get((name, outcome), ()):
            try:
                where = len(pile) - 1 - pile[::-1].index(item)
            except ValueError:
                continue
            if where > at:
                at = where
        return at

    def top(self, pile: list[Any], name: str, outcome: int) -> int:
        """The position of the topmost item of kind ``outcome`` in ``pile`` (-1: none)."""
        try:
            distinct = set(pile)
        except TypeError:  # items that cannot be hashed
            distinct = None
        if distinct is not None:
            for item in distinct - self.known.get(name, set()):
                self(name, item)
            if distinct <= self.known.get(name, set()):  # every item's kind is known: no scan in Python
                wanted = distinct & self.of_kind.get((name, outcome), set())
                if not wanted:
                    return -1
                backwards = pile[::-1]
                return len(pile) - 1 - min(backwards.index(item) for item in wanted)
        for at in range(len(pile) - 1, -1, -1):
            if self(name, pile[at]) == outcome:
                return at
        return -1


class _Arranged(list):
    """A hidden pile whose order is not decided until drawn: the ``k``-th draw from its top (``pop()``)
    takes an item of the kind the pile's ``k``-th chance node chose (moved to the top first); when no
    chance node has chosen yet, the move (played in a worker greenlet, see :func:`_worker_loop`) waits there,
    handing back an :class:`_Undecided` with the kinds in the pile then, in proportion to their counts,
    until the outcome is given (:meth:`RobotableSpielState._advance`). Shuffles (item assignment) and
    refills in place keep it watching.
    Piles the game declares ``shared`` are one hidden pool (``pool``): a draw from one counts the kinds
    of all, and may take its item from another (which gets this pile's top item in exchange)."""

    __slots__ = ("decided", "drawn", "live", "name", "outcome_of", "pool")

    def __init__(self, items: list[Any], name: str, outcome_of: _Outcomes, decided: tuple[int, ...]) -> None:
        super().__init__(items)
        self.name, self.outcome_of, self.decided, self.drawn = name, outcome_of, decided, 0
        self.live = False  # a move is being played in its worker greenlet (else: a plain list's pop)
        self.pool: list[_Arranged] = [self]

    def pop(self, index: SupportsIndex = -1, /) -> Any:
        if index != -1 or not self.live:  # not a draw from the top of a move being played
            return super().pop(index)
        if not self:
            return super().pop()
        outcome_of = self.outcome_of
        if self.drawn < len(self.decided):
            outcome = self.decided[self.drawn]
            known = False
        else:  # wait in the worker greenlet for the chance node's outcome
            outcomes, counts, known = _kinds(outcome_of, self.pool)
            outcome = greenlet.getcurrent().parent.switch(_Undecided(self.name, outcomes, counts))
        self.drawn += 1
        for pile in self.pool:  # this pile first, from its top
            at = outcome_of.top_known(pile, pile.name, outcome) if known else outcome_of.top(pile, pile.name, outcome)
            if at >= 0:
                pile[at], self[-1] = self[-1], pile[at]
                return super().pop()
        raise AssertionError(f"no {outcome} left in {self.name}")  # cannot happen: outcomes come from the pool


def _kinds(outcome_of: _Outcomes, pool: list[_Arranged]) -> tuple[tuple[tuple[int, float], ...], dict[int, int], bool]:
    """The chance outcomes of a draw from the piles of ``pool``: the kinds of their items in proportion
    to their counts; the counts; whether every item's kind is remembered (``_Outcomes.top_known``)."""
    total = sum(map(len, pool))
    tables = outcome_of.tables
    counts: dict[int, int] = {}
    try:  # every item's kind remembered: counted in C
        if len(pool) == 1:
            _count_elements(counts, map(tables[pool[0].name].__getitem__, pool[0]))
        else:
            _count_elements(counts, chain.from_iterable(map(tables[pile.name].__getitem__, pile) for pile in pool))
        known = True
    except (KeyError, TypeError):  # an item (or a pile) not remembered yet
        counts = Counter()
        for pile in pool:
            for item in pile:
                counts[outcome_of(pile.name, item)] += 1
        known = False
    return tuple([(outcome, n / total) for outcome, n in sorted(counts.items())]), counts, known


def _play_arranged(ctx: _Context, moves: _Moves, decided: dict[str, tuple[int, ...]], state: State) -> State:
    """Play ``moves`` (or the deal again: ``undeal``, then ``deal``) on ``state``, its hidden piles
    arranged (:class:`_Arranged`) so the draws so far take the ``decided`` kinds. Run in a worker
    greenlet (see :func:`_worker_loop`): a draw not yet decided waits there.

    The piles stay arranged after the move (the next move on this state reuses them, its draws set
    anew; between moves they draw as plain lists): the engine's own copies (``clone``, ``to_json``,
    ``determinize``) copy a pile into a plain list, so an arranged pile never leaves the state it was
    made for. A pile the game replaced by a new list is arranged again."""
    draws = ctx.game.chance_draws
    if not moves:  # the deal: the state holds the seed's until its draws are all decided
        ctx.game.chance_deal.undeal(state)
    current = draws.piles(state)
    arranged = list(current.values())
    if all(type(pile) is _Arranged for pile in arranged):
        for name, pile in current.items():
            pile.decided, pile.drawn, pile.live = decided.get(name, ()), 0, True
    else:
        outcome_of = ctx.outcome_of
        piles = {name: _Arranged(pile, name, outcome_of, decided.get(name, ())) for name, pile in current.items()}
        for names in getattr(draws, "shared", ()):
            pool = [piles[name] for name in names]
            for pile in pool:
                pile.pool = [pile, *(other for other in pool if other is not pile)]
        draws.replace(state, piles)
        arranged = list(draws.piles(state).values())
        for pile in arranged:
            pile.live = True
    if moves:
        for seat, _, action in moves:
            state.apply_legal(seat, action)
    else:
        ctx.game.chance_deal.deal(state)
    for pile in arranged:  # a pop outside a move (someone else's use of the state) is a plain list's
        pile.live = False
    return state


class RobotableSpielState(pyspiel.State):
    """A pyspiel state around a Robotable state (``None`` until the root chance node drew the seed)."""

    def __init__(self, game: RobotableSpielGame) -> None:
        super().__init__(game)
        self._key = game.key
        self._ctx = _CONTEXTS[game.key]
        self._engine: _Engine | None = None
        self._seed = b""  # the seed's bytes drawn so far (attributes are immutable where they can be: fast clones)
        self._steps = 0
        self._cut = False
        self._cut_payoffs: list[float] | None = None  # a round limit's scored result
        # chance_draws: the moves waiting for their hidden draws (an empty list: the deal), the draws
        # decided so far per pile (in the order drawn), the pile of the next draw and its outcomes
        self._pending: _Moves | None = None
        self._decided: dict[str, tuple[int, ...]] = {}
        self._next_pile = ""
        self._outcomes: tuple[tuple[int, float], ...] = ()
        self._possible: Mapping[int, Any] | None = None  # the outcomes, for lookups (rebuilt when missing)
        self._hidden: tuple[int, ...] = ()  # safe clones: seats whose secret choice was withdrawn (chance)
        self._sampled = False  # a sample of an information state: its clones are plain copies
        self._length = 0  # items in pyspiel's history
        self._replayable = True  # its history replays to it (not a safe clone's withdrawal, not a determinization)
        self._player_at, self._player = 0, 0  # the current player last computed, and the state version then

    # -- access for checks and tools --------------------------------------------------------------

    @property
    def version(self) -> int:
        """The memo key of this state's position: unique in this process, never carried by a pickle
        (0 at the opening chance nodes, where there is nothing to observe)."""
        return 0 if self._engine is None else self._engine.version

    @property
    def ctx(self) -> _Context:
        return self._ctx

    @property
    def robotable_state(self) -> State | None:
        """The Robotable state (``None`` at the root chance node). Holds hidden information: never hand
        it to a player."""
        return None if self._engine is None else self._engine.state

    @property
    def chance_pile(self) -> str:
        """The hidden pile the current chance node draws from (``chance_draws=1``; ``""`` otherwise)."""
        return self._next_pile if self._pending is not None else ""

    def own_actions(self, seat: int) -> list[int]:
        """The action indices ``seat`` has played so far, in order."""
        return [] if self._engine is None else self._engine.own[seat]

    def recall(self, seat: int) -> _Recall | None:
        """``seat``'s memory of this game (``None`` while the seed is drawn). The first call on a game
        turns recall on for its new states and rebuilds this state's by replaying its history."""
        engine = self._engine
        if engine is None:
            return None
        if engine.recall is None:
            self._ctx.recall = True
            again = replay(self.get_game(), [[h.player, h.action] for h in self.full_history()])
            engine.recall = again._engine.recall  # type: ignore[union-attr]
        return engine.recall[seat]  # type: ignore[index]

    # -- the pyspiel API ---------------------------------------------------------------------------

    def current_player(self) -> int:
        engine = self._engine
        if engine is None or self._pending is not None:
            return pyspiel.PlayerId.CHANCE
        if self._player_at == engine.version:  # every change of what decides it changes the version
            return self._player
        state = engine._state  # not pending: the state itself
        assert state is not None
        if self._cut or state.is_over():
            player = pyspiel.PlayerId.TERMINAL
        else:
            waiting = state.to_act()
            if self._ctx.simultaneous and len(waiting) > 1:
                player = pyspiel.PlayerId.SIMULTANEOUS
            elif self._hidden:
                visible = [seat for seat in waiting if seat not in self._hidden]
                player = visible[0] if visible else pyspiel.PlayerId.CHANCE
            else:
                player = waiting[0]
        self._player_at, self._player = engine.version, player
        return player

    def is_terminal(self) -> bool:
        return self.current_player() == _TERMINAL

    def _legal_memo(self, player: int) -> tuple[dict[int, Action], list[int]]:
        """``player``'s legal actions by index and their sorted indices (remembered for the current state
        version)."""
        global _LEGAL
        engine = self._engine
        version = 0 if engine is None else engine.version  # self.version, inline (asked several times a step)
        memos = _LEGAL[1]
        if _LEGAL[0] != version:
            memos = {}
            _LEGAL = (version, memos)
        memo = memos.get(player)
        if memo is None:
            legal = legal_by_index(self._ctx.game, engine.state, player)  # type: ignore[union-attr]
            memo = memos[player] = (legal, sorted(legal))
        return memo

    def _legal(self, player: int) -> dict[int, Action]:
        """``player``'s legal actions by index (remembered for the current state version)."""
        return self._legal_memo(player)[0]

    # Python-level shortcuts of pyspiel's C++ State methods: called from Python, the C++ method of a
    # Python game calls back into Python several times (``legal_actions()``: ``current_player`` three
    # times, ``is_terminal`` and ``_legal_actions``). These give the same answers as pyspiel's PyState;
    # C++ callers (OpenSpiel's C++ algorithms and tests) still go through PyState.

    def is_chance_node(self) -> bool:
        return self.current_player() == _CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.current_player() == _SIMULTANEOUS

    def is_player_node(self) -> bool:
        return self.current_player() >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of ``player`` (default: the current player), as pyspiel's ``legal_actions``."""
        current = self.current_player()
        if current >= 0 and (player is None or player == current):
            return list(self._legal_memo(current)[1])  # a copy: the caller may change it
        if current == _SIMULTANEOUS and player is not None and player >= 0:
            return list(self._legal_memo(player)[1])
        return super().legal_actions() if player is None else super().legal_actions(player)

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        current = self.current_player()
        if current >= 0 and player != current:
            return []  # a sequential node: only its player acts (others the game waits for come next)
        return self._legal_memo(player)[1]

    def clone(self) -> RobotableSpielState:
        """A copy; with ``safe_clones=1`` (sequential games), at a seat's decision, a copy in which the
        other seats' secret choices not yet revealed are withdrawn: each becomes a chance node, uniform
        over that seat's legal choices, once only withdrawn seats are left to act. So a search that clones,
        as OpenSpiel's ``MCTSBot`` does, cannot read them. pyspiel's C++ copies (as in ``random_sim_test``)
        are always plain, and so are clones of samples (``resample_from_infostate``)."""
        copy_ = super().clone()
        current = self.current_player()
        if self._ctx.safe_clones and not self._sampled and current >= 0 and copy_._engine is not None:
            state = copy_._engine.state
            before = set(state.to_act())
            state.reopen_choices(current)
            hidden = [seat for seat in state.to_act() if seat not in before]
            if hidden:
                copy_._engine.changed()
                copy_._replayable = False
                copy_._hidden = (*self._hidden, *hidden)
                for seat in hidden:
                    copy_._engine.own[seat] = copy_._engine.own[seat][:-1]  # the withdrawn choice
        return copy_

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> RobotableSpielState:
        """A real state ``player_id`` cannot tell from this one: its history replays to it.

        The history is replayed from the root; at each chance node after the seed and each other seat's
        decision, an outcome drawn by its probabilities (a random legal action) is tried in place of the
        true one and kept while ``player_id``'s views stay those of the true history, else the true one
        is played (backtracking when a kept choice shows up later, as a card played). The sampler (e.g.
        ``pyspiel.UniformProbabilitySampler(0., 1.)``) seeds the draws. The sample's other seats have the
        histories, own actions and information states of the state it is."""
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        return _resample(self, player_id, rng)

    def _withdrawn(self) -> int | None:
        """The withdrawn seat whose choice the current chance node makes (safe clones), else ``None``."""
        if not self._hidden or self._pending is not None or self._engine is None:
            return None
        waiting = self._engine.state.to_act()
        if any(seat not in self._hidden for seat in waiting):
            return None
        return next((seat for seat in waiting if seat in self._hidden), None)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        seat = self._withdrawn()
        if seat is not None:
            legal = self._legal_memo(seat)[1]
            return [(index, 1.0 / len(legal)) for index in legal]
        if self._pending is None:
            return _OUTCOMES
        return list(self._outcomes)

    # -- chance_draws: a move's hidden draws as chance nodes ------------------------------------------

    def _begin(self, moves: list[tuple[int, int, Action]]) -> None:
        """Hold ``moves`` (seat, index, action; checked legal; ``[]``: the deal) until the draws they make
        are decided by chance nodes."""
        self._pending = _Moves(moves)
        self._decided = {}
        self._engine.start = self._length  # type: ignore[union-attr]  # history items before the move
        self._advance()

    def _advance(self, outcome: int | None = None) -> None:
        """Play the pending moves up to their next undecided draw (the next chance node), or to their end:
        in place, in a worker greenlet that waits at the draw for ``outcome`` (see :func:`_worker_loop`).
        A state without a waiting worker (a new move, or a clone or unpickled copy of a waiting state)
        starts one from the state before the move, its draws so far decided as before."""
        engine = self._engine
        assert engine is not None and self._pending is not None
        here = greenlet.getcurrent()
        worker = engine.worker
        if worker is not None:
            try:
                if worker.parent is not here:
                    worker.parent = here
                reply = worker.switch(outcome)
            except (greenlet.error, ValueError):  # made in another thread: start again in this one
                worker = engine.worker = None
        if worker is None:
            ctx = self._ctx
            live = engine.state
            if ctx.keep_before or not self._replayable:
                live = live.clone()
            else:  # the move is played on the state itself: rebuilt from the history if asked for
                engine.state = None  # type: ignore[assignment]
            idle = _idle_workers()
            worker = idle.pop() if idle else greenlet.greenlet(_worker_loop)
            if worker.parent is not here:
                worker.parent = here
            reply = worker.switch((_play_arranged, ctx, self._pending, self._decided, live))
        if type(reply) is _Undecided:
            engine.worker = worker
            if engine._state is None:
                engine.owner = weakref.ref(self)
            self._next_pile, self._outcomes, self._possible = reply.name, reply.outcomes, reply.counts
            return
        engine.worker = engine.owner = None
        _idle_workers().append(worker)
        kind, value = reply
        if kind == "error":
            raise value
        engine.state = value
        engine.version = next(_UIDS)  # engine.changed(), inline: this runs once a move
        moves, self._pending, self._decided, self._outcomes, self._possible = self._pending, None, {}, (), None
        own = engine.own
        for seat, index, _ in moves:
            own[seat].append(index)
        if engine.recall is not None:
            engine.observed([(seat, index) for seat, index, _ in moves])
        if moves:
            self._step()

    def _draw(self, outcome: int) -> None:
        """Decide the next draw: the pile's next draw takes an item of kind ``outcome``."""
        possible = self._possible
        if possible is None:
            possible = self._possible = dict(self._outcomes)
        if outcome not in possible:
            raise BadInput(f"{self._ctx.game.id}: {outcome} is not a possible draw from {self._next_pile}")
        decided = self._decided
        decided[self._next_pile] = (*decided.get(self._next_pile, ()), outcome)  # a clone has its own copy
        engine = self._engine
        assert engine is not None
        engine.version = next(_UIDS)  # engine.changed(), inline
        self._advance(outcome)

    def _apply_action(self, action: int) -> None:
        if self._pending is not None:
            self._draw(action)
        elif self._engine is not None and self._ctx.chance_draws and not self._hidden:  # a move, explicit chance
            seat = self.current_player()
            chosen = self._legal_memo(seat)[0].get(action)
            if chosen is None:
                raise BadInput(f"{self._ctx.game.id}: action {action} is not legal for seat {seat}")
            self._begin([(seat, action, chosen)])
        else:
            self._apply_one(action)
        self._length += 1  # pyspiel's history grows by this action once it returns
        engine = self._engine
        if engine is not None:  # the memos of the state before (current player, legal actions, views)
            engine.version = next(_UIDS)  # engine.changed(), inline

    def _apply_one(self, action: int) -> None:
        ctx = self._ctx
        if self._engine is None:
            if not 0 <= action < CHANCE_OUTCOMES:
                raise BadInput(f"a seed byte is 0 to {CHANCE_OUTCOMES - 1}, got {action}")
            self._seed += bytes([action])
            if len(self._seed) == ctx.seed_bytes:
                seed = int.from_bytes(self._seed, "big")
                state = ctx.game.start(ctx.players, seed=seed, options=ctx.options)
                dealing = ctx.chance_draws and ctx.game.chance_deal is not None
                self._engine = _Engine(state, [[] for _ in range(ctx.players)])
                if ctx.recall:
                    self._engine.recall = [_Recall() for _ in range(ctx.players)]
                if dealing:
                    self._begin([])
                else:
                    self._engine.observed([])
            return
        withdrawn = self._withdrawn()
        if withdrawn is not None:
            self._hidden = tuple(seat for seat in self._hidden if seat != withdrawn)
        if ctx.chance_draws:
            seat = self.current_player() if withdrawn is None else withdrawn
            chosen = self._legal(seat).get(action)
            if chosen is None:
                raise BadInput(f"{ctx.game.id}: action {action} is not legal for seat {seat}")
            self._begin([(seat, action, chosen)])
            return
        self._play(self.current_player() if withdrawn is None else withdrawn, action)
        self._step()

    def _apply_actions(self, actions: list[int]) -> None:
        self._apply_joint(actions)
        self._length += len(actions)  # pyspiel's history: one item per seat
        self._engine.changed()  # type: ignore[union-attr]  # the memos of the state before

    def _apply_joint(self, actions: list[int]) -> None:
        seats = self._engine.state.to_act()  # type: ignore[union-attr]
        legal = [self._legal(seat) for seat in seats]  # all checked before any is applied
        for seat, options in zip(seats, legal):
            if actions[seat] not in options:
                raise BadInput(f"{self._ctx.game.id}: action {actions[seat]} is not legal for seat {seat}")
        if self._ctx.chance_draws:
            moves = [(seat, actions[seat], options[actions[seat]]) for seat, options in zip(seats, legal)]
            self._begin(moves)
            return
        engine = self._engine
        assert engine is not None
        engine.changed()
        for seat, options in zip(seats, legal):
            engine.state.apply_legal(seat, options[actions[seat]])
            engine.own[seat].append(actions[seat])
        engine.observed([(seat, actions[seat]) for seat in seats])
        self._step()

    def _play(self, seat: int, index: int) -> None:
        state = self._engine.state  # type: ignore[union-attr]
        game = self._ctx.game
        legal = self._legal(seat)
        if index not in legal:
            raise BadInput(f"{game.id}: action {index} is not legal for seat {seat} (legal: {sorted(legal)})")
        self._engine.changed()  # type: ignore[union-attr]  # observation and legal-action memos no longer apply
        state.apply_legal(seat, legal[index])
        self._engine.own[seat].append(index)  # type: ignore[union-attr]
        self._engine.observed([(seat, index)])  # type: ignore[union-attr]

    def _step(self) -> None:
        self._steps += 1
        state = self._engine.state  # type: ignore[union-attr]
        stopped = (
            None if self._ctx.max_rounds is None else round_limit_result(self._ctx.game, state, self._ctx.max_rounds)
        )
        if stopped is not None:
            self._cut = True
            self._cut_payoffs = [stopped.payoff(seat) for seat in range(self._ctx.players)]
        elif self._steps >= self._ctx.max_steps and not state.is_over():
            self._cut = True

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._engine is None:
                return f"seed byte {action}"
            names = self._ctx.game.chance_draws.outcomes
            return f"draw {names[action]}" if 0 <= action < len(names) else f"chance outcome {action}"
        state = self.robotable_state
        if state is not None and not self.is_terminal() and player in state.to_act():
            legal = self._legal(player).get(action)
            if legal is not None:
                return canonical(legal.to_json())
        return describe_index(self._ctx.game, None, player, action)

    def returns(self) -> list[float]:
        n = self._ctx.players
        if not self.is_terminal():
            return [0.0] * n
        if self._cut:
            return list(self._cut_payoffs) if self._cut_payoffs is not None else [1.0 / n] * n
        result = self._engine.state.result()  # type: ignore[union-attr]
        return [result.payoff(seat) for seat in range(n)]

    def serialize(self) -> str:
        """The state as versioned JSON (see :func:`state_to_json` and docs/research.md): no pickle."""
        return canonical(state_to_json(self))

    def __str__(self) -> str:
        if self._engine is None:
            return f"chance: seed bytes drawn {list(self._seed)}"
        cut = ""
        if self._cut:
            cut = " (stopped at max_rounds)" if self._cut_payoffs is not None else " (cut off at max_game_length)"
        return f"step {self._steps}{cut}: {canonical(self._engine.state.to_json())}"


#: The JSON form of ``serialize()``: its ``format`` and ``version`` (a new version for any change).
STATE_FORMAT = "robotable-openspiel-state"
STATE_FORMAT_VERSION = 1


def state_to_json(state: RobotableSpielState) -> dict[str, Any]:
    """A state as JSON: the format and version, the game (pyspiel name and parameters), the history
    as ``[player, action]`` pairs (chance is -1; a simultaneous node gives one pair per seat), and the
    Robotable state with each seat's own actions (``null`` before the seed is drawn)."""
    game = state.get_game()
    engine = state._engine
    return {
        "format": STATE_FORMAT,
        "version": STATE_FORMAT_VERSION,
        "game": game.get_type().short_name,
        "parameters": {**game.get_parameters(), "options": state.ctx.options},
        "history": [[item.player, item.action] for item in state.full_history()],
        "state": None if engine is None else engine.state.to_json(),
        "own_actions": None if engine is None else [seat[:] for seat in engine.own],
        "terminal": state.is_terminal(),
    }


def state_from_json(game: RobotableSpielGame, text: object) -> RobotableSpielState:
    """Rebuild a state of ``game`` from :func:`state_to_json`'s JSON (a string or the parsed object).

    Only JSON is read (never a pickle, so deserializing runs no code): the history is replayed through
    the game's rules and must reach the stored state. Errors are :class:`BadInput` naming the problem."""
    what = f"a serialized {game.get_type().short_name} state"
    data: Any = text
    if isinstance(text, (str, bytes)):
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            raise BadInput(
                f"{what} must be JSON of format {STATE_FORMAT!r} (OpenSpiel's pickle form is refused: "
                "deserializing never runs code); got text starting {text[:40]!r}"
            ) from None
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise BadInput(f"{what} must be a JSON object with format {STATE_FORMAT!r}")
    if data.get("version") != STATE_FORMAT_VERSION:
        raise BadInput(f"{what}: unknown version {data.get('version')!r} (this code reads {STATE_FORMAT_VERSION})")
    if data.get("game") != game.get_type().short_name:
        raise BadInput(f"{what}: this is a state of {data.get('game')!r}")
    expected = {**game.get_parameters(), "options": _CONTEXTS[game.key].options}
    if data.get("parameters") != expected:
        raise BadInput(f"{what}: parameters {data.get('parameters')!r} differ from the game's {expected!r}")
    history = data.get("history")
    if not isinstance(history, list) or not all(
        isinstance(h, list) and len(h) == 2 and all(type(x) is int for x in h) for h in history
    ):
        raise BadInput(f"{what}: 'history' must be a list of [player, action] integer pairs")
    state = replay(game, history)
    engine = state._engine
    if data.get("state") != (None if engine is None else engine.state.to_json()):
        raise BadInput(f"{what}: the history does not lead to the stored state")
    if data.get("own_actions") != (None if engine is None else engine.own):
        raise BadInput(f"{what}: the history does not lead to the stored own actions")
    return state


def replay(game: pyspiel.Game, history: list[list[int]] | list[int]) -> RobotableSpielState:
    """The state a history reaches from the root: ``[player, action]`` pairs (as ``full_history()``) or
    bare actions (as ``history()``; a simultaneous node takes one action per seat). An action that is
    not legal where it comes raises :class:`BadInput`."""
    state = game.new_initial_state()
    n = game.num_players()
    pairs = [h if isinstance(h, list) else [None, h] for h in history]
    i = 0
    while i < len(pairs):
        if state.is_terminal():
            raise BadInput(f"history goes on after the end of the game (at item {i})")
        if state.is_simultaneous_node():
            joint = pairs[i : i + n]
            if len(joint) < n or any(p not in (None, seat) for seat, (p, _) in enumerate(joint)):
                raise BadInput(f"history item {i}: a simultaneous node takes one [seat, action] per seat in order")
            state.apply_actions([a for _, a in joint])
            i += n
            continue
        player, action = pairs[i]
        if player is not None and player != state.current_player():
            raise BadInput(f"history item {i}: player {player} does not act there ({state.current_player()} does)")
        legal = state.legal_actions()
        if action not in legal:
            raise BadInput(f"history item {i}: action {action} is not legal there")
        state.apply_action(action)
        i += 1
    return state


#: The true history of the last state resampled, in nodes, with what samples of it learnt:
#: (state version, seat) -> _Nodes.
_NODES: dict[tuple[int, int], _Nodes] = {}
#: At most this many backtracks per sample; then the rest of the true history is played.
RESAMPLE_BACKTRACKS = 64


class _Nodes:
    """A state's history as nodes ``(player, actions, seat's view after)`` (a simultaneous node: player
    ``SIMULTANEOUS``, one action per seat); the nodes whose other choices proved visible to the seat;
    and the sample state after the nodes that can only take their true choice (a replay's head start)."""

    __slots__ = ("fixed", "head", "nodes", "visible")

    def __init__(self, nodes: list[tuple[int, list[int], Any]]) -> None:
        self.nodes = nodes
        self.visible: set[int] = set()
        self.fixed = 0  # nodes before this take their true choice
        self.head: tuple[int, RobotableSpielState] | None = None


def _nodes(state: RobotableSpielState, seat: int) -> _Nodes:
    """``state``'s :class:`_Nodes` for ``seat`` (remembered for the last state asked)."""
    key = (state.version, seat)
    if key in _NODES:
        return _NODES[key]
    game = state.get_game()
    n = game.num_players()
    history = state.history()
    walk = game.new_initial_state()
    nodes: list[tuple[int, list[int], Any]] = []
    i = 0
    while i < len(history):
        player = walk.current_player()
        if walk.is_simultaneous_node():
            actions = history[i : i + n]
            walk.apply_actions(actions)
        else:
            actions = history[i : i + 1]
            walk.apply_action(actions[0])
        i += len(actions)
        engine = walk.robotable_state
        nodes.append((player, actions, None if engine is None else engine.view(seat)))
    _NODES.clear()
    _NODES[key] = entry = _Nodes(nodes)
    entry.fixed = state.ctx.seed_bytes
    return entry


def _resample(state: RobotableSpielState, seat: int, rng: random.Random) -> RobotableSpielState:
    """See :meth:`RobotableSpielState.resample_from_infostate`."""
    entry = _nodes(state, seat)
    nodes = entry.nodes
    game = state.get_game()
    n = game.num_players()
    while entry.fixed < len(nodes) and (entry.fixed in entry.visible or nodes[entry.fixed][0] == seat):
        entry.fixed += 1
    if entry.head is not None and entry.head[0] <= entry.fixed:
        i, sample = entry.head[0], entry.head[1].clone()
    else:
        i, sample = 0, game.new_initial_state()
        sample._sampled = True  # plain copies below, even with safe_clones
    kept: list[tuple[int, RobotableSpielState]] = []  # (node, the sample before it) where a choice was kept
    forced: set[int] = set()  # nodes that must take the true choice
    backtracks = 0
    while i < len(nodes):
        if i == entry.fixed and not kept and (entry.head is None or entry.head[0] < i):
            entry.head = (i, sample.clone())
        player, actions, seen = nodes[i]
        if i >= entry.fixed and i not in forced and i not in entry.visible and backtracks < RESAMPLE_BACKTRACKS:
            alternative = _alternative(sample, player, actions, seat, n, rng)
            if alternative is not None:
                before = sample.clone()
                _apply(sample, alternative)
                if _sees(sample, seat, seen):
                    kept.append((i, before))
                    i += 1
                    continue
                entry.visible.add(i)
                sample = before
        if _legal_here(sample, player, actions):
            _apply(sample, actions)
            if not kept or _sees(sample, seat, seen):
                i += 1
                continue
        if not kept:  # cannot happen: the true history is consistent with itself
            raise AssertionError("resample: the true history is not consistent")
        backtracks += 1
        j, sample = kept.pop()
        entry.visible.add(j)
        forced = {k for k in forced if k < j} | {j}
        i = j
    return sample


def determinizing_resampler(state: RobotableSpielState, player: int, seed: int | None = None) -> RobotableSpielState:
    """A sample of ``player``'s information state by the game's own ``determinize``: everything the seat
    cannot see is resampled, the deal's hidden part too (Robotable's deals come from the seed, so
    :meth:`RobotableSpielState.resample_from_infostate` keeps them, e.g. Robots on the Line's dealt
    hands). Its ``history()`` is the original's and does not replay to it. For ISMCTS on such games:
    ``ISMCTSBot.set_resampler(openspiel.determinizing_resampler)``."""
    sample = pyspiel.State.clone(state)
    engine = state._engine
    if engine is not None:
        rng = Rng(random.getrandbits(53) if seed is None else seed)
        own = [engine.own[seat][:] if seat == player else [] for seat in range(len(engine.own))]
        recall = None if engine.recall is None else [memory.copy() for memory in engine.recall]
        sample._engine = _Engine(engine.state.determinize(player, rng), own, recall)
        sample._sampled = True
        sample._replayable = False
    return sample


def _alternative(
    state: RobotableSpielState, player: int, actions: list[int], seat: int, n: int, rng: random.Random
) -> list[int] | None:
    """Another choice at a node that ``seat`` may not see: a chance outcome by its probabilities, or
    random legal actions of the other seats (``None``: the node is ``seat``'s own or has no choice)."""
    if player == pyspiel.PlayerId.CHANCE:
        outcomes, probs = zip(*state.chance_outcomes())
        return [rng.choices(outcomes, probs)[0]] if len(outcomes) > 1 else None
    if player == pyspiel.PlayerId.SIMULTANEOUS:
        joint = [
            actions[p] if p == seat or not state.legal_actions(p) else rng.choice(state.legal_actions(p))
            for p in range(n)
        ]
        return joint if joint != actions else None
    if player == seat:
        return None
    legal = state.legal_actions()
    return [rng.choice(legal)] if len(legal) > 1 else None


def _apply(state: RobotableSpielState, actions: list[int]) -> None:
    if state.is_simultaneous_node():
        state.apply_actions(actions)
    else:
        state.apply_action(actions[0])


def _legal_here(state: RobotableSpielState, player: int, actions: list[int]) -> bool:
    if state.is_terminal() or state.current_player() != player:
        return False
    if player == pyspiel.PlayerId.CHANCE:
        return actions[0] in dict(state.chance_outcomes())
    if player == pyspiel.PlayerId.SIMULTANEOUS:
        return all(not state.legal_actions(p) or a in state.legal_actions(p) for p, a in enumerate(actions))
    return actions[0] in state.legal_actions()


def _sees(state: RobotableSpielState, seat: int, seen: Any) -> bool:
    """Whether ``seat`` sees ``seen`` (a view, ``None`` before the deal) in ``state``."""
    engine = state.robotable_state
    return (None if engine is None else engine.view(seat)) == seen


#: Views and their tensors per (state version, seat, kind): pyspiel asks each observer separately.
_MEMO: dict[tuple[Any, ...], Any] = {}


def _remember(key: tuple[Any, ...], value: Any) -> Any:
    if len(_MEMO) > 256:
        _MEMO.clear()
    _MEMO[key] = value
    return value


class RobotableObserver:
    """A pyspiel Python observer (``set_from`` / ``string_from``) built from ``view(seat)`` alone.

    The tensor is the game's feature planes (``dict`` holds each plane, shaped, under its name). With
    perfect recall and private information (the information state) it adds the seat's recall: ``frames``
    (``RECALL_FRAMES`` x the planes: the earlier distinct views the seat saw, newest first) with public
    information too, and ``own_actions`` (``RECALL_ACTIONS`` x bits: its last own actions, newest first,
    each as ``index + 1`` in binary, lowest bit first; zeros for none). The string adds the seat's own
    actions and ``history sha256:``, a digest of everything the seat observed in order (each new view
    and each own action), so two different observation histories never share a string.
    """

    def __init__(
        self, ctx: _Context, iig_obs_type: pyspiel.IIGObservationType, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise BadInput(f"observer parameters are not supported, got {dict(params)}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise BadInput("observations of every player's private information are not offered (views only)")
        self._ctx = ctx
        self.public = iig_obs_type.public_info
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.recall = iig_obs_type.perfect_recall and self.private
        encoder = ctx.encoder
        planes = [(p.name, p.shape, p.offset) for p in encoder.planes] if self.public or self.private else []
        self.size = encoder.size if planes else 0
        self.frames = RECALL_FRAMES if self.recall and self.public else 0
        self.bits = ctx.num_actions.bit_length() + 1 if self.recall else 0
        extra = self.frames * self.size + RECALL_ACTIONS * self.bits if self.recall else 0
        self.tensor: np.ndarray | None = np.zeros(self.size + extra, np.float32) if self.size + extra else None
        self.dict: dict[str, np.ndarray] = {}
        for name, shape, offset in planes:
            self.dict[name] = self.tensor[offset : offset + prod(shape)].reshape(shape)  # type: ignore[index]
        at = self.size
        if self.frames:
            self.dict["frames"] = self.tensor[at : at + self.frames * self.size].reshape(self.frames, self.size)  # type: ignore[index]
            at += self.frames * self.size
        if self.recall:
            self.dict["own_actions"] = self.tensor[at:].reshape(RECALL_ACTIONS, self.bits)  # type: ignore[index]
            self._bit_values = 1 << np.arange(self.bits)

    def _data(self, state: RobotableSpielState, player: int) -> Any:
        """The JSON this observer shows ``player`` (cached per state version)."""
        key = (state.version, player, self.public, self.private)
        if key in _MEMO:
            return _MEMO[key]
        engine = state.robotable_state
        if engine is None or not (self.public or self.private):
            data = None
        elif self.public and self.private:
            data = engine.view(player)
        elif self.public:
            data = engine.view(None)
        else:
            data = private_part(engine.view(player), engine.view(None))
        return _remember(key, data)

    def _features(self, state: RobotableSpielState, player: int) -> dict[int, float]:
        """The non-zero feature planes for ``player`` (cached per state version)."""
        key = (state.version, player, self.public, self.private, "features")
        features = _MEMO.get(key)
        if features is None:
            engine = state.robotable_state
            encoder = self._ctx.encoder
            if engine is None:
                features = {}
            elif self.public:
                features = encoder.features(self._data(state, player), player)
            else:
                features = private_features(encoder, engine, player)
            _remember(key, features)
        return features

    @staticmethod
    def _fill(out: np.ndarray, features: dict[int, float]) -> None:
        if features:
            out[np.fromiter(features.keys(), np.intp, len(features))] = np.fromiter(
                features.values(), np.float32, len(features)
            )

    def set_from(self, state: RobotableSpielState, player: int) -> None:
        """Fill ``tensor`` for ``player``."""
        if self.tensor is None:
            return
        self.tensor.fill(0.0)
        if self.size:
            self._fill(self.tensor[: self.size], self._features(state, player))
        if not self.recall:
            return
        memory = state.recall(player)
        if memory is None:
            return
        if self.frames:
            frames = self.dict["frames"]
            for row, view in zip(frames, memory.frames):
                self._fill(row, self._ctx.encoder.features(view, player))
        own = state.own_actions(player)[::-1][:RECALL_ACTIONS]
        if own:
            codes = np.asarray(own, np.int64)[:, None] + 1
            self.dict["own_actions"][: len(own)] = (codes & self._bit_values) > 0

    def string_from(self, state: RobotableSpielState, player: int) -> str:
        """The observation as a string: canonical JSON of the view (with perfect recall, then the seat's
        own actions and the digest of everything it observed)."""
        data = self._data(state, player)
        text = "" if data is None else canonical(data)
        if self.recall:
            memory = state.recall(player)
            text += " | own actions: " + ",".join(map(str, state.own_actions(player)))
            text += " | history sha256: " + ("" if memory is None else memory.digest())
        return text


def game_type(game: Game, sequential: bool = False) -> pyspiel.GameType:
    """The pyspiel GameType of a Robotable game (see the module docstring for the modelling).

    ``sequential`` (for a simultaneous game): the ``_sequential`` variant, where the seats make their
    secret choices one after another as decision nodes, each seeing only that the others chose."""
    simultaneous = is_simultaneous(game) and not sequential
    max_steps = default_max_steps(game)
    if sequential and is_simultaneous(game) and rule_bound(game) is not None:
        max_steps *= game.max_players  # each simultaneous step becomes one step per seat
    return pyspiel.GameType(
        short_name=short_name(game.id) + ("_sequential" if sequential else ""),
        long_name=f"Robotable {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players,
        min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification={
            "players": game.min_players,
            "options": "{}",
            "seed_bytes": SEED_BYTES,
            "max_game_length": max_steps,
            "max_rounds": 0,
            "chance_draws": 1 if game.chance_draws is not None else 0,
            "safe_clones": 0,
        },
        default_loadable=True,
    )


_REGISTERED: dict[str, str] = {}
_CREATORS: list[type] = []


def register(game_id: str, sequential: bool = False) -> str:
    """Register one Robotable game with pyspiel (once); returns its pyspiel short name. ``sequential``:
    the sequential variant of a simultaneous game (see :func:`game_type`)."""
    key = game_id + (" sequential" if sequential else "")
    if key in _REGISTERED:
        return _REGISTERED[key]
    game = load_encodable(game_id)
    if sequential and not is_simultaneous(game):
        raise BadInput(f"{game_id} is already sequential: it has no separate sequential variant")
    gtype = game_type(game, sequential)

    # A class (not a closure) as the creator: pyspiel keeps it until after Python has shut down, and a
    # class, unlike a closure, is never freed by that last release (which would need the GIL).
    def __init__(self: RobotableSpielGame, params: Mapping[str, Any] | None = None) -> None:
        RobotableSpielGame.__init__(self, gtype, game, params)

    name = "".join(part.title() for part in game.id.split("-")) + ("Sequential" if sequential else "") + "SpielGame"
    creator = type(name, (RobotableSpielGame,), {"__init__": __init__, "__module__": __name__})
    _CREATORS.append(creator)
    pyspiel.register_game(gtype, creator)
    _REGISTERED[key] = gtype.short_name
    return gtype.short_name


def register_all() -> list[str]:
    """Register every game the adapters serve (and the sequential variant of each simultaneous one);
    returns their pyspiel names."""
    names = []
    for gid in encodable_games():
        names.append(register(gid))
        if is_simultaneous(load(gid)):
            names.append(register(gid, sequential=True))
    return names


def load_game(
    game_id: str,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    sequential: bool = False,
    **params: int,
) -> pyspiel.Game:
    """Load a Robotable game as a pyspiel game, e.g. ``load_game("tf22-reload", players=3)``.

    ``params`` may set ``seed_bytes``, ``max_game_length`` and ``max_rounds``; ``sequential=True`` loads
    a simultaneous game's sequential variant (for algorithms that need one, such as ISMCTS). Bad players,
    options or parameters raise :class:`robotable.BadInput` (a ``ValueError``) naming the problem.
    """
    name = register(game_id, sequential)
    game = load(game_id)
    settings: dict[str, Any] = {**params, "players": game.min_players if players is None else players}
    if options is not None:
        settings["options"] = encode_options(options)
    # Check here, so errors are Python exceptions with our message rather than pyspiel's fatal errors.
    RobotableSpielGame(game_type(game, sequential), game, settings)
    return pyspiel.load_game(name, settings)


def seeded_state(game: pyspiel.Game, seed: int) -> RobotableSpielState:
    """The state after the opening chance nodes drew ``seed``: in seed mode the Robotable game with that
    seed; with explicit chance, also the deal's chance nodes, each drawn by its probabilities with
    ``random.Random(seed)`` (so the same seed gives the same deal)."""
    state = game.new_initial_state()
    nbytes = state.ctx.seed_bytes
    if not isinstance(seed, int) or not 0 <= seed < 1 << (8 * nbytes):
        raise BadInput(f"seed must be an integer from 0 to 2**{8 * nbytes} - 1, got {seed!r}")
    for byte in seed.to_bytes(nbytes, "big"):
        state.apply_action(byte)
    rng = random.Random(seed)
    while state.is_chance_node():  # the deal
        outcomes, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(outcomes, probs)[0])
    return state


def check_round_trip(state: pyspiel.State) -> None:
    """A ``state_checker_fn`` for ``pyspiel.random_sim_test``: the Robotable state survives its JSON
    round trip exactly, a clone is equal, and observations do not depend on anything but views."""
    engine = getattr(state, "robotable_state", None)
    if engine is None:
        return
    data = engine.to_json()
    again = engine.game.state_from_json(json.loads(json.dumps(data)))
    if again.to_json() != data:
        raise AssertionError(f"{engine.game.id}: JSON round trip changed the state")
    if engine.clone().to_json() != data:
        raise AssertionError(f"{engine.game.id}: clone differs from the state")
    copy.deepcopy(state._engine)  # the pyspiel clone path


register_all()

__all__ = [
    "RobotableObserver",
    "RobotableSpielGame",
    "RobotableSpielState",
    "check_round_trip",
    "determinizing_resampler",
    "game_type",
    "load_game",
    "register",
    "register_all",
    "replay",
    "seeded_state",
    "short_name",
    "state_from_json",
    "state_to_json",
]
