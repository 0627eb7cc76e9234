"""One learning seat per game over the batched games: ktenv.kings_and_things.vector.learner and its SB3 and
Gymnasium adapters. SingleAgentEnv is the oracle: with the same seeds, seats and actions (its opponents
choosing what the native seats choose), the learner's observations, masks, rewards, ends and infos must
be the same step by step."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

from ktenv.kings_and_things import native

if not native.available():
    pytest.skip("the native core is not built", allow_module_level=True)

from ktenv.agents import make as make_agent  # noqa: E402

from ktenv.errors import (
    ConfigError,  # noqa: E402
    IllegalActionError,  # noqa: E402
)
from ktenv.kings_and_things.env.single import SingleAgentEnv  # noqa: E402
from ktenv.kings_and_things.vector.learner import LearnerGames  # noqa: E402
from ktenv.rng import Dice  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_shadow")  # they compare the engines themselves


class NativeRandom:
    """SingleAgentEnv's opponent choosing what a native random seat chooses (docs/vector.md): one generator per
    game, shared by its random seats."""

    needs_observation = False

    def __init__(self, shared: dict) -> None:
        self.shared = shared

    def reset(self, seed=None) -> None:  # the twin seeds the generator from the game's seed instead
        pass

    def act(self, observation, mask) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[self.shared["dice"].below(legal.size)])


class Fixed:
    """An agent seeded by the test, not by SingleAgentEnv's reset."""

    def __init__(self, agent) -> None:
        self.agent, self.needs_observation = agent, True

    def reset(self, seed=None) -> None:
        pass

    def act(self, observation, mask) -> int:
        return self.agent.act(observation, mask)


def twin_env(games: LearnerGames, i: int, kinds: list[str], reward: str, options: dict) -> SingleAgentEnv:
    """Game i's episode under way replayed by SingleAgentEnv: same seed, seat and opponents' choices."""
    seed, seat, players = int(games.seeds()[i]), int(games.learner[i]), games.num_players
    shared = {"dice": Dice((seed * 7919 + 1) % 2**64)}
    opponents = []
    for k, kind in enumerate(kinds):
        p = (seat + 1 + k) % players
        if kind == "random":
            opponents.append(NativeRandom(shared))
        elif kind == "greedy":
            greedy = make_agent("greedy", n_players=players)
            greedy.reset((seed * 7919 + 2 + p) % 2**64)
            opponents.append(Fixed(greedy))
        elif kind.startswith(("ppo:", "ppo-sample:")):  # the arena's agent, seeded as the native seat
            opponents.append(Fixed(make_agent(kind, seed=(seed * 7919 + 2 + p) % 2**64)))
        else:
            opponents.append(Fixed(make_agent(kind)))
    env = SingleAgentEnv(seat=seat, opponents=opponents, reward=reward, illegal_action="raise", backend="native",
                         n_players=players, **options)
    return env


def compare(games: LearnerGames, kinds_of, reward: str, options: dict, steps: int, rng) -> int:
    """Drive `games` and one SingleAgentEnv per game side by side; returns the episodes that ended."""
    obs, resets = games.reset()
    twins = []
    for i in range(games.num_envs):
        twin = twin_env(games, i, kinds_of(resets[i]), reward, options)
        seen, info = twin.reset(seed=int(games.seeds()[i]))
        np.testing.assert_array_equal(obs[i], seen)
        assert resets[i].get("reward_before_first_step") == info.get("reward_before_first_step")
        twins.append(twin)
    ended = 0
    for _ in range(steps):
        masks = games.action_masks()
        for i, twin in enumerate(twins):
            np.testing.assert_array_equal(masks[i], twin.action_masks())
        actions = (rng.random(masks.shape) * masks).argmax(1)
        obs, rewards, terminated, truncated, ends, resets = games.step(actions)
        for i, twin in enumerate(twins):
            seen, reward_i, term, trunc, info = twin.step(int(actions[i]))
            assert rewards[i] == pytest.approx(reward_i, abs=1e-12) and (term, trunc) == (terminated[i], truncated[i])
            if not (term or trunc):
                np.testing.assert_array_equal(obs[i], seen)
                continue
            ended += 1
            end = ends[i]
            np.testing.assert_array_equal(end["terminal_observation"], seen)  # the learner's view of the end
            for key in ("winners", "winner", "reason", "seat", "round", "income", "hexes", "gold", "alive"):
                assert end[key] == info[key], key
            twins[i] = twin_env(games, i, kinds_of(resets[i]), reward, options)
            seen, info = twins[i].reset(seed=int(games.seeds()[i]))
            np.testing.assert_array_equal(obs[i], seen)
            assert resets[i].get("reward_before_first_step") == info.get("reward_before_first_step")
    return ended


@pytest.mark.parametrize("players,reward,opponents,options,steps", [
    (2, "shaped", "random", {"max_rounds": 2}, 150),
    (3, "win", ["greedy", "random"], {"max_rounds": 1}, 80),
])
def test_same_as_single_agent_env(players, reward, opponents, options, steps):
    games = LearnerGames(3, num_players=players, seed=7, num_threads=2, reward=reward, opponents=opponents,
                         **options)
    kinds = [opponents] * (players - 1) if isinstance(opponents, str) else opponents
    assert compare(games, lambda info: kinds, reward, options, steps, np.random.default_rng(1)) >= 3
    assert len(set(games.learner.tolist())) > 1 or players == 2


def test_league_draws_every_episode_and_the_same_seed_plays_the_same():
    """Opponents drawn per episode (native kinds mixed); determinism whatever the thread count."""
    def draw(game, k, rng):
        return ("random", "greedy")[int(rng.integers(2))]

    def play(threads):
        games = LearnerGames(4, seed=3, num_threads=threads, reward="shaped", max_rounds=1, opponents=draw)
        obs, resets = games.reset()
        rng, rows = np.random.default_rng(2), [obs, [r["opponents"] for r in resets]]
        for _ in range(120):
            obs, rewards, terminated, truncated, ends, resets = games.step(
                (rng.random((4, games.n_actions)) * games.action_masks()).argmax(1))
            rows += [obs, rewards, terminated, [r and r["opponents"] for r in resets]]
        return rows

    one = play(1)
    drawn = {tuple(o) for row in one[1::4] if isinstance(row, list) for o in row if o}
    assert {("random",), ("greedy",)} <= drawn
    for a, b in zip(one, play(2)):
        np.testing.assert_array_equal(np.asarray(a, dtype=object), np.asarray(b, dtype=object))


def test_league_opponents_same_as_single_agent_env():
    """Per-episode draws of the league (random, greedy) replayed by SingleAgentEnv with what was drawn."""
    def draw(game, k, rng):
        return ("random", "greedy")[int(rng.integers(2))]

    games = LearnerGames(3, seed=40, num_threads=2, reward="shaped", max_rounds=1, opponents=draw)
    assert compare(games, lambda info: info["opponents"], "shaped", {"max_rounds": 1}, 100,
                   np.random.default_rng(4)) >= 3


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    """A small untrained ktenv model zip (the format `ktenv train` writes)."""
    import torch
    from ktenv.training.policy import build_policy, meta_bytes

    from ktenv.kings_and_things.env.aec import game_config

    games = LearnerGames(1)
    meta = {"observation_size": games.observation_size, "action_size": games.n_actions,
            "network": {"features": 16, "pi": [8], "vf": [8], "activation": "relu"},
            "game": game_config({"n_players": 2}).to_dict()}
    torch.manual_seed(0)
    blob = io.BytesIO()
    torch.save(build_policy(meta).state_dict(), blob)
    path = tmp_path_factory.mktemp("policy") / "snapshot.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("ktenv.json", meta_bytes(meta))
        archive.writestr("policy.pth", blob.getvalue())
    return path


@pytest.mark.parametrize("mode", ["ppo", "ppo-sample"])
def test_snapshot_opponents_play_natively_as_the_arena_agent(policy_file, mode):
    """A snapshot seat chooses what agents/ppo.py's agent of the same name chooses (seeded as the seat is), so the
    learner sees what SingleAgentEnv would show it; no Python agent is made for it."""
    spec = f"{mode}:{policy_file}"
    games = LearnerGames(4, seed=12, num_threads=2, reward="shaped", max_rounds=1, opponents=spec)
    assert compare(games, lambda info: [spec], "shaped", {"max_rounds": 1}, 60, np.random.default_rng(6)) >= 1
    assert games._agents == []
    assert games.games.seats(0)[1 - games.learner[0]] == spec


def test_sampled_snapshots_are_deterministic(policy_file):
    def play():
        games = LearnerGames(5, seed=2, num_threads=2, max_rounds=1, opponents=f"ppo-sample:{policy_file}")
        obs, _ = games.reset()
        rng, seen = np.random.default_rng(0), [obs]
        for _ in range(40):
            seen.append(games.step((rng.random((5, games.n_actions)) * games.action_masks()).argmax(1))[0])
        return seen

    for a, b in zip(play(), play()):
        np.testing.assert_array_equal(a, b)


def test_bad_input_is_refused_and_changes_nothing():
    with pytest.raises(ConfigError, match="seat: expected 0-1 or 'random'"):
        LearnerGames(2, seat=2)
    with pytest.raises(ConfigError, match="opponents: expected 2"):
        LearnerGames(2, num_players=3, opponents=["random"] * 3)
    with pytest.raises(ConfigError, match="'wizard'"):
        LearnerGames(2, opponents="wizard")
    with pytest.raises(ConfigError, match="needs_worlds"):
        LearnerGames(2, opponents="ismcts")
    games = LearnerGames(2, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        games.step([0, 0])
    obs, _ = games.reset()
    masks = games.action_masks()
    actions = masks.argmax(1)
    actions[1] = int(np.flatnonzero(~masks[1])[0])
    with pytest.raises(IllegalActionError, match="game 1"):
        games.step(actions)
    np.testing.assert_array_equal(games.action_masks(), masks)
    np.testing.assert_array_equal(games.games.step(np.full(2, -1))["observation"], obs)


def test_sb3_vec_env_with_maskable_ppo():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from ktenv.kings_and_things.vector.sb3 import LearnerVecEnv

    venv = LearnerVecEnv(4, reward="shaped", max_rounds=1, opponents="greedy", num_threads=1)
    assert is_masking_supported(venv)
    venv.seed(20)
    obs = venv.reset()
    assert obs.shape == (4, venv.observation_space.shape[0]) and venv.reset_infos[0]["opponents"] == ["greedy"]
    assert get_action_masks(venv).shape == (4, venv.action_space.n)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    model.learn(256)
    assert len(model.ep_info_buffer) > 0 and {"r", "l", "t"} <= set(model.ep_info_buffer[0])
    venv.step_async(get_action_masks(venv).argmax(1))
    _, rewards, dones, infos = venv.step_wait()
    assert rewards.dtype == np.float32 and dones.dtype == bool
    venv.close()


def test_gymnasium_vector_env_same_step_autoreset():
    from gymnasium.vector import AutoresetMode

    from ktenv.kings_and_things.vector.gym import LearnerVectorEnv

    envs = LearnerVectorEnv(3, max_steps=40, opponents="random", num_threads=1)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, infos = envs.reset(seed=4)
    assert obs.shape == (3,) + envs.single_observation_space.shape and infos["_seat"].all()
    rng, done = np.random.default_rng(0), np.zeros(3, bool)
    for _ in range(40):
        masks = envs.action_masks()
        obs, rewards, terminations, truncations, infos = envs.step((rng.random(masks.shape) * masks).argmax(1))
        if (terminations | truncations).any():
            ended = terminations | truncations
            assert (infos["_final_obs"] == ended).all() and (infos["_final_info"] == ended).all()
            i = int(np.flatnonzero(ended)[0])
            assert infos["final_obs"][i].shape == envs.single_observation_space.shape
            assert infos["final_info"]["reason"][i] == "step_limit"  # a dict of per-game values (Gymnasium)
            done |= ended
    assert done.all()
    envs.close()
