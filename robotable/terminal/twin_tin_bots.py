"""Twin Tin Bots in the terminal: the hex board and the programming boards of a seat's view.

Board legend: ``[R]`` a Base (colour initial); ``RA→`` a robot (colour, A or B, facing arrow), on a
coloured background when it carries a crystal; ``◆`` a crystal on the ground; ``###`` a Rock; ``(@)``
a Blob; ``T1`` a Teleporter of pair 1; ``~`` Mud (robots and crystals in Mud are underlined). Rows are
lettered from the top (A) and hexes counted from the left of their row: places are named so ("E6"), as
in the browser.

>>> import io
>>> from rich.console import Console
>>> from robotable.games.twin_tin_bots import GAME
>>> console = Console(file=io.StringIO(), width=120, record=True, color_system=None)
>>> console.print(render(GAME.start(2, seed=1).view(0)))
>>> "Round 1" in console.export_text()
True
>>> describe({"type": "place", "slot": 4, "tile": "dash"}, lang="en")
'place Dash on B2'
>>> describe({"type": "place", "slot": 4, "tile": "dash"}, lang="ja")
'ダッシュをB2に置く'

Texts come from the catalogue (namespace ``twin-tin-bots``, the browser's sentences); the language is
``lang``, else ``ROBOTABLE_LANG``, else the locale's, else English.
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from robotable.core.i18n import environment_language as language
from robotable.core.i18n import translate

INITIAL = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", "purple": "P", "pink": "K"}
STYLE = {"red": "red", "yellow": "yellow", "green": "green", "blue": "blue", "purple": "purple", "pink": "magenta"}
CRYSTAL_STYLE = {"blue": "bold bright_blue", "green": "bold bright_green", "pink": "bold bright_magenta"}
CARGO_BG = {"blue": "on blue", "green": "on green", "pink": "on magenta"}
ARROW = {"E": "→", "NE": "↗", "NW": "↖", "W": "←", "SW": "↙", "SE": "↘"}
TILE_LABEL = {
    "forward_1": "F1",
    "forward_2": "F2",
    "turn_left": "L",
    "turn_right": "R",
    "load": "Ld",
    "unload": "Un",
    "zap": "Z",
    "double_modification": "DM",
    "turn_2_left": "L2",
    "turn_2_right": "R2",
    "anti_zap": "AZ",
    "u_turn": "U",
    "forward_3": "F3",
    "forward_then_load": "F+Ld",
    "forward_then_zap": "F+Z",
    "dash": "Dash",
    "jump": "Jump",
    "back_up": "Back",
    "double_zap": "ZZ",
    "anti_theft": "AT",
    "long_range_zap": "LRZ",
}


ROWS = "ABCDEFGHIJKLMNOP"
_board = {"radius": 5}  # the radius of the board last drawn (log lines name places on it)


def place_name(hex_: Any, radius: int | None = None) -> str:
    """A hex as a person reads it on the board: the row's letter (A at the top), the place in the row from
    the left.

    >>> place_name([0, 0], 4), place_name([-1, -1], 4), place_name([1, 0], 4)
    ('E5', 'D3', 'E6')
    """
    radius = _board["radius"] if radius is None else radius
    q, r = int(hex_[0]), int(hex_[1])
    return f"{ROWS[r + radius]}{q - max(-radius, -radius - r) + 1}"


def _slot(s: int) -> str:
    return f"{'AB'[s // 3]}{s % 3 + 1}"


def _t(key: str, lang: str, **params: Any) -> str:
    return translate(f"twin-tin-bots:{key}", lang=lang, **params)


def _tile(tile: Any, lang: str) -> str:
    return _t(f"names.tile.{tile}", lang) if isinstance(tile, str) and tile in TILE_LABEL else str(tile)


def _robot(name: Any, lang: str) -> str:
    colour, _, letter = str(name).partition("-")
    return _t("names.robot", lang, Colour=_t(f"names.Colour.{colour}", lang), letter=letter) if letter else str(name)


def _reason(reason: str) -> str:
    """The end reason with its seat counted from 1."""
    return re.sub(r"seat (\d+)", lambda m: f"seat {int(m.group(1)) + 1}", reason)


def _reason_text(reason: str, lang: str) -> str:
    """Why the game ended, in the catalogue's words (the seat counted from 1)."""
    won = re.match(r"score victory: seat (\d+) has (\d+) points", reason)
    if won:
        name = _t("names.seat", lang, n=int(won.group(1)) + 1)
        return _t("reason.score_victory", lang, name=name, points=int(won.group(2)))
    if reason.startswith("crystal attrition"):
        return _t("reason.attrition", lang)
    if reason.startswith("round limit"):
        return _t("reason.round_limit", lang)
    return _reason(reason)


def _pretty(tile: str) -> str:
    return tile.replace("_", " ").capitalize().replace("Forward 1", "Forward 1x").replace("Forward 2", "Forward 2x")


def _cells(view: dict[str, Any]) -> dict[tuple[int, int], Text]:
    cells: dict[tuple[int, int], Text] = {}
    mud = {tuple(h) for h in view["mud"]}
    for h in mud:
        cells[h] = Text(" ~ ", style="dim yellow")
    for i, pair in enumerate(view["teleporters"], start=1):
        for h in pair:
            cells[tuple(h)] = Text(f"T{i} ", style="bold cyan")
    for h in view["rocks"]:
        cells[tuple(h)] = Text("###", style="bold white")
    for h in view["blobs"]:
        cells[tuple(h)] = Text("(@)", style="bold bright_cyan")
    for c in view["colours"]:
        cells[tuple(c["base"])] = Text(
            f"[{INITIAL.get(c['colour'], '?')}]", style=f"bold reverse {STYLE.get(c['colour'], '')}"
        )
    for crystal in view["crystals"]:
        h = tuple(crystal["hex"])
        cells[h] = Text(" ◆ ", style=CRYSTAL_STYLE[crystal["crystal"]] + (" underline" if h in mud else ""))
    for r in view["robots"]:
        h = tuple(r["hex"])
        style = f"bold {STYLE.get(r['colour'], '')}"
        if r["cargo"]:
            style += f" {CARGO_BG[r['cargo']]}"
        if h in mud:
            style += " underline"
        cells[h] = Text(f"{INITIAL.get(r['colour'], '?')}{r['robot'][-1]}{ARROW[r['facing']]}", style=style)
    return cells


def render_board(view: dict[str, Any]) -> Text:
    """The hex board as text, one line per row of hexes (r from top to bottom)."""
    radius = view["radius"]
    _board["radius"] = radius
    cells = _cells(view)
    out = Text()
    for r in range(-radius, radius + 1):
        line = Text(f"{ROWS[r + radius]} " + " " * (2 * abs(r)))
        for q in range(-radius, radius + 1):
            if max(abs(q), abs(r), abs(q + r)) > radius:
                continue
            line.append_text(cells.get((q, r), Text(" · ", style="dim")))
            line.append(" ")
        out.append_text(line)
        out.append("\n")
    return out


def _program(program: list[str | None], lo: int) -> Text:
    return Text(" ").join(Text(f"[{TILE_LABEL.get(t, t) if t else ' '}]") for t in program[lo : lo + 3])


def render_programs(view: dict[str, Any], lang: str | None = None) -> Table:
    """Every colour's programming board, hand and harvest."""
    lang = language(lang)
    table = Table(expand=False)
    heads = ("t_colour", "t_seat", "A", "B", "t_hand", "t_in_base", "t_pts")
    for col in heads:
        table.add_column(
            _t(f"terminal.{col}", lang) if col.startswith("t_") else _t("terminal.t_robot", lang, robot=col)
        )
    robots_per = 1 if view["options"].get("simplified") else 2
    mine = set(view.get("your_colours") or [])
    for c in view["colours"]:
        name = c["colour"]
        hand = ", ".join(f"{TILE_LABEL.get(t, t)}{'x' + str(n) if n > 1 else ''}" for t, n in c.get("hand", {}).items())
        if c.get("hidden_specials"):
            hand += ", " + _t("terminal.t_hidden", lang, count=c["hidden_specials"])
        if c["double_modification_used"]:
            hand += " " + _t("terminal.t_dm_used", lang)
        marker = "▶ " if name == view["active"] else ""
        style = f"bold {STYLE.get(name, '')}" + (" underline" if name in mine else "")
        label = Text(f"{marker}{_t(f'names.Colour.{name}', lang)}", style=style)
        table.add_row(
            label,
            str(c["seat"] + 1) + (f"/t{c['team'] + 1}" if view["options"].get("team_play") else ""),
            _program(c["program"], 0),
            _program(c["program"], 3) if robots_per == 2 else Text("-", style="dim"),
            hand,
            Text(" ").join(Text("◆", style=CRYSTAL_STYLE[k]) for k in c["delivered"]) or Text("-", style="dim"),
            str(c["points_in_base"]),
        )
    return table


def _pending(view: dict[str, Any], lang: str) -> str:
    pending = view["pending"]
    if pending["type"] == "zap":
        return _t("terminal.t_zap", lang, robot=_robot(pending["robot"], lang))
    if pending["type"] == "blob":
        return _t("terminal.t_blob", lang, place=place_name(pending["hex"]))
    places = ", ".join(place_name(h) for h in pending["hexes"])
    return _t("terminal.t_crystal", lang, crystal=_t(f"names.crystal.{pending['crystal']}", lang), places=places)


def _status(view: dict[str, Any], lang: str) -> Text:
    head = Text()

    def colour(c: str) -> str:
        return _t(f"names.Colour.{c}", lang)

    head.append(_t("table.round", lang, n=view["round"]), style="bold")
    head.append(f"  {_t('terminal.t_active', lang)} ")
    head.append(colour(view["active"]), style=f"bold {STYLE.get(view['active'], '')}")
    head.append(f"  {_t('terminal.t_first', lang)} {colour(view['first'])}")
    if view["end_phase"]:
        head.append("  " + _t("terminal.t_countdown", lang, n=view["countdown"]), style="bold red")
    head.append(f"  {_t('table.track', lang)} ")
    gems = [Text("◆", style=CRYSTAL_STYLE[k]) for k in view["track"]]
    head.append_text(Text(" ").join(gems) or Text(_t("table.track_empty", lang), style="dim"))
    head.append("  " + _t("terminal.t_specials", lang, n=view["special_stack_count"]))
    if view["score_victory"] is not None:
        head.append("  " + _t("terminal.t_victory", lang, n=view["score_victory"]))
    if view["phase"] == "change" and view.get("changes_left"):
        head.append("\n" + _t("terminal.t_programming", lang, Colour=colour(view["active"]), n=view["changes_left"]))
    elif view.get("pending"):
        head.append(f"\n{_t('terminal.t_waiting', lang)} ", style="bold")
        head.append(_pending(view, lang))
    if "result" in view:
        res = view["result"]
        seat = lambda i: _t("names.seat", lang, n=i + 1)  # noqa: E731
        scores = ", ".join(f"{seat(i)}: {p}" for i, p in enumerate(res["scores"]))
        winners = [seat(w) for w in res["winners"]]
        both = _t("terminal.t_and", lang, a=winners[0], b=winners[1]) if len(winners) == 2 else ", ".join(winners)
        reason = _reason_text(res["reason"], lang)
        head.append("\n" + _t("terminal.t_over", lang, reason=reason, scores=scores, winners=both), style="bold")
    return head


def render(view: dict[str, Any], lang: str | None = None) -> RenderableType:
    """The table as one seat sees it: status line, hex board, programming boards."""
    lang = language(lang)
    return Group(_status(view, lang), render_board(view), render_programs(view, lang))


def describe(action: dict[str, Any], lang: str | None = None) -> str:
    """A short human label for an action's JSON form.

    >>> describe({"type": "zap_order", "order": "turn_left"}, lang="en")
    'zapped robot: Turn Left'
    >>> describe({"type": "move_blob", "direction": None}, lang="ja")
    'ブロブを動かさない'
    """
    lang = language(lang)
    kind = action.get("type")
    if kind == "place":
        return _t("action.place", lang, tile=_tile(action["tile"], lang), slot=_slot(action["slot"]))
    if kind == "swap":
        return _t("action.swap", lang, a=_slot(action["slot_a"]), b=_slot(action["slot_b"]))
    if kind == "remove":
        return _t("action.remove", lang, slot=_slot(action["slot"]))
    if kind == "reset":
        return _t("action.reset", lang, robot="AB"[action["robot"]])
    if kind in ("pass", "double_modification"):
        return _t(f"action.{kind}", lang)
    if kind == "zap_order":
        return _t("action.zap_order", lang, tile=_tile(action["order"], lang))
    if kind == "move_blob":
        if action["direction"] is None:
            return _t("action.leave_blob", lang)
        return _t("action.move_blob", lang, direction=_t(f"names.facing.{str(action['direction']).upper()}", lang))
    if kind == "place_crystal":
        return _t("action.place_crystal", lang, place=place_name(action["hex"]))
    return str(action)


def log(event: dict[str, Any], lang: str | None = None) -> str:
    """One line of the game log for an event's JSON form.

    >>> _board["radius"] = 4  # the 2-player board (render sets it)
    >>> log({"type": "move", "robot": "red-A", "hex": [1, 0], "facing": "E", "how": "forward"}, lang="en")
    'Red A moves to E6.'
    """
    lang = language(lang)
    kind = event.get("type")
    d = {k: v for k, v in event.items() if k != "type"}
    p: dict[str, Any] = {}
    if d.get("colour"):
        p["Colour"] = _t(f"names.Colour.{d['colour']}", lang)
    for key in ("robot", "victim", "onto", "hit"):
        if d.get(key) and d.get(key) != "blob":
            p[key] = _robot(d[key], lang)
    if d.get("crystal"):
        p["crystal"] = _t(f"names.crystal.{d['crystal']}", lang)
    if d.get("hex"):
        p["place"] = place_name(d["hex"])
    if "slot" in d:
        p["slot"] = _slot(d["slot"])
    if "tile" in d or "order" in d:
        p["tile"] = _tile(d.get("tile") or d.get("order"), lang)
    try:
        return _log_line(kind, d, p, lang)
    except (KeyError, TypeError, AttributeError):
        return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in d.items())


SIMPLE_LOG = (
    *("place", "remove", "pass", "double_modification", "order", "blocked", "mud", "crystal_pushed", "blob_moved"),
    *("load", "steal", "anti_theft", "draw_special", "special_drawn", "crystal_enters", "end_phase", "zap_order"),
    "crystal_choice",
)


def _why(why: str, lang: str) -> str:
    """Why an order was ignored, from the catalogue when it knows the reason."""
    key = "names.why." + re.sub(r"\W+", "_", why.lower()).strip("_")
    text = _t(key, lang)
    return why if text == key or text.endswith(key) else text


def _zap_key(d: dict[str, Any]) -> str:
    if d.get("resisted"):
        return "log.zap_resisted"
    if d.get("hit") == "blob":
        return "log.zap_blob"
    return "log.zap_hit" if d.get("hit") else "log.zap"


def _countdown(d: dict[str, Any], lang: str) -> str:
    if d.get("last_turn") and not d["counters_left"]:
        return _t("log.countdown_last", lang)
    return _t("log.countdown", lang, count=d["counters_left"])


def _log_line(kind: Any, d: dict[str, Any], p: dict[str, Any], lang: str) -> str:
    if kind == "place" and d.get("replaced"):
        return _t("log.place_replaced", lang, replaced=_tile(d["replaced"], lang), **p)
    if kind in SIMPLE_LOG:
        return _t(f"log.{kind}", lang, **p)
    unload = "log.unload_onto" if d.get("onto") else "log.unload_on" if d.get("hex") else "log.unload"
    lines = {
        "turn_start": lambda: _t("log.turn_start", lang, round=d["round"], **p),
        "swap": lambda: _t("log.swap", lang, a=_slot(d["slot_a"]), b=_slot(d["slot_b"]), **p),
        "reset": lambda: _t("log.reset", lang, **{**p, "robot": d["robot"]}),
        "run": lambda: f"{p['robot']} ▶",
        "move": lambda: _t("log.pushed" if d["how"] == "pushed" else "log.move", lang, **p),
        "turn": lambda: _t("log.turn", lang, facing=_t(f"names.facing.{d['facing']}", lang), **p),
        "blob_left": lambda: _t("log.blob_moved", lang, **p),
        "unload": lambda: _t(unload, lang, **p),
        "ignored": lambda: _t("log.ignored", lang, why=_why(d["why"], lang), **p),
        "deliver": lambda: _t(
            "log.deliver",
            lang,
            points={"blue": 2, "green": 3, "pink": 4}[d["crystal"]],
            base=_t(f"names.colour.{d['base']}", lang),
            **p,
        ),
        "zap": lambda: _t(_zap_key(d), lang, **p),
        "countdown": lambda: _countdown(d, lang),
        "game_over": lambda: _t("log.game_over", lang, reason=_reason_text(d["result"]["reason"], lang)),
    }
    return lines[kind]()
