"""The arena's PNG chart: win rates with their 95% intervals, and OpenSkill ratings.

Drawn with matplotlib's Agg canvas directly (no pyplot, no display, no global state); matplotlib is part
of the ``ai`` extra and is imported only here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from robotable.core import BadInput


def write_chart(report: dict[str, Any], path: str | Path) -> Path:
    """Draw the report's summary to a PNG at ``path``; returns the path."""
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise BadInput("the chart needs matplotlib: pip install 'robotable[ai]'") from None
    summary = report["summary"]
    rows = summary["agents"]
    names = [row["agent"] for row in rows]
    ys = list(range(len(rows)))[::-1]

    figure = Figure(figsize=(11, 1.6 + 0.55 * len(rows)), layout="constrained")
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2)

    rates = [row["win_rate"] for row in rows]
    # clamped: at a 0% or 100% win rate rounding can put the interval a hair inside the rate
    below = [max(0.0, row["win_rate"] - row["ci95"][0]) for row in rows]
    above = [max(0.0, row["ci95"][1] - row["win_rate"]) for row in rows]
    left.barh(ys, rates, xerr=[below, above], color="#4c78a8", capsize=4, height=0.6)
    left.axvline(summary["par"], color="#888888", linestyle="--", linewidth=1)
    for y, row in zip(ys, rows):
        high = row["ci95"][1]
        label = f"{row['win_rate']:.1%}"
        if high < 0.85:
            left.text(high + 0.015, y, label, va="center", fontsize=9)
        elif row["win_rate"] >= 0.15:  # no room on the right: inside the bar, at its base
            left.text(0.015, y, label, va="center", fontsize=9, color="white")
        else:  # a short bar with a wide interval (few games): above the bar
            left.text(0.015, y + 0.38, label, va="center", fontsize=8)
    left.set_xlim(0, 1)
    left.set_ylim(-0.6, len(rows) - 0.4)
    left.set_yticks(ys, names)
    players = report["tournament"]["players"]
    left.set_xlabel(f"win rate; bars: 95% Wilson interval; dashed: par 1/{players}")

    mus = [row["rating"]["mu"] for row in rows]
    spread = [2 * row["rating"]["sigma"] for row in rows]
    right.errorbar(mus, ys, xerr=[spread, spread], fmt="o", color="#f58518", capsize=4)
    right.scatter([row["rating"]["ordinal"] for row in rows], ys, marker="|", s=300, color="#54a24b")
    right.set_ylim(-0.6, len(rows) - 0.4)
    right.set_yticks(ys, names)
    right.set_xlabel("OpenSkill (Plackett-Luce): mu +- 2 sigma; green |: mu - 3 sigma")

    t = report["tournament"]
    figure.suptitle(f"{t['game']}, {t['players']} players, {summary['games']} games, seed {t['seed']}")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    return path
