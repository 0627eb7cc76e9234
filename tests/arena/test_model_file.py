"""`ppo:` agents read their model zip without torch (`agents.network`): the same logits as the torch
policy, a first move within a second, and nothing but tensors unpickled."""

from __future__ import annotations

import io
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from ktenv.agents.network import ModelFileError, load_actor, read_state

MODEL = Path(__file__).resolve().parents[2] / "models" / "ppo_2p.zip"


def test_actor_logits_equal_the_torch_policy():
    pytest.importorskip("sb3_contrib")
    from ktenv.training.policy import PlayingNetwork, batch_logits, load_network

    policy, meta = load_network(MODEL)
    actor, meta2 = load_actor(MODEL)
    assert meta == meta2
    rng = np.random.default_rng(0)
    size = meta["observation_size"]
    x = ((rng.random((6, size)) < 0.1) * rng.integers(-3, 60, (6, size))).astype(np.float32)
    assert np.array_equal(actor.logits(x), PlayingNetwork(policy).logits(x))
    import torch

    with torch.no_grad():
        want = batch_logits(policy, torch.from_numpy(x)).numpy()
    assert np.allclose(actor.logits(x), want, atol=1e-4)


def test_a_ppo_agent_plays_without_importing_torch():
    code = ("import sys, time; t = time.perf_counter(); import numpy as np; from ktenv import agents; "
            f"a = agents.make('ppo:{MODEL}'); import ktenv; env = ktenv.env(n_players=2, max_rounds=2); "
            "env.reset(seed=1); obs = env.last()[0]; a.act(obs, obs['action_mask']); "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def _with_policy(tmp_path: Path, blob: bytes) -> Path:
    path = tmp_path / "m.zip"
    with zipfile.ZipFile(MODEL) as src, zipfile.ZipFile(path, "w") as dst:
        dst.writestr("ktenv.json", src.read("ktenv.json"))
        dst.writestr("policy.pth", blob)
    return path


class _Boom:
    def __reduce__(self):
        return (print, ("unpickled",))


def test_anything_but_tensors_is_refused(tmp_path):
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("archive/data.pkl", pickle.dumps({"w": _Boom()}))
    with pytest.raises(ModelFileError, match="refused"):
        read_state(_with_policy(tmp_path, inner.getvalue()))


@pytest.mark.parametrize("blob, message", [(b"not a zip", "corrupt"), (None, "no policy.pth")])
def test_corrupt_weights_are_a_clear_error(tmp_path, blob, message):
    path = tmp_path / "m.zip"
    if blob is None:
        with zipfile.ZipFile(MODEL) as src, zipfile.ZipFile(path, "w") as dst:
            dst.writestr("ktenv.json", src.read("ktenv.json"))
    else:
        path = _with_policy(tmp_path, blob)
    with pytest.raises(ModelFileError, match=message):
        load_actor(path)
    with pytest.raises(ModelFileError, match="no such model file"):
        load_actor(tmp_path / "missing.zip")
