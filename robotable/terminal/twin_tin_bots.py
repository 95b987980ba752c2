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
>>> describe({"type": "place", "slot": 4, "tile": "dash"})
'place Dash on robot B, slot 2'
"""

from __future__ import annotations

import re
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

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


def _reason(reason: str) -> str:
    """The end reason with its seat counted from 1."""
    return re.sub(r"seat (\d+)", lambda m: f"seat {int(m.group(1)) + 1}", reason)


def _pretty(tile: str) -> str:
    return tile.replace("_", " ").capitalize().replace("Forward 1", "Forward 1x").replace("Forward 2", "Forward 2x")


def _cells(view: dict[str, Any]) -> dict[tuple[int, int], Text]:
    cells: dict[tuple[int, int], Text] = {}
    mud = {tuple(h) for h in view["mud"]}
    for h in mud:
        cells[h] = Text(" ~ ", style="dim yellow")  # type: ignore[index]
    for i, pair in enumerate(view["teleporters"], start=1):
        for h in pair:
            cells[tuple(h)] = Text(f"T{i} ", style="bold cyan")  # type: ignore[index]
    for h in view["rocks"]:
        cells[tuple(h)] = Text("###", style="bold white")  # type: ignore[index]
    for h in view["blobs"]:
        cells[tuple(h)] = Text("(@)", style="bold bright_cyan")  # type: ignore[index]
    for c in view["colours"]:
        cells[tuple(c["base"])] = Text(
            f"[{INITIAL.get(c['colour'], '?')}]", style=f"bold reverse {STYLE.get(c['colour'], '')}"
        )  # type: ignore[index]
    for crystal in view["crystals"]:
        h = tuple(crystal["hex"])
        cells[h] = Text(" ◆ ", style=CRYSTAL_STYLE[crystal["crystal"]] + (" underline" if h in mud else ""))  # type: ignore[index]
    for r in view["robots"]:
        h = tuple(r["hex"])
        style = f"bold {STYLE.get(r['colour'], '')}"
        if r["cargo"]:
            style += f" {CARGO_BG[r['cargo']]}"
        if h in mud:
            style += " underline"
        cells[h] = Text(f"{INITIAL.get(r['colour'], '?')}{r['robot'][-1]}{ARROW[r['facing']]}", style=style)  # type: ignore[index]
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


def render_programs(view: dict[str, Any]) -> Table:
    """Every colour's programming board, hand and harvest."""
    table = Table(expand=False)
    for col in ("colour", "seat", "robot A", "robot B", "hand", "in Base", "pts"):
        table.add_column(col)
    robots_per = 1 if view["options"].get("simplified") else 2
    mine = set(view.get("your_colours") or [])
    for c in view["colours"]:
        name = c["colour"]
        hand = ", ".join(f"{TILE_LABEL.get(t, t)}{'x' + str(n) if n > 1 else ''}" for t, n in c.get("hand", {}).items())
        if c.get("hidden_specials"):
            hand += f", {c['hidden_specials']} hidden special{'s' if c['hidden_specials'] > 1 else ''}"
        if c["double_modification_used"]:
            hand += " (DM used)"
        marker = "▶ " if name == view["active"] else ""
        label = Text(f"{marker}{name}", style=f"bold {STYLE.get(name, '')}" + (" underline" if name in mine else ""))
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


def _status(view: dict[str, Any]) -> Text:
    head = Text()
    head.append(f"Round {view['round']}", style="bold")
    head.append("  active: ")
    head.append(view["active"], style=f"bold {STYLE.get(view['active'], '')}")
    head.append(f"  first: {view['first']}")
    if view["end_phase"]:
        head.append(f"  END PHASE, countdown {view['countdown']}", style="bold red")
    track = view["track"]
    head.append("  track: ")
    head.append_text(Text(" ").join(Text("◆", style=CRYSTAL_STYLE[k]) for k in track) or Text("empty", style="dim"))
    head.append(f"  specials stack: {view['special_stack_count']}")
    if view["score_victory"] is not None:
        head.append(f"  score victory at {view['score_victory']}")
    pending = view.get("pending")
    if view["phase"] == "change" and view.get("changes_left"):
        head.append(f"\n{view['active']} is programming ({view['changes_left']} change(s) left)")
    elif pending:
        head.append("\nwaiting: ", style="bold")
        if pending["type"] == "zap":
            head.append(f"{view['running']} zapped {pending['robot']}: choose its order")
        elif pending["type"] == "blob":
            head.append(f"{view['running']} zapped the Blob on {place_name(pending['hex'])}: move it or leave it")
        else:
            places = ", ".join(place_name(h) for h in pending["hexes"])
            head.append(f"a {pending['crystal']} crystal enters: choose one of {places}")
    if "result" in view:
        res = view["result"]
        scores = ", ".join(f"seat {i + 1}: {p}" for i, p in enumerate(res["scores"]))
        winners = " and ".join(f"seat {w + 1}" for w in res["winners"])
        head.append(f"\nGame over ({_reason(res['reason'])}): {scores}; {winners} wins", style="bold")
    return head


def render(view: dict[str, Any]) -> RenderableType:
    """The table as one seat sees it: status line, hex board, programming boards."""
    return Group(_status(view), render_board(view), render_programs(view))


def describe(action: dict[str, Any]) -> str:
    """A short human label for an action's JSON form.

    >>> describe({"type": "zap_order", "order": "turn_left"}), describe({"type": "move_blob", "direction": None})
    ('zapped robot: Turn left', 'leave the Blob')
    """
    kind = action.get("type")

    def slot(s: int) -> str:
        return f"robot {'AB'[s // 3]}, slot {s % 3 + 1}"

    if kind == "place":
        return f"place {_pretty(action['tile'])} on {slot(action['slot'])}"
    if kind == "swap":
        return f"swap {slot(action['slot_a'])} and slot {action['slot_b'] % 3 + 1}"
    if kind == "remove":
        return f"remove the tile on {slot(action['slot'])}"
    if kind == "reset":
        return f"reset robot {'AB'[action['robot']]}"
    if kind == "pass":
        return "pass (run the programs)"
    if kind == "double_modification":
        return "use Double Modification (two changes)"
    if kind == "zap_order":
        return f"zapped robot: {_pretty(action['order'])}"
    if kind == "move_blob":
        return "leave the Blob" if action["direction"] is None else f"move the Blob {str(action['direction']).upper()}"
    if kind == "place_crystal":
        return f"new crystal on {place_name(action['hex'])}"
    return str(action)


def log(event: dict[str, Any]) -> str:
    """One line of the game log for an event's JSON form.

    >>> _board["radius"] = 4  # the 2-player board (render sets it)
    >>> log({"type": "move", "robot": "red-A", "hex": [1, 0], "facing": "E", "how": "forward"})
    'red-A moves forward to E6, facing E'
    """
    kind = event.get("type")
    d = {k: v for k, v in event.items() if k != "type"}
    tile = _pretty(d["tile"]) if isinstance(d.get("tile"), str) else None
    lines = {
        "turn_start": lambda: f"round {d.get('round')}: {d.get('colour')}'s turn",
        "place": lambda: (
            f"{d['colour']} places {tile} on {_slot(d['slot'])}"
            + (f" (replacing {_pretty(d['replaced'])})" if d.get("replaced") else "")
        ),
        "swap": lambda: f"{d['colour']} swaps {_slot(d['slot_a'])} and {_slot(d['slot_b'])}",
        "remove": lambda: f"{d['colour']} removes {tile} from {_slot(d['slot'])}",
        "reset": lambda: f"{d['colour']} resets robot {d['robot']}",
        "pass": lambda: f"{d['colour']} passes",
        "double_modification": lambda: f"{d['colour']} uses Double Modification",
        "run": lambda: f"{d['robot']} runs its program",
        "order": lambda: f"{d['robot']}: {tile}",
        "move": lambda: (
            f"{d['robot']} {'is pushed' if d['how'] == 'pushed' else 'moves ' + d['how'].replace('_', ' ')}"
            f" to {place_name(d['hex'])}, facing {d['facing']}"
        ),
        "turn": lambda: f"{d['robot']} turns to face {d['facing']}",
        "blocked": lambda: f"{d['robot']} cannot move ({d['how'].replace('_', ' ')})",
        "mud": lambda: f"{d['robot']} skids in the Mud",
        "crystal_pushed": lambda: f"a {d['crystal']} crystal is pushed to {place_name(d['hex'])}",
        "blob_moved": lambda: f"a Blob moves to {place_name(d['hex'])}",
        "blob_left": lambda: f"the Blob on {place_name(d['hex'])} stays",
        "load": lambda: f"{d['robot']} loads a {d['crystal']} crystal",
        "steal": lambda: f"{d['robot']} steals a {d['crystal']} crystal from {d['victim']}",
        "anti_theft": lambda: f"{d['victim']}'s Anti Theft stops {d['robot']}",
        "unload": lambda: (
            f"{d['robot']} unloads a {d['crystal']} crystal "
            + (f"onto {d['onto']}" if d.get("onto") else f"on {place_name(d['hex'])}")
        ),
        "ignored": lambda: f"{d['robot']}: {d['order']} ignored ({d['why']})",
        "deliver": lambda: f"{d['robot']} delivers a {d['crystal']} crystal to the {d['base']} Base",
        "draw_special": lambda: f"{d['colour']} draws a Special Order",
        "special_drawn": lambda: f"{d['colour']} drew {tile}",
        "crystal_choice": lambda: (
            f"a {d['crystal']} crystal enters: the active player chooses among "
            + ", ".join(place_name(h) for h in d["hexes"])
        ),
        "crystal_enters": lambda: f"a {d['crystal']} crystal enters play on {place_name(d['hex'])}",
        "end_phase": lambda: "the last crystal is in play: the end phase starts",
        "zap": lambda: (
            f"{d['robot']} zaps "
            + (
                "but Anti-Zap resists"
                if d.get("resisted")
                else (f"and hits {d['hit']}" if d.get("hit") else "(no effect)")
            )
        ),
        "zap_order": lambda: f"{d['robot']} is zapped into {_pretty(d['order'])}",
        "countdown": lambda: (
            f"countdown: {d['counters_left']} counter(s) left" + (" - last game turn" if d.get("last_turn") else "")
        ),
        "game_over": lambda: f"game over: {_reason(d['result']['reason'])}",
    }
    try:
        return lines[kind]()  # type: ignore[index]
    except (KeyError, TypeError, AttributeError):
        return f"{kind}: " + ", ".join(f"{k}={v}" for k, v in d.items())
