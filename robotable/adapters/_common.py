"""What the three adapters share: which games they can serve, and observations built from views.

An observation is always derived from ``state.view(seat)`` (``None`` for the public part), so hidden
information cannot reach it: the string is the view as canonical JSON and the tensor is the game's own
feature planes (its ``observation_encoder``, a :class:`robotable.core.observation.ObservationEncoder` in
``games/<id>/observation.py``), every value in [0, 1], the same layout for every seat.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np

from robotable.core import Action, BadInput, BadOptions, Game, Result, State, available, load
from robotable.core.observation import ObservationEncoder

#: Games with no length bound in their rules are cut off after this many decision steps by default.
DEFAULT_MAX_STEPS = 20_000


def observation_encoder(game: Game) -> ObservationEncoder | None:
    """The game's feature planes, or ``None`` if it declares none (a capability of the game)."""
    return game.observation_encoder


def encoder_of(game: Game) -> ObservationEncoder:
    """The game's feature planes, or a clear :class:`BadInput` if it declares none."""
    encoder = game.observation_encoder
    if encoder is None:
        raise BadInput(f"{game.id} declares no observation encoder yet, so the research adapters cannot serve it")
    return encoder


def is_simultaneous(game: Game) -> bool:
    """Whether the game's secret choices are made simultaneously (a capability of the game)."""
    return game.simultaneous


def rule_bound(game: Game) -> int | None:
    """The most decision steps a game can take, where its rules bound it (a capability of the game)."""
    return game.max_game_length


def check_max_rounds(game: Game, value: object) -> int | None:
    """A round limit is ``None`` (or 0: none) or a positive integer, for a game that declares one."""
    if value is None or value == 0:
        return None
    check_limit(value, "max_rounds")
    if game.round_limit is None:
        raise BadInput(f"{game.id} has no round limit (max_rounds is for games that declare one)")
    return value  # type: ignore[return-value]  # check_limit() refused anything but a positive int


def round_limit_result(game: Game, state: State, max_rounds: int | None) -> Result | None:
    """The scored result once ``max_rounds`` rounds are played (the game's ``round_limit``), else ``None``."""
    if max_rounds is None or state.is_over():
        return None
    limit = game.round_limit
    if limit.rounds_played(state) < max_rounds:
        return None
    return limit.result(state, max_rounds)


def structured_actions(game: Game) -> Any:
    """The game's structured action space (offers as sub-decisions), or ``None`` (a capability)."""
    return game.structured_actions


def servable(game: Game) -> bool:
    """Whether the adapters can serve ``game``: it has an integer action encoding and feature planes."""
    return game.has_action_encoding() and observation_encoder(game) is not None


def encodable_games() -> list[str]:
    """Ids of the registered games the adapters serve (integer action encoding and feature planes)."""
    return [gid for gid in available() if servable(load(gid))]


def load_encodable(game_id: str) -> Game:
    """The game, or a clear :class:`BadInput` if it is unknown or has no integer action encoding."""
    game = load(game_id)
    if not game.has_action_encoding():
        raise BadInput(f"{game_id} has no integer action encoding yet, so the research adapters cannot serve it")
    encoder_of(game)
    return game


#: Per game, the index of each action seen (actions are frozen values and ``action_index`` never looks
#: at a state, so an action's index never changes).
_INDICES: dict[str, dict[Action, int]] = {}
#: Per game, ``id(action) -> index`` for the action objects seen: engines that hand out the same action
#: objects again (TF22, Twin Tin Bots) are looked up without hashing them, in C. ``_ALIVE`` holds each of
#: those objects, so its id cannot be reused by another object while the entry exists.
_BY_ID: dict[str, dict[int, int]] = {}
_ALIVE: dict[str, list[Action]] = {}
_MEMO_LIMIT = 100_000


def legal_by_index(game: Game, state: State, seat: int) -> dict[int, Action]:
    """``seat``'s legal actions by their index: how an index is decoded, for every game.

    An index may name only the kind and target of a free-form choice (a sale to a buyer, whatever the
    layout), standing for the one such action the state lists, so decoding goes through the state. Two
    legal actions with one index break the contract's rule and raise :class:`BadInput`.
    """
    by_id = _BY_ID.get(game.id)
    if by_id is None or len(by_id) > _MEMO_LIMIT:
        by_id = _BY_ID[game.id] = {}
        _ALIVE[game.id] = []
    actions = state.legal_actions(seat)
    indices = list(map(by_id.get, map(id, actions)))
    legal: dict[Any, Action] = dict(zip(indices, actions))
    if None in legal:  # actions not seen before: their index, remembered
        known = _INDICES.get(game.id)
        if known is None or len(known) > _MEMO_LIMIT:
            known = _INDICES[game.id] = {}
        alive = _ALIVE[game.id]
        for at, action in enumerate(actions):
            if indices[at] is None:
                i = known.get(action)
                if i is None:
                    i = known[action] = game.action_index(action)
                by_id[id(action)] = indices[at] = i
                alive.append(action)
        legal = dict(zip(indices, actions))
    if len(legal) != len(actions):
        _shared_index(game, actions)
    return legal


def _shared_index(game: Game, actions: list[Action]) -> None:
    """Raise :class:`BadInput` naming two legal actions that share an index."""
    first: dict[int, Action] = {}
    for action in actions:
        i = game.action_index(action)
        if i in first:
            raise BadInput(f"{game.id}: legal actions {first[i]!r} and {action!r} share the index {i}")
        first[i] = action
    raise BadInput(f"{game.id}: legal actions listed twice: {actions!r}")


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
    num_players = game.check_players(num_players)
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


def default_max_steps(game: Game) -> int:
    """OpenSpiel's step bound (a simultaneous choice is one step): the rules' own where there is one."""
    bound = rule_bound(game)
    return DEFAULT_MAX_STEPS if bound is None else bound


def default_action_limit(game: Game) -> int | None:
    """The number of actions after which PettingZoo and Gymnasium environments truncate a game by
    default: none for games the rules bound, ``DEFAULT_MAX_STEPS`` for the others."""
    return None if rule_bound(game) is not None else DEFAULT_MAX_STEPS


def check_limit(value: object, name: str = "max_steps") -> None:
    """A step limit is ``None`` or a positive integer."""
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise BadInput(f"{name} must be a positive integer or None, got {value!r}")


def canonical(data: Any) -> str:
    """Canonical compact JSON (sorted keys)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


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


def observation_array(encoder: ObservationEncoder, view: Mapping[str, Any], seat: int | None) -> np.ndarray:
    """The feature planes of ``view`` (laid out for ``seat``) as a flat float32 array."""
    out = np.zeros(encoder.size, np.float32)
    features = encoder.features(view, seat)
    if features:
        out[np.fromiter(features.keys(), np.intp, len(features))] = np.fromiter(
            features.values(), np.float32, len(features)
        )
    return out


def private_features(encoder: ObservationEncoder, state: State, seat: int) -> dict[int, float]:
    """The features of ``seat``'s view that differ from the spectator's (laid out for ``seat``)."""
    mine = encoder.features(state.view(seat), seat)
    public = encoder.features(state.view(None), seat)
    return {i: v for i, v in mine.items() if public.get(i) != v}
