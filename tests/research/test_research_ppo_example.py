"""examples/ppo_tf22.py without torch: its environment, arena agent, evaluation and curve, and a clear
message when the ppo extra is missing. Training itself needs torch (the ``ppo`` extra, not installed by
`make test`); its measured output is in docs/research.md ("Baselines")."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import matplotlib.image
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "ppo_tf22.py"

_spec = importlib.util.spec_from_file_location("ppo_tf22", SCRIPT)
ppo = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ppo)


@pytest.mark.filterwarnings("ignore:.*different from the unwrapped version")  # the wrapper is what PPO steps
def test_research_ppo_masked_seat_is_a_checked_gymnasium_env() -> None:
    env = ppo.make_env(1)
    check_env(env, skip_render_check=True)
    obs, _ = env.reset(seed=3)
    assert obs.shape == (724,) and obs.dtype == np.float32
    inner = env.unwrapped
    rng = np.random.default_rng(3)
    for _ in range(30):
        mask = env.action_masks()
        assert mask.dtype == np.bool_ and mask.tolist() == inner._obs()["action_mask"].astype(bool).tolist()
        obs, reward, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            assert reward in (0.0, 0.5, 1.0)
            obs, _ = env.reset()


def test_research_ppo_policy_plays_in_the_arena_from_its_planes_and_mask() -> None:
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def lowest(planes: np.ndarray, mask: np.ndarray) -> int:
        seen.append((planes, mask))
        return int(np.flatnonzero(mask)[0])

    row = ppo.evaluate(lowest, "random", 4, seed=5)
    assert row["games"] == 4 and 0.0 <= row["win_rate"] <= 1.0
    low, high = row["ci95"]
    assert 0.0 <= low <= row["win_rate"] <= high <= 1.0
    assert len(seen) > 4 * 20  # every decision of the agent's seat, about 28 a game
    for planes, mask in seen:
        assert planes.shape == (724,) and ((planes >= 0) & (planes <= 1)).all()
        assert mask.shape == (79,) and mask.any()


def test_research_ppo_curve_is_a_png(tmp_path: Path) -> None:
    points = [
        {"timesteps": 0.0, "win_rate": 0.1, "low": 0.05, "high": 0.2, "train_reward": None},
        {"timesteps": 2048.0, "win_rate": 0.3, "low": 0.2, "high": 0.4, "train_reward": 0.25},
    ]
    path = tmp_path / "curve.png"
    ppo.plot_curve(points, path, "test")
    image = matplotlib.image.imread(path)
    assert image.shape[0] == 400 and image.shape[1] == 700  # 7 x 4 inches at 100 dpi
    assert image[..., :3].std() > 0.05  # something is drawn


def test_research_ppo_without_torch_says_what_to_install() -> None:
    """With torch and sb3-contrib unimportable, the script stops with the install command, no traceback."""
    blocked = (
        "import sys, runpy; sys.modules.update(torch=None, sb3_contrib=None, stable_baselines3=None); "
        f"sys.argv = [{str(SCRIPT)!r}, '--timesteps', '8']; runpy.run_path({str(SCRIPT)!r}, run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", blocked], capture_output=True, text=True, timeout=120, check=False, cwd=ROOT
    )
    assert done.returncode == 1
    assert done.stderr.strip() == ppo.MISSING
    assert "Traceback" not in done.stderr
