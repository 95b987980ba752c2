"""Robots on the Line in the terminal: the lines and switches, junk piles, buyers, money and hands.

Every text comes from the message catalogue (namespace ``robots-on-the-line``, docs/i18n.md): parts,
torsos and buyers by their names, places as the table shows them (line 1, space 3), seats from 1. The
language is ``ROBOTABLE_LANG``, else the locale's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English;
each function also takes ``lang``.

>>> import io
>>> from robotable.games.robots_on_the_line import GAME
>>> from rich.console import Console
>>> console = Console(width=140, record=True, file=io.StringIO())
>>> console.print(render(GAME.start(2, seed=1).view(0), lang="en"))
>>> "Line 1" in console.export_text()
True
>>> describe({"type": "take_part", "line": 0, "space": 5}, lang="en")
'take the part on line 1, space 5'
>>> describe({"type": "take_part", "line": 0, "space": 5}, lang="ja")
'ライン1のマス5のパーツを取る'
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from robotable.core.i18n import environment_language as language
from robotable.core.i18n import translate
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


def _t(key: str, lang: str, **params: Any) -> str:
    return translate(f"robots-on-the-line:{key}", lang=lang, **params)


def name(tile_id: str | None, lang: str) -> str:
    """A part's or torso's catalogue name ("Head (2 eyes, flight)")."""
    if tile_id is None:
        return ""
    group = "torsos" if tile_id in TORSO_IDS else "parts"
    return translate(f"robots-on-the-line:names.{group}.{tile_id}", lang=lang)


def names(ids: list[str], lang: str) -> str:
    return _t("ui.list_separator", lang).join(name(i, lang) for i in ids) or _t("ui.nothing", lang)


def part_label(part_id: str | None, lang: str | None = None) -> Text:
    """A short label for a part in a line cell: its kind and what matters on its face."""
    lang = language(lang)
    if part_id is None:
        return Text("  .  ", style="dim")
    if part_id in TORSO_IDS:
        t = TORSOS[TORSO_IDS[part_id]]
        label = _t("terminal.torso_short", lang, n=t.segments)
        if any(pk for _, _, pk in t.ports):
            label += _t("terminal.pink_short", lang)
        return Text(label, style="bold white")
    p = PARTS[PART_IDS[part_id]]
    kind = translate(f"robots-on-the-line:names.kinds.{p.kind}", lang=lang)
    detail = {
        "head": _t("terminal.eyes_short", lang, n=p.eyes),
        "base": _t("terminal.wheels_short", lang) if p.wheels else "",
        "hand": _t("terminal.hands_short", lang, n=p.hands) if p.hands > 1 else "",
        "extender": _t("terminal.maintenance_short", lang) if p.maintenance else "",
    }.get(p.kind, "")
    if any(pink for _, pink in p.ports):
        detail += _t("terminal.pink_short", lang)
    return Text(f"{kind}{' ' + detail if detail else ''}", style=KIND_STYLE[p.kind])


def _parts(ids: list[str], lang: str) -> Text:
    return Text(" ").join(part_label(i, lang) for i in ids) if ids else Text("-", style="dim")


def _line_table(view: dict[str, Any], lang: str) -> Table:
    table = Table(title=_t("terminal.line_title", lang), show_lines=False)
    table.add_column("")
    table.add_column(_t("ui.draw", lang))
    for space in range(1, len(view["lines"][0]) + 1):
        table.add_column(str(space), justify="center")
    table.add_column(_t("terminal.junk_column", lang))
    for i, line in enumerate(view["lines"]):
        cells = [part_label(x, lang) for x in line]
        switches = view["switches"][i]
        per_section = len(line) // len(switches)
        for space, cell in enumerate(cells):
            if switches[space // per_section] == "off":
                cell.stylize("dim")
        junk = view["junk_piles"][i]
        table.add_row(
            Text(_t("ui.line_n", lang, n=i + 1), style="bold"),
            str(view["draw_piles"][i]),
            *cells,
            _parts(junk[-4:], lang) if junk else Text("-", style="dim"),
        )
        state = {"on": _t("ui.on", lang), "off": _t("ui.off", lang)}
        table.add_row(
            "",
            "",
            *[
                Text(state[switches[s // per_section]], style="green" if switches[s // per_section] == "on" else "red")
                for s in range(len(line))
            ],
            Text(_t("ui.junk_count", lang, n=i + 1, count=len(junk)), style="dim"),
        )
    return table


def _buyers(view: dict[str, Any], lang: str) -> Table:
    table = Table(title=_t("ui.buyers", lang))
    for col in ("buyer", "pays", "money_left", "requirements", "bonus_tiles"):
        table.add_column(_t(f"terminal.{col}", lang))
    for b in view["buyers"]:
        reqs = _t("ui.list_separator", lang).join(
            translate(f"robots-on-the-line:names.requirements.{r['id']}", lang=lang)
            + (f" (+${r['bonus']})" if r["bonus"] else "")
            for r in b["requirements"]
        )
        bonus = _t("ui.list_separator", lang).join(
            translate(f"robots-on-the-line:names.bonus.{t['id']}", lang=lang) for t in b["bonus_tiles"]
        )
        table.add_row(
            Text(
                buyer_name(b["id"], lang),
                style="bold" if b["buying"] else "dim strike",
            ),
            f"${b['pay']}",
            f"${b['money']}",
            reqs or "-",
            bonus or "-",
        )
    return table


def _players(view: dict[str, Any], lang: str) -> Table:
    table = Table(title=_t("ui.players", lang))
    for col in ("seat", "money", "score", "robots", "torso", "hand"):
        table.add_column(_t(f"terminal.{col}", lang))
    for p in view["players"]:
        me = p["seat"] == view["seat"]
        hand = _parts(p["hand"], lang)
        if p["unknown_parts"]:
            hand.append(" " + _t("ui.unseen", lang, count=p["unknown_parts"]), style="dim")
        seat = _t("ui.seat", lang, n=p["seat"] + 1)
        table.add_row(
            Text(
                f"{seat}{_t('terminal.you', lang) if me else ''}{' <' if p['seat'] == view['turn'] else ''}",
                style="bold" if me else "",
            ),
            f"${p['money']}",
            str(p["score"]),
            str(p["robots_sold"]),
            part_label(p["torso"], lang) if p["torso"] else Text("-", style="dim"),
            hand,
        )
    return table


def render(view: dict[str, Any], lang: str | None = None) -> RenderableType:
    """The table as one seat sees it."""
    lang = language(lang)
    head = Text()
    head.append(_t("terminal.turn", lang, n=view["turn_number"], seat=view["turn"] + 1), style="bold")
    waiting = _t("ui.list_separator", lang).join(_t("ui.seat", lang, n=s + 1) for s in view["to_act"])
    head.append("   " + _t("terminal.waiting", lang, seats=waiting or "-"))
    turn = view["this_turn"]
    head.append("\n" + _t("terminal.this_turn", lang))
    head.append(_t("ui.part_taken", lang) if turn["part_taken"] else _t("ui.part_not_yet", lang))
    head.append(", " + _t("ui.junk_trades", lang, n=turn["junk_trades"]) + ", ")
    head.append(_t("ui.torso_stack_used", lang) if turn["torso_stack_used"] else _t("ui.torso_stack_free", lang))
    if turn["picks_left"]:
        head.append(", " + _t("terminal.picks_left", lang, count=turn["picks_left"]))
    stack = view["torso_stack"]
    head.append("\n" + _t("ui.torso_stack", lang) + ": ")
    head.append(name(stack["top"], lang) if stack["top"] else _t("ui.empty", lang))
    head.append(" (" + _t("ui.torso_count", lang, count=stack["count"]) + ")   ")
    head.append(_t("ui.maintenance_left", lang, n=view["maintenance"]["stack"]))
    hunter = view["bargain_hunter"]
    kind = translate(f"robots-on-the-line:names.kinds.{hunter['featured']}", lang=lang)
    head.append(
        "\n"
        + _t("names.bargain_hunter", lang)
        + ": "
        + _t("ui.hunter_any", lang, price=f"${hunter['any_part']}")
        + " "
        + _t("ui.hunter_featured", lang, kind=kind, price=f"${hunter['featured_part']}")
    )
    parts: list[RenderableType] = [head, _line_table(view, lang), _buyers(view, lang), _players(view, lang)]
    if view["offers"]:
        offers = Text(_t("terminal.open_offers", lang), style="bold")
        for o in view["offers"]:
            offers.append("\n  " + offer_text(o, lang))
        parts.append(offers)
    if view.get("result"):
        r = view["result"]
        winners = _t("ui.list_separator", lang).join(_t("ui.seat", lang, n=s + 1) for s in r["winners"])
        scores = _t("ui.list_separator", lang).join(
            f"{_t('ui.seat', lang, n=s + 1)} {score}" for s, score in enumerate(r["scores"])
        )
        parts.append(Text(_t("terminal.game_over", lang, scores=scores, winners=winners), style="bold"))
    return Group(*parts)


def offer_text(o: dict[str, Any], lang: str) -> str:
    """An open offer or a trade: who gives what for what."""
    sep = _t("ui.list_separator", lang)
    gives = sep.join([name(x, lang) for x in o["give"]] + ([f"${o['give_money']}"] if o["give_money"] else []))
    takes = sep.join([name(x, lang) for x in o["take"]] + ([f"${o['take_money']}"] if o["take_money"] else []))
    return _t(
        "ui.offer_line",
        lang,
        n=o["offer"],
        **{"from": _t("ui.seat", lang, n=o["from"] + 1)},
        to=_t("ui.seat", lang, n=o["to"] + 1),
        gives=gives or _t("ui.nothing", lang),
        takes=takes or _t("ui.nothing", lang),
    )


def buyer_name(buyer_id: str, lang: str) -> str:
    return translate(f"robots-on-the-line:names.buyers.{buyer_id}", lang=lang)


def _switch(pair: list[int], lang: str) -> str:
    spaces = _t("ui.spaces_4_6", lang) if pair[1] else _t("ui.spaces_1_3", lang)
    return _t("ui.switch_name", lang, line=pair[0] + 1, spaces=spaces)


def describe(action: dict[str, Any], lang: str | None = None) -> str:
    """A short label for an action's JSON form."""
    lang = language(lang)
    kind = action["type"]
    a = action
    if kind == "sell_robot":
        tiles = [item[0] for item in a["layout"]] + a["batteries"] + a["magnets"]
        buyer = buyer_name(a["buyer"], lang)
        return _t("terminal.do.sell_robot", lang, buyer=buyer, parts=names(tiles, lang))
    if kind == "offer":
        return _t(
            "terminal.do.offer",
            lang,
            seat=a["to"] + 1,
            gives=names(a["give"], lang) + _money(a["give_money"]),
            takes=names(a["take"], lang) + _money(a["take_money"]),
        )
    simple = {
        "take_part": lambda: {"line": a["line"] + 1, "space": a["space"]},
        "search_junk": lambda: {"part": name(a["part"], lang), "n": a["pile"] + 1},
        "trade_junk": lambda: {"part": name(a["part"], lang), "n": a["pile"] + 1},
        "choose_torso": lambda: {"torso": name(a["torso"], lang)},
        "flip_switches": lambda: {"on": _switch(a["on"], lang), "off": _switch(a["off"], lang)},
        "flip_switch": lambda: {"name": _switch([a["line"], a["section"]], lang)},
        "sell_part": lambda: {"part": name(a["part"], lang)},
        "accept": lambda: {"n": a["offer"]},
        "decline": lambda: {"n": a["offer"]},
        "pick_junk": lambda: {"n": a["pile"] + 1},
        "take_torso": dict,
        "swap_torso": dict,
        "stop_picking": dict,
        "end_turn": dict,
    }
    if kind not in simple:
        return kind
    return _t(f"terminal.do.{kind}", lang, **simple[kind]())


def _money(amount: int) -> str:
    return f" +${amount}" if amount else ""


def log(event: dict[str, Any], lang: str | None = None) -> str:
    """One line of the game log for an event's JSON form.

    >>> log({"type": "took", "seat": 1, "line": 0, "spaces": [4, 5], "parts": ["head-01", "magnet-01"]}, lang="en")
    'Seat 2 took Head (1 eye), Magnet from line 1 (spaces 4, 5)'
    """
    lang = language(lang)
    e = event
    kind = e["type"]
    who = _t("ui.seat", lang, n=e["seat"] + 1) if isinstance(e.get("seat"), int) else ""
    sep = _t("ui.list_separator", lang)
    simple = {
        "took": lambda: {
            "who": who,
            "parts": names(e["parts"], lang),
            "line": e["line"] + 1,
            "spaces": sep.join(map(str, e["spaces"])),
        },
        "searched_junk": lambda: {"who": who, "part": name(e["part"], lang), "n": e["pile"] + 1},
        "traded_junk": lambda: {
            "who": who,
            "gave": name(e["gave"], lang),
            "took": name(e["took"], lang),
            "n": e["pile"] + 1,
        },
        "took_torso": lambda: {"who": who, "torso": name(e["torso"], lang)},
        "chose_torso": lambda: {"who": who, "torso": name(e["torso"], lang)},
        "swapped_torso": lambda: {"who": who, "gave": name(e["gave"], lang), "took": name(e["took"], lang)},
        "switches": lambda: {"who": who, "on": _switch(e["on"], lang), "off": _switch(e["off"], lang)},
        "switch": lambda: {"who": who, "name": _switch([e["line"], e["section"]], lang)},
        "sold_part": lambda: {"who": who, "part": name(e["part"], lang), "money": f"${e['price']}"},
        "sold_robot": lambda: {
            "who": who,
            "buyer": buyer_name(e["buyer"], lang),
            "money": f"${e['paid']['total']}",
        },
        "buyer_done": lambda: {"buyer": buyer_name(e["buyer"], lang)},
        "declined": lambda: {"who": who, "n": e["offer"]},
        "offer_void": lambda: {"n": e["offer"]},
        "picked": lambda: {"who": who, "part": name(e["part"], lang), "n": e["pile"] + 1},
        "to_junk": lambda: {"part": name(e["part"], lang), "n": e["line"] + 1},
        "turn": lambda: {"who": who, "n": e["turn"]},
        "line_cleared": lambda: {"n": e["line"] + 1},
        "torso_stack_seen": lambda: {"torsos": names(e["order"], lang)},
        "drawn": lambda: {
            "part": name(e["part"], lang),
            "where": _t("ui.line_space", lang, line=e["line"] + 1, space=e["space"]),
        },
    }
    if kind in simple:
        return _t(f"log.{kind}", lang, **simple[kind]())
    if kind == "offer":
        return _t("terminal.offered", lang, offer=offer_text(e, lang))
    if kind == "accepted":
        return _t("terminal.accepted", lang, offer=offer_text(e, lang))
    if kind == "maintenance":
        tile = e["tile"]
        if tile is None:
            return _t("log.maintenance_none", lang)
        return _t("log.maintenance", lang, tile=translate(f"robots-on-the-line:names.maintenance.{tile}", lang=lang))
    if kind == "game_over":
        return _t("log.game_over_robots", lang) if "robots" in e["reason"] else _t("log.game_over_parts", lang)
    if kind in ("line_advanced", "stopped_picking", "offer_lapsed"):
        return _t(f"terminal.event.{kind}", lang)
    return kind
