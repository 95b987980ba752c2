"""What the three adapters share: which games they can serve, and observations built from views.

An observation is always derived from ``state.view(seat)`` (``None`` for the public part), so hidden
information cannot reach it: the string is the view as canonical JSON and the tensor is a fixed-size
feature-hashed encoding of the view's leaves (each leaf's path and value hashed with CRC-32, numbers
added as values, everything else one-hot). The encoding is deterministic across processes and needs no
knowledge of the game, so a new game gets tensors with no adapter code.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np

from robotable.core import Action, BadInput, BadOptions, Game, State, available, load

#: Default size of the hashed observation tensor.
TENSOR_SIZE = 512

#: Decision steps a game can take at most, where the rules bound it (TF22: 2 rounds x 14 battles, each a
#: simultaneous choice and at most one load decision). Other games are cut off at ``DEFAULT_MAX_STEPS``.
RULE_BOUNDS: dict[str, int] = {"tf22-reload": 56}
DEFAULT_MAX_STEPS = 20_000

#: Games whose secret choices are made simultaneously (registered as simultaneous-move games).
SIMULTANEOUS: frozenset[str] = frozenset({"tf22-reload"})


def encodable_games() -> list[str]:
    """Ids of the registered games that implement the integer action encoding (the adapters serve these)."""
    return [gid for gid in available() if load(gid).has_action_encoding()]


def load_encodable(game_id: str) -> Game:
    """The game, or a clear :class:`BadInput` if it is unknown or has no integer action encoding."""
    game = load(game_id)
    if not game.has_action_encoding():
        raise BadInput(f"{game_id} has no integer action encoding yet, so the research adapters cannot serve it")
    return game


def legal_by_index(game: Game, state: State, seat: int) -> dict[int, Action]:
    """``seat``'s legal actions by their index: how an index is decoded, for every game.

    An index may name only the kind and target of a free-form choice (a sale to a buyer, whatever the
    layout), standing for the one such action the state lists, so decoding goes through the state. Two
    legal actions with one index break the contract's rule and raise :class:`BadInput`.
    """
    index = game.action_index
    legal: dict[int, Action] = {}
    for action in state.legal_actions(seat):
        i = index(action)
        if i in legal:
            raise BadInput(f"{game.id}: legal actions {legal[i]!r} and {action!r} share the index {i}")
        legal[i] = action
    return legal


def describe_index(game: Game, state: State | None, seat: int, index: int) -> str:
    """An action index as text: the JSON of the action it stands for in ``state`` if it is legal there,
    else its stateless decoding, else (an index whose action depends on the state) its number."""
    if state is not None and seat in state.to_act():
        action = legal_by_index(game, state, seat).get(index)
        if action is not None:
            return canonical(action.to_json())
    try:
        return canonical(game.action_from_index(index).to_json())
    except BadInput:
        return f"{game.id} action {index}"


def check_setup(game: Game, num_players: object, options: object) -> tuple[int, dict[str, Any]]:
    """Check a player count and options the way ``Game.start`` does; returns them with defaults filled in."""
    if not isinstance(num_players, int) or isinstance(num_players, bool):
        raise BadOptions(f"{game.id}: num_players must be an integer, got {num_players!r}")
    if not game.min_players <= num_players <= game.max_players:
        raise BadOptions(
            f"{game.id}: {num_players} players is not supported (this game takes "
            f"{game.min_players} to {game.max_players})"
        )
    if options is None:
        options = {}
    if isinstance(options, str):
        try:
            options = json.loads(options or "{}")
        except json.JSONDecodeError as exc:
            raise BadOptions(f"{game.id}: options must be a JSON object, got {options!r} ({exc})") from None
    if not isinstance(options, Mapping):
        raise BadOptions(f"{game.id}: options must be a JSON object, got {options!r}")
    return num_players, game.check_options(options, num_players)


def default_max_steps(game_id: str) -> int:
    """OpenSpiel's step bound (a simultaneous choice is one step): the rules' own where there is one."""
    return RULE_BOUNDS.get(game_id, DEFAULT_MAX_STEPS)


def default_action_limit(game_id: str) -> int | None:
    """The number of actions after which PettingZoo and Gymnasium environments truncate a game by
    default: none for games the rules bound, ``DEFAULT_MAX_STEPS`` for the others."""
    return None if game_id in RULE_BOUNDS else DEFAULT_MAX_STEPS


def check_limit(value: object, name: str = "max_steps") -> None:
    """A step limit is ``None`` or a positive integer."""
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise BadInput(f"{name} must be a positive integer or None, got {value!r}")


def canonical(data: Any) -> str:
    """Canonical compact JSON (sorted keys)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def public_view(state: State) -> dict[str, Any]:
    """The spectator's view: what every seat knows."""
    return state.view(None)


def private_part(view: Any, public: Any) -> Any:
    """The leaves of a seat's view that differ from the spectator's view (its private information)."""
    if isinstance(view, dict) and isinstance(public, dict):
        out = {}
        for key, value in view.items():
            if key not in public:
                out[key] = value
            else:
                diff = private_part(value, public[key])
                if diff is not None:
                    out[key] = diff
        return out or None
    if isinstance(view, list) and isinstance(public, list) and len(view) == len(public):
        diffs = [private_part(v, p) for v, p in zip(view, public)]
        return {str(i): d for i, d in enumerate(diffs) if d is not None} or None
    return None if view == public else view


#: JSON's types, in the order a subclass is matched (bool before int).
_PLAIN: tuple[type, ...] = (dict, list, tuple, bool, str, int, float, type(None))
_BUCKETS: dict[int, dict[str, int]] = {}  # per tensor size: feature key -> its bucket


def _buckets(size: int) -> dict[str, int]:
    cache = _BUCKETS.get(size)
    if cache is None or len(cache) > 200_000:
        cache = _BUCKETS[size] = {}
    return cache


def encode_into(out: np.ndarray, data: Any) -> np.ndarray:
    """Add the hashed features of JSON ``data`` to the float vector ``out`` (returned).

    Leaves are visited depth first from the last child and added in that order, in ``out``'s precision
    (``np.add.at``), so the result never depends on how the work is batched.
    """
    size = out.shape[0]
    cache = _buckets(size)
    crc32 = zlib.crc32
    where: list[int] = []
    amounts: list[float] = []
    stack: list[tuple[str, Any]] = [("", data)]
    pop, push = stack.pop, stack.append
    while stack:
        path, value = pop()
        kind = type(value)
        if kind not in _PLAIN:  # a subclass (an IntEnum, a str enum, a named tuple): treated as its base
            kind = next((t for t in _PLAIN if isinstance(value, t)), None)
        if kind is dict:
            for k, v in value.items():
                push((f"{path}.{k}", v))
            continue
        if kind is list or kind is tuple:
            push((f"{path}#len", len(value)))
            for i, v in enumerate(value):
                push((f"{path}[{i}]", v))
            continue
        if kind is str or kind is bool or value is None:
            key, amount = f"{path}={value}", 1.0
        elif kind is int or kind is float:
            key, amount = path, float(value)
        else:
            continue
        hit = cache.get(key)
        if hit is None:
            hit = cache[key] = crc32(key.encode()) % size
        where.append(hit)
        amounts.append(amount)
    if where:
        np.add.at(out, np.asarray(where, np.intp), np.asarray(amounts, out.dtype))
    return out


def encode(data: Any, size: int = TENSOR_SIZE) -> np.ndarray:
    """A fixed-size float32 feature vector of JSON ``data``."""
    return encode_into(np.zeros(size, np.float32), data)
