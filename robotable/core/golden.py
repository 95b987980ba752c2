"""Golden record digests: proof that a refactor leaves every seeded random game unchanged.

For each registered game and player count, seeded random games are played through ``apply`` (checked),
each seat choosing uniformly among ``legal_actions`` with an :class:`~robotable.core.rng.Rng` seeded by
the game's seed. Each game gives one digest line, ``"<moves>:<states>"``:

- ``moves``: SHA-256 of the record (every seat and action JSON in order) and the result: the rules'
  behaviour, including the order of ``legal_actions``;
- ``states``: SHA-256 of ``state.to_json()`` after every move: the exact states along the record.

A game that has not ended after ``CAP[game]`` moves is cut there (Twin Tin Bots random games are long);
the caps never change, so the digests before and after a change compare the same prefix. The digests of
one game live in ``tests/golden/<game id>.json``; regenerate one game's file only for an intentional
rules change (and say so in the commit).

    python -m robotable.core.golden check                     # every game, every seed
    python -m robotable.core.golden check --game tf22-reload --games 30
    python -m robotable.core.golden write --game twin-tin-bots   # after an intentional rules change
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from . import registry
from .rng import Rng

FORMAT = 1
#: Games per (game, player count) in the data files.
GAMES = 1000
#: Moves after which a random game is cut (never change these: the digests depend on them).
CAP = {"tf22-reload": 2000, "twin-tin-bots": 1000, "robots-on-the-line": 2000}
DEFAULT_CAP = 2000
DIRECTORY = Path(__file__).resolve().parents[2] / "tests" / "golden"


def _canonical(data: object) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":")).encode()


def digest(game_id: str, num_players: int, seed: int) -> str:
    """The ``"<moves>:<states>"`` digest of the seeded random game ``(game_id, num_players, seed)``."""
    game = registry.load(game_id)
    cap = CAP.get(game_id, DEFAULT_CAP)
    state = game.start(num_players, seed=seed)
    rng = Rng(seed)
    moves = hashlib.sha256(_canonical([game_id, num_players, seed]))
    states = hashlib.sha256(_canonical(state.to_json()))
    for _ in range(cap):
        if state.is_over():
            break
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        state.apply(seat, action)
        moves.update(_canonical([seat, action.to_json()]))
        states.update(_canonical(state.to_json()))
    moves.update(_canonical(state.result().to_json() if state.is_over() else "cut"))
    return f"{moves.hexdigest()[:16]}:{states.hexdigest()[:16]}"


def path_of(game_id: str, directory: Path = DIRECTORY) -> Path:
    """The data file holding ``game_id``'s digests."""
    return directory / f"{game_id}.json"


def _digest_args(args: tuple[str, int, int]) -> str:
    return digest(*args)


def compute(game_id: str, counts: Iterable[int], seeds: Iterable[int], workers: int = 1) -> dict[str, list[str]]:
    """Digests of every seed for each player count (in ``workers`` processes)."""
    jobs = {str(n): [(game_id, n, seed) for seed in seeds] for n in counts}
    if workers <= 1:
        return {n: [digest(*job) for job in todo] for n, todo in jobs.items()}
    with ProcessPoolExecutor(workers) as pool:
        return {n: list(pool.map(_digest_args, todo, chunksize=20)) for n, todo in jobs.items()}


def load(game_id: str, directory: Path = DIRECTORY) -> dict[str, list[str]]:
    """The stored digests of ``game_id`` by player count."""
    data = json.loads(path_of(game_id, directory).read_text())
    if data.get("format") != FORMAT or data.get("game") != game_id:
        raise ValueError(f"{path_of(game_id, directory)}: not a format-{FORMAT} golden file for {game_id}")
    digests: dict[str, list[str]] = data["digests"]
    return digests


def write(game_id: str, games: int = GAMES, directory: Path = DIRECTORY, workers: int = 1) -> Path:
    """Compute and store every digest of ``game_id``."""
    game = registry.load(game_id)
    counts = range(game.min_players, game.max_players + 1)
    data = {
        "format": FORMAT,
        "game": game_id,
        "cap": CAP.get(game_id, DEFAULT_CAP),
        "digests": compute(game_id, counts, range(games), workers),
    }
    path = path_of(game_id, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=0) + "\n")
    return path


def mismatches(game_id: str, games: int | None = None, directory: Path = DIRECTORY, workers: int = 1) -> list[str]:
    """Every ``(players, seed)`` whose digest differs from the stored one, described (first ``games``
    seeds per count; all by default). Empty when the engine replays exactly as when the file was written.
    """
    stored = {count: expected[:games] for count, expected in load(game_id, directory).items()}
    longest = max((len(expected) for expected in stored.values()), default=0)
    computed = compute(game_id, [int(count) for count in stored], range(longest), workers)
    problems = []
    for count, expected in stored.items():
        for seed, (want, got) in enumerate(zip(expected, computed[count])):
            if got != want:
                what = "moves" if got.split(":")[0] != want.split(":")[0] else "states only"
                problems.append(f"{game_id} players={count} seed={seed}: {what} differ ({want} -> {got})")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Golden record digests of seeded random games.")
    parser.add_argument("command", choices=["check", "write"])
    parser.add_argument("--game", action="append", help="game id (repeatable; default: every game)")
    parser.add_argument("--games", type=int, default=None, help="seeds per player count (default: all)")
    parser.add_argument("--dir", type=Path, default=DIRECTORY, help="where the digest files live")
    parser.add_argument("--workers", type=int, default=1, help="processes to use")
    args = parser.parse_args(argv)
    failed = False
    for game_id in args.game or registry.available():
        if args.command == "write":
            print(f"wrote {write(game_id, args.games or GAMES, args.dir, args.workers)}", flush=True)
            continue
        problems = mismatches(game_id, args.games, args.dir, args.workers)
        for line in problems[:20]:
            print(line)
        failed |= bool(problems)
        print(f"{game_id}: {len(problems)} mismatches", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
