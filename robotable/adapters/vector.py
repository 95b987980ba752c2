"""A batched self-play environment: ``num_envs`` games of one kind stepped together, numpy in and out.

Every game is played by all its seats (self-play): each step, each game's acting seat (the first seat it
waits for; simultaneous secret choices are made one seat after another, each seeing only that the others
chose) takes the action given for that game. Observations are the acting seat's feature planes (the
game's ``observation_encoder``, from its view only) and masks its legal action indices::

    from robotable.adapters.vector import VectorEnv

    env = VectorEnv("tf22-reload", num_envs=256, num_players=2, seed=0)   # games over worker processes
    obs, mask, seat = env.reset()               # (256, planes) float32, (256, actions) bool, (256,) int
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = env.sample(rng)               # a uniformly random legal action per game
        obs, mask, seat, rewards, done = env.step(actions)
    env.close()                                 # or ``with VectorEnv(...) as env:``

``rewards`` is ``(num_envs, num_players)``: zero until a game ends, then Robotable's payoff (1 shared
among the winners) on the step that ended it; ``done`` marks those games. A finished game restarts at
once (auto-reset) with the next seed of its own seeded stream, so the arrays returned after a game ended
already show the new game's first position. ``max_steps`` cuts a game off (``truncated`` in
:attr:`info`, every seat scored ``1 / players``): by default never for games whose rules bound their
length, 20000 actions for the others. ``structured_actions=True`` (Robots on the Line) uses the game's
structured action space: an offer is built by sub-decisions (each a step of its own that leaves the game
unchanged until the offer is proposed) and the open draft is appended to the observation. ``max_rounds``
(Twin Tin Bots) ends a game after that many rounds with a scored outcome (ranked as the rules rank an
ended game; not truncated). Equal seeds give equal runs, whatever the number of workers: each game has
its own stream of seeds.

How a step is done. Each game's features (a sparse ``{position: value}`` from the game's encoder) are
gathered for the whole batch and written into the observation array with one numpy scatter, and so are
the masks and each game's list of legal indices (which :meth:`VectorEnv.sample` draws from with numpy,
without a Python loop). ``workers`` spreads the games over processes: each worker process steps a
contiguous slice of the games and writes its rows of the arrays in shared memory (one
``multiprocessing`` shared block; the returned arrays are views of it), so a step costs the main process
one message per worker. By default a batch of at least :data:`AUTO_WORKERS_FROM` games uses one worker
per available core (when there are two or more) and a smaller batch runs in this process
(``workers=0``), where a message round trip would cost more than it saves. The arrays returned are
overwritten by the next step (copy what you keep).
"""

from __future__ import annotations

import contextlib
import itertools
import multiprocessing
import os
import time
import traceback
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from robotable.core import Action, BadInput, State

from ._common import (
    check_limit,
    check_max_rounds,
    check_setup,
    default_action_limit,
    encoder_of,
    legal_by_index,
    load_encodable,
    round_limit_result,
)
from ._common import structured_actions as structured_actions_of

#: With ``workers=None``, batches of at least this many games are spread over one process per core.
AUTO_WORKERS_FROM = 128
#: The multiprocessing start method of worker processes ("forkserver": no copy of this process's threads).
DEFAULT_CONTEXT = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


@dataclass(frozen=True)
class _Spec:
    """What a process needs to build its share of the games (plain data, sent to worker processes)."""

    game_id: str
    num_envs: int
    num_players: int
    options: dict[str, Any]
    max_steps: int | None
    max_rounds: int | None
    structured: bool


def _layout(spec: _Spec, observation_size: int, num_actions: int, workers: int) -> dict[str, tuple[tuple, str]]:
    """The shared arrays: name -> (shape, dtype)."""
    n = spec.num_envs
    return {
        "observations": ((n, observation_size), "float32"),
        "masks": ((n, num_actions), "bool"),
        "legal": ((n, num_actions), "int16" if num_actions <= 32_767 else "int32"),  # legal indices, in order
        "counts": ((n,), "int64"),  # how many legal indices
        "seats": ((n,), "int64"),
        "rewards": ((n, spec.num_players), "float32"),
        "dones": ((n,), "bool"),
        "truncated": ((n,), "bool"),
        "steps": ((n,), "int64"),  # actions played in each game so far
        "actions": ((n,), "int64"),  # the step's input
        "cpu": ((max(workers, 1),), "float64"),  # each worker's CPU seconds so far
    }


def _nbytes(layout: dict[str, tuple[tuple, str]]) -> int:
    return sum(-(-int(np.prod(shape)) * np.dtype(dtype).itemsize // 8) * 8 for shape, dtype in layout.values())


def _views(buffer: Any, layout: dict[str, tuple[tuple, str]]) -> dict[str, np.ndarray]:
    """numpy arrays over ``buffer`` (8-byte aligned, in layout order)."""
    arrays, offset = {}, 0
    for name, (shape, dtype) in layout.items():
        count = int(np.prod(shape))
        arrays[name] = np.frombuffer(buffer, dtype, count, offset).reshape(shape)
        offset += -(-count * np.dtype(dtype).itemsize // 8) * 8
    return arrays


class _Games:
    """Games ``lo`` to ``hi`` of the batch, stepped in this process, writing their rows of the arrays."""

    def __init__(self, spec: _Spec, arrays: dict[str, np.ndarray], lo: int, hi: int) -> None:
        self.game = load_encodable(spec.game_id)
        self.spec = spec
        self.encoder = encoder_of(self.game)
        self.structured = structured_actions_of(self.game) if spec.structured else None
        self.lo, self.hi, self.n = lo, hi, hi - lo
        self.a = {name: array[lo:hi] for name, array in arrays.items() if name != "cpu"}
        self.size = arrays["observations"].shape[1]
        self.states: list[State] = []
        self.drafts: list[Any] = [None] * self.n  # structured actions: each game's open draft
        self.legal: list[dict[int, Any]] = [{} for _ in range(self.n)]  # each game's legal actions by index
        self.seats = [0] * self.n
        self.streams: list[np.random.Generator] = []
        self._rows = np.arange(self.n)
        self._row_offsets = self._rows * self.size  # where each game's observation row starts, flat
        self._ended = False  # some game ended in the last step
        self._mask_rows = np.zeros(0, np.intp)  # the mask entries set by the last observation
        self._mask_cols = np.zeros(0, np.intp)

    def reset(self, seeds: list[np.random.SeedSequence] | None) -> None:
        if seeds is not None:
            self.streams = [np.random.default_rng(s) for s in seeds]
        self.states = [self._new_game(j) for j in range(self.n)]
        self.drafts = [None] * self.n
        for name in ("rewards", "dones", "truncated", "steps"):
            self.a[name].fill(0)
        self._ended = False
        self.observe()

    def _new_game(self, j: int) -> State:
        seed = int(self.streams[j].integers(0, 2**62))
        return self.game.start(self.spec.num_players, seed=seed, options=self.spec.options)

    def step(self) -> None:
        """Play each game's action (already checked legal against its mask) and observe."""
        a = self.a
        if self._ended:  # the last step's results, cleared only where there were some
            for name in ("rewards", "dones", "truncated"):
                a[name].fill(0)
            self._ended = False
        steps = a["steps"]
        steps += 1
        limit = self.spec.max_steps
        cut = [False] * self.n if limit is None else (steps >= limit).tolist()
        for j, index in enumerate(a["actions"].tolist()):
            action = self.legal[j][index]
            if self.structured is not None and not isinstance(action, Action):
                self.drafts[j] = action  # a draft extended (or dropped: None); the game is unchanged
                if not cut[j]:
                    continue
            else:
                self.drafts[j] = None
                self.states[j].apply_legal(self.seats[j], action)
            self._finish(j, cut[j])
        self.observe()

    def _finish(self, j: int, cut: bool) -> None:
        """Score and restart game ``j`` if it ended (or was cut off at ``max_steps``)."""
        state = self.states[j]
        result = state.result() if state.is_over() else round_limit_result(self.game, state, self.spec.max_rounds)
        if result is None and not cut:
            return
        a = self.a
        if result is not None:
            a["rewards"][j] = [result.payoff(s) for s in range(self.spec.num_players)]
        else:
            a["rewards"][j] = 1.0 / self.spec.num_players
            a["truncated"][j] = True
        a["dones"][j] = True
        self._ended = True
        self.states[j] = self._new_game(j)
        a["steps"][j] = 0
        self.drafts[j] = None

    def observe(self) -> None:
        """Fill the observations, masks, legal lists and seats of every game from its acting seat's view."""
        keys: list[int] = []
        values: list[float] = []
        lengths: list[int] = []
        cols: list[int] = []
        counts: list[int] = []
        game, encoder, structured = self.game, self.encoder, self.structured
        draft_base = encoder.size
        for j, state in enumerate(self.states):
            seat = state.to_act()[0]
            self.seats[j] = seat
            if structured is None:
                legal: dict[int, Any] = legal_by_index(game, state, seat)
            else:
                legal = structured.legal(state, seat, self.drafts[j])
            self.legal[j] = legal
            cols.extend(legal)
            counts.append(len(legal))
            features = encoder.features(state.view(seat), seat)
            keys.extend(features)
            values.extend(features.values())
            length = len(features)
            if structured is not None and self.drafts[j] is not None:
                draft = structured.draft_features(self.drafts[j], seat, self.spec.num_players)
                keys.extend(draft_base + k for k in draft)
                values.extend(draft.values())
                length += len(draft)
            lengths.append(length)
        a = self.a
        observations = a["observations"]
        observations.fill(0.0)
        total = len(keys)
        flat = np.fromiter(keys, np.intp, total) + np.repeat(self._row_offsets, lengths)
        np.put(observations, flat, np.fromiter(values, np.float32, total))
        a["masks"][self._mask_rows, self._mask_cols] = False
        rows = np.repeat(self._rows, counts)
        columns = np.fromiter(cols, np.intp, len(cols))
        a["masks"][rows, columns] = True
        starts = np.cumsum(counts) - counts
        a["legal"][rows, np.arange(len(cols)) - np.repeat(starts, counts)] = columns
        a["counts"][:] = counts
        a["seats"][:] = self.seats
        self._mask_rows, self._mask_cols = rows, columns


def _work(spec: _Spec, buffer: Any, layout: dict, lo: int, hi: int, index: int, conn: Any) -> None:
    """A worker process: steps games ``lo`` to ``hi`` on the main process's commands."""
    try:
        arrays = _views(buffer, layout)
        games = _Games(spec, arrays, lo, hi)
        conn.send(None)
        while True:
            command, argument = conn.recv()
            if command == "close":
                return
            if command == "step":
                games.step()
            else:
                games.reset(argument)
            arrays["cpu"][index] = time.process_time()
            conn.send(None)
    except (KeyboardInterrupt, EOFError):
        return
    except BaseException:
        conn.send(traceback.format_exc())


def _available_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _check_workers(workers: object, num_envs: int) -> int:
    if workers is None:
        cores = _available_cores()
        return min(cores, num_envs) if cores > 1 and num_envs >= AUTO_WORKERS_FROM else 0
    if not isinstance(workers, int) or isinstance(workers, bool) or not 0 <= workers <= num_envs:
        raise BadInput(f"workers must be None or an integer from 0 to num_envs ({num_envs}), got {workers!r}")
    return workers


class VectorEnv:
    """``num_envs`` self-play games of ``game_id`` with numpy observations, masks and auto-reset.

    ``workers``: ``0`` steps every game in this process; ``n >= 1`` spreads them over ``n`` worker
    processes (``context``: their multiprocessing start method); ``None`` (default) chooses, see the
    module's docstring. With workers, :meth:`close` (or a ``with`` block) stops them.
    """

    def __init__(
        self,
        game_id: str,
        num_envs: int = 16,
        num_players: int = 2,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        max_steps: int | None = None,
        max_rounds: int | None = None,
        structured_actions: bool = False,
        workers: int | None = None,
        context: str = DEFAULT_CONTEXT,
    ) -> None:
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or not 1 <= num_envs <= 65_536:
            raise BadInput(f"num_envs must be an integer from 1 to 65536, got {num_envs!r}")
        check_limit(max_steps)
        self.game = load_encodable(game_id)
        self.max_rounds = check_max_rounds(self.game, max_rounds)
        structured = structured_actions_of(self.game) if structured_actions else None
        if structured_actions and structured is None:
            raise BadInput(
                f"{game_id} has no structured action space (structured_actions is for games that declare one)"
            )
        self.workers = _check_workers(workers, num_envs)
        self.num_players, self.options = check_setup(self.game, num_players, options)
        encoder = encoder_of(self.game)
        self.num_envs = num_envs
        self.num_actions = self.game.num_distinct_actions(self.num_players, self.options)
        self.max_steps = default_action_limit(self.game) if max_steps is None else max_steps
        self.observation_size = encoder.size
        if structured is not None:
            self.num_actions = structured.size
            self.observation_size += structured.draft_size
        self.episodes = 0
        self._seed = seed
        self._started = False
        self._closed = False
        spec = _Spec(
            game_id, num_envs, self.num_players, dict(self.options), self.max_steps, self.max_rounds, structured_actions
        )
        layout = _layout(spec, self.observation_size, self.num_actions, self.workers)
        self._local: _Games | None = None
        self._conns: list[Any] = []
        self._processes: list[Any] = []
        if self.workers == 0:
            self._arrays = _views(bytearray(_nbytes(layout)), layout)
            self._local = _Games(spec, self._arrays, 0, num_envs)
        else:
            self._start_workers(spec, layout, multiprocessing.get_context(context))
        arrays = self._arrays
        self.observations, self.masks, self.seats = arrays["observations"], arrays["masks"], arrays["seats"]
        self.rewards, self.dones, self.truncated = arrays["rewards"], arrays["dones"], arrays["truncated"]
        self.steps = arrays["steps"]  # actions played in each game so far
        self._row_starts = np.arange(num_envs) * self.num_actions  # masks and legal lists are rows this wide
        self._masks_flat = self.masks.reshape(-1)
        self._legal_flat = arrays["legal"].reshape(-1)

    def _start_workers(self, spec: _Spec, layout: dict, context: Any) -> None:
        self._buffer = context.RawArray("b", _nbytes(layout))
        self._arrays = _views(self._buffer, layout)
        bounds = np.linspace(0, spec.num_envs, self.workers + 1).round().astype(int).tolist()
        for index in range(self.workers):
            mine, theirs = context.Pipe()
            process = context.Process(
                target=_work,
                args=(spec, self._buffer, layout, bounds[index], bounds[index + 1], index, theirs),
                daemon=True,
                name=f"robotable-vector-{index}",
            )
            process.start()
            theirs.close()
            self._conns.append(mine)
            self._processes.append(process)
        self._bounds = bounds
        self._gather()

    # -- the API ------------------------------------------------------------------------------------

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Start every game (``seed`` re-seeds every game's stream of seeds); returns observations, masks,
        seats."""
        if seed is not None or not self._started:
            children = np.random.SeedSequence(self._seed if seed is None else seed).spawn(self.num_envs)
        else:
            children = None  # each game goes on with its own stream
        if self._closed:
            raise RuntimeError("this VectorEnv is closed (its worker processes are stopped)")
        self._started = True
        if self._local is not None:
            self._local.reset(children)
        else:
            bounds = self._bounds
            self._command(
                [("reset", None if children is None else children[lo:hi]) for lo, hi in itertools.pairwise(bounds)]
            )
        return self.observations, self.masks, self.seats

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Play one action per game (an index legal in its mask); returns observations, masks, seats,
        rewards and done flags. An illegal index raises :class:`robotable.BadInput` and changes nothing."""
        if not self._started:
            raise RuntimeError("call reset() before step()")
        chosen = self._check(actions)
        self._arrays["actions"][:] = chosen
        if self._local is not None:
            self._local.step()
        else:
            self._command([("step", None)] * self.workers)
        self.episodes += int(np.count_nonzero(self.dones))
        return self.observations, self.masks, self.seats, self.rewards, self.dones

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        """A uniformly random legal action for every game (drawn from ``rng``, one number per game)."""
        counts = self._arrays["counts"]
        picks = (rng.random(self.num_envs) * counts).astype(np.intp)
        return self._legal_flat.take(self._row_starts + picks).astype(np.int64)

    @property
    def info(self) -> dict[str, np.ndarray]:
        """``truncated``: the games the last step cut off at ``max_steps`` (they score ``1 / players``)."""
        return {"truncated": self.truncated}

    @property
    def states(self) -> list[State]:
        """The games' states (only with ``workers=0``: otherwise they live in the worker processes)."""
        return self._in_process("states").states

    @property
    def drafts(self) -> list[Any]:
        """Structured actions: each game's open draft (only with ``workers=0``)."""
        return self._in_process("drafts").drafts

    def cpu_seconds(self) -> float:
        """CPU seconds used so far by this process and the worker processes (as of their last step)."""
        workers = float(self._arrays["cpu"].sum()) if self.workers else 0.0
        return time.process_time() + workers

    def close(self) -> None:
        """Stop the worker processes (nothing to do without workers). The env cannot step afterwards."""
        for conn in self._conns:
            with contextlib.suppress(BrokenPipeError, OSError):
                conn.send(("close", None))
        for process in self._processes:
            process.join(timeout=5)
            if process.is_alive():
                process.terminate()
                process.join()
        for conn in self._conns:
            conn.close()
        self._conns, self._processes = [], []
        if self.workers:
            self._started = False
            self._closed = True

    def __enter__(self) -> VectorEnv:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_processes", None):
            with contextlib.suppress(Exception):  # at interpreter exit multiprocessing may be half gone
                self.close()

    # -- inside ---------------------------------------------------------------------------------------

    def _in_process(self, what: str) -> _Games:
        if self._local is None:
            raise RuntimeError(f"the games' {what} live in the {self.workers} worker processes (use workers=0)")
        return self._local

    def _check(self, actions: Any) -> np.ndarray:
        """The actions as integers, each legal in its game's mask, or :class:`BadInput` naming the first bad."""
        chosen = np.asarray(actions).reshape(-1)
        if chosen.shape[0] != self.num_envs:
            raise BadInput(f"step needs one action per game ({self.num_envs}), got {chosen.shape[0]}")
        if chosen.dtype.kind not in "iu":
            exact = chosen.dtype.kind == "f" and bool(np.all(np.isfinite(chosen) & (chosen == np.round(chosen))))
            if not exact:
                raise BadInput(f"actions must be integer action indices, got an array of {chosen.dtype}")
        chosen = chosen.astype(np.int64, copy=False)
        inside = (chosen >= 0) & (chosen < self.num_actions)
        legal = self._masks_flat.take(self._row_starts + chosen, mode="clip") & inside
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            raise BadInput(
                f"game {i}: action {int(chosen[i])} is not legal for seat {int(self.seats[i])} "
                f"(legal: {np.flatnonzero(self.masks[i]).tolist()})"
            )
        return chosen

    def _command(self, messages: list[tuple[str, Any]]) -> None:
        """Send each worker its message, then wait for every answer."""
        for conn, message in zip(self._conns, messages):
            with contextlib.suppress(BrokenPipeError, OSError):  # a stopped worker: reported by _gather
                conn.send(message)
        self._gather()

    def _gather(self) -> None:
        """Wait for every worker's answer; a worker's error is raised here with its traceback."""
        errors = []
        for index, conn in enumerate(self._conns):
            try:
                answer = conn.recv()
            except (EOFError, OSError):
                answer = f"worker {index} stopped (exit code {self._processes[index].exitcode})"
            if answer is not None:
                errors.append(answer)
        if errors:
            self.close()
            raise RuntimeError("a VectorEnv worker failed:\n" + "\n".join(errors))


__all__ = ["AUTO_WORKERS_FROM", "VectorEnv"]
