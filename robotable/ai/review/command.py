"""``robotable review RECORD.json``: a recorded game reviewed by the bots' own search, in the terminal and
as a PNG chart (docs/review.md).

robotable review records/tf22-reload-7.json --seat 0 --png review.png
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from robotable.core import BadInput, Record, RobotableError
from robotable.core.i18n import environment_language, translate

from .search import Budget, Review, review_record
from .show import render, write_chart

console = Console()


def review(
    file: Annotated[
        Path, typer.Argument(metavar="RECORD.json", help="A record saved by `robotable play` or the server.")
    ],
    seat: Annotated[int | None, typer.Option(help="Review this seat only (0-based; default: every seat).")] = None,
    budget: Annotated[
        int | None, typer.Option(help="Search iterations per decision (default: the hard level's for the game).")
    ] = None,
    png: Annotated[Path | None, typer.Option(help="Write the chart of each seat's value here (PNG).")] = None,
    seed: Annotated[
        int, typer.Option(help="The review's seed: the same record, budget and seed give the same review.")
    ] = 0,
    moves: Annotated[int | None, typer.Option(help="Review only the record's first N moves.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Also write the review as JSON here.")] = None,
    lang: Annotated[
        str | None, typer.Option(help="Language: en or ja (default: ROBOTABLE_LANG, then the locale).")
    ] = None,
    workers: Annotated[int, typer.Option(help="Processes reviewing decisions (the same review with any number).")] = 1,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
) -> None:
    """Review a recorded game with the bots' own search: each seat's value, turning points, largest losses."""
    language = environment_language(lang)
    try:
        record = Record.load(file)
        if seat is not None and not 0 <= seat < record.num_players:
            raise BadInput(f"--seat must be 0 to {record.num_players - 1} (the record has {record.num_players} seats)")
        if moves is not None and moves < 0:
            raise BadInput(f"--moves must be 0 or more, got {moves}")
        for out in (png, json_out):
            if out is not None:
                check_writable(out)
        plan = Budget(iterations=budget, seed=seed)
        result = _run(record, [seat] if seat is not None else None, plan, moves, workers, language, quiet)
    except RobotableError as exc:
        raise _fail(str(exc)) from None
    from robotable.cli import seat_names  # (the CLI imports this module: import it when called)

    names = seat_names(record)
    console.print(render(result, language, names))
    try:
        if png is not None:
            saved = write_chart(result, png, language, names)
            console.print(translate("app:review.chart_saved", language, path=str(saved)), soft_wrap=True)
        if json_out is not None:
            json_out.parent.mkdir(parents=True, exist_ok=True)
            json_out.write_text(json.dumps(result.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    except RobotableError as exc:
        raise _fail(str(exc)) from None
    except OSError as exc:
        raise _fail(f"cannot write {exc.filename!r}: {exc.strerror}") from None


def _run(
    record: Record, seats: list[int] | None, budget: Budget, moves: int | None, workers: int, lang: str, quiet: bool
) -> Review:
    if quiet:
        return review_record(record, seats, budget, upto=moves, workers=workers)
    columns = (
        TextColumn(translate("app:review.progress", lang)),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task("review", total=None)
        return review_record(
            record,
            seats,
            budget,
            upto=moves,
            progress=lambda done, total: bar.update(task, completed=done, total=total),
            workers=workers,
        )


def check_writable(path: Path) -> None:
    """Refuse an output path that cannot be written before the review runs (it may take minutes)."""
    if path.is_dir():
        raise BadInput(f"cannot write {str(path)!r}: it is a folder")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise BadInput(f"cannot write {str(path)!r}: {str(parent)!r} is not a folder")
            return


def _fail(message: str) -> typer.Exit:
    """A clear one-line error, exit code 2 (bad input)."""
    console.print(f"[bold red]error:[/] {message}", soft_wrap=True, markup=True, highlight=False)
    return typer.Exit(2)
