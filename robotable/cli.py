"""The ``robotable`` command: play in the terminal, replay records, serve the web app.

robotable play tf22-reload --players 3 --seats human,random,random --seed 7
robotable replay records/tf22-reload-7.json
robotable serve
"""

from __future__ import annotations

import json
import os
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from robotable import games
from robotable.ai import Agent, make_agent
from robotable.core import Action, BadInput, Event, Game, Match, Record, RobotableError, State, visible_events
from robotable.core.options import parse_options
from robotable.core.record import replay, replay_steps
from robotable.terminal import describe_action, describe_event, render_view

app = typer.Typer(
    help="Robotable: robot board games for people, AI and research.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
)
console = Console()

HUMAN = "human"


def fail(message: str) -> typer.Exit:
    """Print a clear error and return the exit to raise (code 2: bad input)."""
    console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(2)


@app.command("games")
def list_games() -> None:
    """List the games and their options."""
    table = Table("id", "name", "players", "options")
    for game_id in games.available():
        info = games.load(game_id).describe()
        options = ", ".join(o["name"] for o in info["options"]) or "-"
        table.add_row(info["id"], info["name"], f"{info['min_players']}-{info['max_players']}", options)
    console.print(table)


def parse_seats(spec: str | None, num_players: int, seed: int) -> list[Agent | None]:
    """``human,random,...`` -> one entry per seat: ``None`` for a person, else an agent."""
    names = spec.split(",") if spec else [HUMAN] + ["random"] * (num_players - 1)
    names = [n.strip() for n in names]
    if len(names) != num_players:
        raise BadInput(f"--seats names {len(names)} seats but --players is {num_players}")
    return [None if name == HUMAN else make_agent(name, seed=seed * 101 + i) for i, name in enumerate(names)]


@app.command()
def play(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="Game id (see `robotable games`).")],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 2,
    seats: Annotated[str | None, typer.Option(help="Comma-separated seat kinds: human, random, ...")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed (random if omitted).")] = None,
    options: Annotated[str | None, typer.Option(help="Game options as a JSON object.")] = None,
    record: Annotated[Path | None, typer.Option(help="Where to save the record (default records/...).")] = None,
    quiet: Annotated[bool, typer.Option(help="Bots only: print just the result.")] = False,
) -> None:
    """Play a game in the terminal; every game played is saved as a record."""
    try:
        game = games.load(game_id)
        opts = parse_options(options)
        match = Match(game, players, seed=seed, options=opts)
        agents = parse_seats(seats, players, match.state.seed)
    except RobotableError as exc:
        raise fail(str(exc)) from None
    match.record.meta.update(
        {"seats": seats or ",".join(["human"] + ["random"] * (players - 1)), "date": datetime.now(UTC).isoformat()}
    )
    path = record or Path("records") / f"{game.id}-{match.state.seed}-{datetime.now(UTC):%Y%m%d%H%M%S}.json"
    humans = [seat for seat, agent in enumerate(agents) if agent is None]
    # With people at the table the seed stays hidden until the end: it fixes every shuffle.
    shown_seed = f", seed {match.state.seed}" if not humans else ""
    console.print(f"[bold]{game.name}[/] - {players} players{shown_seed}")
    try:
        run_match(game, match, agents, verbose=bool(humans) or not quiet)
    except (KeyboardInterrupt, EOFError):
        match.record.save(path)
        console.print(f"\nstopped; the game so far is saved in {path}")
        raise typer.Exit(1) from None
    match.record.save(path)
    show_result(match.state, [("human" if a is None else a.name) for a in agents])
    console.print(f"seed {match.state.seed}")
    console.print(f"record saved: {path}  (replay with: robotable replay {path})")


def run_match(game: Game, match: Match, agents: list[Agent | None], verbose: bool) -> None:
    """Drive a match to its end: agents choose, people are asked."""
    state = match.state
    unseen: list[Event] = []
    while not state.is_over():
        seat = state.to_act()[0]
        agent = agents[seat]
        if agent is None:
            show_events(game, unseen, seat)
            unseen = []
            action = ask_human(game, state, seat)
        else:
            action = agent.act(state, seat)
        events = match.apply(seat, action)
        unseen += events
        if verbose and all(a is not None for a in agents):
            show_events(game, events, None)
    if verbose:
        show_events(game, unseen, None)


def show_events(game: Game, events: list[Event], seat: int | None) -> None:
    """Print the events ``seat`` may see, one line each."""
    for event in visible_events(events, seat):
        console.print(f"[dim]- {describe_event(game.id, event.to_json())}[/]")


def ask_human(game: Game, state: State, seat: int) -> Action:
    """Show the seat's view and its numbered legal actions; read a number or an action as JSON."""
    console.rule(f"seat {seat} to act")
    console.print(render_view(game.id, state.view(seat)))
    legal = state.legal_actions(seat)
    for i, action in enumerate(legal, 1):
        console.print(f"  [bold]{i:>3}[/] {describe_action(game.id, action.to_json())}")
    while True:
        answer = console.input(f"seat {seat}, your choice [1-{len(legal)}, or an action as JSON, q to stop]: ").strip()
        if answer in ("q", "quit"):
            raise KeyboardInterrupt
        try:
            if answer.startswith("{"):
                action = game.action_from_json(json.loads(answer))
                state.check(seat, action)
                return action
            index = int(answer)
            if not 1 <= index <= len(legal):
                raise BadInput(f"{index} is not between 1 and {len(legal)}")
            return legal[index - 1]
        except ValueError as exc:  # BadInput is a ValueError; json and int() errors too
            console.print(f"[red]not understood: {exc}[/]")
        except RobotableError as exc:
            console.print(f"[red]refused: {exc}[/]")


def show_result(state: State, names: list[str]) -> None:
    """The final table: place, seat, who played it, score and the game's tie-break details."""
    result = state.result()
    table = Table(title=f"Result ({result.reason})")
    for col in ("place", "seat", "player", "score"):
        table.add_column(col)
    detail_keys = [k for k, v in result.details.items() if isinstance(v, list) and len(v) == len(result.scores)]
    for key in detail_keys:
        table.add_column(key.replace("_", " "))
    for seats in result.ranking:
        for seat in seats:
            extra = [str(result.details[k][seat]) for k in detail_keys]
            winner = " *" if seat in result.winners else ""
            table.add_row(f"{result.ranks[seat]}{winner}", str(seat), names[seat], str(result.scores[seat]), *extra)
    console.print(table)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A record saved by `robotable play` or the server.")],
    seat: Annotated[int | None, typer.Option(help="Watch as this seat (default: spectator).")] = None,
    step: Annotated[bool | None, typer.Option("--step/--no-step", help="Wait for Enter between moves.")] = None,
) -> None:
    """Step through a recorded game: Enter next, b back, g N go to move N, q quit."""
    try:
        rec = Record.load(file)
        game = games.load(rec.game)
        if seat is not None and not 0 <= seat < rec.num_players:
            raise BadInput(f"--seat must be 0 to {rec.num_players - 1}")
        steps = replay_steps_summary(rec, seat)
    except RobotableError as exc:
        raise fail(str(exc)) from None
    interactive = sys.stdin.isatty() if step is None else step
    console.print(f"[bold]{game.name}[/] record: {rec.num_players} players, seed {rec.seed}, {len(rec.moves)} moves")
    index = 0
    while True:
        state = replay(rec, upto=index)
        console.rule(f"after move {index}/{len(rec.moves)}" + (f": {steps[index - 1]}" if index else ""))
        console.print(render_view(game.id, state.view(seat)))
        if index == len(rec.moves):
            if state.is_over():
                show_result(state, seat_names(rec))
            if not interactive:
                return
        if not interactive:
            index += 1
            continue
        answer = console.input("[Enter] next, b back, g N go to, q quit: ").strip()
        if answer == "q":
            return
        if answer == "b":
            index = max(0, index - 1)
        elif answer.startswith("g"):
            try:
                index = min(len(rec.moves), max(0, int(answer[1:])))
            except ValueError:
                console.print("[red]g needs a move number[/]")
        elif index < len(rec.moves):
            index += 1


def replay_steps_summary(rec: Record, seat: int | None) -> list[str]:
    """One line per move, checking the whole record replays: the watching seat's own moves by name
    (``seat 1: RCU-5``), another seat's by what the watcher saw happen (a secret choice stays secret)."""
    lines = []
    for step in replay_steps(rec):
        if step.seat == seat:
            lines.append(f"seat {step.seat}: {describe_action(rec.game, step.action.to_json())}")
        else:
            seen = [describe_event(rec.game, e.to_json()) for e in visible_events(step.events, seat)]
            lines.append(f"seat {step.seat}" + (f": {'; '.join(seen)}" if seen else " moved"))
    return lines


def seat_names(rec: Record) -> list[str]:
    """Who played each seat, from the record's ``seats`` metadata (a list, or a comma-separated string)."""
    names = rec.meta.get("seats")
    if isinstance(names, str):
        names = names.split(",")
    if not isinstance(names, list) or len(names) != rec.num_players:
        return [""] * rec.num_players
    return [n.get("name", "") if isinstance(n, dict) else str(n) for n in names]


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    database: Annotated[str | None, typer.Option(help="SQLAlchemy URL (default: SQLite file robotable.db).")] = None,
    bots: Annotated[
        str | None,
        typer.Option(help="Where bots think: spawn (a worker process, default), external (robotable worker), inline."),
    ] = None,
    rate_limit_storage: Annotated[
        str | None,
        typer.Option(help="limits storage URI of the rate limits, e.g. redis://127.0.0.1:6379/0 (default: memory)."),
    ] = None,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(help="Proxy addresses whose X-Forwarded-For is trusted, comma-separated (default: none)."),
    ] = None,
    smtp_host: Annotated[
        str | None, typer.Option(help="SMTP server for e-mail when away (default: none, no e-mail).")
    ] = None,
    smtp_port: Annotated[int | None, typer.Option(help="The SMTP server's port (default 25).")] = None,
    mail_from: Annotated[str | None, typer.Option(help="The From address of the e-mail.")] = None,
    mail_interval: Annotated[
        float | None, typer.Option(help="At most one e-mail per player this often, in seconds (default 3600).")
    ] = None,
    public_url: Annotated[
        str | None, typer.Option(help="The site's address in e-mail links (default: http://HOST:PORT).")
    ] = None,
) -> None:
    """Start the web app (http://127.0.0.1:8000)."""
    try:
        from robotable.server import run
        from robotable.server.mail import MailConfig
    except ImportError as exc:
        raise fail(f"the web app needs the server extra: pip install 'robotable[server]' ({exc})") from None
    try:
        public = public_url or os.environ.get("ROBOTABLE_PUBLIC_URL") or f"http://{host}:{port}"
        mail_config = MailConfig.of(smtp_host, smtp_port, mail_from, mail_interval, public)
    except ValueError as exc:
        raise fail(str(exc)) from None
    run(
        host=host,
        port=port,
        database=database,
        bots=bots,
        rate_limit_storage=rate_limit_storage,
        forwarded_allow_ips=forwarded_allow_ips,
        mail_config=mail_config,
    )


@app.command()
def worker(
    database: Annotated[str | None, typer.Option(help="SQLAlchemy URL (the web processes' database).")] = None,
    schema: Annotated[str | None, typer.Option(help="PostgreSQL schema of the tables.")] = None,
    server: Annotated[str | None, typer.Option(help="A web process (or the proxy) to submit moves to.")] = None,
    think: Annotated[float | None, typer.Option(help="Seconds a bot may think per decision.")] = None,
    lease: Annotated[float, typer.Option(help="Seconds a claimed turn stays this worker's.")] = 15.0,
) -> None:
    """Run a bot worker: take bot turns from the queue, think, submit (needs ROBOTABLE_WORKER_SECRET)."""
    try:
        from robotable.server.worker import main as worker_main
    except ImportError as exc:
        raise fail(f"bot workers need the server extra: pip install 'robotable[server]' ({exc})") from None
    argv = ["--lease", str(lease)]
    for flag, value in (("--database", database), ("--schema", schema), ("--server", server), ("--think", think)):
        if value is not None:
            argv += [flag, str(value)]
    worker_main(argv)


from robotable.arena.command import arena  # noqa: E402

app.command("arena")(arena)

from robotable.ai.review.command import review  # noqa: E402

app.command("review")(review)


def main() -> None:
    """Entry point of the ``robotable`` command."""
    app()


if __name__ == "__main__":
    main()
