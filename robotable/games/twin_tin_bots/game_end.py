"""The end of the game: score victory, crystal attrition, and the result with the rulebook's
tie-breaks.

>>> crystal_score([2, 4], [3])      # 2 + 4 in the Base, a green carried scores 3 - 1
8
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from robotable.core import Event, IllegalAction, Result

from .components import CRYSTAL_NAMES, CRYSTAL_VALUES, SCORE_VICTORY
from .phases import OVER

if TYPE_CHECKING:
    from .state import TtbState

BLUE, GREEN = CRYSTAL_VALUES["blue"], CRYSTAL_VALUES["green"]
TIE_BREAKS = ["score victory", "points", "blue crystals harvested", "green crystals harvested", "points in Bases"]


def crystal_score(in_bases: Sequence[int], carried: Sequence[int]) -> int:
    """Crystals in Bases at face value, crystals still carried by robots at one point less."""
    return sum(in_bases) + sum(v - 1 for v in carried)


def ranking_key(in_bases: Sequence[int], carried: Sequence[int], score_victory: bool = False) -> tuple[int, ...]:
    """The comparison key (higher is better): a score victory first, then the score, then the
    rulebook's tie-breaks: most blue crystals harvested, most green harvested ("harvested": in Bases and
    carried, as the rulebook defines it), then the highest worth brought back to Bases.

    >>> ranking_key([2, 2], [4]) > ranking_key([3, 4], [])     # 7 each: the two blues win
    True
    >>> ranking_key([4], [2]) > ranking_key([3], [3])           # 5 each: the carried blue wins
    True
    """
    harvested = [*in_bases, *carried]
    return (
        int(score_victory),
        crystal_score(in_bases, carried),
        harvested.count(BLUE),
        harvested.count(GREEN),
        sum(in_bases),
    )


def score_target(num_players: int, team_play: bool) -> int | None:
    """Points in Bases that win at once: 11 / 10 / 9 / 8 / 7 for 2-6 players; none in Team play."""
    return None if team_play else SCORE_VICTORY[num_players]


def score_victory(st: TtbState, base: int, events: list[Event]) -> bool:
    """Checked after each delivery: the Base owner's player wins at once if its crystals in Bases
    reach the target (the game ends in the middle of the run)."""
    target = st.score_target()
    if target is None:
        return False
    seat = st.controller[base]
    points = sum(sum(st.delivered[c]) for c in st.seat_colours(seat))
    if points < target:
        return False
    st.victor = seat
    game_over(st, f"score victory: seat {seat} has {points} points in Bases", events)
    return True


def game_over(st: TtbState, reason: str, events: list[Event]) -> None:
    """The game ends now, for ``reason``."""
    st.phase = OVER
    st.end_reason = reason
    events.append(Event("game_over", {"result": result(st).to_json()}))


def scored_together(st: TtbState) -> list[list[int]]:
    """For each seat, the colours whose crystals it scores: its own, or its whole team's in Team play."""
    if st.options.get("team_play"):
        return [
            [c for c in range(len(st.colours)) if st.team[c] == st.team[st.seat_colours(s)[0]]]
            for s in range(st.num_players)
        ]
    return [st.seat_colours(s) for s in range(st.num_players)]


def carried_by(st: TtbState, colour: int) -> list[int]:
    """The crystals a colour's robots carry."""
    return [st.rcargo[r] for r in range(len(st.rhex)) if st.robot_colour(r) == colour and st.rcargo[r]]


def result(st: TtbState) -> Result:
    """Scores, ranking (score victory, points, then the tie-breaks), winners and why the game ended."""
    if st.phase != OVER:
        raise IllegalAction("the game is not over")
    keys = []
    for seat, group in enumerate(scored_together(st)):
        bases = [v for c in group for v in st.delivered[c]]
        carried = [v for c in group for v in carried_by(st, c)]
        keys.append(ranking_key(bases, carried, seat == st.victor))
    details: dict[str, Any] = {
        "colours": {
            st.colours[c]: {
                "seat": st.controller[c],
                "in_base": [CRYSTAL_NAMES[v] for v in st.delivered[c]],
                "carried": [CRYSTAL_NAMES[v] for v in carried_by(st, c)],
            }
            for c in range(len(st.colours))
        },
        "tie_breaks": list(TIE_BREAKS),
    }
    if st.options.get("team_play"):
        details["teams"] = [st.team[st.seat_colours(s)[0]] for s in range(st.num_players)]
    return Result.from_keys([k[1] for k in keys], keys, st.end_reason, details)
