"""Fit the learned value model to self-play data (numpy: the ``ai`` extra).

Each pair of seats ``(s, o)`` of a recorded position is one example: the label is 1 if ``s`` finished
ahead of ``o``, 1/2 for a tie, 0 behind; the model's chance is ``sigmoid(z(f_s) - z(f_o))`` with
``z(f) = linear . f + out . tanh(hidden f + bias)`` (see :mod:`robotable.ai.learned`). The mean
cross-entropy plus an L2 penalty is minimised by full-batch Adam for a fixed number of steps from a start
drawn from ``seed``: the same data and seed give the same weights.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .selfplay import GameData


@dataclass
class Pairs:
    """Training examples: the two seats' feature rows, the label, and the table size of each."""

    a: Any  # numpy array (examples x features)
    b: Any
    y: Any
    players: Any


def pairs(games: Sequence[GameData], width: int) -> Pairs:
    """Every pair of seats ``s < o`` of every recorded position (the other order adds nothing: the model
    is antisymmetric by construction)."""
    import numpy as np

    a, b, y, players = [], [], [], []
    for game in games:
        ranks = game["ranks"]
        n = len(ranks)
        for rows in game["positions"]:
            for s in range(n):
                for o in range(s + 1, n):
                    a.append(rows[s])
                    b.append(rows[o])
                    y.append(1.0 if ranks[s] < ranks[o] else 0.5 if ranks[s] == ranks[o] else 0.0)
                    players.append(n)
    shape = (len(a), width)
    return Pairs(
        np.asarray(a, dtype=np.float64).reshape(shape),
        np.asarray(b, dtype=np.float64).reshape(shape),
        np.asarray(y, dtype=np.float64),
        np.asarray(players, dtype=np.int64),
    )


def _forward(params: dict[str, Any], x: Any) -> tuple[Any, Any]:
    import numpy as np

    h = np.tanh(x @ params["hidden"].T + params["bias"])
    return x @ params["linear"] + h @ params["out"], h


def log_loss(p: Any, y: Any) -> float:
    """Mean cross-entropy of chances ``p`` against soft labels ``y``."""
    import numpy as np

    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def predict(params: dict[str, Any], data: Pairs) -> Any:
    """The model's chance that the first seat of each pair finishes ahead."""
    import numpy as np

    za, _ = _forward(params, data.a)
    zb, _ = _forward(params, data.b)
    return 1.0 / (1.0 + np.exp(-(za - zb)))


def fit(
    data: Pairs,
    hidden: int = 8,
    steps: int = 800,
    seed: int = 0,
    l2: float = 1e-4,
    lr: float = 0.02,
    nonneg: Sequence[int] = (),
    progress: Callable[[int, float], None] | None = None,
) -> dict[str, Any]:
    """The fitted weights (numpy arrays: ``linear``, ``hidden``, ``bias``, ``out``); the linear weights of
    the features ``nonneg`` (their indexes) are kept >= 0 (projected after every step)."""
    import numpy as np

    width = data.a.shape[1]
    rng = np.random.default_rng(seed)
    params = {
        "linear": np.zeros(width),
        "hidden": rng.normal(0.0, 1.0 / math.sqrt(width), size=(hidden, width)),
        "bias": np.zeros(hidden),
        "out": rng.normal(0.0, 0.1, size=hidden),
    }
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    count = len(data.y)
    for step in range(1, steps + 1):
        za, ha = _forward(params, data.a)
        zb, hb = _forward(params, data.b)
        p = 1.0 / (1.0 + np.exp(-(za - zb)))
        g = (p - data.y) / count  # d loss / d (za - zb)
        ga = g[:, None] * (1 - ha * ha) * params["out"]  # d loss / d pre-activation, seat a
        gb = -g[:, None] * (1 - hb * hb) * params["out"]
        grads = {
            "linear": data.a.T @ g - data.b.T @ g + l2 * params["linear"],
            "out": ha.T @ g - hb.T @ g + l2 * params["out"],
            "hidden": ga.T @ data.a + gb.T @ data.b + l2 * params["hidden"],
            "bias": ga.sum(axis=0) + gb.sum(axis=0),
        }
        for key, grad in grads.items():
            m, v = moments[key]
            m *= beta1
            m += (1 - beta1) * grad
            v *= beta2
            v += (1 - beta2) * grad * grad
            params[key] -= lr * (m / (1 - beta1**step)) / (np.sqrt(v / (1 - beta2**step)) + eps)
        if len(nonneg):
            index = list(nonneg)
            params["linear"][index] = np.maximum(params["linear"][index], 0.0)
        if progress is not None and (step % 100 == 0 or step == steps):
            progress(step, log_loss(p, data.y))
    return params


def rounded(params: dict[str, Any], digits: int = 6) -> dict[str, list]:
    """The weights as JSON lists, rounded (so a run reproduces the same file byte for byte)."""
    out: dict[str, list] = {}
    for key, value in params.items():
        if value.ndim == 2:
            out[key] = [[round(float(x), digits) for x in row] for row in value]
        else:
            out[key] = [round(float(x), digits) for x in value]
    return out
