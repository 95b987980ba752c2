"""Robot geometry: finished robots, the reasons an unfinished one is refused, and every requirement kind."""

from __future__ import annotations

import pytest

from robotable.games.robots_on_the_line.components import PART_IDS, REQUIREMENTS
from robotable.games.robots_on_the_line.geometry import assemble, measure, meets, place, shortfall

REQ = {r.id: r for r in REQUIREMENTS}

# torso-07: one cell, ports N E S W.
PLAIN = [
    ("torso-07", 0, 0, 0),
    ("head-01", 0, -1, 0),
    ("base-07", 0, 1, 0),
    ("hand-20", 1, 0, 0),
    ("hand-21", -1, 0, 2),
]


def m_of(layout, batteries=()):
    robot = assemble(layout)
    assert robot.problems == []
    return measure(robot, batteries)


def with_(layout, *items, drop=()):
    return [t for t in layout if t[0] not in drop] + list(items)


def test_a_plain_robot_is_finished_and_measured():
    m = m_of(PLAIN)
    assert (m.eyes, m.heads, m.bases, m.hands, m.tall, m.wide, m.long_arm) == (1, 1, 1, 2, 3, 3, 1)
    assert m.symmetric and not m.wheels and m.pink_pairs == 0
    assert m.icons == {"war", "repair"}


def test_rotation_turns_ports_clockwise():
    assert place("hand-20", 0, 0, 0).ports == [((0, 0), 3, False)]  # W
    assert place("hand-20", 0, 0, 1).ports == [((0, 0), 0, False)]  # N
    assert place("hand-20", 0, 0, 2).ports == [((0, 0), 1, False)]  # E
    with pytest.raises(ValueError, match="torsos do not rotate"):
        place("torso-07", 0, 0, 1)
    with pytest.raises(ValueError, match="rotation must be 0 to 3"):
        place("head-01", 0, 0, 4)


@pytest.mark.parametrize(
    ("layout", "reason"),
    [
        (PLAIN[:-1], "open port: torso-07 at (0, 0) side W faces nothing"),
        (with_(PLAIN, ("hand-22", -1, 0, 0), drop=["hand-21"]), "faces hand-22, which has no port there"),
        ([*with_(PLAIN, drop=["base-07"]), ("hand-23", 0, 1, 3)], "no base"),
        ([*with_(PLAIN, drop=["head-01"]), ("hand-23", 0, -1, 1)], "no head"),
        (with_(PLAIN, ("head-02", 0, -1, 0)), "head-01 and head-02 overlap at (0, -1)"),
        (with_(PLAIN, ("torso-08", 5, 5, 0)), "2 torsos (torso-07, torso-08): a robot has exactly one"),
        (
            with_(PLAIN, ("hand-23", 4, 4, 0), ("hand-24", 3, 4, 2)),
            "hand-23 at (4, 4) is not connected to the torso-07",
        ),
        (with_(PLAIN, ("head-01", 3, 3, 0)), "head-01 is placed twice"),
        (with_(PLAIN, ("battery-01", 4, 4, 0)), "battery-01: a battery is not placed on a robot"),
        ([t for t in PLAIN if t[0] != "torso-07"], "no torso"),
    ],
)
def test_unfinished_robots_are_refused_with_the_reason(layout, reason):
    problems = assemble(layout).problems
    assert any(reason in p for p in problems), problems


def test_two_torso_cells_and_pink_pairs():
    # torso-11: pink E port; hand-16 has a pink port: a pink pair.
    layout = [
        ("torso-11", 0, 0, 0),
        ("head-01", 0, -1, 0),
        ("base-07", 0, 1, 0),
        ("hand-16", 1, 0, 0),
        ("hand-21", -1, 0, 2),
    ]
    assert m_of(layout).pink_pairs == 1
    # a plain hand on the pink port: no pair
    assert m_of(with_(layout, ("hand-20", 1, 0, 0), drop=["hand-16"])).pink_pairs == 0
    # torso-13 is two cells tall: head above, base below, tall 4
    tall = [
        ("torso-13", 0, 0, 0),
        ("head-01", 0, -1, 0),
        ("base-07", 0, 2, 0),
        ("hand-20", 1, 0, 0),
        ("hand-21", -1, 0, 2),
        ("hand-22", 1, 1, 0),
    ]
    assert m_of(tall).tall == 4


# -- every requirement kind: one robot that meets it, one that just fails --------------------------------

TALL5 = [
    ("torso-07", 0, 0, 0),
    ("extender-09", 0, -1, 1),
    ("head-01", 0, -2, 0),
    ("extender-10", 0, 1, 1),
    ("base-07", 0, 2, 0),
    ("hand-20", 1, 0, 0),
    ("hand-21", -1, 0, 2),
]
TALL4 = with_(TALL5, ("base-07", 0, 1, 0), drop=["extender-10", "base-07"])
WIDE5 = with_(
    PLAIN,
    ("extender-09", 1, 0, 0),
    ("hand-20", 2, 0, 0),
    ("extender-10", -1, 0, 0),
    ("hand-21", -2, 0, 2),
    drop=["hand-20", "hand-21"],
)
WIDE4 = with_(PLAIN, ("extender-09", 1, 0, 0), ("hand-20", 2, 0, 0), drop=["hand-20"])
LONG3 = with_(PLAIN, ("extender-09", 1, 0, 0), ("extender-10", 2, 0, 0), ("hand-20", 3, 0, 0), drop=["hand-20"])
LONG3_ANTENNA = with_(LONG3, ("antenna-05", 3, 0, 0), drop=["hand-20"])
SPLIT = with_(PLAIN, ("splitter-01", 1, 0, 0), ("hand-20", 2, 0, 0), ("hand-22", 1, 1, 1), drop=["hand-20"])
ELBOW = with_(PLAIN, ("elbow-01", 1, 0, 0), ("hand-20", 1, 1, 1), drop=["hand-20"])
EYES3 = with_(PLAIN, ("head-14", 0, -1, 0), drop=["head-01"])
EYES4 = with_(PLAIN, ("head-14", 0, -1, 0), ("head-02", 1, 0, 1), drop=["head-01", "hand-20"])
EYES6 = with_(PLAIN, ("head-19", 0, -1, 0), ("head-02", 1, 0, 1), drop=["head-01", "hand-20"])
TWO_HEADS = EYES4
THREE_HANDS = with_(PLAIN, ("hand-01", -1, 0, 2), drop=["hand-21"])
FOUR_HANDS = with_(PLAIN, ("hand-01", -1, 0, 2), ("hand-02", 1, 0, 0), drop=["hand-21", "hand-20"])
WHEELS = with_(PLAIN, ("base-01", 0, 1, 0), drop=["base-07"])
ASYMMETRIC = with_(PLAIN, ("hand-01", -1, 0, 2), drop=["hand-21"])  # a 2-hands tile mirrored by a 1-hand tile
ONE_SIDED = [("torso-04", 0, 0, 0), ("head-01", 0, -1, 0), ("base-07", 0, 1, 0), ("hand-01", -1, 0, 2)]


@pytest.mark.parametrize(
    ("req", "good", "bad", "why"),
    [
        ("req-01", PLAIN, EYES3, "needs exactly 1 eye, the robot has 3 eyes"),
        ("req-03", EYES3, PLAIN, "the robot has 1 eyes"),
        ("req-05", EYES4, EYES3, "the robot has 3 eyes"),
        ("req-07", EYES6, EYES4, "the robot has 4 eyes"),
        ("req-08", TALL5, TALL4, "at least 5 tiles tall, the robot has 4 tiles tall"),
        ("req-10", WIDE5, WIDE4, "at least 5 tiles wide, the robot has 4 tiles wide"),
        ("req-12", LONG3, WIDE4, "longest arm 2 tiles"),
        ("req-12", LONG3_ANTENNA, WIDE4, "longest arm 2 tiles"),
        ("req-14", LONG3, PLAIN, "no extender"),
        ("req-15", SPLIT, PLAIN, "no splitter"),
        ("req-16", ELBOW, PLAIN, "no elbow"),
        ("req-17", TWO_HEADS, PLAIN, "1 heads"),
        ("req-19", PLAIN, WHEELS, "a base with wheels"),
        ("req-20", THREE_HANDS, FOUR_HANDS, "exactly 3 hands, the robot has 4 hands"),
        ("req-20", THREE_HANDS, PLAIN, "the robot has 2 hands"),
        ("req-21", PLAIN, ASYMMETRIC, "not symmetric"),
        ("req-21", PLAIN, ONE_SIDED, "not symmetric"),
    ],
)
def test_each_requirement_kind_met_and_just_failed(req, good, bad, why):
    r = REQ[req]
    assert meets(r, m_of(good))
    assert not meets(r, m_of(bad))
    assert why in shortfall(r, m_of(bad))


def test_magnets_requirement_counts_magnets_handed_over():
    r = REQ["req-18"]
    m = m_of(PLAIN)
    assert meets(r, m, magnets=2)
    assert not meets(r, m, magnets=1)
    assert "1 magnets handed over" in shortfall(r, m, 1)


def test_three_extra_heads_exceed_two_heads():
    three = with_(EYES4, ("head-03", -1, 0, 3), drop=["hand-21"])
    assert m_of(three).heads == 3
    assert not meets(REQ["req-17"], m_of(three))


def test_batteries_add_icons_but_are_not_placed():
    assert "battery" not in m_of(PLAIN).icons
    assert "battery" in m_of(PLAIN, [PART_IDS["battery-01"]]).icons


def test_every_catalogue_requirement_kind_is_tested():
    tested = {
        "eyes",
        "tall",
        "wide",
        "long_arm",
        "extender",
        "splitter",
        "elbow",
        "two_heads",
        "magnets",
        "no_wheels",
        "hands",
        "symmetry",
    }
    assert {r.kind for r in REQUIREMENTS} <= tested
