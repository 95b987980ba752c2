"""TF22: RELOAD! in the terminal, in the catalogue's languages (namespace ``tf22-reload``, as the browser).

The language is ``lang``, else ``ROBOTABLE_LANG``, else the locale's (``LC_ALL``, ``LC_MESSAGES``,
``LANG``), else English. Seats and slots are counted from 1, as people read them.

>>> describe({"type": "r_buy", "colour": "green", "slot": 1}, lang="en")
'R d: buy a green container onto slot 2 (3 chips)'
>>> log({"type": "chose", "seat": 0}, lang="ja")
'1番席が選びました。'
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from robotable.core.i18n import environment_language as language
from robotable.core.i18n import translate

STYLE = {"yellow": "bold yellow", "red": "bold red", "blue": "bold blue", "green": "bold green"}
R_LETTER = {"r_take_back": "a", "r_discard": "b", "r_reload": "c", "r_buy": "d"}


def _t(key: str, lang: str, **params: Any) -> str:
    return translate(f"tf22-reload:{key}", lang=lang, **params)


def _colour(colour: str, lang: str) -> str:
    return translate(f"tf22-reload:names.colour.{colour}", lang=lang)


def _seat(seat: int, lang: str) -> str:
    return _t("names.seat", lang, n=seat + 1)


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


def _head(view: dict[str, Any], lang: str) -> Text:
    head = Text()
    round_battle = _t(
        "table.round_battle", lang, round=view["round"], battle=view["battle"], of=view["battles_per_round"]
    )
    head.append(f"{round_battle}  ", style="bold")
    head.append_text(_cards(view["revealed"]))
    if view["activated"]:
        head.append("  ")
        head.append(
            _t("table.activated", lang, Colour=_colour(view["activated"], lang)), style=STYLE[view["activated"]]
        )
    elif view["battle_colour"]:
        head.append(
            "  " + _t("table.no_container_left", lang, colour=_colour(view["battle_colour"], lang)), style="dim"
        )
    head.append("\n" + _t("table.stack", lang, n=view["deck_count"]) + "   " + _t("table.stock", lang) + " ")
    head.append_text(Text(" ").join(Text(f"{n}{c[0].upper()}", style=STYLE[c]) for c, n in view["stock"].items()))
    head.append("   " + _t("table.chip_stock", lang, n=view["chipcard_stock"]))
    if view["set_aside"]:
        head.append("   " + _t("table.set_aside", lang, cards=""))
        head.append_text(_cards(view["set_aside"]))
    return head


def render(view: dict[str, Any], lang: str | None = None) -> RenderableType:
    """The table as one seat sees it: the battle, then every player's ship, cards and score."""
    lang = language(lang)
    table = Table(show_lines=False, expand=False)
    heads = ("player", "col_ship", "col_hand", "col_discard", "chips", "col_cc", "r1", "r2", "bonus", "total", "")
    for key in heads:
        table.add_column(_t(f"table.{key}", lang) if key else "")
    for p in view["players"]:
        me = p["seat"] == view["seat"]
        status = ""
        if view["phase"] == "choose":
            if "choice" in p:
                status = describe(p["choice"], lang)
            elif p["has_chosen"]:
                status = _t("table.has_chosen", lang)
            else:
                status = _t("table.choosing", lang)
        elif view["phase"] == "load" and view["winner"] == p["seat"]:
            status = _t("table.won_loading", lang)
        name = _seat(p["seat"], lang)
        table.add_row(
            Text(_t("names.you", lang, name=name) if me else name, style="bold" if me else ""),
            _ship(p["ship"]),
            " ".join(map(str, p["hand"])) + " R",
            " ".join(map(str, sorted(p["discard"]))) or "-",
            str(p["chipcards"]),
            _cards(p["cc_pile"]),
            str(p["scores"]["round_1"]),
            str(p["scores"]["round_2"]),
            str(p["scores"]["bonus"]),
            Text(str(p["scores"]["total"]), style="bold"),
            status,
        )
    parts: list[RenderableType] = [_head(view, lang), table]
    last = view.get("last_battle")
    if last:
        event = {"type": "battle", "winner": last["winner"], "tied": last["tied"], "neutralized": last["neutralized"]}
        reveal = log({"type": "reveal", "choices": last["choices"]}, lang)
        parts.append(Text(f"{reveal} {log(event, lang)}", style="italic"))
    return Group(*parts)


def describe(action: dict[str, Any], lang: str | None = None) -> str:
    """A short label for an action's JSON form (``RCU-5``, ``R d: buy a green container onto slot 2 ...``)."""
    lang = language(lang)
    kind = action["type"]
    slots: dict[str, Any] = {}
    if "slot" in action:
        slots["slot"] = action["slot"] + 1
    if "from_slot" in action:  # the catalogue's action sentences name them as the browser does
        slots["from_slot"] = action["from_slot"] + 1
        slots["to_slot"] = action["to_slot"] + 1
    if kind == "play":
        return _t("action.play", lang, value=action["value"])
    if kind in ("r_take_back", "r_discard", "r_reload", "r_buy", "load", "reload", "return"):
        colour = _colour(action["colour"], lang) if "colour" in action else ""
        return _t(f"action.{kind}", lang, colour=colour, **slots)
    return str(action)


def _both(cards: list[list[Any]], lang: str) -> str:
    names = [
        _t("names.card_short", lang, colour=translate(f"tf22-reload:names.Colour.{c}", lang=lang), value=v)
        for c, v in cards
    ]
    return _t("log.and", lang, a=names[0], b=names[1]) if len(names) == 2 else ", ".join(names)


def log(event: dict[str, Any], lang: str | None = None) -> str:
    """One line of the game log for an event's JSON form (the browser's sentences)."""
    lang = language(lang)
    kind = event["type"]
    p: dict[str, Any] = {}
    if event.get("seat") is not None:
        p["who"] = _seat(event["seat"], lang)
    if event.get("colour"):
        p["colour"] = _colour(event["colour"], lang)
    if "slot" in event:
        p["slot"] = event["slot"] + 1
    if "from_slot" in event:
        p["from"], p["to"] = event["from_slot"] + 1, event["to_slot"] + 1
    if "cards" in event and kind != "r_take_back":
        p["cards"] = _both(event["cards"], lang)
    if kind == "activate":
        key = "log.activate" if event["container"] else "log.activate_none"
        return _t(key, lang, battle=event["battle"], **p)
    if kind == "reveal":
        choices = [
            _t("log.reveal_play", lang, name=_seat(s, lang), value=c["value"])
            if c["type"] == "play"
            else _t("log.reveal_r", lang, name=_seat(s, lang), use=R_LETTER[c["type"]])
            for s, c in enumerate(event["choices"])
        ]
        return _t("log.reveal", lang, choices=", ".join(choices))
    if kind == "your_choice":
        return _t("log.your_choice", lang, choice=describe(event["choice"], lang))
    if kind == "r_take_back":
        cards = ", ".join(map(str, sorted(event["cards"]))) or _t("log.nothing", lang)
        return _t("log.r_take_back", lang, cards=cards, **p)
    if kind == "battle":
        return _battle(event, lang)
    if kind in ("round_start", "round_scored"):
        scores = ", ".join(f"{_seat(s, lang)} {part['total']}" for s, part in enumerate(event.get("scores", [])))
        return _t(f"log.{kind}", lang, round=event["round"], scores=scores)
    if kind == "game_over":
        winners = event["result"]["winners"]
        who = ", ".join(_seat(w, lang) for w in winners)
        return _t("log.game_over_shared" if len(winners) > 1 else "log.game_over_single", lang, who=who)
    known = ("chose", "r_discard", "r_reload", "r_buy", "r_buy_cancelled", "chipcard", "chipcard_stock_empty")
    if kind in (*known, "won_cards", "set_aside", "load", "reload", "container_returned"):
        return _t(f"log.{kind}", lang, **p)
    return f"{kind}: {event}"


def _battle(event: dict[str, Any], lang: str) -> str:
    parts = []
    if event["neutralized"]:
        parts.append(_t("log.neutralized", lang, who=", ".join(_seat(s, lang) for s in event["neutralized"])))
    if event["tied"]:
        parts.append(_t("log.tie", lang, who=", ".join(_seat(s, lang) for s in event["tied"])))
    if event["winner"] is None:
        parts.append(_t("log.absolute_tie", lang))
    else:
        parts.append(_t("log.wins_battle", lang, who=_seat(event["winner"], lang)))
    return _t("log.battle", lang, parts="; ".join(parts))
