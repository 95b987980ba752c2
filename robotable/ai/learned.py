"""Learned position values: a small model trained from self-play, as an evaluator for search.

The model (trained by ``python -m robotable.ai.learn``, see :mod:`robotable.ai.learn`) gives every seat a
*strength* from its features (:mod:`robotable.ai.heuristics.tf22_reload_features`: the seat's projected score, hand,
chipcards, ship... relative to the table), a linear part plus one hidden layer of ``tanh`` units:

    z(seat) = linear . f(seat) + out . tanh(hidden f(seat) + bias)

and reads a pair of seats as a Bradley-Terry comparison: seat ``s`` finishes ahead of seat ``o`` with
probability ``sigmoid(z(s) - z(o))``. A seat's value is the mean over the other seats, which is exactly
what :func:`robotable.ai.ismcts.rank_rewards` pays at the end (a tie counting half), so values lie in
[0, 1] and sum to ``n / 2`` over the seats as rank rewards do.

Weights are package data (``robotable/ai/data/<game>-value.json``), one set per number of players, read
with the standard library: no network, no numpy at play time.

>>> from robotable import games
>>> evaluate = value_evaluator("tf22-reload")
>>> values = evaluate(games.load("tf22-reload").start(2, seed=3))
>>> len(values), all(0.0 <= v <= 1.0 for v in values), round(sum(values), 6)
(2, True, 1.0)
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from importlib import import_module, resources
from pathlib import Path
from types import ModuleType
from typing import Any

from robotable.core import BadInput, State

#: An evaluator gives every seat's expected reward in [0, 1] (as ``robotable.ai.ismcts.Evaluator``).
Evaluator = Callable[[State], list[float]]

#: The format tag every weights file carries.
FORMAT = "robotable-value/1"

#: Games with a learned value model: their feature module and the weights file shipped as package data.
GAMES: dict[str, tuple[str, str]] = {
    "tf22-reload": ("robotable.ai.heuristics.tf22_reload_features", "tf22-value.json"),
}


class WeightsError(BadInput):
    """A weights file that cannot be used: missing, not JSON, for another game or feature set, or malformed."""


def feature_module(game_id: str) -> ModuleType:
    """The module with ``NAMES`` and ``features(state)`` for ``game_id``; :class:`BadInput` if none."""
    if game_id not in GAMES:
        raise BadInput(f"no learned value model for {game_id!r} (games with one: {', '.join(sorted(GAMES))})")
    return import_module(GAMES[game_id][0])


def default_weights(game_id: str) -> Any:
    """The packaged weights file of ``game_id`` (a ``Traversable``: read with ``read_text``)."""
    feature_module(game_id)
    return resources.files("robotable.ai").joinpath("data", GAMES[game_id][1])


class ValueModel:
    """One set of weights (for one number of players): a seat's strength from its features."""

    __slots__ = ("bias", "hidden", "linear", "out")

    def __init__(self, linear: list[float], hidden: list[list[float]], bias: list[float], out: list[float]) -> None:
        self.linear = linear
        self.hidden = hidden
        self.bias = bias
        self.out = out

    def strength(self, row: Sequence[float]) -> float:
        """``z`` of one seat's feature row."""
        z = sum(w * x for w, x in zip(self.linear, row))
        for weights, b, v in zip(self.hidden, self.bias, self.out):
            z += v * math.tanh(b + sum(w * x for w, x in zip(weights, row)))
        return z

    def values(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """Each seat's expected rank reward: its mean chance of finishing ahead of each other seat."""
        z = [self.strength(row) for row in rows]
        n = len(z)
        if n == 1:
            return [1.0]
        out = []
        for s in range(n):
            total = 0.0
            for o in range(n):
                if o != s:
                    d = z[s] - z[o]
                    total += 1.0 / (1.0 + math.exp(-d)) if d > -700 else 0.0
            out.append(total / (n - 1))
        return out

    def to_json(self) -> dict[str, Any]:
        return {"linear": self.linear, "hidden": self.hidden, "bias": self.bias, "out": self.out}


def _numbers(value: Any, length: int, where: str) -> list[float]:
    if not isinstance(value, list) or len(value) != length:
        raise WeightsError(f"{where}: expected a list of {length} numbers")
    out = []
    for x in value:
        if isinstance(x, bool) or not isinstance(x, int | float) or not math.isfinite(x):
            raise WeightsError(f"{where}: {x!r} is not a finite number")
        out.append(float(x))
    return out


def parse_model(data: Any, width: int, where: str) -> ValueModel:
    """A :class:`ValueModel` from its JSON form, checked against ``width`` features."""
    if not isinstance(data, Mapping):
        raise WeightsError(f"{where}: expected an object with linear, hidden, bias and out")
    missing = [k for k in ("linear", "hidden", "bias", "out") if k not in data]
    if missing:
        raise WeightsError(f"{where}: missing {', '.join(missing)}")
    linear = _numbers(data["linear"], width, f"{where}.linear")
    hidden_rows = data["hidden"]
    if not isinstance(hidden_rows, list):
        raise WeightsError(f"{where}.hidden: expected a list of rows")
    hidden = [_numbers(row, width, f"{where}.hidden[{i}]") for i, row in enumerate(hidden_rows)]
    bias = _numbers(data["bias"], len(hidden), f"{where}.bias")
    out = _numbers(data["out"], len(hidden), f"{where}.out")
    return ValueModel(linear, hidden, bias, out)


class LearnedValue:
    """A game's learned evaluator: its feature function and one :class:`ValueModel` per number of players
    (a table size without its own weights uses the nearest one that has them)."""

    def __init__(self, game_id: str, models: dict[int, ValueModel], meta: dict[str, Any] | None = None) -> None:
        self.game_id = game_id
        self.models = models
        self.meta = meta or {}
        self.features = feature_module(game_id).features

    def model_for(self, players: int) -> ValueModel:
        if players in self.models:
            return self.models[players]
        return self.models[min(self.models, key=lambda k: (abs(k - players), k))]

    def __call__(self, state: State) -> list[float]:
        """Every seat's expected reward in [0, 1] (an ``Evaluator``)."""
        rows = self.features(state)
        return self.model_for(len(rows)).values(rows)


def parse_weights(data: Any, game_id: str, where: str = "weights") -> LearnedValue:
    """Check a weights document (as written by the pipeline) and build the evaluator."""
    names = feature_module(game_id).NAMES
    if not isinstance(data, Mapping):
        raise WeightsError(f"{where}: expected a JSON object")
    if data.get("format") != FORMAT:
        raise WeightsError(f"{where}: format is {data.get('format')!r}, expected {FORMAT!r}")
    if data.get("game") != game_id:
        raise WeightsError(f"{where}: weights for {data.get('game')!r}, not {game_id!r}")
    if list(data.get("features", [])) != list(names):
        raise WeightsError(
            f"{where}: trained on features {data.get('features')!r}, but {game_id} computes {list(names)!r}: "
            "train again (python -m robotable.ai.learn)"
        )
    models_data = data.get("models")
    if not isinstance(models_data, Mapping) or not models_data:
        raise WeightsError(f"{where}: 'models' must map a number of players to its weights")
    models: dict[int, ValueModel] = {}
    for key, value in models_data.items():
        if not str(key).isdigit() or int(key) < 2:
            raise WeightsError(f"{where}.models: {key!r} is not a number of players")
        models[int(key)] = parse_model(value, len(names), f"{where}.models[{key}]")
    meta = data.get("training")
    return LearnedValue(game_id, models, dict(meta) if isinstance(meta, Mapping) else {})


def load_weights(game_id: str, path: str | Path | None = None) -> LearnedValue:
    """The evaluator from a weights file (default: the packaged one); :class:`WeightsError` says what is
    wrong with a file that cannot be used."""
    source = default_weights(game_id) if path is None else Path(path)
    where = str(path) if path is not None else f"packaged {GAMES[game_id][1]}"
    try:
        text = source.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise WeightsError(f"{where}: cannot read the weights file ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise WeightsError(f"{where}: not valid JSON ({exc})") from None
    return parse_weights(data, game_id, where)


_LOADED: dict[str, LearnedValue] = {}


def value_evaluator(game_id: str, path: str | Path | None = None) -> Evaluator:
    """The learned evaluator of ``game_id`` for ``ISMCTSAgent(evaluator=...)`` (the packaged weights are
    read once per process; a ``path`` is read every call)."""
    if path is not None:
        return load_weights(game_id, path)
    if game_id not in _LOADED:
        _LOADED[game_id] = load_weights(game_id)
    return _LOADED[game_id]


__all__ = [
    "FORMAT",
    "GAMES",
    "Evaluator",
    "LearnedValue",
    "ValueModel",
    "WeightsError",
    "default_weights",
    "feature_module",
    "load_weights",
    "parse_weights",
    "value_evaluator",
]
