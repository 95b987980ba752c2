"""A post-game review made by the bots' own search: every decision of a record searched again from the
deciding seat's view, with a fixed budget and fixed seeds (see docs/review.md).

At each decision a seat made (a record's move by a seat the game waited for, with more than one legal
action), :func:`review_decision` runs the information-set search (:class:`~robotable.ai.ismcts.ISMCTSAgent`
at the review's level) on that seat's :class:`~robotable.ai.base.Decision` only: its view, its legal
actions and samples of the hidden state drawn from its view. The search's choice is the better move when
the seat played another; each of the two moves is then valued by a search of that move alone (see
:func:`review_decision`): the choice's value is the position's value *before* the seat chose, the value of
the move played its value *after*, and the loss is the difference. Values are what the search backs up for
the seat: its expected share of the other seats it finishes ahead of (a tie counts half; at 2 players, its
chance to win), from 0 to 1.

Each decision's search has its own seed, made from the review's seed and the move's index, so a review is
reproducible, the same for one seat as within the review of every seat, and the same for two records the
seat cannot tell apart.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from robotable.core import Action, BadInput, Record, Rng, RobotableError, State, load
from robotable.core.record import replay, start_state

from ..base import Decision
from ..ismcts import LEVELS, SECONDS_HARD, ISMCTSAgent, level_params, rank_rewards

#: The search level a review uses unless told otherwise: the top level's search parameters (its rollout
#: length, opponent model and root candidates) and, by default, its iterations (``Budget``).
REVIEW_LEVEL = "hard"
#: How many turning points and largest losses a seat's review marks.
TURNING_POINTS = 3
LARGEST_LOSSES = 5
#: Losses below this (a share of the value scale, 0 to 1) are search noise, never listed as losses.
MIN_LOSS = 0.01
#: The largest budget a review accepts per decision (a review is meant to finish in minutes).
MAX_ITERATIONS = 20_000
#: A budget in ``seconds`` never scales a decision's iterations below this share of its own.
MIN_SCALE = 0.25

_MASK = (1 << 63) - 1


@dataclass(frozen=True)
class Budget:
    """What every decision's search gets: a level's parameters, ``iterations`` (``None``: the level's own
    for the game) and the review's ``seed``; with ``seconds``, a whole review's budget in the level's CPU
    seconds on the reference machine, which scales every decision's iterations down for a long record
    (:meth:`for_record`: the same for every seat and decision of one record, so still reproducible)."""

    level: str = REVIEW_LEVEL
    iterations: int | None = None
    seed: int = 0
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise BadInput(f"review: unknown level {self.level!r} (one of: {', '.join(LEVELS)})")
        if self.iterations is not None and (
            not isinstance(self.iterations, int)
            or isinstance(self.iterations, bool)
            or not 1 <= self.iterations <= MAX_ITERATIONS
        ):
            raise BadInput(f"review: the budget must be 1 to {MAX_ITERATIONS} iterations, got {self.iterations!r}")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or not 0 <= self.seed <= _MASK:
            raise BadInput(f"review: the seed must be an integer from 0 to 2**63 - 1, got {self.seed!r}")
        if self.seconds is not None and (
            not isinstance(self.seconds, int | float) or isinstance(self.seconds, bool) or not 1 <= self.seconds <= 3600
        ):
            raise BadInput(f"review: the seconds must be 1 to 3600, got {self.seconds!r}")

    def estimate(self, game_id: str, moves: int) -> float:
        """What a review of ``moves`` decisions costs in the level's CPU seconds on the reference machine:
        per decision a search and two half searches (twice its iterations) at the level's ``seconds`` for
        its ``iterations`` (``robotable.ai.ismcts.LEVELS``: what they cost there), or its ``tree_seconds``
        where the level's root is a paired comparison (a review searches the tree, which costs more)."""
        params = level_params(game_id, self.level)
        seconds = params.get("tree_seconds", params.get("seconds", SECONDS_HARD))
        per_iteration = float(seconds) / int(params["iterations"])
        return moves * 2 * self.iterations_for(game_id) * per_iteration

    def for_record(self, record: Record) -> Budget:
        """The budget of a review of ``record``: with ``seconds``, the iterations that fit the whole
        review (every move of the record, whichever seats are reviewed) in ``seconds`` by
        :meth:`estimate`, never more than the level's nor below :data:`MIN_SCALE` of them; else itself."""
        if self.seconds is None:
            return self
        base = self.iterations_for(record.game)
        estimate = self.estimate(record.game, len(record.moves))
        scale = 1.0 if estimate <= self.seconds else max(MIN_SCALE, self.seconds / estimate)
        return Budget(self.level, max(1, int(base * scale)), self.seed)

    def iterations_for(self, game_id: str) -> int:
        """The iterations of one decision's search in ``game_id``."""
        return self.iterations if self.iterations is not None else int(level_params(game_id, self.level)["iterations"])

    def evaluation_for(self, game_id: str) -> int:
        """The iterations of the search that values one move (half the decision's search, at least 1)."""
        return max(1, self.iterations_for(game_id) // 2)

    def decision_seed(self, index: int) -> int:
        """The seed of the search at the record's move ``index`` (independent of every other decision)."""
        return Rng((self.seed * 0x9E3779B97F4A7C15 + index) & ((1 << 64) - 1)).next64() & _MASK


@dataclass
class Moment:
    """One reviewed decision: the record's move ``index`` (0-based; the position is the state before
    it), by ``seat``. Values are the seat's, from 0 to 1 (see the module's docstring).

    ``best`` is the search's choice (the better move, when it is not the one played) and ``before`` its
    value: the position's value before the seat chose; ``played`` the move made and ``after`` its value.
    ``played_visits`` and ``best_visits`` are the two moves' shares of the search's ``iterations``.
    ``where`` holds the seat's view's whole-number fields (the round, the battle, ...) for the game's own
    wording of the position."""

    index: int
    seat: int
    legal: int
    played: dict[str, Any] | None  # None: a move a spectator's review did not see (robotable.ai.review.spectator)
    best: dict[str, Any] | None
    before: float
    after: float
    played_visits: int
    best_visits: int
    iterations: int
    where: dict[str, int] = field(default_factory=dict)

    @property
    def agreed(self) -> bool:
        """Whether the seat played the search's own choice."""
        return self.played == self.best

    @property
    def loss(self) -> float:
        """How much the move played gave up against the search's choice (never below 0)."""
        return 0.0 if self.agreed else max(0.0, self.before - self.after)

    def to_json(self) -> dict[str, Any]:
        """JSON form (read back by :meth:`from_json`)."""
        return {
            "index": self.index,
            "seat": self.seat,
            "legal": self.legal,
            "played": self.played,
            "best": self.best,
            "before": self.before,
            "after": self.after,
            "loss": self.loss,
            "played_visits": self.played_visits,
            "best_visits": self.best_visits,
            "iterations": self.iterations,
            "where": self.where,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Moment:
        """Read :meth:`to_json` back (``loss`` is derived)."""
        return cls(**{k: data[k] for k in cls.__dataclass_fields__})


@dataclass
class SeatReview:
    """One seat's review: its reviewed decisions in order, the game's outcome for it (``final``, its share
    of the seats it beat, when the record ends the game), how many of its moves were forced (one legal
    action) or made out of turn (not searched), its turning points and its largest losses (positions in
    ``moments``)."""

    seat: int
    moments: list[Moment]
    final: float | None = None
    forced: int = 0
    optional: int = 0
    turning_points: list[int] = field(default_factory=list)
    largest_losses: list[int] = field(default_factory=list)

    def series(self) -> list[float]:
        """The seat's value over the game: before each reviewed decision, then the outcome (if over)."""
        values = [m.before for m in self.moments]
        return values + ([self.final] if self.final is not None else [])

    def swing(self, position: int) -> float:
        """How the seat's value changed from its decision at ``position`` to its next (or the outcome)."""
        values = self.series()
        return values[position + 1] - values[position] if position + 1 < len(values) else 0.0

    def total_loss(self) -> float:
        """The sum of the seat's losses."""
        return sum(m.loss for m in self.moments)

    def mean_loss(self) -> float:
        """The seat's loss per reviewed decision (0 with none reviewed)."""
        return self.total_loss() / len(self.moments) if self.moments else 0.0

    def mark(self, turning_points: int = TURNING_POINTS, largest_losses: int = LARGEST_LOSSES) -> None:
        """Mark the largest swings and the largest losses (at least :data:`MIN_LOSS`), largest first."""
        swings = [(abs(self.swing(i)), i) for i in range(len(self.moments))]
        self.turning_points = [i for size, i in sorted(swings, key=lambda s: (-s[0], s[1])) if size > 0][
            :turning_points
        ]
        losses = [(m.loss, i) for i, m in enumerate(self.moments)]
        self.largest_losses = [i for loss, i in sorted(losses, key=lambda s: (-s[0], s[1])) if loss >= MIN_LOSS][
            :largest_losses
        ]

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "final": self.final,
            "forced": self.forced,
            "optional": self.optional,
            "total_loss": self.total_loss(),
            "mean_loss": self.mean_loss(),
            "turning_points": self.turning_points,
            "largest_losses": self.largest_losses,
            "moments": [m.to_json() for m in self.moments],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatReview:
        return cls(
            data["seat"],
            [Moment.from_json(m) for m in data["moments"]],
            data.get("final"),
            data.get("forced", 0),
            data.get("optional", 0),
            list(data.get("turning_points", [])),
            list(data.get("largest_losses", [])),
        )


@dataclass
class Review:
    """The review of a record: the game, its size, how many moves were reviewed (``moves``) and whether
    they end the game, the budget, and one :class:`SeatReview` per reviewed seat."""

    game: str
    num_players: int
    moves: int
    over: bool
    budget: Budget
    iterations: int
    seats: list[SeatReview]

    def seat(self, seat: int) -> SeatReview:
        """The review of ``seat`` (:class:`BadInput` if that seat was not reviewed)."""
        for review in self.seats:
            if review.seat == seat:
                return review
        raise BadInput(f"review: seat {seat} was not reviewed (reviewed: {[r.seat for r in self.seats]})")

    def to_json(self) -> dict[str, Any]:
        """JSON form (read back by :meth:`from_json`)."""
        return {
            "game": self.game,
            "num_players": self.num_players,
            "moves": self.moves,
            "over": self.over,
            "budget": {
                "level": self.budget.level,
                "iterations": self.iterations,
                "evaluation": self.budget.evaluation_for(self.game),
                "seed": self.budget.seed,
            },
            "seats": [s.to_json() for s in self.seats],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Review:
        budget = data["budget"]
        return cls(
            data["game"],
            data["num_players"],
            data["moves"],
            data["over"],
            Budget(budget["level"], budget["iterations"], budget["seed"]),
            budget["iterations"],
            [SeatReview.from_json(s) for s in data["seats"]],
        )


class ReviewSearch(ISMCTSAgent):
    """The level's search, made to value the move a seat played beside its own choice.

    It keeps the root of its last search (``roots``) to read every root action's visits and value, and
    makes sure the move played is searched at the root: among the candidates when the level searches only
    a few (in the last candidate's place, after the heuristic's choice) and kept when the game's ``prune``
    would leave it out (at the root only). Everything else is the level's search, unchanged.
    """

    played: Action | None = None
    #: Search only this action at the root (a focused evaluation of one move), or every candidate.
    focus: Action | None = None
    roots: dict[int, Any] | None = None
    _game_prune: Callable[..., list[Action]] | None = None
    _root_pending = False

    @classmethod
    def at(cls, game_id: str, budget: Budget, index: int, iterations: int | None = None) -> ReviewSearch:
        """The search of move ``index``: the budget's level's parameters for the game, its iterations (or
        ``iterations``) and the decision's own seed."""
        params = level_params(game_id, budget.level)
        return cls(
            budget.decision_seed(index),
            iterations=iterations or budget.iterations_for(game_id),
            rollout_depth=int(params["rollout_depth"]),
            model_opponents=params["model_opponents"],
            root_width=int(params.get("root_width", 0)),
            guide_bias=params.get("guide_bias", 0.0),
            model_rollouts=params.get("model_rollouts", 0.0),
        )

    @property
    def prune(self) -> Callable[..., list[Action]]:
        """The game's ``prune``, keeping the move played at the root."""
        return self._prune_keeping_played

    @prune.setter
    def prune(self, function: Callable[..., list[Action]] | None) -> None:
        self._game_prune = function

    def _prune_keeping_played(self, state: State, seat: int, legal: Sequence[Action]) -> list[Action]:
        at_root, self._root_pending = self._root_pending, False
        kept = self._game_prune(state, seat, legal) if self._game_prune is not None else list(legal)
        played = self.played
        if at_root and played is not None and played not in kept and (played in legal or state.is_legal(seat, played)):
            kept.append(played)
        return kept

    def candidates(self, decision: Decision, deadline: float = math.inf) -> list[Action]:
        if self.focus is not None:
            return [self.focus, *(a for a in decision.legal if a != self.focus)]
        ranked = super().candidates(decision, deadline)
        width, played = self.root_width, self.played
        if played is not None and 1 < width < len(ranked) and played not in ranked[:width]:
            if played in ranked:
                ranked.remove(played)
            ranked.insert(width - 1, played)
        return ranked

    def _iterate(self, state: State, roots: dict[int, Any], me: int, *rest: Any, **options: Any) -> None:
        self.roots = roots
        self._root_pending = True
        super()._iterate(state, roots, me, *rest, **options)


def _where(view: Mapping[str, Any]) -> dict[str, int]:
    """The view's whole-number fields: what a game's ``review.where`` text may name (round, battle, ...)."""
    return {k: v for k, v in view.items() if isinstance(v, int) and not isinstance(v, bool)}


def review_decision(decision: Decision, played: Action, index: int, budget: Budget) -> Moment:
    """Search ``decision`` (a seat's view, legal actions and samples: never the true state) with the
    budget and the seed of move ``index``; value the move ``played`` beside the search's choice.

    The search's choice is its most visited root action after ``budget`` iterations over every candidate.
    Its value and the value of the move played each come from a search of that move alone (the
    evaluation iterations, the same seed for both): a move the search left early has few, pessimistic
    samples in the first search, and two moves that are equal (loading onto either of two empty slots)
    get equal values."""
    if played not in decision.legal:  # a free-form spelling the game lists otherwise: value it as played
        decision = Decision(decision.game, decision.seat, decision.view, [*decision.legal, played], decision.sample)
    search = ReviewSearch.at(decision.game, budget, index)
    search.played = played
    best = search.choose(decision)
    edges = search.roots[decision.seat].actions if search.roots else {}
    before = evaluate_move(decision, best, index, budget)
    after = before if played == best else evaluate_move(decision, played, index, budget)
    return Moment(
        index=index,
        seat=decision.seat,
        legal=len(decision.legal),
        played=played.to_json(),
        best=best.to_json(),
        before=before,
        after=after,
        played_visits=edges[played].visits if played in edges else 0,
        best_visits=edges[best].visits if best in edges else 0,
        iterations=int(search.last_search.get("iterations", 0)),
        where=_where(decision.view),
    )


def evaluate_move(decision: Decision, action: Action, index: int, budget: Budget) -> float:
    """The seat's value of playing ``action``: the mean reward of a search of that move alone (the
    budget's evaluation iterations, the seed of move ``index``)."""
    search = ReviewSearch.at(decision.game, budget, index, iterations=budget.evaluation_for(decision.game))
    search.played = search.focus = action
    search.root_width = 1
    search.choose(decision)
    edge = search.roots[decision.seat].actions.get(action) if search.roots else None
    return edge.total / edge.visits if edge is not None and edge.visits else 0.0


@dataclass
class Position:
    """A decision as the record made it: the move ``index``, the ``seat``, the ``state`` before the move
    (only the seat's :class:`Decision` is taken from it) and the ``action`` played."""

    index: int
    seat: int
    state: State
    action: Action


def positions(record: Record, upto: int | None = None) -> Iterator[Position]:
    """The record's positions in order (the state object is reused: use each before taking the next)."""
    game, state = start_state(record)
    for index, (seat, data) in enumerate(record.moves[:upto]):
        try:
            action = game.action_from_json(data)
            state.check(seat, action)
        except RobotableError as exc:
            raise BadInput(f"record: move {index} (seat {seat}, {data}) cannot be replayed: {exc}") from None
        yield Position(index, seat, state, action)
        state.apply_legal(seat, action)


#: ``progress(done, total)`` after each reviewed decision.
Progress = Callable[[int, int], None]


def review_step(step: Position, budget: Budget) -> Moment | str:
    """One record step of a reviewed seat: its :class:`Moment`, searched from the seat's :class:`Decision`
    alone, or ``"forced"`` (one legal action) or ``"optional"`` (a move made out of turn: a seat the
    game was not waiting for), counted but not searched."""
    if step.seat not in step.state.to_act():
        return "optional"
    if len(step.state.legal_actions(step.seat)) < 2:
        return "forced"
    return review_decision(Decision.of(step.state, step.seat), step.action, step.index, budget)


def _add(review: SeatReview, outcome: Moment | str) -> None:
    if isinstance(outcome, Moment):
        review.moments.append(outcome)
    elif outcome == "forced":
        review.forced += 1
    else:
        review.optional += 1


def review_positions(
    game_id: str,
    num_players: int,
    steps: Iterable[Position],
    budget: Budget,
    seats: Sequence[int] | None = None,
    progress: Progress | None = None,
    total: int | None = None,
) -> list[SeatReview]:
    """Review ``seats`` (default: all) at each of their decisions among ``steps`` (:func:`review_step`)."""
    wanted = range(num_players) if seats is None else seats
    reviews = {seat: SeatReview(seat, []) for seat in wanted}
    done = 0
    for step in steps:
        review = reviews.get(step.seat)
        if review is None:
            continue
        _add(review, review_step(step, budget))
        done += 1
        if progress is not None:
            progress(done, total if total is not None else done)
    return list(reviews.values())


def _review_indexes(record: dict[str, Any], indexes: list[int], budget: Budget) -> list[dict[str, Any] | str]:
    """In a worker process: the steps ``indexes`` of a record (as :func:`review_step`, moments as JSON)."""
    wanted, out = set(indexes), []
    for step in positions(Record.from_json(record), upto=max(indexes) + 1):
        if step.index in wanted:
            outcome = review_step(step, budget)
            out.append(outcome.to_json() if isinstance(outcome, Moment) else outcome)
    return out


def _review_in_processes(
    record: Record, indexes: list[int], budget: Budget, workers: int, progress: Progress | None
) -> dict[int, Moment | str]:
    """The steps ``indexes`` reviewed by ``workers`` processes, a few steps per task (each decision has its
    own seed, so the review is the one a single process makes)."""
    from concurrent.futures import as_completed

    from robotable.ai.processes import local_pool

    size = max(1, len(indexes) // (workers * 6))
    chunks = [indexes[i : i + size] for i in range(0, len(indexes), size)]
    found: dict[int, Moment | str] = {}
    with local_pool(workers) as pool:
        tasks = {pool.submit(_review_indexes, record.to_json(), chunk, budget): chunk for chunk in chunks}
        for task in as_completed(tasks):
            for index, outcome in zip(tasks[task], task.result()):
                found[index] = Moment.from_json(outcome) if isinstance(outcome, dict) else outcome
            if progress is not None:
                progress(len(found), len(indexes))
    return found


def review_record(
    record: Record,
    seats: Sequence[int] | None = None,
    budget: Budget | None = None,
    upto: int | None = None,
    progress: Progress | None = None,
    workers: int = 1,
) -> Review:
    """Review a record (its first ``upto`` moves; all by default) for ``seats`` (default: every seat), in
    this process or in ``workers`` processes (the same review either way).

    Bad input (an unknown game, a seat out of range, moves that do not replay) raises :class:`BadInput`.
    """
    budget = (budget or Budget()).for_record(record)
    game = load(record.game)
    for seat in seats or ():
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < record.num_players:
            raise BadInput(f"review: seat must be 0 to {record.num_players - 1}, got {seat!r}")
    if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= 64:
        raise BadInput(f"review: workers must be 1 to 64, got {workers!r}")
    moves = record.moves[:upto]
    wanted = set(range(record.num_players) if seats is None else seats)
    total = sum(1 for seat, _ in moves if seat in wanted)
    if workers > 1:
        for _ in positions(record, upto):  # the record replays (else BadInput here, not in a worker)
            pass
        indexes = [i for i, (seat, _) in enumerate(moves) if seat in wanted]
        found = _review_in_processes(record, indexes, budget, workers, progress)
        by_seat = {seat: SeatReview(seat, []) for seat in (range(record.num_players) if seats is None else seats)}
        for index in indexes:
            _add(by_seat[moves[index][0]], found[index])
        reviews = list(by_seat.values())
    else:
        reviews = review_positions(game.id, record.num_players, positions(record, upto), budget, seats, progress, total)
    final_state = replay(record) if len(moves) == len(record.moves) else None
    over = final_state is not None and final_state.is_over()
    if final_state is not None and over:
        rewards = rank_rewards(final_state)
        for review in reviews:
            review.final = rewards[review.seat]
    for review in reviews:
        review.mark()
    return Review(game.id, record.num_players, len(moves), over, budget, budget.iterations_for(game.id), reviews)
