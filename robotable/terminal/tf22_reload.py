"""TF22: RELOAD! in the terminal."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

STYLE = {"yellow": "bold yellow", "red": "bold red", "blue": "bold blue", "green": "bold green"}


def _card(card: list[Any]) -> Text:
    colour, value = card
    return Text(f"{colour[0].upper()}{value}", style=STYLE[colour])


def _cards(cards: list[list[Any]]) -> Text:
    return Text(" ").join(_card(c) for c in cards) if cards else Text("-", style="dim")


def _ship(ship: list[list[str]]) -> Text:
    slots = []
    for stack in ship:
        slot = Text("[")
        slot.append(Text("").join(Text(c[0].upper(), style=STYLE[c]) for c in stack) or Text(" "))
        slot.append("]")
        slots.append(slot)
    return Text(" ").join(slots)


def _choice(choice: dict[str, Any]) -> str:
    return describe(choice)


def render(view: dict[str, Any]) -> RenderableType:
    """The table as one seat sees it: the battle, then every player's ship, cards and score."""
    head = Text()
    head.append(f"Round {view['round']}, battle {view['battle']}/{view['battles_per_round']}  ", style="bold")
    head.append("revealed: ")
    head.append_text(_cards(view["revealed"]))
    if view["activated"]:
        head.append("  activated: ")
        head.append(view["activated"], style=STYLE[view["activated"]])
    elif view["battle_colour"]:
        head.append(f"  no {view['battle_colour']} container left to activate", style="dim")
    head.append(f"\nstack: {view['deck_count']} cards   stock: ")
    head.append_text(Text(" ").join(Text(f"{n}{c[0].upper()}", style=STYLE[c]) for c, n in view["stock"].items()))
    head.append(f"   chipcards: {view['chipcard_stock']}")
    if view["set_aside"]:
        head.append("   set aside: ")
        head.append_text(_cards(view["set_aside"]))

    table = Table(show_lines=False, expand=False)
    for col in ("seat", "ship", "hand", "RC discard", "chips", "CC pile", "R1", "R2", "bonus", "total", ""):
        table.add_column(col)
    for p in view["players"]:
        me = p["seat"] == view["seat"]
        status = ""
        if view["phase"] == "choose":
            status = ("chose " + _choice(p["choice"])) if "choice" in p else ("chosen" if p["has_chosen"] else "...")
        elif view["phase"] == "load" and view["winner"] == p["seat"]:
            status = "deciding load"
        table.add_row(
            Text(f"{p['seat']}{' (you)' if me else ''}", style="bold" if me else ""),
            _ship(p["ship"]),
            " ".join(map(str, p["hand"])) + " R",
            " ".join(map(str, p["discard"])) or "-",
            str(p["chipcards"]),
            _cards(p["cc_pile"]),
            str(p["scores"]["round_1"]),
            str(p["scores"]["round_2"]),
            str(p["scores"]["bonus"]),
            Text(str(p["scores"]["total"]), style="bold"),
            status,
        )
    parts: list[RenderableType] = [head, table]
    last = view.get("last_battle")
    if last:
        plays = ", ".join(f"{seat}: {_choice(c)}" for seat, c in enumerate(last["choices"]))
        outcome = "absolute tie" if last["winner"] is None else f"seat {last['winner']} won"
        extra = f"; tied {last['tied']}" if last["tied"] else ""
        extra += f"; neutralized {last['neutralized']}" if last["neutralized"] else ""
        parts.append(Text(f"Last battle: {plays} -> {outcome}{extra}", style="italic"))
    return Group(*parts)


def describe(action: dict[str, Any]) -> str:
    """A short label: ``RCU-5``, ``R: take back``, ``R: buy green -> slot 2``, ``load -> slot 1``."""
    kind = action["type"]
    if kind == "play":
        return f"RCU-{action['value']}"
    if kind == "r_take_back":
        return "R: take back discards"
    if kind == "r_discard":
        return f"R: discard top of slot {action['slot']} (1 chip)"
    if kind == "r_reload":
        return f"R: move slot {action['from_slot']} -> slot {action['to_slot']} (2 chips)"
    if kind == "r_buy":
        return f"R: buy {action['colour']} -> slot {action['slot']} (3 chips)"
    if kind == "load":
        return f"load on slot {action['slot']}"
    if kind == "reload":
        return f"reload (bluff): slot {action['from_slot']} -> slot {action['to_slot']}"
    if kind == "return":
        return "return the container to the stock"
    return str(action)


def _cards_text(cards: list[list[Any]]) -> str:
    return " + ".join(f"{colour} {value}" for colour, value in cards)


def log(event: dict[str, Any]) -> str:
    """One line of the game log for an event's JSON form."""
    kind, seat = event["type"], event.get("seat")
    lines = {
        "round_start": lambda: f"Round {event['round']} begins",
        "activate": lambda: (
            f"Battle {event['battle']}: {_cards_text(event['cards'])} -> "
            + (f"a {event['colour']} container is activated" if event["container"] else f"no {event['colour']} left")
        ),
        "chose": lambda: f"seat {seat} has chosen",
        "your_choice": lambda: f"you chose {describe(event['choice'])}",
        "reveal": lambda: "revealed: " + ", ".join(f"seat {s} {describe(c)}" for s, c in enumerate(event["choices"])),
        "r_take_back": lambda: f"seat {seat} (R) takes back {len(event['cards'])} card(s)",
        "r_discard": lambda: f"seat {seat} (R) discards a {event['colour']} container from slot {event['slot']}",
        "r_reload": lambda: (
            f"seat {seat} (R) moves a {event['colour']} container "
            f"from slot {event['from_slot']} to slot {event['to_slot']}"
        ),
        "r_buy": lambda: f"seat {seat} (R) buys a {event['colour']} container onto slot {event['slot']}",
        "r_buy_cancelled": lambda: f"seat {seat}'s buy is cancelled: no {event['colour']} container left",
        "battle": lambda: (
            ("absolute tie" if event["winner"] is None else f"seat {event['winner']} wins the battle")
            + (f"; seats {event['tied']} tie" if event["tied"] else "")
            + (f"; seats {event['neutralized']} neutralized" if event["neutralized"] else "")
        ),
        "chipcard": lambda: f"seat {seat} gets a chipcard",
        "chipcard_stock_empty": lambda: f"no chipcard left for seat {seat}",
        "won_cards": lambda: f"seat {seat} takes {_cards_text(event['cards'])}",
        "set_aside": lambda: f"{_cards_text(event['cards'])} are set aside for the round",
        "load": lambda: f"seat {seat} loads the {event['colour']} container on slot {event['slot']}",
        "reload": lambda: (
            f"seat {seat} reloads a {event['colour']} container "
            f"from slot {event['from_slot']} to slot {event['to_slot']}"
        ),
        "container_returned": lambda: f"the {event['colour']} container returns to the stock",
        "round_scored": lambda: (
            f"Round {event['round']} scores: "
            + ", ".join(f"seat {s} {part['total']}" for s, part in enumerate(event["scores"]))
        ),
        "game_over": lambda: "Game over",
    }
    return lines[kind]() if kind in lines else f"{kind}: {event}"
