"""The conformance suite: one check of the whole game contract, for any registered game.

``check_game`` plays seeded random games through ``apply`` and, along the way, checks what the contract
promises (see docs/architecture.md and :mod:`robotable.core.game`):

- turns: ``to_act`` names valid seats (none exactly when the game is over); a seat asked to act has legal
  actions, listed in a stable order without repeats, each accepted by ``is_legal`` and with an exact
  JSON form (and a distinct integer index, for games with the encoding);
- JSON: ``state_from_json(to_json())`` round trips exactly and the loaded state plays on identically;
- ``clone``: an equal, independent copy (playing on the copy leaves the original as it was);
- refusals: every illegal action (actions seen elsewhere in the game, the whole integer encoding, junk
  fields in an action's JSON), a seat that may not act, and malformed seats and actions raise a
  :class:`~robotable.core.errors.RobotableError` with a message and change nothing;
- hidden information: ``view`` is JSON-safe; ``determinize(seat)`` (and ``determinize(None)``, a
  spectator's) keeps everything the seat sees (its own view and the spectator's) and changes nothing in the
  state; two states the seat cannot tell apart (one of them a determinized sample with a different seed and
  generator) give the same samples, so neither views nor samples can depend on a hidden part: a view that
  shows another seat's secret fails here;
- the end: the game ends within the game's declared bound (``max_game_length``) or a cap; the result
  has a score and a rank per seat, winners are exactly the seats ranked first, payoffs sum to 1;
- records: the record (through its JSON form) replays to the exact final and intermediate states.

Any failure raises :class:`ConformanceError` naming the game, player count, options, seed and step.

>>> from robotable import games
>>> check_game(games.load("tf22-reload"), 2, seeds=[1]).games
1
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import registry
from .actions import Action
from .errors import BadInput, BadOptions, RobotableError
from .game import Game, State
from .record import Record, replay
from .rng import Rng

#: Actions a game without a declared bound may take before the suite calls it endless.
DEFAULT_CAP = 50_000
#: Values put into an action's JSON fields to build malformed or illegal actions.
JUNK: tuple[Any, ...] = (None, "?", -1, 10**9, [], {}, True, 1.5, [[0, 0, 0]], "zz-99")


class ConformanceError(AssertionError):
    """A game broke its contract (the message names the game, the setting and the step)."""


@dataclass
class Summary:
    """What a ``check_game`` run covered."""

    games: int = 0
    actions: int = 0
    checked_steps: int = 0
    refusals: int = 0
    ended: list[bool] = field(default_factory=list)


def check_all(
    seeds: Iterable[int] = (0,),
    dense_steps: int = 40,
    every: int = 50,
    game_ids: Sequence[str] | None = None,
) -> Summary:
    """``check_game`` for every registered game, player count and declared option set."""
    total = Summary()
    for game_id in game_ids or registry.available():
        game = registry.load(game_id)
        for num_players in range(game.min_players, game.max_players + 1):
            for options in option_sets(game, num_players):
                part = check_game(game, num_players, options, seeds, dense_steps=dense_steps, every=every)
                total.games += part.games
                total.actions += part.actions
                total.checked_steps += part.checked_steps
                total.refusals += part.refusals
                total.ended += part.ended
    return total


def option_sets(game: Game, num_players: int) -> list[dict[str, Any]]:
    """The game's declared main option sets (``Game.option_sets``) valid for ``num_players``."""
    out = []
    for options in game.option_sets:
        try:
            game.check_options(options, num_players)
        except BadOptions:
            continue
        out.append(dict(options))
    return out


def check_game(
    game: Game | str,
    num_players: int,
    options: Mapping[str, Any] | None = None,
    seeds: Iterable[int] = (0,),
    *,
    dense_steps: int = 40,
    every: int = 50,
    cap: int | None = None,
    missing_fields: bool = True,
) -> Summary:
    """Play one seeded random game per seed, checking the contract at the first ``dense_steps`` steps
    and every ``every``-th step after (turn checks at every step); raise :class:`ConformanceError`.

    ``missing_fields=False`` leaves out the check that a state's JSON without one of its fields is refused
    (for a game whose reader does not yet follow :mod:`robotable.core.state_json`)."""
    game = registry.load(game) if isinstance(game, str) else game
    summary = Summary()
    for seed in seeds:
        run = _Run(game, num_players, dict(options or {}), seed, summary, dense_steps, every, cap)
        run.missing_fields = missing_fields
        run.play()
    return summary


class _Run:
    """One seeded random game under check."""

    def __init__(
        self,
        game: Game,
        num_players: int,
        options: dict[str, Any],
        seed: int,
        summary: Summary,
        dense_steps: int,
        every: int,
        cap: int | None,
    ) -> None:
        self.game = game
        self.n = num_players
        self.options = options
        self.seed = seed
        self.summary = summary
        self.dense_steps = dense_steps
        self.every = max(1, every)
        self.cap = cap if cap is not None else action_bound(game, num_players)
        self.rng = Rng(seed ^ 0x5EED)
        self.step = 0
        self.seen: dict[str, Action] = {}  # actions legal somewhere in this game, by canonical JSON
        self.snapshots: dict[int, str] = {}
        self.missing_fields = True

    def fail(self, problem: str) -> ConformanceError:
        where = f"{self.game.id} players={self.n} options={self.options} seed={self.seed} step={self.step}"
        return ConformanceError(f"{where}: {problem}")

    def expect(self, condition: bool, problem: str) -> None:
        if not condition:
            raise self.fail(problem)

    # -- the game ------------------------------------------------------------------------------------

    def play(self) -> None:
        state = self.game.start(self.n, seed=self.seed, options=self.options)
        record = Record(self.game.id, self.n, state.seed, dict(state.options))
        while not state.is_over():
            self.expect(self.step < self.cap, f"the game did not end within {self.cap} actions")
            legal = self.check_turn(state)
            waiting = state.to_act()
            seat = waiting[self.rng.randrange(len(waiting))]
            action = legal[seat][self.rng.randrange(len(legal[seat]))]
            if self.step < self.dense_steps or self.step % self.every == 0:
                self.deep_checks(state, seat, action)
            state.apply(seat, action)
            record.moves.append((seat, action.to_json()))
            self.step += 1
        self.check_end(state, record)
        self.summary.games += 1
        self.summary.actions += self.step
        self.summary.ended.append(True)

    def deep_checks(self, state: State, seat: int, action: Action) -> None:
        """Everything but the turn checks, at one step; ``action`` is what ``seat`` will play next."""
        self.summary.checked_steps += 1
        before = canonical(state.to_json())
        self.snapshots[self.step] = before
        self.check_json(state, seat, action, before)
        self.check_clone(state, seat, action, before)
        self.check_refusals(state, before)
        self.check_views(state, before)
        self.check_determinize(state, before)
        if self.missing_fields and self.step in (0, self.dense_steps - 1):
            self.check_state_json_refusals(before)

    # -- turns ---------------------------------------------------------------------------------------

    def check_turn(self, state: State) -> dict[int, list[Action]]:
        waiting = state.to_act()
        self.expect(isinstance(waiting, list), f"to_act() must be a list, got {waiting!r}")
        self.expect(bool(waiting), "to_act() is empty but the game is not over")
        self.expect(len(set(waiting)) == len(waiting), f"to_act() repeats a seat: {waiting}")
        self.expect(all(s in range(self.n) for s in waiting), f"to_act() names an unknown seat: {waiting}")
        optional = state.optional_actors()
        self.expect(isinstance(optional, list), f"optional_actors() must be a list, got {optional!r}")
        self.expect(not set(optional) & set(waiting), f"optional_actors() {optional} names seats to act {waiting}")
        self.expect(all(s in range(self.n) for s in optional), f"optional_actors() names an unknown seat: {optional}")
        legal: dict[int, list[Action]] = {}
        for seat in range(self.n):
            actions = state.legal_actions(seat)
            legal[seat] = actions
            if seat in waiting:
                self.expect(bool(actions), f"seat {seat} is to act but has no legal action")
            elif seat not in optional:
                self.expect(not actions, f"seat {seat} is neither to act nor optional but has legal actions")
            self.expect(state.legal_actions(seat) == actions, f"legal_actions({seat}) is not stable")
            self.expect(len(set(actions)) == len(actions), f"legal_actions({seat}) repeats an action")
            for a in actions:
                self.seen.setdefault(canonical(a.to_json()), a)
        if self.step < self.dense_steps or self.step % self.every == 0:
            for seat in waiting:
                self.check_actions(state, seat, legal[seat])
            for seat in optional:
                self.check_actions(state, seat, legal[seat])
                self.check_optional_move(state, seat, legal[seat])
        return legal

    def check_optional_move(self, state: State, seat: int, actions: list[Action]) -> None:
        """A seat the game does not wait for may still play what it lists (on a clone: the game goes on
        without it), and the state after it round trips through JSON."""
        if not actions:
            return
        before = canonical(state.to_json())
        other = state.clone()
        other.apply(seat, actions[self.rng.randrange(len(actions))])
        after = canonical(other.to_json())
        self.expect(
            canonical(self.game.state_from_json(json.loads(after)).to_json()) == after, "JSON after an optional move"
        )
        self.expect(
            canonical(state.to_json()) == before, f"an optional move of seat {seat} on a clone changed the state"
        )

    def check_actions(self, state: State, seat: int, actions: list[Action]) -> None:
        encoded = self.game.has_action_encoding()
        size = self.game.num_distinct_actions(self.n, self.options) if encoded else 0
        indices = set()
        for a in actions:
            self.expect(state.is_legal(seat, a), f"is_legal({seat}, {a!r}) is false for a listed action")
            again = self.game.action_from_json(json.loads(json.dumps(a.to_json())))
            self.expect(again == a, f"action JSON does not round trip: {a!r} -> {again!r}")
            if encoded:
                index = self.game.action_index(a)
                self.expect(0 <= index < size, f"action index {index} of {a!r} is outside 0..{size - 1}")
                self.expect(index not in indices, f"two legal actions share the index {index}")
                indices.add(index)

    # -- JSON and clone ------------------------------------------------------------------------------

    def check_json(self, state: State, seat: int, action: Action, before: str) -> None:
        data = json.loads(before)
        loaded = self.game.state_from_json(data)
        self.expect(canonical(loaded.to_json()) == before, "state_from_json(to_json()) differs from the state")
        for who in [None, *range(self.n)]:
            self.expect(loaded.view(who) == state.view(who), f"the loaded state's view({who}) differs")
        after = state.clone()
        after.apply(seat, action)
        loaded.apply(seat, action)
        self.expect(
            canonical(loaded.to_json()) == canonical(after.to_json()),
            f"a state loaded from JSON plays {action.to_json()} differently",
        )

    def check_state_json_refusals(self, before: str) -> None:
        """A state's JSON with a field left out is refused naming the field (no field is filled in), and
        junk in a field is refused or read as a state that writes itself back the same way."""
        data = json.loads(before)
        for key in data:
            if key == "game":
                continue
            partial = {k: v for k, v in data.items() if k != key}
            try:
                self.game.state_from_json(partial)
            except BadInput as exc:
                self.expect(key in str(exc), f"state_from_json without {key!r} raised {exc!r}, not naming it")
            except Exception as exc:
                raise self.fail(f"state_from_json without {key!r} raised {type(exc).__name__}: {exc}") from None
            else:
                raise self.fail(f"state_from_json accepted a state without its field {key!r}")
            for junk in JUNK[:4]:
                try:
                    loaded = self.game.state_from_json({**data, key: junk})
                except BadInput:
                    continue
                except Exception as exc:
                    raise self.fail(
                        f"state_from_json with {key}={junk!r} raised {type(exc).__name__}: {exc}, not BadInput"
                    ) from None
                json.dumps(loaded.to_json())

    def check_clone(self, state: State, seat: int, action: Action, before: str) -> None:
        copy = state.clone()
        self.expect(copy is not state, "clone() returned the same object")
        self.expect(canonical(copy.to_json()) == before, "clone() differs from the state")
        copy.apply(seat, action)
        self.expect(canonical(state.to_json()) == before, "playing on a clone changed the original")
        other = state.clone()
        rng_before = state.rng.state
        other.rng.next64()
        self.expect(state.rng.state == rng_before, "a clone shares its random generator with the original")

    # -- refusals ------------------------------------------------------------------------------------

    def check_refusals(self, state: State, before: str) -> None:
        waiting = state.to_act()
        legal = {seat: state.legal_actions(seat) for seat in range(self.n)}
        some = next(a for seat in waiting for a in legal[seat])
        for seat in range(self.n):
            if not legal[seat]:
                self.refuse(state, seat, some, before, f"seat {seat} has no legal action but")
            for action in self.candidates(state, legal[seat]):
                self.refuse(state, seat, action, before, f"seat {seat}: the unlisted action")
        for bad_seat in (-1, self.n, True, "0", None):
            self.refuse(state, bad_seat, some, before, f"the malformed seat {bad_seat!r} with", BadInput)
        for bad in ("pass", None, some.to_json(), 0):
            self.refuse(state, waiting[0], bad, before, "the malformed action", BadInput)
        self.check_malformed_json(state, waiting[0], legal[waiting[0]], before)

    def candidates(self, state: State, legal: list[Action]) -> list[Action]:
        """Up to 40 actions not listed for a seat (free-form actions that ``is_legal`` accepts excluded by
        :meth:`refuse`): actions seen elsewhere in this game and, where there is one, the integer encoding."""
        listed = set(legal)
        pool = [a for a in self.seen.values() if a not in listed]
        if self.game.has_action_encoding():
            size = self.game.num_distinct_actions(self.n, self.options)
            for _ in range(20):
                try:
                    a = self.game.action_from_index(self.rng.randrange(size))
                except BadInput:
                    continue
                if a not in listed:
                    pool.append(a)
        if len(pool) > 40:
            pool = [pool[self.rng.randrange(len(pool))] for _ in range(40)]
        return pool

    def refuse(
        self,
        state: State,
        seat: Any,
        action: Any,
        before: str,
        what: str,
        kind: type[RobotableError] = RobotableError,
    ) -> None:
        """``apply(seat, action)`` must raise ``kind`` with a message and change nothing (an unlisted but
        legal free-form action of a seat that may act, to act or optional, is skipped)."""
        if (
            isinstance(action, Action)
            and action.type in self.game.free_form_actions
            and type(seat) is int
            and (seat in state.to_act() or seat in state.optional_actors())
            and state.is_legal(seat, action)
        ):
            try:
                state.clone().apply(seat, action)
            except RobotableError as exc:
                raise self.fail(f"is_legal accepts {action.to_json()} but apply refuses it: {exc}") from None
            return
        shown = action.to_json() if isinstance(action, Action) else action
        try:
            state.apply(seat, action)
        except kind as exc:
            self.expect(bool(str(exc)), f"{what} {shown!r} raised {type(exc).__name__} with no message")
        except Exception as exc:
            raise self.fail(f"{what} {shown!r} raised {type(exc).__name__}: {exc} (expected {kind.__name__})") from exc
        else:
            raise self.fail(f"{what} {shown!r} was accepted")
        self.summary.refusals += 1
        self.expect(canonical(state.to_json()) == before, f"refusing {what} {shown!r} changed the state")

    def check_malformed_json(self, state: State, seat: int, legal: list[Action], before: str) -> None:
        """Every action type without its fields, with an unknown field, and legal actions with junk in a
        field: ``action_from_json`` raises :class:`BadInput` or gives an action that ``apply`` judges."""
        samples: list[dict[str, Any]] = [{"type": "no-such-action"}]
        for cls in self.game.action_types:
            samples.append({"type": cls.type, "no_such_field": 1})
        sample = legal[self.rng.randrange(len(legal))].to_json()
        for key in sample:
            if key != "type":
                samples.append({k: v for k, v in sample.items() if k != key})
                samples += [{**sample, key: junk} for junk in JUNK]
        for data in samples:
            try:
                action = self.game.action_from_json(data)
            except BadInput as exc:
                self.expect(bool(str(exc)), f"action_from_json({data}) raised BadInput with no message")
                continue
            except Exception as exc:
                raise self.fail(f"action_from_json({data}) raised {type(exc).__name__}: {exc}, not BadInput") from exc
            if action not in legal:
                self.refuse(state, seat, action, before, "the junk-filled action")

    # -- hidden information --------------------------------------------------------------------------

    def check_views(self, state: State, before: str) -> None:
        for who in [None, *range(self.n)]:
            view = state.view(who)
            self.expect(isinstance(view, dict), f"view({who}) is not a dict")
            try:
                text = json.dumps(view, sort_keys=True)
            except (TypeError, ValueError) as exc:
                raise self.fail(f"view({who}) is not JSON-safe: {exc}") from None
            self.expect(json.dumps(json.loads(text), sort_keys=True) == text, f"view({who}) is not plain JSON")
            self.expect(state.view(who) == view, f"view({who}) is not stable")
        self.expect(canonical(state.to_json()) == before, "view() changed the state")

    def check_determinize(self, state: State, before: str) -> None:
        """A sample keeps what the seat sees; a state the seat cannot tell apart gives the same samples."""
        public = state.view(None)
        for seat in [*range(self.n), None]:  # None: a spectator's sample
            key = self.rng.next64()
            sample = state.determinize(seat, Rng(key))
            self.expect(canonical(state.to_json()) == before, f"determinize({seat}) changed the state")
            self.expect(sample is not state, f"determinize({seat}) returned the state itself")
            self.expect(
                sample.view(seat) == state.view(seat),
                f"determinize({seat}) changed what seat {seat} sees (or view({seat}) shows a hidden part)",
            )
            self.expect(
                sample.view(None) == public,
                f"determinize({seat}) changed the spectator's view (or view(None) shows a hidden part)",
            )
            self.expect(sample.to_act() == state.to_act(), f"determinize({seat}) changed to_act()")
            if seat in state.to_act():
                self.expect(
                    sample.legal_actions(seat) == state.legal_actions(seat),
                    f"determinize({seat}) changed seat {seat}'s legal actions",
                )
            twin = sample.clone()  # what the seat cannot tell from the state: other hidden parts, seed, rng
            # mypy reads State's empty __slots__; seed and rng are slots of every concrete state class
            twin.seed = (state.seed + 1) % (1 << 62)  # type: ignore[misc]
            twin.rng = Rng(key ^ 0xD1CE)  # type: ignore[misc]
            again = Rng(self.rng.next64())
            first = canonical(state.determinize(seat, again.clone()).to_json())
            second = canonical(twin.determinize(seat, again.clone()).to_json())
            self.expect(
                first == second,
                f"determinize({seat}) depends on something seat {seat} does not know "
                "(two states it cannot tell apart give different samples)",
            )

    # -- the end -------------------------------------------------------------------------------------

    def check_end(self, state: State, record: Record) -> None:
        self.expect(state.to_act() == [], f"the game is over but to_act() is {state.to_act()}")
        for seat in range(self.n):
            self.expect(state.legal_actions(seat) == [], f"the game is over but seat {seat} has legal actions")
        result = state.result()
        n = self.n
        self.expect(
            len(result.scores) == n and len(result.ranks) == n, f"the result has not one entry per seat: {result}"
        )
        self.expect(all(isinstance(s, int) for s in result.scores), f"scores are not integers: {result.scores}")
        self.expect(min(result.ranks) == 1, f"nobody is ranked first: {result.ranks}")
        for seat, rank in enumerate(result.ranks):
            better = sum(1 for r in result.ranks if r < rank)
            self.expect(rank == better + 1, f"rank {rank} of seat {seat} is not 1 + the seats ranked above it")
        self.expect(
            list(result.winners) == [s for s in range(n) if result.ranks[s] == 1],
            f"winners {result.winners} are not the seats ranked first {result.ranks}",
        )
        self.expect(abs(sum(result.payoff(s) for s in range(n)) - 1.0) < 1e-9, "payoffs do not sum to 1")
        if result.keys:
            for a in range(n):
                for b in range(n):
                    if result.keys[a] > result.keys[b]:
                        self.expect(result.ranks[a] < result.ranks[b], f"seat {a}'s better keys rank below {b}")
        self.expect(isinstance(result.reason, str) and bool(result.reason), "the result gives no end reason")
        json.dumps(result.to_json())
        self.check_replay(state, record)

    def check_replay(self, state: State, record: Record) -> None:
        again = Record.from_json(json.loads(json.dumps(record.to_json())))
        self.expect(canonical(replay(again).to_json()) == canonical(state.to_json()), "the record replays differently")
        if self.snapshots:
            steps = sorted(self.snapshots)
            middle = steps[len(steps) // 2]
            self.expect(
                canonical(replay(again, upto=middle).to_json()) == self.snapshots[middle],
                f"the record replays differently up to step {middle}",
            )


def action_bound(game: Game, num_players: int) -> int:
    """Actions a game can take at most: its declared ``max_game_length`` (a simultaneous step is one
    action per seat), else :data:`DEFAULT_CAP`."""
    if game.max_game_length is None:
        return DEFAULT_CAP
    return game.max_game_length * (num_players if game.simultaneous else 1)


def canonical(data: object) -> str:
    """Canonical JSON text, for comparing states."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"))
