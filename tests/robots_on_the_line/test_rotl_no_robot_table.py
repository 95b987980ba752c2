"""The assembly helper's table of hands that finish no robot at all (``data/no_robot.json``, issue 29 item 6).

- regenerating the table gives the shipped file, shape by shape;
- a hand the table refuses is one from which each buyer's full search sells nothing;
- the table's answer for some counts is the search's answer for any hand with those counts (other ends
  than the representative's hands, other connectors, pink ports): what the table is keyed on is all a
  finished robot depends on;
- the table refuses hands that the quick refusals let through (it is not vacuous).
"""

from __future__ import annotations

import json
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotable.games.robots_on_the_line import helper
from robotable.games.robots_on_the_line.components import BONUS_TILES, PARTS, REQUIREMENTS, TORSOS
from robotable.games.robots_on_the_line.helper import finishable

ENDS_OF = {kind: [p.index for p in PARTS if p.kind == kind] for kind in ("head", "base", "hand", "antenna")}
CONNECTORS_OF = {kind: [p.index for p in PARTS if p.kind == kind] for kind in ("extender", "elbow", "splitter")}
OTHER_PARTS = [p.index for p in PARTS if p.kind in ("battery", "magnet")]


def _shipped() -> dict:
    text = resources.files("robotable.games.robots_on_the_line").joinpath(finishable.DATA).read_text()
    return json.loads(text)


@pytest.mark.parametrize("shape", range(len(finishable.SHAPES)))
def test_regenerating_the_table_gives_the_shipped_file(shape):
    entry = _shipped()["shapes"][shape]
    assert entry["torsos"] == [TORSOS[t].id for t in finishable.SHAPES[shape]]
    assert {"torsos": entry["torsos"], **finishable.shape_table(shape)} == entry


def test_the_file_is_written_as_the_generator_writes_it():
    text = resources.files("robotable.games.robots_on_the_line").joinpath(finishable.DATA).read_text()
    data = json.loads(text)
    assert finishable.dumps(data) == text
    assert data["node_limit"] == finishable.NODE_LIMIT
    assert [data["caps"][k] for k in ("extenders", "elbows", "splitters")] == list(finishable.CAPS)


@st.composite
def few_ends_hands(draw):
    """A torso and a hand with a head, a base and fewer ends than its ports (the hands the table covers),
    connectors of any kind, maybe batteries and magnets."""
    torso = draw(st.integers(0, len(TORSOS) - 1))
    ports = len(TORSOS[torso].ports)
    ends = [draw(st.sampled_from(ENDS_OF["head"])), draw(st.sampled_from(ENDS_OF["base"]))]
    extra = draw(st.integers(0, max(0, ports - 3)))
    pool = ENDS_OF["head"] + ENDS_OF["base"] + ENDS_OF["hand"] + ENDS_OF["antenna"]
    ends += draw(st.lists(st.sampled_from(pool), min_size=extra, max_size=extra))
    connectors = []
    for kind, cap in zip(("extender", "elbow", "splitter"), finishable.CAPS, strict=True):
        connectors += draw(st.lists(st.sampled_from(CONNECTORS_OF[kind]), max_size=cap, unique=True))
    others = draw(st.lists(st.sampled_from(OTHER_PARTS), max_size=2, unique=True))
    hand = tuple(sorted(set(ends + connectors + others)))
    return torso, hand


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    few_ends_hands(),
    st.lists(st.integers(0, len(REQUIREMENTS) - 1), max_size=2, unique=True),
    st.lists(st.integers(0, len(BONUS_TILES) - 1), max_size=2, unique=True),
)
def test_a_hand_the_table_refuses_is_one_no_buyer_search_sells(case, reqs, bonuses):
    torso, hand = case
    if not finishable.no_robot(hand, torso):
        return
    run = helper.Search(
        hand, torso, [REQUIREMENTS[r] for r in reqs], [BONUS_TILES[b] for b in bonuses], 20, helper.NODE_LIMIT
    )
    assert run.run() is None


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(few_ends_hands())
def test_the_table_answers_as_the_search_does_for_any_hand_with_those_counts(case):
    torso, hand = case
    ones, heads, bases, ext, elb, spl = finishable.counts(hand)
    assert heads and bases
    answer = finishable.finishes(hand, torso)
    if answer is True:
        assert not finishable.no_robot(hand, torso)
    elif answer is False:  # (the representative's search may stop at its limit where this one did not)
        assert finishable.no_robot(hand, torso) or _in_table(torso, ones, ext, elb, spl, "unknown")


def _in_table(torso: int, ones: int, ext: int, elb: int, spl: int, field: str) -> bool:
    return [ones, ext, elb, spl] in _shipped()["shapes"][finishable.SHAPE_OF[torso]][field]


def test_the_table_refuses_hands_the_quick_refusals_let_through():
    head, base = ENDS_OF["head"][0], ENDS_OF["base"][0]
    refused = []
    for torso in TORSOS:
        for connectors in ([], CONNECTORS_OF["elbow"][:3], CONNECTORS_OF["splitter"][:1]):
            hand = tuple(sorted([head, base, *connectors]))
            if helper.may_end(hand, torso.index, helper.ANY_BUYER) and finishable.no_robot(hand, torso.index):
                refused.append(torso.id)
    assert refused
    # and it refuses nothing with an end on every port
    for torso in TORSOS:
        ports = len(torso.ports)
        hand = tuple(sorted([head, base, *ENDS_OF["hand"][: ports - 2]]))
        assert not finishable.no_robot(hand, torso.index)
