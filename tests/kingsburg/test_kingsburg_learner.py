"""One learning seat per Kingsburg game over the batched games (ktenv/kingsburg/learner.py, learner_sb3.py): the
learner's rows are the Python engine's games with the opponents' turns played by the Python agents, the native
and the Python opponents alike; the SB3 and Gymnasium adapters."""

from __future__ import annotations

import numpy as np
import pytest
from ktenv.agents.kingsburg.heuristic import ExpertAgent, GreedyAgent

from ktenv.errors import ConfigError
from ktenv.kingsburg import machine, native
from ktenv.kingsburg.observation import ObservationEncoder

pytestmark = [pytest.mark.skipif(not native.available(), reason="the native Kingsburg engine is not built"),
              pytest.mark.usefixtures("python_steps_alone")]


class Counting(GreedyAgent):
    """A Python opponent (called once per decision through the batched games' SKIP path)."""

    name = "counting"
    calls = 0

    def act(self, observation, action_mask):
        Counting.calls += 1
        return super().act(observation, action_mask)


def test_the_learner_plays_the_python_engines_games():
    from ktenv.kingsburg.learner import LearnerGames

    players, twin = 3, {"greedy": GreedyAgent(), "expert": ExpertAgent(), "counting": GreedyAgent()}
    opponents = ["expert", Counting()]
    games = LearnerGames(4, num_players=players, seed=30, num_threads=2, reward="shaped", opponents=opponents)
    enc = ObservationEncoder(players)
    obs, infos = games.reset()
    assert [info["opponents"] for info in infos] == [["expert", "counting"]] * 4
    rng, ended, states = np.random.default_rng(2), 0, {}

    def settle(i):  # the Python replica of row i, its opponents' turns played by the Python agents
        s, seat = states[i]
        names = ["expert", "counting"]
        while not s.game_over and s.actor != seat:
            kind = names[(s.actor - seat - 1) % players]
            machine.step(s, twin[kind].act(enc.encode(s, s.actor), machine.legal_mask(s)))

    def start(i):
        states[i] = (machine.new_game(games.games.config, int(games.seeds()[i]), backend="python"),
                     int(games.learner[i]))
        settle(i)

    for i in range(4):
        start(i)
    for _ in range(300):
        masks = games.action_masks()
        for i in range(4):
            s, seat = states[i]
            assert s.actor == seat and np.array_equal(obs[i], enc.encode(s, seat))
            assert np.array_equal(masks[i], machine.legal_mask(s).astype(bool))
        actions = (rng.random(masks.shape) * masks).argmax(1)
        obs, rewards, terminated, truncated, ends, resets = games.step(actions)
        for i in range(4):
            s, seat = states[i]
            machine.step(s, int(actions[i]))
            settle(i)
            assert terminated[i] == s.game_over and not truncated[i]
            if s.game_over:
                ended += 1
                assert ends[i]["vp"] == int(s.vp[seat]) and ends[i]["seat"] == seat
                assert ends[i]["winners"] == [f"player_{p}" for p in s.winners]
                assert np.array_equal(ends[i]["terminal_observation"], enc.encode(s, seat))
                start(i)
    assert ended >= 2 and Counting.calls > 100


def test_the_sb3_and_gymnasium_adapters():
    from ktenv import registry

    venv = registry.game("kingsburg").learner_vec_env(3, num_players=2, seed=4, opponents="greedy", num_threads=1)
    obs = venv.reset()
    rng, done_seen = np.random.default_rng(0), 0
    for _ in range(200):
        masks = venv.action_masks()
        venv.step_async((rng.random(masks.shape) * masks).argmax(1))
        obs, rewards, dones, infos = venv.step_wait()
        assert obs.shape == (3, venv.observation_space.shape[0]) and rewards.dtype == np.float32
        for i in np.flatnonzero(dones):
            done_seen += 1
            assert "terminal_observation" in infos[i] and infos[i]["episode"]["l"] > 0
            assert infos[i]["reason"] == "game_end" and not infos[i]["TimeLimit.truncated"]
    assert done_seen >= 1
    venv.close()
    from ktenv.kingsburg.learner import LearnerVectorEnv

    envs = LearnerVectorEnv(2, num_players=4, opponents=["random", "greedy", "expert"], num_threads=2)
    obs, infos = envs.reset(seed=0)
    assert obs.shape == (2, envs.single_observation_space.shape[0]) and "seat" in infos
    obs, rewards, terminated, truncated, infos = envs.step((envs.action_masks() * 1.0).argmax(1))
    assert obs.shape[0] == 2 and rewards.shape == (2,)
    envs.close()


def test_bad_opponents_are_refused():
    from ktenv.kingsburg.learner import LearnerGames

    with pytest.raises(ConfigError, match="opponents"):
        LearnerGames(2, num_players=3, opponents=["random"] * 3)
    with pytest.raises(ConfigError, match="opponents"):
        LearnerGames(2, num_players=2, opponents="wizard")
    with pytest.raises(ConfigError, match="seat"):
        LearnerGames(2, num_players=2, seat=2)
