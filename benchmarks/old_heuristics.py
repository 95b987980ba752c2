"""A game's heuristics module as of an earlier commit, and agents that play with it, beside today's: the
side-by-side benchmarks (``ttb_carriers.py``, ``tf22_bids.py``) measure old against new in one run.

The old module is read with ``git show`` and imported as a sibling of the current one; the agents
built from it (``heuristic-old``, ``ismcts-old:LEVEL``) exist only in the benchmark's process, never in
the product.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType

from robotable.ai import AGENTS, Agent, Decision, ISMCTSAgent, make_agent
from robotable.ai.ismcts import LEVELS, random_policy
from robotable.core import Action

ROOT = Path(__file__).resolve().parent.parent


def load_old(module_path: str, rev: str) -> ModuleType:
    """The heuristics module at ``module_path`` (e.g. robotable/ai/heuristics/twin_tin_bots.py) as of
    ``rev``, imported as a sibling of the current one."""
    source = subprocess.run(
        ["git", "show", f"{rev}:{module_path}"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout
    stem = Path(module_path).stem
    path = Path(tempfile.mkdtemp(prefix=f"{stem}-old-")) / f"{stem}_old.py"
    path.write_text(source)
    name = f"robotable.ai.heuristics._{stem}_old"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class ModuleHeuristic(Agent):
    """The heuristic agent of a given heuristics module."""

    def __init__(self, module: ModuleType, seed: int | None = None) -> None:
        super().__init__(seed)
        self.module = module
        self.name = "heuristic-old"

    def choose(self, decision: Decision) -> Action:
        return self.module.choose(decision, self.rng)


class ModuleISMCTS(ISMCTSAgent):
    """ISMCTS at a level, with the rollout, evaluator, model and guide of a given heuristics module."""

    def __init__(self, module: ModuleType, level: str, seed: int | None = None) -> None:
        super().__init__(seed, **LEVELS[level])  # type: ignore[arg-type]
        self.module = module
        self.name = f"ismcts-old:{level}"
        self._level = level

    def _bind(self, game_id: str) -> None:
        if self._game == game_id:
            return
        self._game = game_id
        m = self.module
        params = {**LEVELS[self._level], **getattr(m, "LEVELS", {}).get(self._level, {})}
        self.iterations = params["iterations"]
        self.rollout_depth = params["rollout_depth"]
        self.model_opponents = params["model_opponents"]
        self.root_width = int(params.get("root_width", 0))
        self.guide_bias = params.get("guide_bias", 0.0)
        self.model_rollouts = params.get("model_rollouts", 0.0)
        self.rollout = getattr(m, "rollout", random_policy)
        self.evaluator = getattr(m, "evaluate", None)
        self.model = m.model if self.model_opponents > 0 or self.model_rollouts > 0 else None
        self.guide = m.choose
        self.prune = getattr(m, "prune", None)


def make(spec: str, old: ModuleType | None, seed: int) -> Agent:
    """``spec`` (heuristic, ismcts:LEVEL) with the current module, or the old one if ``old`` is given."""
    if old is None:
        return make_agent(spec, seed=seed)
    kind, _, level = spec.partition(":")
    return ModuleHeuristic(old, seed) if kind == "heuristic" else ModuleISMCTS(old, level, seed)


def register_old(old: ModuleType) -> None:
    """Temporary agent specs for the old module (this process only): heuristic-old, ismcts-old:LEVEL."""
    AGENTS["heuristic-old"] = lambda seed: ModuleHeuristic(old, seed)
    for level in LEVELS:
        AGENTS[f"ismcts-old:{level}"] = lambda seed, level=level: ModuleISMCTS(old, level, seed)
