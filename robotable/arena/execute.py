"""Where arena games run: in this process, in local worker processes, or as Ray tasks.

Every backend plays the same jobs with :func:`~robotable.arena.runner.play_game` and returns the results
in job order, so the outcome of a tournament never depends on how it was run. ``on_result`` is called
once per finished game, in the order games finish (for progress bars).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import as_completed
from typing import Any

from robotable.ai.processes import local_pool
from robotable.core import BadInput

from .runner import ArenaGameError, GameResult, play_game
from .schedule import Job

OnResult = Callable[[GameResult], None]


def run_jobs(
    game_id: str,
    players: int,
    options: Mapping[str, Any],
    jobs: Sequence[Job],
    *,
    workers: int = 1,
    ray_address: str | None = None,
    on_result: OnResult | None = None,
    budget: str = "iterations",
) -> list[GameResult]:
    """Play every job and return the results in job order.

    ``workers=1`` plays in this process; ``workers>1`` in that many local processes; ``ray_address``
    (``"auto"``, ``"local"`` or ``"ray://host:10001"``) as Ray tasks. ``budget``: see
    :func:`~robotable.arena.runner.play_game`.
    """
    notify = on_result or (lambda _result: None)
    if ray_address is not None:
        results = run_ray(game_id, players, options, jobs, ray_address, notify, budget)
    elif workers > 1:
        results = run_processes(game_id, players, options, jobs, workers, notify, budget)
    else:
        results = []
        for job in jobs:
            results.append(play_game(game_id, players, options, job, budget))
            notify(results[-1])
    return sorted(results, key=lambda r: r.index)


def run_processes(
    game_id: str,
    players: int,
    options: Mapping[str, Any],
    jobs: Sequence[Job],
    workers: int,
    notify: OnResult,
    budget: str = "iterations",
) -> list[GameResult]:
    """Play the jobs in ``workers`` fresh local processes (spawned: nothing inherited but the job)."""
    results: list[GameResult] = []
    with local_pool(workers) as pool:
        futures = [pool.submit(play_game, game_id, players, dict(options), job, budget) for job in jobs]
        try:
            for future in as_completed(futures):
                results.append(future.result())
                notify(results[-1])
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    return results


def run_ray(
    game_id: str,
    players: int,
    options: Mapping[str, Any],
    jobs: Sequence[Job],
    address: str,
    notify: OnResult,
    budget: str = "iterations",
) -> list[GameResult]:
    """Play the jobs as Ray tasks on the cluster at ``address`` (``"local"`` starts a private one).

    Every node needs the same version of robotable installed. Ray is imported only here: it is the
    optional ``ray`` extra.
    """
    ray, started_here = connect_ray(address)
    try:
        task = ray.remote(num_cpus=1, max_retries=0)(play_game)
        refs = [task.remote(game_id, players, dict(options), job, budget) for job in jobs]
        results: list[GameResult] = []
        while refs:
            # Collect whatever finished in the last moment: one wait per game would cost O(games**2).
            done, refs = ray.wait(refs, num_returns=len(refs), timeout=0.2)
            for ref in done:
                try:
                    results.append(ray.get(ref))
                except ArenaGameError as exc:  # Ray's task error is also an instance of the cause's class
                    raise ArenaGameError(_last_line(exc)) from None
                notify(results[-1])
        return results
    finally:
        if started_here:
            ray.shutdown()


#: How many times a private Ray instance (``--ray local``) is started before giving up. Ray waits a fixed
#: 30 s for its raylet to register, which a machine busy with other work can miss; a second start does not
#: wait for the first's processes, which ``ray.shutdown()`` has stopped.
LOCAL_STARTS = 3


def connect_ray(address: str) -> tuple[Any, bool]:
    """The ``ray`` module connected to ``address`` (``"local"`` starts a private instance), and whether this
    call started it (the caller then shuts it down), or :class:`BadInput` naming why it could not connect."""
    ray = import_ray()
    if ray.is_initialized():
        return ray, False
    attempts = LOCAL_STARTS if address == "local" else 1
    for attempt in range(1, attempts + 1):
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
            return ray, True
        except Exception as exc:  # ConnectionError, ValueError, RuntimeError... depending on the Ray version
            ray.shutdown()
            if attempt == attempts:
                raise BadInput(f"--ray {address}: cannot connect to a Ray cluster: {exc}") from None
    raise AssertionError("unreachable")  # pragma: no cover


def import_ray() -> Any:
    """The ``ray`` module, or :class:`BadInput` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise BadInput("--ray needs Ray, which is not installed: pip install 'robotable[ray]'") from None
    return ray


def _last_line(exc: BaseException) -> str:
    """The error's own message, without the remote traceback Ray puts before it."""
    lines = [line for line in str(exc).splitlines() if line.strip()]
    message = lines[-1] if lines else repr(exc)
    prefix = f"{ArenaGameError.__module__}.{ArenaGameError.__name__}: "
    return message.removeprefix(prefix).removeprefix("ArenaGameError: ")
