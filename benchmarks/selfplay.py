"""Self-play data generation: steps per second with observations and masks, next to OpenSpiel's Kuhn poker.

    python benchmarks/selfplay.py                      # every served game, 2 players, about a minute
    python benchmarks/selfplay.py --seconds 10 --envs 32 --large 256 --game tf22-reload

One loop for everything: ``num_envs`` games stepped together; each step fills a float32 observation
array and a bool legal-action mask for every game's acting seat, picks a uniformly random legal action
per game and applies it, restarting finished games at once. It runs over

- ``robotable.adapters.vector.VectorEnv`` (our games, contract and feature planes directly: "vector"),
  with ``--envs`` games in this process, and with ``--large`` games in this process and spread over
  ``--workers`` worker processes (default: one per core);
- pyspiel states (``observation_tensor`` and ``legal_actions_mask`` of the acting player, chance nodes
  sampled and not counted) for our games through the OpenSpiel adapter ("pyspiel"; TF22 through
  ``convert_to_turn_based``, one seat at a time like the vector loop) and for OpenSpiel's
  ``python_kuhn_poker`` (pure Python) and C++ ``kuhn_poker``;
- random playouts one game at a time, in decisions, through the engine, through the OpenSpiel wrapper
  (explicit chance and seed mode) and through a do-nothing pyspiel game replaying the wrapper's nodes
  (the "API floor": what pyspiel's Python-game API and the loop cost with no game behind them), with the
  wrapper's ceiling: the engine's cost per decision over that cost plus the floor's.

A step is one applied decision. Every loop is measured **interleaved**: ``--rounds`` rounds, each giving
every loop ``seconds / rounds`` in turn, so a change of load on a shared machine falls on all loops alike.
Each loop is given per wall second and per CPU second (``time.process_time`` of this process plus, for
worker processes, theirs), and "cores" is CPU seconds per wall second. Ratios to ``python_kuhn_poker``
are per CPU second (the wall-clock ratio of two loops measured apart mixes the code's speed with the
load at each moment). The scaling table compares the large batch with the small one: per wall second
(what workers are for: more cores; they can gain only as far as the machine has cores free) and per CPU
second (what the batch costs per step, whatever the load). Beside it, the machine's own ceiling for
worker processes: random play through the engine in as many processes at once as there are workers
against one process for the same wall time (:class:`SideBySide`; no batch), since processes running at once on a
shared or virtual machine each run slower than one alone; "workers / that ceiling" is the workers' wall
gain over it, round by round. The load average is printed before and after. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import games as _openspiel_python_games  # noqa: F401  (registers python_* games)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.compare_openspiel import machine, spiel_playout
from robotable import games
from robotable.adapters import openspiel as ros
from robotable.adapters._common import encodable_games
from robotable.adapters.vector import VectorEnv

REFERENCES = ("python_kuhn_poker", "kuhn_poker")
#: Width of the loop names' column.
NAME = 44


class SpielVector:
    """The same batched loop over pyspiel states (auto-reset; chance outcomes sampled, not counted)."""

    def __init__(self, game: pyspiel.Game, num_envs: int, seed: int) -> None:
        self.game = game
        self.num_envs = num_envs
        self.rng = np.random.default_rng(seed)
        self.observations = np.zeros((num_envs, game.observation_tensor_size()), np.float32)
        self.masks = np.zeros((num_envs, game.num_distinct_actions()), np.bool_)
        self.states: list[Any] = []
        self.episodes = 0

    def _ready(self, state: Any) -> Any:
        """Play chance nodes (and restart a finished game) until a decision node."""
        while True:
            if state.is_terminal():
                self.episodes += 1
                state = self.game.new_initial_state()
            elif state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[self.rng.integers(len(outcomes))][0])
            elif state.is_simultaneous_node():  # one seat at a time is not possible here: all choose
                state.apply_actions(
                    [self.rng.choice(state.legal_actions(p) or [0]) for p in range(state.num_players())]
                )
            else:
                return state

    def reset(self) -> None:
        self.states = [self._ready(self.game.new_initial_state()) for _ in range(self.num_envs)]
        self._observe()

    def _observe(self) -> None:
        for i, state in enumerate(self.states):
            player = state.current_player()
            self.observations[i] = state.observation_tensor(player)
            self.masks[i] = state.legal_actions_mask(player)

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        return np.fromiter((rng.choice(np.flatnonzero(mask)) for mask in self.masks), np.int64, self.num_envs)

    def step(self, actions: np.ndarray) -> None:
        for i, state in enumerate(self.states):
            state.apply_action(int(actions[i]))
            self.states[i] = self._ready(state)
        self._observe()

    def cpu_seconds(self) -> float:
        return time.process_time()

    def close(self) -> None:
        pass


class _FloorState(pyspiel.State):
    """A state of :class:`ApiFloor`'s game: replays one recorded game's nodes, ignoring the actions."""

    def __init__(self, game: pyspiel.Game, nodes: list[tuple[int, Any]]) -> None:
        super().__init__(game)
        self.nodes, self.at = nodes, 0

    # The same Python-level shortcuts the wrapper has (RobotableSpielState): called from Python, they do
    # not go through pyspiel's C++ and back.
    def current_player(self) -> int:
        return self.nodes[self.at][0]

    def is_terminal(self) -> bool:
        return self.nodes[self.at][0] == _TERMINAL

    def is_chance_node(self) -> bool:
        return self.nodes[self.at][0] == _CHANCE

    def is_simultaneous_node(self) -> bool:
        return self.nodes[self.at][0] == _SIMULTANEOUS

    def legal_actions(self, player: int | None = None) -> list[int]:
        kind, data = self.nodes[self.at]
        return list(data[player] if kind == _SIMULTANEOUS else data)

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(self.nodes[self.at][1])

    def _apply_action(self, action: int) -> None:
        self.at += 1

    def _apply_actions(self, actions: list[int]) -> None:
        self.at += 1

    def returns(self) -> list[float]:
        return [1.0 / self.get_game().num_players()] * self.get_game().num_players()

    def __str__(self) -> str:
        return f"node {self.at}"


_TERMINAL, _CHANCE = int(pyspiel.PlayerId.TERMINAL), int(pyspiel.PlayerId.CHANCE)
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
#: The floor games' classes, kept (pyspiel holds its creators until after Python has shut down).
_FLOOR_CLASSES: list[type] = []


def api_floor(spiel: pyspiel.Game, nodes_: int, rng: random.Random) -> pyspiel.Game:
    """A do-nothing pyspiel Python game with the node mix of ``spiel``: random games of ``spiel`` (at least
    ``nodes_`` nodes in all) are recorded (who acts at each node, its legal actions or chance outcomes) and its states
    replay them, one after another, whatever actions are applied. Played by :func:`spiel_playout`, it
    costs what pyspiel's Python-game API and the playout loop cost for those nodes, with no game at all:
    the floor of any wrapper of our games through that API."""
    records: list[list[tuple[int, Any]]] = []
    while sum(map(len, records)) < nodes_:
        state, nodes = spiel.new_initial_state(), []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                nodes.append((_CHANCE, outcomes))
                state.apply_action(rng.choices(*zip(*outcomes))[0])
            elif state.is_simultaneous_node():
                legal = [state.legal_actions(p) for p in range(spiel.num_players())]
                nodes.append((_SIMULTANEOUS, legal))
                state.apply_actions([rng.choice(a) if a else 0 for a in legal])
            else:
                nodes.append((state.current_player(), state.legal_actions()))
                state.apply_action(rng.choice(nodes[-1][1]))
        nodes.append((_TERMINAL, None))
        records.append(nodes)
    kind = spiel.get_type()
    name = f"robotable_api_floor_{len(_FLOOR_CLASSES)}"
    gtype = pyspiel.GameType(
        short_name=name,
        long_name=f"do-nothing replay of {kind.short_name}",
        dynamics=kind.dynamics,
        chance_mode=kind.chance_mode,
        information=kind.information,
        utility=kind.utility,
        reward_model=kind.reward_model,
        max_num_players=spiel.num_players(),
        min_num_players=spiel.num_players(),
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=spiel.num_distinct_actions(),
        max_chance_outcomes=spiel.max_chance_outcomes(),
        num_players=spiel.num_players(),
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=1.0,
        max_game_length=spiel.max_game_length(),
    )
    turn = itertools.cycle(records)

    class FloorGame(pyspiel.Game):  # a class as the creator, kept in _FLOOR_CLASSES
        def __init__(self, params: Any = None) -> None:
            super().__init__(gtype, info, params or {})

        def new_initial_state(self) -> _FloorState:
            return _FloorState(self, next(turn))

    _FLOOR_CLASSES.append(FloorGame)
    pyspiel.register_game(gtype, FloorGame)
    return pyspiel.load_game(name)


class Playouts:
    """Random playouts one game at a time, counted in decisions (a simultaneous node counts one per acting
    seat): through the engine (``legal_actions``, then ``apply``, which checks the action, or
    ``apply_legal``, which does not) or through the OpenSpiel wrapper (``legal_actions``, then
    ``apply_action`` / ``apply_actions``; chance outcomes drawn by their probabilities, not counted),
    or through :func:`api_floor`'s do-nothing game with the wrapper's nodes (explicit chance; counted
    alike). Both sides count the same decisions of the same kind of game: a game's deal and draws are
    inside ``start`` and ``apply`` on the engine's side, chance nodes (their time counted, not their
    number) on the wrapper's."""

    num_envs = 1

    def __init__(self, game_id: str, players: int, how: str, seed: int = 0) -> None:
        self.game_id, self.players, self.how = game_id, players, how
        self.rng = random.Random(seed)
        self.engine = games.load(game_id)
        if how.startswith("openspiel") or how == FLOOR:
            self.spiel = ros.load_game(game_id, players=players, chance_draws=0 if how.endswith("seed") else 1)
        if how == FLOOR:
            self.spiel = api_floor(self.spiel, 20_000, random.Random(seed))

    def reset(self) -> None:
        pass

    def play(self) -> int:
        """One game; its decisions."""
        rng = self.rng
        if self.how.startswith("openspiel") or self.how == FLOOR:
            return spiel_playout(self.spiel, rng)
        state = self.engine.start(self.players, seed=rng.randrange(1 << 62))
        checked = self.how == "engine apply"
        steps = 0
        while not state.is_over():
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            if checked:
                state.apply(seat, action)
            else:
                state.apply_legal(seat, action)
            steps += 1
        return steps

    def cpu_seconds(self) -> float:
        return time.process_time()

    def close(self) -> None:
        pass


class SideBySide(Playouts):
    """The machine's own ceiling for worker processes: random play through the engine's ``apply`` in
    ``processes`` processes at once for the same wall time (each in a process of its own, the one-process
    case too), counted in decisions. Processes running at once on a shared or virtual machine each run
    slower than one alone (shared caches, the host's other guests), so the wall-clock gain of ``n``
    processes over one, measured here with no batch and one message per 0.05 s, is the most the vector
    env's workers can gain."""

    def __init__(self, game_id: str, players: int, processes: int, seed: int = 0) -> None:
        context = multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")
        self.processes, self.conns, self.cpu = [], [], [0.0] * processes
        for i in range(processes):
            mine, theirs = context.Pipe()
            process = context.Process(target=_side_by_side, args=(game_id, players, seed + i, theirs), daemon=True)
            process.start()
            self.processes.append(process)
            self.conns.append(mine)

    def play(self) -> int:
        """0.05 s (wall) of random play in every process at once; their decisions."""
        for conn in self.conns:
            conn.send(0.05)
        steps = 0
        for i, conn in enumerate(self.conns):
            done, self.cpu[i] = conn.recv()
            steps += done
        return steps

    def cpu_seconds(self) -> float:
        return time.process_time() + sum(self.cpu)

    def close(self) -> None:
        for conn in self.conns:
            conn.send(None)
        for process in self.processes:
            process.join(timeout=5)


def _side_by_side(game_id: str, players: int, seed: int, conn: Any) -> None:
    """A :class:`SideBySide` process: on each command, random actions through ``apply`` for that many
    wall seconds (a game goes on from one command to the next, so no process waits for another's game to
    end); answers its decisions and its CPU seconds so far."""
    game, rng = games.load(game_id), random.Random(seed)
    state = game.start(players, seed=rng.randrange(1 << 62))
    while (seconds := conn.recv()) is not None:
        end, steps = time.perf_counter() + seconds, 0
        while time.perf_counter() < end:
            for _ in range(64):
                if state.is_over():
                    state = game.start(players, seed=rng.randrange(1 << 62))
                seat = state.to_act()[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
            steps += 64
        conn.send((steps, time.process_time()))


@dataclass
class Loop:
    """One measured loop and what it has done so far."""

    label: str
    env: Any
    rng: np.random.Generator
    steps: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    #: Each round's (steps, wall seconds, CPU seconds).
    rounds: list[tuple[int, float, float]] = field(default_factory=list)

    def run(self, seconds: float) -> None:
        """Step for about ``seconds`` (wall) and add up the steps, wall and CPU seconds."""
        env, rng = self.env, self.rng
        steps = 0
        start, cpu = time.perf_counter(), env.cpu_seconds()
        while True:
            if isinstance(env, Playouts):
                steps += env.play()
            else:
                env.step(env.sample(rng))
                steps += env.num_envs
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        used = env.cpu_seconds() - cpu
        self.steps += steps
        self.wall += elapsed
        self.cpu += used
        self.rounds.append((steps, elapsed, used))

    @property
    def per_wall(self) -> float:
        return self.steps / self.wall

    @property
    def per_cpu(self) -> float:
        return self.steps / self.cpu


def make(kind: str, name: str, players: int, envs: int, seed: int = 0, workers: int | None = 0) -> Any:
    """The loop's environment, reset."""
    if kind == "vector":
        env: Any = VectorEnv(name, num_envs=envs, num_players=players, seed=seed, workers=workers)
    elif kind == "pyspiel":  # simultaneous choices one seat at a time, as in VectorEnv
        game = ros.load_game(name, players=players)
        if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            game = pyspiel.convert_to_turn_based(game)
        env = SpielVector(game, envs, seed)
    else:
        env = SpielVector(pyspiel.load_game(name), envs, seed)
    env.reset()
    return env


def interleave(loops: list[Loop], seconds: float, rounds: int) -> None:
    """Each loop ``seconds`` in all, in ``rounds`` turns taken one loop after another (after a warm-up)."""
    for loop in loops:
        if isinstance(loop.env, Playouts):
            loop.env.play()
        else:
            loop.env.step(loop.env.sample(loop.rng))
    for _ in range(rounds):
        for loop in loops:
            loop.run(seconds / rounds)


def round_ratios(loop: Loop, base: Loop, per: str) -> list[float]:
    """``loop``'s rate over ``base``'s in each round (they ran one after the other in every round), per
    wall (``per="wall"``) or CPU second."""
    at = 1 if per == "wall" else 2
    return [(a[0] / a[at]) / (b[0] / b[at]) for a, b in zip(loop.rounds, base.rounds, strict=True)]


def _median(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


#: The wrapper table's do-nothing game with the wrapper's node mix (explicit chance): see :func:`api_floor`.
FLOOR = "pyspiel API floor"
#: The OpenSpiel wrapper table's loops, per game: the engine's own two, the wrapper's, the API's floor.
WRAPPER = ("engine apply", "engine apply_legal", "openspiel apply_action", "openspiel apply_action, seed", FLOOR)


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def _figures(loop: Loop) -> str:
    return f"{loop.per_wall:>12,.0f} {loop.per_cpu:>12,.0f} {loop.cpu / loop.wall:>7.2f}"


def print_wall_rounds(
    small: list[Loop], scaling: list[Loop], game_ids: list[str], envs: int, large: int, p: int
) -> None:
    """The large batch against the small one, round by round (each round ran both, one after the other)."""
    print(f"wall clock: {large} games against {envs}, ratio in each round, median (min-max)")
    print(f"{'loop':<{NAME}} {'x wall':>18} {'x CPU':>18}")
    for i, game_id in enumerate(game_ids):
        base = next(loop for loop in small if loop.label == f"{game_id} vector {p}p")
        for loop in scaling[4 * i : 4 * i + 2]:
            wall, cpu = round_ratios(loop, base, "wall"), round_ratios(loop, base, "cpu")
            print(f"{loop.label:<{NAME}} {_median(wall):>18} {_median(cpu):>18}")
        alone, together = scaling[4 * i + 2 : 4 * i + 4]
        ceiling = round_ratios(together, alone, "wall")
        label = f"{together.label} / 1"
        print(f"{label:<{NAME}} {_median(ceiling):>18} {_median(round_ratios(together, alone, 'cpu')):>18}")
        share = [w / c for w, c in zip(round_ratios(scaling[4 * i + 1], base, "wall"), ceiling, strict=True)]
        print(f"{f'{game_id} workers / that ceiling':<{NAME}} {_median(share):>18}")


def print_wrapper(wrapper: list[Loop], p: int) -> None:
    """The playouts through the engine and through the OpenSpiel wrapper, with ratios per CPU second."""
    header = f"{'per wall s':>12} {'per CPU s':>12} {'cores':>7}"
    print(f"OpenSpiel wrapper against the engine: random playouts, one game at a time, {p} players")
    print(f"{'loop':<{NAME}} {header} {'/ apply':>7} {'/ legal':>7}")
    for i in range(0, len(wrapper), len(WRAPPER)):
        checked, unchecked = wrapper[i], wrapper[i + 1]
        for loop in wrapper[i : i + len(WRAPPER)]:
            print(
                f"{loop.label:<{NAME}} {_figures(loop)} "
                f"{loop.per_cpu / checked.per_cpu:>7.2f} {loop.per_cpu / unchecked.per_cpu:>7.2f}"
            )
    print("wrapper / engine apply per CPU second, ratio in each round, median (min-max)")
    for i in range(0, len(wrapper), len(WRAPPER)):
        for loop in wrapper[i + 2 : i + len(WRAPPER) - 1]:
            print(f"{loop.label:<{NAME}} {_median(round_ratios(loop, wrapper[i], 'cpu')):>18}")
    print("ceiling of the wrapper / engine apply, explicit chance: the engine's cost plus the API floor's alone")
    for i in range(0, len(wrapper), len(WRAPPER)):
        engine, floor = wrapper[i], wrapper[i + len(WRAPPER) - 1]
        ceiling = [
            (f[0] / f[2]) / (f[0] / f[2] + e[0] / e[2]) for e, f in zip(engine.rounds, floor.rounds, strict=True)
        ]  # per step, CPU seconds e + f against e
        label = engine.label.removesuffix(" engine apply")
        print(f"{label:<{NAME}} {_median(ceiling):>18}")


def vector_loops(args: argparse.Namespace, game_ids: list[str]) -> tuple[list[Loop], list[Loop]]:
    """The first table's loops of our games (``--envs`` games) and the scaling table's (``--large``)."""
    workers = args.workers if args.workers is not None else max(2, len(os.sched_getaffinity(0)))
    small, scaling = [], []
    p = args.players
    for game_id in game_ids:
        small.append(Loop(f"{game_id} vector {p}p", make("vector", game_id, p, args.envs), np.random.default_rng(0)))
        if not args.no_pyspiel:
            small.append(
                Loop(f"{game_id} pyspiel {p}p", make("pyspiel", game_id, p, args.envs), np.random.default_rng(0))
            )
        if args.large:
            for count, w in ((args.large, 0), (args.large, workers)):
                env = make("vector", game_id, p, count, workers=w)
                where = f"{w} workers" if w else "1 process"
                scaling.append(Loop(f"{game_id} {count} games, {where}", env, np.random.default_rng(0)))
            for n in (1, workers):
                label = f"{game_id} playouts, {n} process{'es' if n > 1 else ''}"
                scaling.append(Loop(label, SideBySide(game_id, p, n), np.random.default_rng(0)))
    return small, scaling


def wrapper_loops(game_ids: list[str], p: int) -> list[Loop]:
    """The playout loops of the wrapper table, :data:`WRAPPER` per game."""
    rng = np.random.default_rng(0)  # unused by playouts (they draw from their own random.Random)
    return [Loop(f"{game_id} {how}", Playouts(game_id, p, how), rng) for game_id in game_ids for how in WRAPPER]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per loop in all (split over rounds)")
    parser.add_argument("--rounds", type=int, default=6, help="interleaved rounds")
    parser.add_argument("--envs", type=int, default=32, help="games stepped together")
    parser.add_argument("--large", type=int, default=256, help="games in the large batch (0: no scaling table)")
    parser.add_argument(
        "--workers", type=int, default=None, help="worker processes of the large batch (default: cores)"
    )
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--game", action="append", help="our game id (repeatable; default: every served game)")
    parser.add_argument("--no-pyspiel", action="store_true", help="skip our games through the pyspiel loop")
    parser.add_argument(
        "--no-wrapper",
        action="store_true",
        help="skip the table of playouts through the engine and the OpenSpiel wrapper",
    )
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.rounds < 1 or args.envs < 1 or args.large < 0:
        parser.error("--seconds must be positive, --rounds and --envs at least 1, --large at least 0")
    games_ = args.game or encodable_games()
    p = args.players
    small, scaling = vector_loops(args, games_)
    small += [
        Loop(f"{name} (OpenSpiel)", make("openspiel", name, p, args.envs), np.random.default_rng(0))
        for name in REFERENCES
    ]
    wrapper = [] if args.no_wrapper else wrapper_loops(games_, p)
    print(f"machine: {machine()}")
    print(
        f"steps/s with observations and masks, {p} players, interleaved: {args.rounds} rounds, "
        f"{args.seconds:g} s per loop in all; load average {_load()}"
    )
    try:
        interleave(small + scaling + wrapper, args.seconds, args.rounds)
    finally:
        for loop in small + scaling + wrapper:
            loop.env.close()
    header = f"{'per wall s':>12} {'per CPU s':>12} {'cores':>7}"
    print(f"{args.envs} games per loop, 1 process")
    print(f"{'loop':<{NAME}} {header}")
    for loop in small:
        print(f"{loop.label:<{NAME}} {_figures(loop)}")
    reference = small[-len(REFERENCES)]
    print(f"as a ratio to {REFERENCES[0]} per CPU second:")
    for loop in small:
        print(f"{loop.label:<{NAME}} {loop.per_cpu / reference.per_cpu:>12.2f}")
    if scaling:
        print(f"scaling: {args.large} games against {args.envs} (ratios per wall s and per CPU s)")
        print(f"{'loop':<{NAME}} {header} {'x wall':>7} {'x CPU':>7}")
        for i, game_id in enumerate(games_):
            base = next(loop for loop in small if loop.label == f"{game_id} vector {p}p")
            print(f"{f'{game_id} {args.envs} games, 1 process':<{NAME}} {_figures(base)} {1:>7.2f} {1:>7.2f}")
            for loop in scaling[4 * i : 4 * i + 2]:
                print(
                    f"{loop.label:<{NAME}} {_figures(loop)} "
                    f"{loop.per_wall / base.per_wall:>7.2f} {loop.per_cpu / base.per_cpu:>7.2f}"
                )
            alone = scaling[4 * i + 2]
            for loop in scaling[4 * i + 2 : 4 * i + 4]:  # the machine's ceiling: x against one process
                print(
                    f"{loop.label:<{NAME}} {_figures(loop)} "
                    f"{loop.per_wall / alone.per_wall:>7.2f} {loop.per_cpu / alone.per_cpu:>7.2f}"
                )
    if scaling:
        print_wall_rounds(small, scaling, games_, args.envs, args.large, p)
    if wrapper:
        print_wrapper(wrapper, p)
    print(f"load average after: {_load()}")


if __name__ == "__main__":
    main()
