"""Rendering for the research environments: the spectator's view as the terminal draws it.

Each game's terminal renderer (:func:`robotable.terminal.render_view`) lays out its table (Twin Tin
Bots' hex board, TF22's ships and piles, Robots on the Line's lines and buyers) with colours. The modes:

- ``ansi``: that drawing as plain text;
- ``rgb_array``: the same drawing, coloured, as an ``H x W x 3`` uint8 image (matplotlib, off screen);
- ``human``: that image in a matplotlib window, updated in place (nothing returned).

Only the spectator's view is drawn, so a rendering never shows a seat's secrets.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

RENDER_MODES = ["ansi", "rgb_array", "human"]
WIDTH = 110  # characters per line
_CHAR_W, _LINE_H, _FONT = 7.2, 15, 11
_BACKGROUND = "#101418"
_FOREGROUND = (0.9, 0.9, 0.9)


def check_mode(render_mode: object) -> None:
    """``None`` or one of :data:`RENDER_MODES`; anything else raises ``ValueError`` naming the choices."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be None or one of {', '.join(RENDER_MODES)}, got {render_mode!r}")


def _lines(game_id: str, view: dict[str, Any]) -> list[list[tuple[str, tuple[float, float, float]]]]:
    """The drawing as lines of (text, rgb colour) segments."""
    from rich.console import Console

    from robotable.terminal import render_view

    console = Console(file=io.StringIO(), width=WIDTH, color_system="truecolor", force_terminal=True)
    out = []
    for line in console.render_lines(render_view(game_id, view), pad=False):
        segments = []
        for segment in line:
            colour = segment.style.color if segment.style is not None else None
            if colour is not None and not colour.is_default:
                rgb = colour.get_truecolor()
                segments.append((segment.text, (rgb.red / 255, rgb.green / 255, rgb.blue / 255)))
            else:
                segments.append((segment.text, _FOREGROUND))
        out.append(segments)
    while out and not "".join(text for text, _ in out[-1]).strip():
        out.pop()
    return out


def ansi(game_id: str, view: dict[str, Any]) -> str:
    """The drawing as plain text."""
    return "\n".join("".join(text for text, _ in line).rstrip() for line in _lines(game_id, view))


def _figure(game_id: str, view: dict[str, Any]) -> Any:
    from matplotlib.figure import Figure

    lines = _lines(game_id, view) or [[("(nothing to draw)", _FOREGROUND)]]
    width = int(WIDTH * _CHAR_W) + 20
    height = len(lines) * _LINE_H + 20
    fig = Figure(figsize=(width / 100, height / 100), dpi=100, facecolor=_BACKGROUND)
    for row, segments in enumerate(lines):
        column = 0
        for text, colour in segments:
            if text.strip():
                fig.text(
                    (10 + column * _CHAR_W) / width,
                    1 - (10 + (row + 0.8) * _LINE_H) / height,
                    text,
                    color=colour,
                    family="monospace",
                    fontsize=_FONT * 0.72,
                )
            column += len(text)
    return fig


def rgb_array(game_id: str, view: dict[str, Any]) -> np.ndarray:
    """The coloured drawing as an ``H x W x 3`` uint8 image."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(_figure(game_id, view))
    canvas.draw()
    return np.ascontiguousarray(np.asarray(canvas.buffer_rgba())[..., :3])


class Window:
    """A matplotlib window showing the latest drawing (``human`` mode)."""

    def __init__(self) -> None:
        self._figure: Any = None
        self._image: Any = None

    def show(self, game_id: str, view: dict[str, Any]) -> None:
        import matplotlib.pyplot as plt

        image = rgb_array(game_id, view)
        if self._figure is None or not plt.fignum_exists(self._figure.number):
            self._figure = plt.figure(figsize=(image.shape[1] / 100, image.shape[0] / 100), dpi=100)
            axes = self._figure.add_axes((0, 0, 1, 1))
            axes.set_axis_off()
            self._image = axes.imshow(image)
        else:
            self._image.set_data(image)
        self._figure.canvas.draw_idle()
        plt.pause(0.001)

    def close(self) -> None:
        if self._figure is not None:
            import matplotlib.pyplot as plt

            plt.close(self._figure)
            self._figure = None


def render(game_id: str, view: dict[str, Any] | None, mode: str | None, window: Window) -> str | np.ndarray | None:
    """Render ``view`` (the spectator's) in ``mode``; ``None`` for no mode, no view, or ``human``."""
    if mode is None or view is None:
        return None
    if mode == "ansi":
        return ansi(game_id, view)
    if mode == "rgb_array":
        return rgb_array(game_id, view)
    window.show(game_id, view)
    return None
