"""The game contract: a :class:`Game` holds what never changes, a :class:`State` what does.

Everything above ``robotable.games`` (agents, arena, server, adapters) talks to a game only through
this surface, so a new game is a new folder and nothing else::

    game = robotable.games.load("tf22-reload")
    state = game.start(num_players=3, seed=7, options={})
    while not state.is_over():
        for seat in state.to_act():
            state.apply(seat, state.legal_actions(seat)[0])
    state.result()
"""

from __future__ import annotations

import functools
import importlib
import secrets
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from .actions import Action, ActionCodec, ActionEncoding, Event
from .errors import BadInput, BadOptions, GameOver, IllegalAction, Message, NotYourTurn, reason
from .options import Option, check_options
from .result import Result
from .rng import Rng


class Game(ABC):
    """Static facts about a game: its id, player counts, options and action types."""

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[tuple[Option, ...]] = ()
    action_types: ClassVar[tuple[type[Action], ...]] = ()
    #: Event types after which a move may not be undone (a random draw, revealed hidden information).
    #: ``None`` (the default) means the game has not declared them, and servers offer no undo for it.
    undo_barriers: ClassVar[frozenset[str] | None] = None

    # -- capabilities: what a game declares, so nothing above robotable.games names a game -----------

    #: Whether seats make secret choices at the same time (several seats in ``to_act()`` at once, each
    #: choice hidden until all have chosen). OpenSpiel registers such games as simultaneous-move games.
    simultaneous: ClassVar[bool] = False
    #: The most decision steps a game can take when the rules bound it (a simultaneous round of secret
    #: choices counts as one step, as in OpenSpiel), else ``None``. Adapters truncate unbounded games.
    max_game_length: ClassVar[int | None] = None
    #: The main option sets: the variants the conformance suite, golden digests and benchmarks cover
    #: (each is checked for every player count it is valid for).
    option_sets: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    #: Action types with free-form choices: ``legal_actions`` lists canonical representatives (or one
    #: spelling of equivalent choices) and ``apply`` accepts any well-formed legal choice (``is_legal``).
    #: An action of any other type that ``legal_actions`` does not list is refused.
    free_form_actions: ClassVar[frozenset[str]] = frozenset()
    #: Optional hooks, each ``"package.module:name"`` (or a module, ``"package.module"``), imported on first
    #: use through :meth:`hook` so a game's package never imports what sits above it. ``None``: absent.
    #:
    #: - ``"preview"``: ``preview(state, seat, action)`` on a copy, what the action would do (the server's
    #:   program previews); returns something with ``to_json()`` or a JSON-safe dict;
    #: - ``"evaluate"``: ``evaluate(state, seat, query) -> dict``, a seat's question about its own position;
    #: - ``"heuristics"``: the module of the AI heuristics (``choose``, ``rollout``, ``evaluate``, ``model``,
    #:   ``prune``, ``LEVELS``; see :mod:`robotable.ai.heuristics`);
    #: - ``"terminal"``: the module of the terminal renderer (``render``, ``describe``, ``log``);
    #: - ``"web_data"``: the package whose ``data/`` folder holds the public JSON data files the web client
    #:   may fetch (catalogues, layouts; nothing hidden);
    #: - ``"tutorial"``: the module of the game's tutorial (``LESSONS``, the path of its lessons file, and
    #:   optionally ``complete(partial)``; see :mod:`robotable.core.tutorial`).
    hooks: ClassVar[Mapping[str, str]] = {}
    #: The game's observation tensor for the research adapters: an
    #: :class:`~robotable.core.observation.ObservationEncoder` built in ``games/<id>/observation.py`` from the
    #: seat's view alone, or ``None`` (the adapters then cannot serve the game).
    observation_encoder: ClassVar[Any] = None
    #: For research: how to stop the game after a number of rounds with a scored outcome (an object with
    #: ``rounds_played(state) -> int`` and ``result(state, max_rounds) -> Result``), or ``None``. Not a
    #: rule: the adapters' ``max_rounds`` uses it; records are unchanged.
    round_limit: ClassVar[Any] = None
    #: For research: a smaller structured action space (free-form choices built as sub-decisions; see
    #: ``games/robots_on_the_line/structured.py``), or ``None``.
    structured_actions: ClassVar[Any] = None
    #: For research: the game's hidden piles drawn from the top (``piles(state) -> {name: list}``, the top
    #: at the end; ``outcomes``: names of what can be drawn; ``outcome(pile, item) -> int``), so adapters can
    #: expose draws as chance nodes; or ``None``. Arranging a pile's hidden order changes nothing a seat sees.
    #: ``replace(state, piles)`` puts lists with the same items (ones that decide each draw when it is
    #: made) in place of the state's piles, so the adapter decides draws in the order they happen.
    chance_draws: ClassVar[Any] = None
    #: For research: the deal as draws from the ``chance_draws`` piles, or ``None``. ``undeal(state)`` puts
    #: what a new game's deal drew from those piles back into them (any order: the piles' order is decided
    #: draw by draw) and ``deal(state)`` makes the deal again, drawing from the piles' tops only (the
    #: adapters then expose each of its draws as a chance node). Records are unchanged: ``start`` deals as
    #: it always did, and no rule calls these.
    chance_deal: ClassVar[Any] = None
    #: The stable integer action encoding (see :meth:`num_distinct_actions`), or ``None``.
    action_encoding: ClassVar[ActionEncoding | None] = None

    def __init__(self) -> None:
        self._codec = ActionCodec(self.id, self.action_types)

    @functools.cached_property
    def action_type_set(self) -> frozenset[type[Action]]:
        """``action_types`` as a set (``State.check`` asks on every action)."""
        return frozenset(self.action_types)

    def start(self, num_players: int, seed: int | None = None, options: Mapping[str, Any] | None = None) -> State:
        """A new game. ``seed=None`` draws a fresh seed (kept in the state, so records still replay)."""
        self.check_players(num_players)
        if seed is None:
            seed = secrets.randbits(63)
        elif not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise BadOptions(f"{self.id}: seed must be a non-negative integer, got {seed!r}")
        return self.new_state(num_players, seed, self.check_options(options, num_players))

    def check_players(self, num_players: object) -> int:
        """``num_players`` if this game takes that many players, else :class:`BadOptions` saying why."""
        if not isinstance(num_players, int) or isinstance(num_players, bool):
            raise BadOptions(f"{self.id}: num_players must be an integer, got {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise BadOptions(
                reason(
                    "app:errors.options.players",
                    "{game}: {players} players is not supported (this game takes {least} to {most})",
                    game=Message(self.id, f"{self.id}:name"),
                    players=num_players,
                    least=self.min_players,
                    most=self.max_players,
                )
            )
        return num_players

    def check_options(self, options: Mapping[str, Any] | None, num_players: int) -> dict[str, Any]:
        """Options with defaults filled in. Games override to add checks across options or counts."""
        return check_options(self.id, self.options, options)

    @abstractmethod
    def new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> State:
        """Set up the game (called by :meth:`start` with checked arguments)."""

    @abstractmethod
    def state_from_json(self, data: object) -> State:
        """Rebuild a state from :meth:`State.to_json`; malformed input raises :class:`BadInput`."""

    def action_from_json(self, data: object) -> Action:
        """Build an action from its JSON form; malformed input raises :class:`BadInput`."""
        return self._codec.from_json(data)

    # -- the stable integer action encoding (optional; for the RL adapters) --------------------------

    def has_action_encoding(self) -> bool:
        """Whether this game implements the integer action encoding below."""
        return self.action_encoding is not None

    def num_distinct_actions(self, num_players: int, options: Mapping[str, Any] | None = None) -> int:
        """Size of the integer action encoding: every action ``legal_actions`` can list has an index
        ``0 <= i < num_distinct_actions`` (free-form choices: their canonical representatives).

        The rule: any two distinct actions that ``legal_actions`` lists at once have distinct indices.
        :meth:`action_index` never looks at a state, and a game keeps its indices stable (new actions get
        new indices at the end); games whose encoding does not depend on the player count or options
        ignore those arguments. An index may name the kind and target of a free-form choice rather than
        its content ("sell a robot to this buyer"): it then stands for the one such action the state
        lists. So the action of an index is, in general, looked up in the state:
        ``{game.action_index(a): a for a in state.legal_actions(seat)}[index]`` (what the research
        adapters do, for every game); :meth:`action_from_index` decodes without a state where the game can.
        Games without an encoding raise ``NotImplementedError`` (see :meth:`has_action_encoding`).
        """
        return self._encoding().size

    def action_index(self, action: Action) -> int:
        """The stable integer of ``action`` (never depends on a state); an action with no index raises
        :class:`BadInput`."""
        return self._encoding().index(action)

    def action_from_index(self, index: int) -> Action:
        """The action of a stable integer, without a state (inverse of :meth:`action_index`); bad indices
        raise :class:`BadInput`, and so do indices whose action depends on the state (decode those through
        ``state.legal_actions``, see :meth:`num_distinct_actions`)."""
        return self._encoding().from_index(index)

    def _encoding(self) -> ActionEncoding:
        if self.action_encoding is None:
            raise NotImplementedError(f"{self.id} has no integer action encoding")
        return self.action_encoding

    def hook(self, name: str) -> Any:
        """The optional hook ``name`` declared in :attr:`hooks` (a function or a module), or ``None`` when
        the game has none or it cannot be imported (a missing optional dependency)."""
        path = self.hooks.get(name)
        if path is None:
            return None
        module_name, _, attr = path.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            return None
        return getattr(module, attr, None) if attr else module

    def data_folder(self) -> Path | None:
        """The folder of the game's public data files (the ``"web_data"`` hook), or ``None``."""
        package = self.hook("web_data")
        if package is None or getattr(package, "__file__", None) is None:
            return None
        return Path(package.__file__).resolve().parent / "data"

    def capabilities(self) -> dict[str, Any]:
        """The declared capabilities, as JSON (for lobbies, docs and adapters)."""
        return {
            "simultaneous": self.simultaneous,
            "max_game_length": self.max_game_length,
            "action_encoding": self.has_action_encoding(),
            "observation_encoder": self.observation_encoder is not None,
            "round_limit": self.round_limit is not None,
            "structured_actions": self.structured_actions is not None,
            "chance_draws": self.chance_draws is not None,
            "chance_deal": self.chance_deal is not None,
            "hooks": sorted(self.hooks),
        }

    def describe(self) -> dict[str, Any]:
        """The game's id, name, player counts and options, for lobbies and docs."""
        return {
            "id": self.id,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [o.to_json() for o in self.options],
        }

    def __repr__(self) -> str:
        return f"<Game {self.id}>"


class State(ABC):
    """Everything that changes during one game. Subclasses keep plain ints, tuples and lists.

    ``apply`` checks the seat and the action and raises before changing anything; ``apply_legal`` skips
    those checks for callers that took the action from ``legal_actions`` (search agents, playouts).
    """

    __slots__ = ()

    game: ClassVar[Game]
    num_players: int
    seed: int
    options: dict[str, Any]
    rng: Rng

    @abstractmethod
    def to_act(self) -> list[int]:
        """Seats the game waits for: one, several for simultaneous choices, none when over."""

    def answering(self) -> list[int]:
        """Seats among :meth:`to_act` asked to answer something public (a trade offer) while another
        seat acts on; they may answer at once. Default: none (a server's bots then wait for people)."""
        return []

    def optional_actors(self) -> list[int]:
        """Seats the game does not wait for that may act now anyway, when they choose (a trade offer
        made "at any time"). ``legal_actions`` lists what they may do and ``apply`` accepts it; the game
        goes on without them, so playing only :meth:`to_act` seats is always a complete game (what
        search, the arena and the research adapters do). Default: none."""
        return []

    @abstractmethod
    def legal_actions(self, player: int) -> list[Action]:
        """Every distinct choice of ``player`` now, in a stable order ([] if neither to act nor among
        :meth:`optional_actors`)."""

    @abstractmethod
    def apply_legal(self, player: int, action: Action) -> list[Event]:
        """Apply an action known to be legal (no checks)."""

    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """What ``player`` may know, as JSON-safe data; ``None`` for a spectator."""

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def result(self) -> Result:
        """The outcome; raises :class:`IllegalAction` before the end."""

    @abstractmethod
    def clone(self) -> State:
        """A fast, independent copy."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full state, RNG included, as JSON-safe data (exact round trip)."""

    @abstractmethod
    def determinize(self, player: int | None, rng: Rng) -> State:
        """A full state consistent with everything ``player`` knows, hidden parts sampled with ``rng``;
        ``player=None`` is a spectator's sample (every part hidden from a spectator sampled, as
        :meth:`view` ``(None)`` hides it), used by spectators' reviews.

        The sample must depend only on what ``player`` knows and on ``rng`` (two states that ``player``
        cannot tell apart give the same sample), so search agents cannot read hidden information.
        """

    def reopen_choices(self, player: int) -> None:  # noqa: B027 (an optional hook)
        """Withdraw other seats' secret choices that are not yet revealed, so they choose again.

        For search on a determinized sample: ``player`` cannot know those choices, so a search models
        them as decisions still to make rather than as the sample's guesses. Games without simultaneous
        secret choices have nothing to withdraw (the default).
        """

    def is_legal(self, player: int, action: Action) -> bool:
        """Whether ``action`` is legal for ``player`` (games with free-form choices override)."""
        return action in self.legal_actions(player)

    def why_illegal(self, player: int, action: Action) -> str:
        """A player-facing reason an action is refused (games override for sharper reasons)."""
        return reason(
            "app:errors.action.not_legal_now",
            "{action} is not a legal action for seat {seat} now",
            action=action.to_json(),
            seat=player,
        )

    def check(self, player: int, action: Action) -> None:
        """Raise the right error if ``player`` may not take ``action`` now; change nothing."""
        if type(player) is not int or not 0 <= player < self.num_players:
            raise BadInput(
                reason(
                    "app:errors.action.bad_seat",
                    "seat must be an integer from 0 to {last_seat}, got {got}",
                    last_seat=self.num_players - 1,
                    got=repr(player),
                )
            )
        if type(action) not in self.game.action_type_set:
            raise BadInput(f"not a {self.game.id} action: {action!r} (build one with game.action_from_json)")
        waiting = self.to_act()
        if player not in waiting:
            if self.is_over():  # nobody is to act once the game is over
                raise GameOver("the game is over")
            if player not in self.optional_actors():
                raise NotYourTurn(f"seat {player} is not to act (waiting for seats {waiting})", player, waiting)
        if not self.is_legal(player, action):
            raise IllegalAction(self.why_illegal(player, action), game=self.game.id)

    def apply(self, player: int, action: Action) -> list[Event]:
        """Apply ``action`` for ``player``; on any error nothing changes."""
        self.check(player, action)
        return self.apply_legal(player, action)


def play_random(state: State, rng: Rng, max_steps: int = 1_000_000) -> int:
    """Play uniformly random legal actions until the game ends; returns the number of actions.

    Simultaneous choices are made one seat at a time, which the contract allows: a seat's choice stays
    secret until everyone has chosen.
    """
    steps = 0
    while not state.is_over():
        seat = state.to_act()[0]
        actions: Sequence[Action] = state.legal_actions(seat)
        state.apply_legal(seat, actions[rng.randrange(len(actions))])
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"game did not end within {max_steps} actions")
    return steps
