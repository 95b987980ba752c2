"""``robotable arena``: run a tournament between agents, print the tables, write the JSON and PNG.

robotable arena --game tf22-reload --agents random,heuristic,ismcts:hard --players 2 --games 600 --seed 1
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from robotable.core import RobotableError
from robotable.core.options import parse_options

from .plot import write_chart
from .report import build_report, command_line, default_prefix, write_report
from .runner import ArenaGameError, GameResult
from .tournament import Outcome, Tournament, parse_seats, run_tournament

console = Console()


def arena(
    game: Annotated[str, typer.Option("--game", "-g", help="Game id (see `robotable games`).")],
    agents: Annotated[
        str, typer.Option("--agents", "-a", help="Agent pool, comma-separated: random,heuristic,ismcts:hard")
    ],
    players: Annotated[int, typer.Option("--players", "-p", help="Seats per game.")] = 2,
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", help="Games to play (a multiple of the lineups per round keeps seats exactly fair)."
        ),
    ] = 100,
    seed: Annotated[int, typer.Option(help="Tournament seed: the same seed plays the same games.")] = 0,
    seats: Annotated[
        str | None,
        typer.Option(
            help="Seats each agent holds, comma-separated in --agents order (1,3: the first agent against three "
            "of the second); default: shared out evenly."
        ),
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", "-w", help="Local processes playing games (1: this process).")
    ] = 1,
    ray: Annotated[
        str | None, typer.Option("--ray", help="Run on a Ray cluster: auto, local, or ray://host:port.")
    ] = None,
    options: Annotated[str | None, typer.Option(help="Game options as a JSON object.")] = None,
    out: Annotated[Path | None, typer.Option(help="Report path prefix: writes PREFIX.json and PREFIX.png.")] = None,
    quiet: Annotated[bool, typer.Option(help="No progress bar or tables: just where the report went.")] = False,
    budget: Annotated[
        str,
        typer.Option(
            help="How search levels think: time (each level's CPU seconds per decision, as people play) or "
            "iterations (reproducible: the same seed plays the same games on any machine)."
        ),
    ] = "time",
) -> None:
    """Play many seeded games between agents, seats rotated fairly; report win rates, ratings and a chart."""
    started = datetime.now(UTC)
    try:
        tournament = Tournament(
            game=game,
            agents=tuple(a.strip() for a in agents.split(",")),
            players=players,
            games=games,
            seed=seed,
            options=parse_options(options),
            workers=workers,
            ray=ray,
            budget=budget,
            seats=parse_seats(seats),
        )
        tournament.check()
    except RobotableError as exc:
        raise _fail(str(exc)) from None
    per_round = len(tournament.lineups())
    if games % per_round and not quiet:
        fair = max(per_round, round(games / per_round) * per_round)
        console.print(
            f"[yellow]note:[/] {per_round} seat assignments per round; {games} games is not a multiple, so seats "
            f"are not exactly balanced (try --games {fair})"
        )
    try:
        outcome = _run(tournament, quiet)
    except ArenaGameError as exc:
        console.print(f"[bold red]error:[/] {exc}")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        console.print("stopped: no report written")
        raise typer.Exit(130) from None
    except RobotableError as exc:  # a Ray cluster that cannot be reached
        raise _fail(str(exc)) from None
    prefix = out if out is not None else default_prefix(tournament.game, tournament.players, started)
    if prefix.suffix in (".json", ".png"):
        prefix = prefix.with_suffix("")
    report = build_report(outcome, command_line(tournament, prefix), started)
    json_path = write_report(report, prefix.with_name(prefix.name + ".json"))
    png_path = write_chart(report, prefix.with_name(prefix.name + ".png"))
    if not quiet:
        show_summary(outcome)
    console.print(f"report: {json_path}\nchart:  {png_path}")


def _fail(message: str) -> typer.Exit:
    console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(2)


def _run(tournament: Tournament, quiet: bool) -> Outcome:
    if quiet:
        return run_tournament(tournament)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(
            f"{tournament.game} {tournament.players}p ({tournament.mode()})", total=tournament.games
        )

        def advance(_result: GameResult) -> None:
            progress.advance(task)

        return run_tournament(tournament, on_result=advance)


def show_summary(outcome: Outcome) -> None:
    """Print the agents table, the head-to-head table and the seat table."""
    t, summary = outcome.tournament, outcome.summary
    title = (
        f"{t.game}, {t.players} players: {summary['games']} games, seed {t.seed}, budget {t.budget}, "
        f"{outcome.seconds:.1f} s ({t.mode()})"
    )
    table = Table(title=title, box=box.SIMPLE_HEAD)
    for column in ("agent", "games", "win rate", "95% CI", "score", "rank", "mu", "sigma"):
        table.add_column(column, justify="left" if column == "agent" else "right", no_wrap=True)
    for row in sorted(summary["agents"], key=lambda r: -r["rating"]["ordinal"]):
        low, high = row["ci95"]
        table.add_row(
            row["agent"],
            str(row["games"]),
            f"{row['win_rate']:.1%}",
            f"{low:.1%}-{high:.1%}",
            f"{row['mean_score']:.2f}",
            f"{row['mean_rank']:.2f}",
            f"{row['rating']['mu']:.2f}",
            f"{row['rating']['sigma']:.2f}",
        )
    table.caption = (
        f"win rate per seat taken (a shared win counts 1/k); par (equal strength) {summary['par']:.1%}; "
        "score, rank: means; mu, sigma: OpenSkill"
    )
    console.print(table)
    if summary["head_to_head"]:
        console.print(head_to_head_table(t.agents, summary["head_to_head"]))
    seats = Table(title="seats (whoever sat there)", box=box.SIMPLE_HEAD)
    for column in ("seat", "win rate", "95% CI", "mean score"):
        seats.add_column(column, justify="right")
    for row in summary["seats"]:
        low, high = row["ci95"]
        seats.add_row(str(row["seat"]), f"{row['win_rate']:.1%}", f"{low:.1%}-{high:.1%}", f"{row['mean_score']:.2f}")
    console.print(seats)
    if not summary["balanced"]:
        console.print(f"[yellow]seats not exactly balanced:[/] {summary['seat_counts']}")


def head_to_head_table(pool: tuple[str, ...], rows: list[dict[str, Any]]) -> Table:
    """Rows: agent; columns: opponent; cells: how often the row agent finished ahead, with its 95% CI."""
    cells = {(row["agent"], row["opponent"]): row for row in rows}
    table = Table(title="head to head: how often the row agent finished ahead (95% CI)", box=box.SIMPLE_HEAD)
    table.add_column("agent")
    for opponent in pool:
        table.add_column(f"vs {opponent}", justify="right")
    for agent in pool:
        line = []
        for opponent in pool:
            row = cells.get((agent, opponent))
            if row is None:
                line.append("-")
            else:
                low, high = row["ci95"]
                line.append(f"{row['win_rate']:.1%} ({low:.1%}-{high:.1%}) n={row['games']}")
        table.add_row(agent, *line)
    return table
