"""The learner's speedups (issue 15): each one leaves what PPO computes the same, or close where it
trades precision for speed (bfloat16 products), and nothing of it is saved with a model."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from gymnasium import spaces  # noqa: E402
from ktenv.training.buffer import FlatRolloutBuffer  # noqa: E402
from ktenv.training.policy import SymlogFeatures, symlog, symlog_array  # noqa: E402


def observations(rows: int = 64, size: int = 300, seed: int = 0) -> np.ndarray:
    """Like ktenv's: mostly zeros and small counts, some -1s, a few large numbers."""
    rng = np.random.default_rng(seed)
    x = rng.choice([0, 0, 0, 0, 1, 2, 3, -1, 17, 250], size=(rows, size)).astype(np.float32)
    x[:, 0] = -0.0
    return x


def test_symlog_is_the_four_pass_formula_bit_for_bit():
    x = torch.as_tensor(observations())
    assert torch.equal(symlog(x), torch.sign(x) * torch.log1p(torch.abs(x)))


def test_symlog_on_numpy_matches_torch():
    x = observations()
    np.testing.assert_allclose(symlog_array(x), symlog(torch.as_tensor(x)).numpy(), rtol=1e-6, atol=0)
    assert symlog_array(x).dtype == np.float32


def extractor(size: int = 300) -> SymlogFeatures:
    torch.manual_seed(3)
    return SymlogFeatures(spaces.Box(-np.inf, np.inf, (size,), np.float32), features_dim=32)


def test_prescaled_observations_give_the_same_features():
    x, features = observations(), extractor()
    raw = features(torch.as_tensor(x))
    features.prescaled = True
    prescaled = features(torch.as_tensor(symlog_array(x)))
    torch.testing.assert_close(prescaled, raw, rtol=1e-5, atol=1e-5)


def test_bfloat16_products_stay_close_and_float32_out():
    x, features = torch.as_tensor(observations()), extractor()
    exact = features(x)
    features.bf16 = True
    fast = features(x)
    assert fast.dtype == torch.float32
    assert (fast - exact).abs().max() <= 0.02 * exact.abs().max()
    fast.sum().backward()  # the weights' gradient flows through the autocast
    assert features.linear[0].weight.grad is not None and features.linear[0].weight.grad.dtype == torch.float32


def test_the_games_forward_pass_is_autocasts_and_follows_the_optimizer():
    """Without gradients the first layer's bfloat16 copy is kept between calls, and made again once the
    weights change in place (an optimizer step, a load): the same numbers as autocast, every time."""
    x, features = torch.as_tensor(observations()), extractor()
    features.bf16 = True

    def autocast():
        with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
            return features.linear(symlog(x)).float()

    for _ in range(2):
        with torch.no_grad():
            assert torch.equal(features(x), autocast())
        with torch.no_grad():
            features.linear[0].weight.mul_(-0.5)  # what Adam's in-place step does to the version counter
    features.load_state_dict(extractor().state_dict())
    with torch.no_grad():
        assert torch.equal(features(x), autocast())


def test_the_switches_are_not_part_of_the_weights():
    features = extractor()
    before = features.state_dict()
    features.prescaled = features.bf16 = True
    assert features.state_dict().keys() == before.keys()


def test_the_flat_buffer_keeps_every_sample_whole():
    """Each minibatch row's observation, action, value, return and mask come from one (step, game)."""
    steps, games, size, n_actions = 8, 4, 5, 6
    buffer = FlatRolloutBuffer(steps, spaces.Box(-1e9, 1e9, (size,), np.float32), spaces.Discrete(n_actions),
                               device="cpu", n_envs=games, gamma=1.0, gae_lambda=1.0)
    for t in range(steps):
        tag = (t * games + np.arange(games)).astype(np.float32)
        masks = np.zeros((games, n_actions), bool)
        masks[np.arange(games), (t + np.arange(games)) % n_actions] = True
        buffer.add(np.repeat(tag[:, None], size, 1), tag[:, None].astype(np.int64) % n_actions, np.zeros(games),
                   np.zeros(games, bool), torch.as_tensor(tag), torch.as_tensor(-tag), action_masks=masks)
    buffer.compute_returns_and_advantage(torch.zeros(games), np.zeros(games, bool))
    seen = []
    for batch in buffer.get(batch_size=7):
        tags = batch.observations[:, 0].numpy()
        assert (batch.observations == batch.observations[:, :1]).all()
        np.testing.assert_array_equal(batch.old_values.numpy(), tags)
        np.testing.assert_array_equal(batch.old_log_prob.numpy(), -tags)
        np.testing.assert_array_equal(batch.actions.numpy().ravel(), tags % n_actions)
        t, g = np.divmod(tags.astype(int), games)
        assert batch.action_masks.numpy()[np.arange(len(tags)), (t + g) % n_actions].all()
        seen += tags.tolist()
    assert sorted(seen) == list(range(steps * games))  # every sample once


def test_the_training_games_hand_over_symlogged_observations_terminal_ones_included():
    from ktenv.training.monitor import GameVecEnv

    from ktenv.native import available

    if not available():
        pytest.skip("the batched games need the native core")
    from ktenv.vector.sb3 import LearnerVecEnv

    raw, scaled = (GameVecEnv(LearnerVecEnv(4, num_players=2, seed=5, max_rounds=2), symlog=s) for s in (False, True))
    np.testing.assert_array_equal(scaled.reset(), symlog_array(raw.reset()))
    rng, ended = np.random.default_rng(0), 0
    while ended < 3:
        masks = np.stack(raw.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        raw.step_async(actions)
        scaled.step_async(actions)
        (obs, _, dones, infos), (obs_s, _, dones_s, infos_s) = raw.step_wait(), scaled.step_wait()
        np.testing.assert_array_equal(obs_s, symlog_array(obs))
        np.testing.assert_array_equal(dones_s, dones)
        for i in np.flatnonzero(dones):
            np.testing.assert_array_equal(infos_s[i]["terminal_observation"],
                                          symlog_array(infos[i]["terminal_observation"]))
            ended += 1
    raw.close()
    scaled.close()
