"""A review for the terminal (Rich: a sparkline of each seat's value, tables of its largest losses and its
turning points) and as a PNG chart (matplotlib's Agg canvas; the ``ai`` extra, imported only here).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from robotable.core import BadInput, load
from robotable.core.i18n import translate

from .search import MIN_LOSS, Review, SeatReview
from .text import describe_move, loss_line, percent, seat_name, swing_line, where

#: The eight heights of a sparkline, lowest first.
BLOCKS = "▁▂▃▄▅▆▇█"
#: One colour per seat (chart lines and markers).
COLOURS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2")
#: Fonts with Japanese glyphs, tried after DejaVu Sans for what it lacks (those installed are used).
FALLBACK_FONTS = ("IPAGothic", "IPAPGothic", "Noto Sans CJK JP", "Noto Sans JP", "TakaoGothic")


def sparkline(values: Sequence[float]) -> str:
    """Values from 0 to 1 as block characters (0 the lowest block, 1 the highest).

    >>> sparkline([0.0, 0.5, 1.0])
    '▁▅█'
    """
    top = len(BLOCKS) - 1
    return "".join(BLOCKS[min(top, max(0, round(v * top)))] for v in values)


def _names(names: Sequence[str] | None, n: int) -> list[str]:
    return list(names) if names is not None and len(names) == n else [""] * n


def heading(review: Review, lang: str) -> list[str]:
    """The review's title, its budget and what the values mean."""
    game = load(review.game)
    title = translate(f"{game.id}:name", lang)
    return [
        translate("app:review.title", lang, game=title, players=review.num_players, moves=review.moves),
        translate(
            "app:review.budget",
            lang,
            level=translate(f"app:difficulty.ismcts:{review.budget.level}", lang),
            iterations=review.iterations,
            evaluation=review.budget.evaluation_for(review.game),
            seed=review.budget.seed,
        ),
        translate("app:review.values", lang),
    ]


def losses_table(game_id: str, seat: SeatReview, lang: str) -> Table:
    """The seat's largest losses: where, the move played, the values before and after, the better move."""
    columns = ("where", "played", "before", "after", "loss", "better")
    table = Table(
        *(translate(f"app:review.col.{c}", lang) for c in columns), title=translate("app:review.largest_losses", lang)
    )
    for i in seat.largest_losses:
        m = seat.moments[i]
        table.add_row(
            where(game_id, m, lang),
            describe_move(game_id, m.played, lang),
            percent(m.before),
            percent(m.after),
            Text(percent(m.loss), style="bold red"),
            describe_move(game_id, m.best, lang),
        )
    return table


def render(review: Review, lang: str, names: Sequence[str] | None = None) -> RenderableType:
    """The whole review for the terminal."""
    parts: list[RenderableType] = [
        Text(line, style="bold" if i == 0 else "dim") for i, line in enumerate(heading(review, lang))
    ]
    shown = _names(names, review.num_players)
    for seat in review.seats:
        name = seat_name(seat.seat, lang, shown[seat.seat])
        outcome = percent(seat.final) if seat.final is not None else translate("app:review.not_over", lang)
        parts.append(Text(""))
        parts.append(
            Text(
                translate(
                    "app:review.seat_summary",
                    lang,
                    seat=name,
                    decisions=len(seat.moments),
                    loss=percent(seat.mean_loss()),
                    outcome=outcome,
                ),
                style="bold",
            )
        )
        values = seat.series()
        if values:
            line = Text(f"{translate('app:review.value', lang)} ")
            line.append(sparkline(values), style="cyan")
            line.append(f" {percent(values[0])} → {percent(values[-1])}")
            parts.append(line)
        if seat.largest_losses:
            parts.append(losses_table(review.game, seat, lang))
        else:
            parts.append(Text(translate("app:review.no_losses", lang, threshold=percent(MIN_LOSS)), style="dim"))
        if seat.turning_points:
            parts.append(Text(translate("app:review.turning_points", lang), style="italic"))
            parts.extend(Text(f"  • {swing_line(review.game, seat, i, lang)}") for i in seat.turning_points)
    return Group(*parts)


def loss_lines(review: Review, lang: str) -> list[str]:
    """Every reviewed seat's largest losses as sentences (for logs and plain text)."""
    return [loss_line(review.game, s.moments[i], lang) for s in review.seats for i in s.largest_losses]


def write_chart(review: Review, path: str | Path, lang: str, names: Sequence[str] | None = None) -> Path:
    """Each seat's value over the game (x: the record's move) with its turning points marked, as a PNG."""
    try:
        from matplotlib import font_manager, rc_context
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise BadInput("the chart needs matplotlib: pip install 'robotable[ai]'") from None
    have = {font.name for font in font_manager.fontManager.ttflist}
    fonts = ["DejaVu Sans", *(f for f in FALLBACK_FONTS if f in have)]  # Japanese glyphs where installed
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with rc_context({"font.family": fonts}):
        figure = Figure(figsize=(10, 4.2), layout="constrained")
        FigureCanvasAgg(figure)
        _plot(figure.subplots(), review, lang, names)
        figure.suptitle(heading(review, lang)[0], fontsize=11)
        figure.savefig(path, dpi=110)
    return path


def _plot(axes: Any, review: Review, lang: str, names: Sequence[str] | None) -> None:
    """Each seat's line, its turning points marked with their move numbers."""
    shown = _names(names, review.num_players)
    for seat in review.seats:
        colour = COLOURS[seat.seat % len(COLOURS)]
        xs = [m.index + 1 for m in seat.moments] + ([review.moves] if seat.final is not None else [])
        ys = seat.series()
        axes.plot(xs, ys, color=colour, linewidth=1.6, label=seat_name(seat.seat, lang, shown[seat.seat]))
        marked = seat.turning_points
        axes.scatter([xs[i] for i in marked], [ys[i] for i in marked], s=60, color=colour, edgecolors="black", zorder=3)
        for i in marked:
            axes.annotate(
                str(seat.moments[i].index + 1),
                (xs[i], ys[i]),
                textcoords="offset points",
                xytext=(0, 7),
                ha="center",
                fontsize=8,
            )
    from matplotlib.ticker import MaxNLocator

    axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # moves are whole
    axes.set_ylim(-0.02, 1.02)
    axes.set_xlim(0, max(review.moves, 1) + 1)
    axes.axhline(0.5, color="#888888", linestyle="--", linewidth=0.8)
    axes.set_xlabel(translate("app:review.chart_x", lang))
    axes.set_ylabel(translate("app:review.chart_y", lang))
    axes.legend(loc="best", fontsize=8)
