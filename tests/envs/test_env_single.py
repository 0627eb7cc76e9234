"""The Gymnasium single-agent wrapper: env checkers, seats, opponents, masks, and a MaskablePPO run."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from ktenv.agents import RandomAgent

import ktenv
from ktenv.errors import ConfigError
from ktenv.kings_and_things.engine import IllegalActionError


def play_episode(env, seed: int, rng_seed: int = 0):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        assert np.array_equal(mask, info["action_mask"].astype(bool))
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        assert env.observation_space.contains(obs)
        total += reward
        steps += 1
        if terminated or truncated:
            return total, steps, terminated, truncated, info


def test_gymnasium_check_env():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning at all from the checker on the env itself
        check_env(gymnasium.make("ktenv/KingsAndThings-v0", n_players=2, max_rounds=3, render_mode="ansi").unwrapped,
                  skip_render_check=True)
    check_env(ktenv.SingleAgentEnv(n_players=4, max_rounds=2, seat="random", reward="shaped"),
              skip_render_check=True)


def test_gymnasium_check_env_with_render_modes():
    pytest.importorskip("PIL")  # the checker renders every declared mode, rgb_array included
    check_env(gymnasium.make("ktenv/KingsAndThings-v0", n_players=3, max_rounds=2).unwrapped)


def test_sb3_check_env():
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sb3.check_env(ktenv.SingleAgentEnv(n_players=3, max_rounds=2), warn=True)


def test_registered_with_gymnasium():
    env = gymnasium.make("ktenv/KingsAndThings-v0", n_players=3, max_rounds=2, seat=1, render_mode="ansi")
    obs, info = env.reset(seed=0)
    assert obs.shape == env.observation_space.shape and obs.dtype == np.float32
    assert info["seat"] == 1 and info["actor"] == "player_1"
    assert "player" in env.render()
    assert env.unwrapped.action_masks().shape == (271,)


@pytest.mark.parametrize("reward", ["win", "shaped"])
def test_episode_to_the_end(reward):
    env = ktenv.SingleAgentEnv(n_players=3, max_rounds=2, seat=2, reward=reward)
    total, steps, terminated, truncated, info = play_episode(env, seed=5)
    s = env.game_state
    assert s.game_over and truncated and not terminated and info["reason"] == "round_limit"
    assert steps < 2000
    win = ktenv.kings_and_things.env.win_rewards(3, s.winners)[2]
    if reward == "win":
        assert total == pytest.approx(win)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_learner_only_sees_its_own_turns():
    env = ktenv.SingleAgentEnv(n_players=4, max_rounds=2, seat=3)
    obs, info = env.reset(seed=1)
    layout = env.observation_layout()
    for _ in range(50):
        assert env.game_state.actor == 3 and layout.value(obs, "game", "is_actor") == 1
        obs, _, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if terminated or truncated:
            break


def test_random_seat_is_seeded():
    env = ktenv.SingleAgentEnv(n_players=4, max_rounds=2, seat="random")
    seats = [env.reset(seed=k)[1]["seat"] for k in range(12)]
    assert len(set(seats)) > 1
    assert seats == [env.reset(seed=k)[1]["seat"] for k in range(12)]


def test_opponents_by_name_object_and_observation():
    class Recorder(RandomAgent):
        needs_observation = True

        def __init__(self):
            super().__init__(seed=0)
            self.seen = []

        def act(self, observation, action_mask):
            self.seen.append(observation)
            return super().act(observation, action_mask)

    recorder = Recorder()
    env = ktenv.SingleAgentEnv(n_players=3, max_rounds=2, opponents=[recorder, "random"])
    play_episode(env, seed=2)
    assert recorder.seen and all(o is not None and o.shape == env.observation_space.shape for o in recorder.seen)
    layout = env.observation_layout()
    assert all(layout.value(o, "game", "is_actor") == 1 for o in recorder.seen)  # its own seat's view
    with pytest.raises(ConfigError, match="opponents"):
        ktenv.SingleAgentEnv(n_players=3, opponents=[RandomAgent()] * 3)
    with pytest.raises(ConfigError, match="seat"):
        ktenv.SingleAgentEnv(n_players=3, seat=3)
    with pytest.raises(ValueError, match="unknown agent"):
        ktenv.SingleAgentEnv(n_players=2, opponents="nobody")


def test_illegal_actions():
    env = ktenv.SingleAgentEnv(n_players=2, max_rounds=2)
    env.reset(seed=3)
    before = env.game_state.to_json()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and terminated and not truncated and info["illegal_action"]
    assert env.game_state.to_json() == before
    env = ktenv.SingleAgentEnv(n_players=2, max_rounds=2, illegal_action="raise")
    env.reset(seed=3)
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.game_state.to_json() == before


def test_step_limit_truncates_the_episode():
    """`max_steps` bounds every episode (all seats' decisions count): truncated, reason step_limit,
    no winner, no end reward."""
    env = ktenv.SingleAgentEnv(n_players=2, max_rounds=2, max_steps=40)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    total = 0.0
    for _ in range(100):
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += reward
        if terminated or truncated:
            break
    assert truncated and not terminated and info["reason"] == "step_limit" and info["winner"] is None
    assert total == 0.0 and not env.game_state.game_over and env.aec._steps == 40


def test_same_seed_same_episode():
    def run():
        env = ktenv.SingleAgentEnv(n_players=3, max_rounds=2, seat="random", reward="shaped")
        obs, info = env.reset(seed=77)
        out = [obs]
        rng = np.random.default_rng(0)
        for _ in range(40):
            obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            out.append(obs)
            out.append(np.array([r]))
            if term or trunc:
                break
        return out

    for x, y in zip(run(), run(), strict=True):
        assert np.array_equal(x, y)


def test_maskable_ppo_trains_and_plays():
    """sb3-contrib's MaskablePPO runs on the env (about 2k steps) and then plays a whole game."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # small nets: one thread is faster, and kind to a busy 2-core machine
    try:
        _train_and_play(sb3_contrib)
    finally:
        torch.set_num_threads(threads)


def _train_and_play(sb3_contrib):
    env = ktenv.SingleAgentEnv(n_players=2, max_rounds=2, seat="random", reward="shaped", max_steps=5000)
    model = sb3_contrib.MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=64, n_epochs=2, seed=0,
                                    policy_kwargs={"net_arch": [64, 64]}, device="cpu")
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    obs, info = env.reset(seed=123)
    model.policy.set_training_mode(False)
    for _ in range(5000):
        # sampled, not argmax: a fixed policy may add and remove a counter of a moving stack for
        # ever (max_steps bounds that); sampling finishes the game
        action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=False)
        assert env.action_masks()[int(action)]  # the masked policy only picks legal actions
        obs, reward, terminated, truncated, info = env.step(int(action))
        if terminated or truncated:
            break
    assert env.game_state.game_over and "illegal_action" not in info
    assert info["reason"] in ("round_limit", "sole_citadel", "two_citadels", "last_standing")


def test_single_agent_env_pickles_and_continues_identically():
    import pickle

    env = ktenv.SingleAgentEnv(n_players=3, max_rounds=3, seat="random", reward="shaped")
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(20):
        env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
    other = pickle.loads(pickle.dumps(env))
    for _ in range(30):
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        a, b = env.step(action), other.step(action)
        assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
        if a[2] or a[3]:
            break


# ----------------------------------------------------------------- researcher polish


@pytest.mark.parametrize("illegal_action", ["raise", "terminate"])
def test_actions_outside_the_space_raise_in_both_modes(illegal_action):
    """step(10**6) or step(24.7) is no move at all: it is neither played (24.7 as 24) nor scored as an
    illegal move; it raises naming the action and the space, and the episode goes on unchanged."""
    env = gymnasium.make("ktenv/KingsAndThings-v0", num_players=2, max_rounds=2, illegal_action=illegal_action)
    env.reset(seed=3)
    raw = env.unwrapped
    before = raw.game_state.to_json()
    for action, error, words in ((10**6, ValueError, r"action 1000000 is outside the action space Discrete\(271\)"),
                                 (-3, ValueError, "action -3 is outside"), (24.7, TypeError, "action 24.7"),
                                 (np.float32(2), TypeError, "action np.float32"), ("1", TypeError, "action '1'"),
                                 (np.array([1, 2]), TypeError, r"action array\(\[1, 2\]\)"),
                                 (None, ValueError, "the learner must act")):
        with pytest.raises(error, match=words):
            raw.step(action)
        assert raw.game_state.to_json() == before
    legal = np.flatnonzero(raw.action_masks())
    obs, reward, terminated, truncated, info = env.step(np.array(legal[0]))  # a 0-d array, as predict() gives
    assert "illegal_action" not in info
    env.step(np.int64(np.flatnonzero(raw.action_masks())[0]))


def test_single_agent_env_deepcopies_and_the_gymnasium_wrapped_env_pickles():
    import copy
    import pickle

    env = gymnasium.make("ktenv/KingsAndThings-v0", n_players=2, max_rounds=3, seat="random")
    env.reset(seed=6)
    rng = np.random.default_rng(4)
    for _ in range(10):
        env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
    for other in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env), copy.deepcopy(env.unwrapped)):
        original = copy.deepcopy(env.unwrapped)
        for _ in range(30):
            action = int(rng.choice(np.flatnonzero(original.action_masks())))
            a, b = original.step(action), other.step(action)
            assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]
            if a[2] or a[3]:
                break
        assert original.game_state.to_json() == other.unwrapped.game_state.to_json()


def test_human_render_mode_prints_the_board(capsys):
    env = gymnasium.make("ktenv/KingsAndThings-v0", num_players=2, max_rounds=2, render_mode="human")
    env.reset(seed=0)
    capsys.readouterr()
    assert env.render() is None
    assert "Kings & Things: round" in capsys.readouterr().out
