"""Robots on the Line in the terminal: the lines and switches, junk piles, buyers, money and hands.

>>> import io
>>> from robotable.games.robots_on_the_line import GAME
>>> from rich.console import Console
>>> console = Console(width=140, record=True, file=io.StringIO())
>>> console.print(render(GAME.start(2, seed=1).view(0)))
>>> "line 0" in console.export_text()
True
>>> describe({"type": "take_part", "line": 0, "space": 5})
'take the part on line 0, space 5'
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from robotable.games.robots_on_the_line.components import PART_IDS, PARTS, TORSO_IDS, TORSOS

KIND_STYLE = {
    "head": "bold cyan",
    "base": "bold green",
    "hand": "bold yellow",
    "antenna": "magenta",
    "extender": "white",
    "elbow": "white",
    "splitter": "white",
    "battery": "bold blue",
    "magnet": "bold red",
}


def part_label(part_id: str | None) -> Text:
    """A short label for a part: kind, number and the face that matters ('*' maintenance, 'p' pink)."""
    if part_id is None:
        return Text("  .  ", style="dim")
    if part_id in TORSO_IDS:
        t = TORSOS[TORSO_IDS[part_id]]
        pink = "p" if any(pk for _, _, pk in t.ports) else ""
        return Text(f"T{part_id[-2:]}:{t.segments}s{pink}", style="bold white")
    p = PARTS[PART_IDS[part_id]]
    detail = {
        "head": f"{p.eyes}e",
        "base": "whl" if p.wheels else p.style[:3],
        "hand": f"x{p.hands}",
        "extender": "*" if p.maintenance else "",
        "magnet": "!",
    }.get(p.kind, "")
    if any(pink for _, pink in p.ports):
        detail += "p"
    return Text(f"{p.kind[:3].capitalize()}{part_id[-2:]}{':' + detail if detail else ''}", style=KIND_STYLE[p.kind])


def _parts(ids: list[str]) -> Text:
    return Text(" ").join(part_label(i) for i in ids) if ids else Text("-", style="dim")


def _line_table(view: dict[str, Any]) -> Table:
    table = Table(title="Production line (draw pile -> junk pile)", show_lines=False)
    table.add_column("")
    table.add_column("draw")
    for space in range(1, len(view["lines"][0]) + 1):
        table.add_column(str(space), justify="center")
    table.add_column("junk pile (top last)")
    for i, line in enumerate(view["lines"]):
        cells = [part_label(x) for x in line]
        switches = view["switches"][i]
        per_section = len(line) // len(switches)
        for space, cell in enumerate(cells):
            if switches[space // per_section] == "off":
                cell.stylize("dim")
        junk = view["junk_piles"][i]
        table.add_row(
            Text(f"line {i}", style="bold"),
            str(view["draw_piles"][i]),
            *cells,
            _parts(junk[-4:]) if junk else Text("-", style="dim"),
        )
        table.add_row(
            "",
            "",
            *[
                Text(switches[s // per_section].upper(), style="green" if switches[s // per_section] == "on" else "red")
                for s in range(len(line))
            ],
            Text(f"{len(junk)} tiles", style="dim"),
        )
    return table


def _buyers(view: dict[str, Any]) -> Table:
    table = Table(title="Buyers")
    for col in ("buyer", "pays", "money left", "requirements", "bonus tiles"):
        table.add_column(col)
    for b in view["buyers"]:
        reqs = ", ".join(r["text"] + (f" (+${r['bonus']})" if r["bonus"] else "") for r in b["requirements"])
        bonus = ", ".join("+".join(t["icons"]) + f" ${t['value']}" for t in b["bonus_tiles"])
        table.add_row(
            Text(f"{b['name']} [{b['id']}]", style="bold" if b["buying"] else "dim strike"),
            f"${b['pay']}",
            f"${b['money']}",
            reqs or "-",
            bonus or "-",
        )
    return table


def _players(view: dict[str, Any]) -> Table:
    table = Table(title="Players")
    for col in ("seat", "money", "score", "robots", "torso", "hand"):
        table.add_column(col)
    for p in view["players"]:
        me = p["seat"] == view["seat"]
        hand = _parts(p["hand"])
        if p["unknown_parts"]:
            hand.append(f" +{p['unknown_parts']} unseen", style="dim")
        table.add_row(
            Text(
                f"{p['seat']}{' (you)' if me else ''}{' <' if p['seat'] == view['turn'] else ''}",
                style="bold" if me else "",
            ),
            f"${p['money']}",
            str(p["score"]),
            str(p["robots_sold"]),
            part_label(p["torso"]) if p["torso"] else Text("-", style="dim"),
            hand,
        )
    return table


def render(view: dict[str, Any]) -> RenderableType:
    """The table as one seat sees it."""
    head = Text()
    head.append(f"Turn {view['turn_number']}: seat {view['turn']}", style="bold")
    head.append(f"   phase: {view['phase']}   waiting for: {view['to_act']}")
    turn = view["this_turn"]
    head.append(
        f"\nthis turn: part {'taken' if turn['part_taken'] else 'not taken'}, "
        f"junk trades {turn['junk_trades']}/2, torso stack {'used' if turn['torso_stack_used'] else 'unused'}"
    )
    if turn["picks_left"]:
        head.append(f", {turn['picks_left']} junk tiles to pick")
    stack = view["torso_stack"]
    head.append("\ntorso stack: ")
    head.append_text(part_label(stack["top"]) if stack["top"] else Text("empty"))
    head.append(f" on top, {stack['count']} in all   maintenance: {view['maintenance']['stack']} face down")
    hunter = view["bargain_hunter"]
    head.append(f"   Bargain Hunter: ${hunter['any_part']} a part, ${hunter['featured_part']} a {hunter['featured']}")
    parts: list[RenderableType] = [head, _line_table(view), _buyers(view), _players(view)]
    if view["offers"]:
        offers = Text("Open offers:", style="bold")
        for o in view["offers"]:
            offers.append(f"\n  #{o['offer']} seat {o['from']} -> seat {o['to']}: gives ")
            offers.append_text(_parts(o["give"]))
            offers.append(f" +${o['give_money']} for " if o["give_money"] else " for ")
            offers.append_text(_parts(o["take"]))
            if o["take_money"]:
                offers.append(f" +${o['take_money']}")
        parts.append(offers)
    if view.get("result"):
        r = view["result"]
        parts.append(Text(f"Game over ({r['reason']}): scores {r['scores']}, winners {r['winners']}", style="bold"))
    return Group(*parts)


#: Labels of the actions whose fields read straight into a sentence.
LABELS = {
    "take_part": "take the part on line {line}, space {space}",
    "search_junk": "pay $1: take {part} from junk pile {pile}",
    "trade_junk": "trade {part} for the top of junk pile {pile}",
    "take_torso": "take the top torso",
    "choose_torso": "pay $1: choose {torso}",
    "swap_torso": "trade your torso for the top torso",
    "flip_switches": "pay $1: switch {on} ON, switch {off} OFF",
    "flip_switch": "pay $1: turn switch [{line}, {section}] over",
    "sell_part": "sell {part} to the Bargain Hunter",
    "accept": "accept offer #{offer}",
    "decline": "decline offer #{offer}",
    "pick_junk": "pick the top of junk pile {pile}",
    "stop_picking": "pick no more junk tiles",
    "end_turn": "end the turn",
}


def describe(action: dict[str, Any]) -> str:
    """A short label for an action's JSON form."""
    kind = action["type"]
    if kind == "sell_robot":
        tiles = ", ".join(item[0] for item in action["layout"])
        extra = action["batteries"] + action["magnets"]
        return f"sell a robot to {action['buyer']}: {tiles}" + (f" (+ {', '.join(extra)})" if extra else "")
    if kind == "offer":
        give = ", ".join(action["give"]) + (f" +${action['give_money']}" if action["give_money"] else "")
        take = ", ".join(action["take"]) + (f" +${action['take_money']}" if action["take_money"] else "")
        return f"offer seat {action['to']}: {give.strip(', ')} for {take.strip(', ')}"
    label = LABELS.get(kind)
    return kind if label is None else label.format(**action)


def log(event: dict[str, Any]) -> str:
    """One line of the game log for an event's JSON form.

    >>> log({"type": "took", "seat": 1, "line": 0, "spaces": [4, 5], "parts": ["head-01", "magnet-01"]})
    'seat 1 took head-01, magnet-01 from line 0 (spaces 4, 5)'
    """
    kind = event["type"]
    seat = f"seat {event.get('seat')}"
    if kind == "took":
        spaces = ", ".join(map(str, event["spaces"]))
        return f"{seat} took {', '.join(event['parts'])} from line {event['line']} (spaces {spaces})"
    if kind == "searched_junk":
        return f"{seat} paid $1 and took {event['part']} from junk pile {event['pile']}"
    if kind == "traded_junk":
        return f"{seat} traded {event['gave']} for {event['took']} (junk pile {event['pile']})"
    if kind in ("took_torso", "chose_torso"):
        return f"{seat} took {event['torso']}" + (" for $1" if kind == "chose_torso" else "")
    if kind == "swapped_torso":
        return f"{seat} traded {event['gave']} for {event['took']} from the torso stack"
    if kind == "sold_part":
        return f"{seat} sold {event['part']} to the Bargain Hunter for ${event['price']}"
    if kind == "sold_robot":
        paid = event["paid"]
        return f"{seat} sold a robot to {event['buyer']} for ${paid['total']} ({paid})"
    if kind == "drawn":
        return f"line {event['line']}, space {event['space']}: {event['part']}"
    if kind == "to_junk":
        return f"{event['part']} falls onto junk pile {event['line']}"
    if kind == "maintenance":
        return f"maintenance: {event['tile'] or 'none left'}"
    if kind == "turn":
        return f"-- turn {event['turn']}: seat {event['seat']} --"
    if kind in ("offer", "accepted"):
        verb = "offers" if kind == "offer" else "trade done:"
        return f"#{event['offer']} seat {event['from']} {verb} seat {event['to']}: {event['give']} for {event['take']}"
    if kind == "game_over":
        return f"game over: {event['reason']}"
    data = {k: v for k, v in event.items() if k != "type"}
    return f"{kind}: {data}" if data else kind
