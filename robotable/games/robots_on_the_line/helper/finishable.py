"""Which hands can finish no robot at all, for any buyer: a table computed once and shipped as data.

A finished robot asks nothing of its parts but their ports (any end, head, base, hand or antenna, turns
to face any port), besides a head and a base somewhere. So whether a torso and a hand can finish a robot
at all depends only on the torso's shape (its cells and the sides of its ports) and on how many tiles of
each shape the hand holds: one-port tiles ("ones"), extenders, elbows and splitters. With at least as
many ones as the torso has ports a robot is always finished (an end on each port); with fewer, the ports
left must be closed by loops of connectors, and the searches that say "no robot" for such hands were the
helper's largest (the same hand searched again for every buyer). ``data/no_robot.json`` lists, for each
torso shape, the counts (ones below the torso's ports, up to ``CAPS`` connectors of each kind) for which
the assembly helper's own search, asked for any finished robot (no requirement, stopping at the first),
searched every layout within ``NODE_LIMIT`` steps and found none. A hand with a head and a base and those
counts is refused before any buyer is looked at (:func:`no_robot`); counts beyond the table, or whose
search stopped at its limit, are searched for each buyer as before. A refusal loses nothing: each buyer's
search is the same search with more cuts, on the parts that buyer may use.

Regenerate the table (after a change to the catalogue or to the search) with::

    python -m robotable.games.robots_on_the_line.helper.finishable --write
"""

from __future__ import annotations

import argparse
import itertools
import json
from importlib import resources
from pathlib import Path
from typing import Any

from ..components import ENDS, PARTS, TORSOS, Torso
from .skeletons import Search

#: The most extenders, elbows and splitters the table covers (hands with more are searched as before).
CAPS = (3, 4, 3)
#: The search steps after which an entry is left unknown (not refused).
NODE_LIMIT = 20_000
DATA = "data/no_robot.json"
_KINDS = ("extender", "elbow", "splitter")


def shape_key(torso: Torso) -> tuple[object, ...]:
    """What of a torso a finished robot depends on: its cells and the sides of its ports (not their pink)."""
    return (torso.cells, tuple(sorted((cell, side) for cell, side, _ in torso.ports)))


#: The torso shapes, each as the torso ints that have it (in catalogue order).
SHAPES: tuple[tuple[int, ...], ...] = tuple(
    tuple(t.index for t in TORSOS if shape_key(t) == key) for key in dict.fromkeys(shape_key(t) for t in TORSOS)
)
#: Per torso int: its shape's number in :data:`SHAPES`.
SHAPE_OF: tuple[int, ...] = tuple(next(n for n, ts in enumerate(SHAPES) if t.index in ts) for t in TORSOS)

#: Per part int, its shape counts packed in fields of 8 bits: one-port ends, heads, bases, extenders,
#: elbows, splitters (a hand holds far fewer than 256 parts).
_ONES, _HEADS, _BASES, _EXT, _ELB, _SPL = 0, 8, 16, 24, 32, 40
_FIELD = 255
_PACKED: tuple[int, ...] = tuple(
    (p.kind in ENDS and len(p.ports) == 1) << _ONES
    | (p.kind == "head") << _HEADS
    | (p.kind == "base") << _BASES
    | (p.kind == "extender") << _EXT
    | (p.kind == "elbow") << _ELB
    | (p.kind == "splitter") << _SPL
    for p in PARTS
)


def counts(hand: tuple[int, ...] | list[int]) -> tuple[int, int, int, int, int, int]:
    """The hand's (ones, heads, bases, extenders, elbows, splitters).

    >>> from robotable.games.robots_on_the_line.components import part_index
    >>> counts([part_index(p) for p in ("head-01", "base-01", "hand-01", "elbow-01", "elbow-02", "magnet-01")])
    (3, 1, 1, 0, 2, 0)
    """
    total = sum(map(_PACKED.__getitem__, hand))
    return (
        total >> _ONES & _FIELD,
        total >> _HEADS & _FIELD,
        total >> _BASES & _FIELD,
        total >> _EXT & _FIELD,
        total >> _ELB & _FIELD,
        total >> _SPL & _FIELD,
    )


def _load() -> frozenset[tuple[int, int, int, int, int]]:
    data = json.loads(resources.files(__package__.rsplit(".", 1)[0]).joinpath(DATA).read_text())
    shape_of_id = {TORSOS[ts[0]].id: n for n, ts in enumerate(SHAPES)}
    return frozenset((shape_of_id[entry["torsos"][0]], *row) for entry in data["shapes"] for row in entry["no_robot"])


#: (shape, ones, extenders, elbows, splitters) of the hands that finish no robot (``data/no_robot.json``).
NO_ROBOT = _load()


def no_robot(hand: tuple[int, ...] | list[int], torso: int) -> bool:
    """Whether the table says ``torso`` and ``hand`` (which holds a head and a base) finish no robot."""
    ones, _, _, ext, elb, spl = counts(hand)
    return (SHAPE_OF[torso], ones, ext, elb, spl) in NO_ROBOT


# -- the table's generation ----------------------------------------------------------------------------------


class AnyRobot(Search):
    """The helper's search asked for any finished robot: no requirement, and it stops at the first."""

    def _ceiling(self) -> int:
        return 0


def representative(torso: int, ones: int, ext: int, elb: int, spl: int) -> tuple[int, ...]:
    """A hand with those counts: a head, a base, hands for the other ones, the first connectors of each kind."""
    of_kind: dict[str, list[int]] = {}
    for p in PARTS:
        of_kind.setdefault(p.kind, []).append(p.index)
    hand = of_kind["head"][:1] + of_kind["base"][:1] + of_kind["hand"][: ones - 2]
    for kind, n in zip(_KINDS, (ext, elb, spl), strict=True):
        hand += of_kind[kind][:n]
    return tuple(sorted(hand))


def finishes(hand: tuple[int, ...], torso: int, limit: int = NODE_LIMIT) -> bool | None:
    """Whether some finished robot is made of ``torso`` and parts of ``hand`` (None: the search stopped at
    ``limit`` steps without finding one)."""
    run = AnyRobot(hand, torso, [], [], 0, limit)
    if run.run() is not None:
        return True
    return False if run.nodes <= limit else None


def shape_table(shape: int) -> dict[str, list[list[int]]]:
    """One shape's entries: the counts that finish no robot, and those whose search stopped at the limit.
    Counts are searched fewest first; counts above ones that finish a robot finish one too (a robot of
    fewer tiles is a robot of more), so those are not searched."""
    torso = SHAPES[shape][0]
    ports = len(TORSOS[torso].ports)
    out: dict[str, list[list[int]]] = {"no_robot": [], "unknown": []}
    for ones in range(2, ports):
        found: dict[tuple[int, ...], bool] = {}
        for vec in sorted(itertools.product(*(range(c + 1) for c in CAPS)), key=lambda v: (sum(v), v)):
            below = ((*vec[:i], vec[i] - 1, *vec[i + 1 :]) for i in range(3) if vec[i])
            if any(found.get(b) for b in below):
                found[vec] = True
                continue
            answer = finishes(representative(torso, ones, *vec), torso)
            found[vec] = bool(answer)
            if answer is None:
                out["unknown"].append([ones, *vec])
            elif not answer:
                out["no_robot"].append([ones, *vec])
    return out


def table() -> dict[str, Any]:
    """The whole table as ``data/no_robot.json`` holds it."""
    return {
        "about": (
            "Torso shapes and counts (one-port ends below the torso's ports, extenders, elbows, splitters) "
            "with which the assembly helper's search finds no finished robot at all: generated by "
            "python -m robotable.games.robots_on_the_line.helper.finishable --write (see that module)."
        ),
        "caps": {"extenders": CAPS[0], "elbows": CAPS[1], "splitters": CAPS[2]},
        "node_limit": NODE_LIMIT,
        "row": ["ones", "extenders", "elbows", "splitters"],
        "shapes": [{"torsos": [TORSOS[t].id for t in ts], **shape_table(n)} for n, ts in enumerate(SHAPES)],
    }


def dumps(data: dict[str, Any]) -> str:
    """The file's text: one row a line, so that a change shows in a diff."""
    lines = ["{"]
    for key in ("about", "caps", "node_limit", "row"):
        lines.append(f"  {json.dumps(key)}: {json.dumps(data[key])},")
    lines.append('  "shapes": [')
    for n, entry in enumerate(data["shapes"]):
        lines.append(f'    {{"torsos": {json.dumps(entry["torsos"])},')
        for field in ("no_robot", "unknown"):
            rows = ", ".join(json.dumps(row) for row in entry[field])
            end = "," if field == "no_robot" else ""
            lines.append(f'     "{field}": [{rows}]{end}')
        lines.append("    }" + ("," if n < len(data["shapes"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description="Generate the helper's table of hands that finish no robot.")
    parser.add_argument("--write", action="store_true", help=f"write {DATA} (default: print it)")
    args = parser.parse_args()
    text = dumps(table())
    if args.write:
        Path(__file__).resolve().parent.parent.joinpath(DATA).write_text(text)
    else:
        print(text, end="")


if __name__ == "__main__":
    main()
