"""The bot levels' ratings from the arena's reports: what the lobby shows beside a bot ("rated 31").

Every game of every report given is one game of a round-robin between the levels (``random``,
``heuristic``, ``ismcts:easy``, ``ismcts:medium``, ``ismcts:hard``): per game of Robotable, the
reports' games are rated together with :func:`robotable.arena.ratings.openskill_ratings`, in the order
the reports were played (their ``date``, then their file name), then each report's game order. A game
two reports both hold (the same seed, seats and moves) counts once; a game with a seat outside the
levels is left out (it says nothing about them alone). The result is a data file the server ships as
package data (``robotable/ai/data/level_ratings.json``, read by robotable.server.levels)::

    python -m robotable.arena.level_ratings docs/reports/*.json --out robotable/ai/data/level_ratings.json

The file holds, per game and per level: ``mu``, ``sigma``, ``ordinal = mu - 3 sigma`` (the conservative
rating the leaderboards rank by, and the one shown), the games rated and the reports they came from.
The same reports always give the same file (no date in it), so it changes only when the reports do.
"""

from __future__ import annotations

import dataclasses
import json
import shlex
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer

from robotable.core import BadInput

from .ratings import openskill_ratings
from .report import REPORT_FORMAT
from .runner import GameResult

#: The levels rated by default: the bot difficulties the lobby offers.
LEVELS: tuple[str, ...] = ("random", "heuristic", "ismcts:easy", "ismcts:medium", "ismcts:hard")
#: What the data file says it is, and its format.
KIND = "robotable-level-ratings"
FORMAT = 1
#: Where the server reads the file (package data).
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "ai" / "data" / "level_ratings.json"
#: Decimals kept in the file (plenty for a rating shown as a whole number).
DECIMALS = 4


@dataclasses.dataclass(frozen=True)
class Report:
    """One arena report as the ratings read it: where it came from, when it was played, its games."""

    name: str
    date: str
    game: str
    players: int
    options: dict[str, Any]
    games: tuple[GameResult, ...]


def read_report(path: str | Path) -> Report:
    """An arena report (``robotable arena --out``); BadInput naming the file and the problem otherwise."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadInput(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadInput(f"{path}: not JSON ({exc})") from None
    return parse_report(data, path.as_posix())


def parse_report(data: Any, name: str) -> Report:
    """A report's JSON (as :func:`robotable.arena.report.build_report` writes it) read as a :class:`Report`."""
    if not isinstance(data, dict) or data.get("kind") != "robotable-arena":
        raise BadInput(f'{name}: not a robotable arena report (no "kind": "robotable-arena")')
    if data.get("format") != REPORT_FORMAT:
        raise BadInput(f"{name}: report format {data.get('format')!r}, this reader knows {REPORT_FORMAT}")
    tournament = data.get("tournament")
    if not isinstance(tournament, dict) or not isinstance(tournament.get("game"), str):
        raise BadInput(f"{name}: the report names no game (tournament.game)")
    if not isinstance(data.get("games"), list):
        raise BadInput(f"{name}: the report has no list of games")
    games = []
    for i, game in enumerate(data["games"]):
        try:
            result = GameResult.from_json(game)
        except (TypeError, ValueError, KeyError) as exc:
            raise BadInput(f"{name}: game {i} is not an arena game result ({exc})") from None
        if len(result.agents) != len(result.ranks) or not all(isinstance(r, int) for r in result.ranks):
            raise BadInput(f"{name}: game {i} has {len(result.agents)} seats but ranks {list(result.ranks)}")
        games.append(result)
    return Report(
        name=name,
        date=str(data.get("date", "")),
        game=tournament["game"],
        players=int(tournament.get("players", 0)),
        options=dict(tournament.get("options") or {}),
        games=tuple(games),
    )


def level_ratings(reports: Iterable[Report], levels: Sequence[str] = LEVELS, command: str = "") -> dict[str, Any]:
    """The data file's contents: per game, the levels' OpenSkill ratings from every report's games;
    ``command`` is the command line that wrote it (for the record)."""
    wanted = set(levels)
    by_game: dict[str, list[Report]] = {}
    for report in sorted(reports, key=lambda r: (r.date, r.name)):
        by_game.setdefault(report.game, []).append(report)
    out: dict[str, Any] = {}
    for game in sorted(by_game):
        out[game] = rate_game_reports(by_game[game], wanted, levels)
    head = {"format": FORMAT, "kind": KIND, "command": command, "model": "openskill PlackettLuce", "shown": "ordinal"}
    return {**head, "games": out}


def rate_game_reports(reports: Sequence[Report], wanted: set[str], levels: Sequence[str]) -> dict[str, Any]:
    """One game's ratings from its reports (already in play order)."""
    results: list[GameResult] = []
    sources: list[str] = []
    seen: set[tuple[Any, ...]] = set()
    skipped = duplicates = 0
    for report in reports:
        options = json.dumps(report.options, sort_keys=True)
        for result in sorted(report.games, key=lambda r: r.index):
            if not set(result.agents) <= wanted:
                skipped += 1
                continue
            key = (report.players, options, result.seed, result.agents, result.digest)
            if key in seen:
                duplicates += 1
                continue
            seen.add(key)
            results.append(dataclasses.replace(result, index=len(results)))
            sources.append(report.name)
    rated = [(r, s) for r, s in zip(results, sources) if len(set(r.agents)) >= 2]  # self-play teaches nothing
    pool = [level for level in levels if any(level in r.agents for r, _ in rated)]
    ratings = openskill_ratings([r for r, _ in rated], pool) if pool else {}
    out_levels = {}
    for level in pool:
        mine = [(r, s) for r, s in rated if level in r.agents]
        out_levels[level] = {
            **{k: round(v, DECIMALS) for k, v in ratings[level].items()},
            "games": len(mine),
            "reports": sorted({s for _, s in mine}),
        }
    return {
        "games": len(rated),
        "left_out": {"other_agents": skipped, "duplicates": duplicates, "self_play": len(results) - len(rated)},
        "reports": [r.name for r in reports],
        "levels": out_levels,
    }


def check_level_ratings(data: Any) -> dict[str, dict[str, dict[str, Any]]]:
    """``{game: {level: {"mu", "sigma", "ordinal", "games"}}}`` from a data file's contents; BadInput if
    it is not one (wrong kind or format, a rating that is not a finite number)."""
    if not isinstance(data, dict) or data.get("kind") != KIND or data.get("format") != FORMAT:
        raise BadInput(f"not a level ratings file (want kind {KIND!r}, format {FORMAT})")
    games = data.get("games")
    if not isinstance(games, dict):
        raise BadInput("a level ratings file needs a 'games' object")
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for game, entry in games.items():
        levels = entry.get("levels") if isinstance(entry, dict) else None
        if not isinstance(levels, dict):
            raise BadInput(f"{game}: no 'levels' object")
        out[game] = {}
        for level, rating in levels.items():
            if not isinstance(rating, Mapping):
                raise BadInput(f"{game} {level}: not an object")
            values = {k: rating.get(k) for k in ("mu", "sigma", "ordinal", "games")}
            numbers = [values["mu"], values["sigma"], values["ordinal"]]
            if not all(isinstance(v, int | float) and not isinstance(v, bool) and abs(v) < 1e6 for v in numbers):
                raise BadInput(f"{game} {level}: mu, sigma and ordinal must be numbers")
            if not isinstance(values["games"], int) or values["games"] < 0:
                raise BadInput(f"{game} {level}: games must be a count")
            out[game][level] = values
    return out


def write_level_ratings(data: Mapping[str, Any], path: str | Path) -> Path:
    """Write the data file (indented JSON, one line per level); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def command(
    reports: Annotated[list[Path], typer.Argument(help="Arena reports (robotable arena --out ...json).")],
    out: Annotated[Path, typer.Option(help="Where to write the ratings (the server's package data by default).")] = (
        DEFAULT_OUT
    ),
    levels: Annotated[str, typer.Option(help="The levels rated, comma-separated.")] = ",".join(LEVELS),
) -> None:
    """Rate the bot levels per game from arena reports (OpenSkill over every report's games) and write the
    data file the lobby's "rated N" comes from."""
    wanted = tuple(s.strip() for s in levels.split(",") if s.strip())
    try:
        if not wanted:
            raise BadInput("--levels names no level")
        line = shlex.join(["python", "-m", "robotable.arena.level_ratings", *map(str, reports), "--out", str(out)])
        data = level_ratings([read_report(p) for p in reports], wanted, line)
    except BadInput as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    path = write_level_ratings(data, out)
    for game, entry in data["games"].items():
        shown = ", ".join(f"{level} {r['ordinal']:.1f}" for level, r in entry["levels"].items())
        typer.echo(f"{game}: {entry['games']} games from {len(entry['reports'])} reports: {shown}")
    typer.echo(f"ratings: {path}")


def main() -> None:
    """``python -m robotable.arena.level_ratings REPORT... [--out FILE]``."""
    typer.run(command)


if __name__ == "__main__":
    main()
