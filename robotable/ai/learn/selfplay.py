"""Self-play positions for the learned value model: seeded games, the features at each decision point,
the final ranks.

>>> games = play_games("tf22-reload", 2, [5], epsilon=0.1)
>>> len(games), len(games[0]["ranks"]), len(games[0]["positions"]) > 20
(1, 2, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from robotable import games as registry
from robotable.core import Rng

from .. import heuristics
from ..learned import feature_module
from ..processes import local_pool

#: What one game gives: ``positions`` (per recorded position, one feature row per seat) and ``ranks``.
GameData = dict[str, Any]


def game_seeds(seed: int, count: int, players: int) -> list[int]:
    """The seeds of a run's games: a function of the run's seed, the table size and the game's index."""
    rng = Rng(seed * 1_000_003 + players)
    return [rng.next64() & 0xFFFFFFFF for _ in range(count)]


def play_games(game_id: str, players: int, seeds: Sequence[int], epsilon: float) -> list[GameData]:
    """Play one game per seed and return each game's recorded positions and final ranks."""
    game = registry.load(game_id)
    module = heuristics.for_game(game_id)
    policy: Callable | None = getattr(module, "model", None)
    features = feature_module(game_id).features
    out = []
    for seed in seeds:
        state = game.start(players, seed=seed)
        rng = Rng(seed ^ 0x5EED)
        positions: list[list[list[float]]] = []
        while not state.is_over():
            rows = features(state)
            if not positions or rows != positions[-1]:  # (a simultaneous choice shows nothing new)
                positions.append(rows)
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                action = legal[0]
            elif policy is None or rng.random() < epsilon:
                action = legal[rng.randrange(len(legal))]
            else:
                action = policy(state, seat, legal, rng)
            state.apply_legal(seat, action)
        out.append({"seed": seed, "positions": positions, "ranks": list(state.result().ranks)})
    return out


def _chunks(seeds: Sequence[int], size: int) -> list[list[int]]:
    return [list(seeds[i : i + size]) for i in range(0, len(seeds), size)]


def generate(
    game_id: str,
    players: int,
    count: int,
    seed: int,
    epsilon: float = 0.1,
    workers: int = 1,
    ray_address: str | None = None,
    chunk: int = 25,
    progress: Callable[[int], None] | None = None,
) -> list[GameData]:
    """``count`` self-play games in seed order, played here (``workers=1``), in local processes or on Ray."""
    seeds = game_seeds(seed, count, players)
    notify = progress or (lambda _done: None)
    parts = _chunks(seeds, chunk)
    if ray_address is not None:
        results = _on_ray(game_id, players, parts, epsilon, ray_address, notify)
    elif workers > 1:
        with local_pool(workers) as pool:
            futures = [pool.submit(play_games, game_id, players, part, epsilon) for part in parts]
            results = []
            for future in futures:
                results.append(future.result())
                notify(sum(map(len, results)))
    else:
        results = []
        for part in parts:
            results.append(play_games(game_id, players, part, epsilon))
            notify(sum(map(len, results)))
    return [g for part in results for g in part]


def _on_ray(
    game_id: str, players: int, parts: list[list[int]], epsilon: float, address: str, notify: Callable[[int], None]
) -> list[list[GameData]]:
    """The chunks as Ray tasks on the cluster at ``address`` (``"local"`` starts a private one), in order."""
    from robotable.arena.execute import connect_ray

    ray, started_here = connect_ray(address)
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(play_games)
        refs = [task.remote(game_id, players, part, epsilon) for part in parts]
        results = []
        for ref in refs:
            results.append(ray.get(ref))
            notify(sum(map(len, results)))
        return results
    finally:
        if started_here:
            ray.shutdown()
