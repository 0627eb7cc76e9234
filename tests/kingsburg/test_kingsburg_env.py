"""Kingsburg environments: the same checks as the Kings & Things envs (PettingZoo api_test and seed_test,
Gymnasium's and SB3's env checkers, the leak checker, exact masks through the env), plus pickling,
snapshots and rendering."""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import ktenv
import ktenv.kingsburg as kb
from ktenv.errors import ConfigError
from ktenv.kingsburg.observation import ObservationEncoder
from ktenv.kingsburg.testing import check_mask_exact, check_no_leak, random_states

GYM_ID = "ktenv/Kingsburg-v0"

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("n", [2, 4, 5])
def test_pettingzoo_api_test(n):
    api_test(kb.env(num_players=n), num_cycles=300)


def test_pettingzoo_api_test_shaped_and_terminate():
    api_test(kb.env(num_players=3, reward="shaped", illegal_action="terminate"), num_cycles=300)


def test_pettingzoo_seed_test():
    seed_test(lambda: kb.env(num_players=3), num_cycles=200)


def test_gymnasium_check_env():
    assert ktenv.registry.game("kingsburg").gym_id == GYM_ID
    check_env(gymnasium.make(GYM_ID, num_players=2, render_mode="ansi").unwrapped, skip_render_check=False)
    check_env(gymnasium.make(GYM_ID, num_players=4, seat="random", reward="shaped").unwrapped)


def test_sb3_check_env():
    sb3 = pytest.importorskip("stable_baselines3.common.env_checker")
    sb3.check_env(gymnasium.make(GYM_ID, num_players=3).unwrapped)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_observations_do_not_leak(n):  # K1.5, K15.D20
    enc = ObservationEncoder(n)
    rng = np.random.default_rng(n)
    checked = peeked = 0
    for s in random_states({"n_players": n}, 40, seed=n):
        peeked += int(s.peeked.any())
        for p in range(n):
            checked += check_no_leak(enc.encode, s, p, rng)
    assert checked > 300 and peeked > 0


def test_the_leak_checker_catches_a_leak():
    enc = ObservationEncoder(3)

    def leaky(s, p):
        obs = enc.encode(s, p)
        obs[0] += float(s.enemy_deck[4])
        return obs

    s = next(iter(random_states({"n_players": 3}, 1, seed=1)))
    with pytest.raises(AssertionError, match="hidden change"):
        check_no_leak(leaky, s, 0, np.random.default_rng(0))


def test_masks_exact_through_the_env():  # K16
    raw = kb.raw_env(num_players=4)
    raw.reset(seed=0)
    rng = np.random.default_rng(0)
    tried = sum(check_mask_exact(raw, s, rng) for s in random_states({"n_players": 4}, 25, seed=2))
    assert tried > 100


def test_full_games_rewards_infos_pickle_snapshot():
    e = kb.env(num_players=3, render_mode="ansi")
    e.reset(seed=4)
    total = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for i, agent in enumerate(e.agent_iter()):
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        last_info = info
        if i == 50:
            clone = pickle.loads(pickle.dumps(e.unwrapped))
            assert clone.snapshot() == e.unwrapped.snapshot()
            assert "Kingsburg" in e.render()
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert last_info["reason"] == "game_end" and last_info["winners"]
    assert abs(sum(total.values())) < 1e-9


def test_errors_and_render_rgb():
    with pytest.raises(ConfigError):
        kb.env(num_players=6)
    with pytest.raises(ConfigError):
        kb.env(num_players=2, colour="red")
    raw = kb.raw_env(num_players=5, render_mode="rgb_array")
    raw.reset(seed=1)
    picture = raw.render()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.std() > 10
    with pytest.raises(ValueError):
        raw.step(kb.N_ACTIONS)
    with pytest.raises(kb.IllegalActionError):
        raw.step(int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0]))


def test_observations_stay_in_their_box_and_the_doc_shows_the_layout():
    from pathlib import Path

    from ktenv.kingsburg.observation import build_layout

    enc = ObservationEncoder(4)
    for s in random_states({"n_players": 4}, 30, seed=9):
        for p in range(4):
            obs = enc.encode(s, p)
            assert ((obs >= enc.low) & (obs <= enc.high)).all()
    doc = (Path(__file__).resolve().parents[2] / "docs" / "kingsburg.md").read_text()
    assert build_layout(4).markdown().strip() in doc  # docs/kingsburg.md is regenerated with the layout


def test_single_agent_env_with_named_opponents():
    env = gymnasium.make(GYM_ID, num_players=3, opponents=["expert", "greedy"], seat=1)
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(0)
    done, total = False, 0.0
    while not done:
        mask = env.unwrapped.action_masks()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        done = terminated or truncated
    assert terminated and info["reason"] == "game_end" and total in (-1.0, -0.5, 0.0, 0.5, 1.0)
    with pytest.raises(ConfigError):
        gymnasium.make(GYM_ID, num_players=2, opponents=["expert", "greedy"])


def test_every_placed_die_is_drawn_once_even_with_a_players_own_envoy_group():
    """K5.3.6 lets a player's Envoy group join an advisor that player already influences; the board shows each
    die on an advisor once (the picture once drew that player's dice twice)."""
    from ktenv.kingsburg.render import advisor_dice
    from ktenv.kingsburg.state import NEUTRAL

    own_envoy = 0
    for s in random_states({"n_players": 4}, 400, seed=11):
        for a in range(1, 19):
            shown = sum(len(pips) for _, pips in advisor_dice(s, a))
            placed = int((s.die_advisor == a).sum()) + int((s.neutral_advisor == a).sum())
            assert shown == placed
            own_envoy += int(s.advisor_envoy[a] >= 0 and s.advisor_envoy[a] == s.advisor_group[a] != NEUTRAL)
    assert own_envoy, "no random state had a player's own Envoy group: widen the search"
