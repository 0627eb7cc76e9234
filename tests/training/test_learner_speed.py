"""The learner's speedups: each one leaves what PPO computes the same, or close where it
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


def test_symlog_on_numpy_matches_numpys_formula_bit_for_bit():
    x = observations()
    np.testing.assert_array_equal(symlog_array(x), np.copysign(np.log1p(np.abs(x)), x))
    assert symlog_array(x).dtype == np.float32
    np.testing.assert_array_equal(symlog_array(x[:, ::3]), symlog_array(np.ascontiguousarray(x[:, ::3])))


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
            features.linear[0].weight.mul_(-0.5)  # an in-place change that bumps the version counter
    features.load_state_dict(extractor().state_dict())
    with torch.no_grad():
        assert torch.equal(features(x), autocast())


@pytest.mark.parametrize("kernel", [{"fused": True}, {"foreach": False}])
def test_the_games_forward_pass_follows_fused_adam(kernel):
    """Fused Adam changes the weights in place without bumping their version counter: the policy's optimizer
    is followed, so the games never play a first layer PPO has left behind."""
    from ktenv.training.policy import LearnerPolicy, fused_adam, policy_kwargs, set_learner_speedups

    if kernel.get("fused") and not fused_adam():
        pytest.skip("this torch has no fused Adam on the CPU")
    size = 300
    torch.manual_seed(0)
    policy = LearnerPolicy(spaces.Box(-np.inf, np.inf, (size,), np.float32), spaces.Discrete(12),
                           lambda _: 1e-2, **{**policy_kwargs(32, [16], [16], "relu"), "optimizer_kwargs": kernel})
    set_learner_speedups(policy, "bf16", prescaled=False)
    features = policy.features_extractor
    x = torch.as_tensor(observations(size=size))

    def autocast():
        with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
            return features.linear(symlog(x)).float()

    for _ in range(3):
        with torch.no_grad():
            assert torch.equal(features(x), autocast())  # the games' forward pass
        policy.optimizer.zero_grad()
        features(x).sum().backward()
        policy.optimizer.step()


def test_the_switches_are_not_part_of_the_weights():
    features = extractor()
    before = features.state_dict()
    features.prescaled = features.bf16 = True
    assert features.state_dict().keys() == before.keys()


@pytest.mark.parametrize("bfloat16", [False, True])
def test_the_flat_buffer_keeps_every_sample_whole(bfloat16):
    """Each minibatch row's observation, action, value, return and mask come from one (step, game)."""
    steps, games, size, n_actions = 8, 4, 5, 6
    buffer = FlatRolloutBuffer(steps, spaces.Box(-1e9, 1e9, (size,), np.float32), spaces.Discrete(n_actions),
                               device="cpu", n_envs=games, gamma=1.0, gae_lambda=1.0)
    buffer.bfloat16_observations = bfloat16
    for t in range(steps):
        tag = (t * games + np.arange(games)).astype(np.float32)
        masks = np.zeros((games, n_actions), bool)
        masks[np.arange(games), (t + np.arange(games)) % n_actions] = True
        buffer.add(np.repeat(tag[:, None], size, 1), tag[:, None].astype(np.int64) % n_actions, np.zeros(games),
                   np.zeros(games, bool), torch.as_tensor(tag), torch.as_tensor(-tag), action_masks=masks)
    buffer.compute_returns_and_advantage(torch.zeros(games), np.zeros(games, bool))
    seen = []
    for batch in buffer.get(batch_size=7):
        assert batch.observations.dtype == (torch.bfloat16 if bfloat16 else torch.float32)
        tags = batch.observations[:, 0].float().numpy()  # small integers: exact in bfloat16
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

    from ktenv.kings_and_things.native import available

    if not available():
        pytest.skip("the batched games need the native core")
    from ktenv.kings_and_things.vector.sb3 import LearnerVecEnv

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


# ----------------------------------------------------------------------------- the masked distribution

def masked_logits(rows: int = 300, n_actions: int = 40, seed: int = 1):
    rng = np.random.default_rng(seed)
    logits = torch.as_tensor(rng.normal(0, 4, (rows, n_actions)).astype(np.float32))
    masks = torch.as_tensor(rng.random((rows, n_actions)) < 0.2)
    masks[np.arange(rows), rng.integers(0, n_actions, rows)] = True  # at least one legal action a row
    masks[0] = False
    masks[0, -1] = True  # only the last action legal
    masks[1] = False
    masks[1, 0] = True  # only the first
    return logits, masks


def both_distributions(logits, masks):
    from ktenv.training.policy import MaskedCategorical
    from sb3_contrib.common.maskable.distributions import MaskableCategoricalDistribution

    ours, theirs = MaskedCategorical(logits.shape[1]), MaskableCategoricalDistribution(logits.shape[1])
    for dist, leaf in ((ours, logits.clone().requires_grad_()), (theirs, logits.clone().requires_grad_())):
        dist.proba_distribution(leaf)
        dist.apply_masking(masks)
        dist.leaf = leaf
    return ours, theirs


def test_the_masked_distribution_is_sb3_contribs_numbers():
    """What PPO computes from the policy's logits (log-probabilities of the taken actions,
    entropy, their gradients, the mode) is sb3-contrib's MaskableCategorical's, to float rounding."""
    logits, masks = masked_logits()
    ours, theirs = both_distributions(logits, masks)
    actions = torch.as_tensor([np.random.default_rng(2).choice(np.flatnonzero(m)) for m in masks.numpy()])
    for dist in (ours, theirs):
        (dist.log_prob(actions).sum() + 0.3 * dist.entropy().sum()).backward()
    torch.testing.assert_close(ours.log_prob(actions), theirs.log_prob(actions), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(ours.entropy(), theirs.entropy(), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(ours.leaf.grad, theirs.leaf.grad, rtol=1e-5, atol=1e-6)
    assert (ours.leaf.grad[~masks] == 0).all()  # nothing flows to an illegal logit
    assert torch.equal(ours.mode(), theirs.mode())
    assert torch.isfinite(ours.entropy()).all()


def test_the_masked_distribution_never_draws_an_illegal_action_and_draws_in_proportion():
    logits, masks = masked_logits(rows=8)
    ours, _ = both_distributions(logits, masks)
    torch.manual_seed(0)
    draws = torch.stack([ours.sample() for _ in range(4000)])  # [draws, rows]
    assert masks.gather(1, draws.T).all()
    probs = torch.softmax(logits.masked_fill(~masks, -torch.inf), -1)
    for row in range(8):
        share = torch.bincount(draws[:, row], minlength=logits.shape[1]).float() / len(draws)
        assert (share - probs[row]).abs().max() < 0.03


def test_a_row_without_a_legal_action_is_uniform_not_nan():
    from ktenv.training.policy import MaskedCategorical

    dist = MaskedCategorical(5).proba_distribution(torch.randn(2, 5))
    dist.apply_masking(torch.zeros(2, 5, dtype=torch.bool))
    torch.testing.assert_close(dist.log_probs, torch.full((2, 5), -np.log(5), dtype=torch.float32))


def test_the_learner_policy_takes_the_buffers_bfloat16_observations_as_they_are():
    """bfloat16 minibatches give what the float32 ones give through the bfloat16 first layer."""
    from ktenv.training.policy import LearnerPolicy, policy_kwargs, set_learner_speedups

    size, n_actions = 300, 12
    torch.manual_seed(0)
    policy = LearnerPolicy(spaces.Box(-np.inf, np.inf, (size,), np.float32), spaces.Discrete(n_actions),
                           lambda _: 1e-4, **policy_kwargs(32, [16], [16], "relu"))
    set_learner_speedups(policy, "bf16", prescaled=True)
    x = torch.as_tensor(symlog_array(observations(size=size)))
    masks = np.ones((len(x), n_actions), bool)
    actions = torch.zeros(len(x), dtype=torch.long)
    values, log_prob, entropy = policy.evaluate_actions(x, actions, action_masks=masks)
    values16, log_prob16, entropy16 = policy.evaluate_actions(x.bfloat16(), actions, action_masks=masks)
    assert values16.dtype == torch.float32
    for a, b in ((values, values16), (log_prob, log_prob16), (entropy, entropy16)):
        torch.testing.assert_close(a, b, rtol=0, atol=0)


def test_the_speed_scalars_count_whole_rollout_and_update_cycles(tmp_path, monkeypatch):
    """speed/steps_per_second and speed/env_share cover rollouts and the updates that followed them: at a
    rollout's end the update after it is still to come, so that rollout is left out until the next one."""
    from pathlib import Path

    from ktenv.training import monitor as monitor_module
    from ktenv.training.config import TrainConfig

    clock = {"t": 0.0}
    monkeypatch.setattr(monitor_module.time, "perf_counter", lambda: clock["t"])
    records: dict[str, float] = {}

    class Games:
        env_seconds = 0.0

    class Model:
        logger = type("Logger", (), {"record": staticmethod(lambda key, value: records.__setitem__(key, value))})()

        @staticmethod
        def get_env():
            return Games

    cfg = TrainConfig.from_yaml(Path(__file__).resolve().parents[2] / "configs" / "ppo_smoke.yaml")
    monitor = monitor_module.Monitor(cfg, tmp_path, {}, 0)
    monitor.model = Model
    monitor._on_training_start()
    for cycle in range(2):  # each: a rollout of 1 s (0.25 s of it in the games), then an update of 3 s
        monitor._on_rollout_start()
        clock["t"] += 1.0
        Games.env_seconds += 0.25
        monitor.num_timesteps += 1000
        monitor._on_rollout_end()
        if cycle == 0:
            assert "speed/steps_per_second" not in records  # no whole cycle yet
        clock["t"] += 3.0
    assert records["speed/steps_per_second"] == pytest.approx(1000 / 4.0)
    assert records["speed/env_share"] == pytest.approx(0.25 / 4.0)


@pytest.mark.parametrize("activation", ["relu", "tanh", "elu"])
def test_the_playing_network_gives_the_policys_logits(activation):
    """Arena agents and league snapshots play through numpy over the nonzero columns only: the logits of the
    torch policy, on one row (few columns used) and on many (the dense branch)."""
    from ktenv.training.policy import PlayingNetwork, batch_logits, build_policy

    meta = {"observation_size": 300, "action_size": 40,
            "network": {"features": 32, "pi": [24, 16], "vf": [8], "activation": activation}}
    torch.manual_seed(5)
    policy = build_policy(meta)
    network = PlayingNetwork(policy)
    sparse = observations(rows=8, seed=2)
    sparse[:, 100:] = 0  # a third of the columns used: the gathered branch
    for x in (sparse, observations(rows=64, seed=1)):
        with torch.no_grad():
            expected = batch_logits(policy, torch.as_tensor(x)).numpy()
        np.testing.assert_allclose(network.logits(x), expected, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(network.logits(x[3]), expected[3:4], rtol=1e-5, atol=1e-5)
    assert network.logits(np.zeros(300, np.float32)).shape == (1, 40)
