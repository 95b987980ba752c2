"""Think time at a live table (issue 29): wall time per decision of a search level at 4 players, on its
own and while the bots' workers are busy on 12 other tables, in the same run.

    nice -n 10 .venv/bin/python benchmarks/think_load.py                       # ismcts:hard, 4 players
    nice -n 10 .venv/bin/python benchmarks/think_load.py --game tf22-reload --decisions 20 --background 12

For each game the measured agent (``--agent``) holds seat 0 of seeded games against the heuristic and
decides as a live table's bot worker does (``robotable.server.bots.choose_moves`` for one seat): by time,
its level's CPU seconds (``time.thread_time``) within the level's wall-clock cap and the turn's wall
budget (``--think``, the worker's ``ROBOTABLE_BOT_THINK``). Only decisions with more than one legal
action are timed. First "alone" (nothing else of this script runs; the machine may run other things,
its load average is printed), then "loaded": ``--background`` processes each play all-bot games of
four ismcts:hard bots exactly so (other tables' searches: the games taken in turn), while the same
decisions are measured again. Printed per game and condition: decisions; wall ms median, p95, max;
median CPU ms; mean iterations; how many decisions the wall cap cut short. Nothing here asserts a speed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from engine import machine

from robotable import games
from robotable.ai import ISMCTSAgent, make_agent

HERE = Path(__file__).resolve()


def decide(state, seat: int, spec: str, seed: int, think: float) -> tuple[object, dict[str, float | int | str]]:  # type: ignore[no-untyped-def]
    """One bot decision as the worker makes it for a single seat; the action and its figures."""
    agent = make_agent(spec, seed=seed, budget="time")
    if isinstance(agent, ISMCTSAgent):
        agent.wall_cap = think  # choose_moves gives a lone bot the whole turn's budget
    tick = time.perf_counter()
    action = agent.act(state, seat)
    wall = time.perf_counter() - tick
    search = dict(agent.last_search) if isinstance(agent, ISMCTSAgent) else {}
    return action, {"wall": wall, **search}


def measure(game_id: str, spec: str, players: int, decisions: int, seed: int, think: float) -> list[dict]:
    """Figures of ``decisions`` decisions of ``spec`` at seat 0 against the heuristic."""
    game = games.load(game_id)
    out: list[dict] = []
    game_no = 0
    while len(out) < decisions:
        state = game.start(players, seed=seed + game_no)
        others = [make_agent("heuristic", seed=seed + game_no * 10 + s) for s in range(players)]
        move = 0
        while not state.is_over() and len(out) < decisions:
            seat = state.to_act()[0]
            if seat == 0 and len(state.legal_actions(0)) > 1:
                action, figures = decide(state, 0, spec, seed + game_no * 1000 + move, think)
                out.append(figures)
            else:
                action = others[seat].act(state, seat)
            state.apply(seat, action)
            move += 1
        game_no += 1
    return out


def background(game_id: str, players: int, seed: int, think: float) -> None:
    """An all-bot table's worker, forever: every seat ismcts:hard, each decision as the worker makes it."""
    game = games.load(game_id)
    while True:
        state = game.start(players, seed=seed)
        move = 0
        while not state.is_over():
            seat = state.to_act()[0]
            action, _ = decide(state, seat, "ismcts:hard", seed * 7919 + move, think)
            state.apply(seat, action)
            move += 1
        seed += 1


def start_background(count: int, game_ids: list[str], players: int, think: float) -> list[subprocess.Popen]:
    procs = []
    for i in range(count):
        cmd = [sys.executable, str(HERE), "--serve-background", game_ids[i % len(game_ids)]]
        cmd += ["--players", str(players), "--seed", str(900_000 + i * 1000), "--think", str(think)]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return procs


def stop_background(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def row(game_id: str, label: str, figures: list[dict]) -> str:
    walls = sorted(f["wall"] * 1000 for f in figures)
    p95 = walls[min(len(walls) - 1, int(0.95 * len(walls)))]
    cpu = statistics.median(f.get("cpu", 0.0) * 1000 for f in figures)
    iterations = statistics.fmean(f.get("iterations", 0) for f in figures)
    capped = sum(1 for f in figures if f.get("stopped_by") == "max_wall")
    return (
        f"{game_id:<20} {label:<22} {len(walls):>5} {statistics.median(walls):>8.0f} {p95:>8.0f} {walls[-1]:>8.0f} "
        f"{cpu:>8.0f} {iterations:>8.0f} {capped:>6}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every game)")
    parser.add_argument("--agent", default="ismcts:hard", help="the measured agent spec")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--decisions", type=int, default=30, help="timed decisions per game and condition")
    parser.add_argument("--background", type=int, default=12, help="other tables' searches running meanwhile")
    parser.add_argument("--think", type=float, default=2.0, help="the worker's wall budget of a turn (s)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--serve-background", metavar="GAME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_background:
        background(args.serve_background, args.players, args.seed, args.think)
        return
    game_ids = args.game or games.available()
    print(f"machine: {machine()}")
    print(
        f"{args.agent} at {args.players} players, by time (CPU budget within the wall cap, turn budget "
        f"{args.think:g} s), against the heuristic; loaded = {args.background} background processes of "
        f"all-bot {args.players}-player ismcts:hard tables"
    )
    print(
        f"{'game':<20} {'condition':<22} {'n':>5} {'wall p50':>8} {'p95':>8} {'max':>8} {'cpu p50':>8} "
        f"{'iters':>8} {'capped':>6}   (ms)"
    )
    for game_id in game_ids:
        alone = measure(game_id, args.agent, args.players, args.decisions, args.seed, args.think)
        print(row(game_id, f"alone (load {os.getloadavg()[0]:.1f})", alone), flush=True)
        procs = start_background(args.background, game_ids, args.players, args.think)
        try:
            time.sleep(5)  # let them import and start searching
            loaded = measure(game_id, args.agent, args.players, args.decisions, args.seed, args.think)
            label = f"loaded (load {os.getloadavg()[0]:.1f})"
        finally:
            stop_background(procs)
        print(row(game_id, label, loaded), flush=True)


if __name__ == "__main__":
    main()
