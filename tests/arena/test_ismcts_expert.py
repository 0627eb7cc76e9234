"""The ISMCTS agent with the expert as its rollout and expansion policy, and the race value."""

from __future__ import annotations

import numpy as np
import pytest
from ktenv.agents.kings_and_things.ismcts import cap_decides, public_value, race_progress

from ktenv import agents
from ktenv.kings_and_things.arena import encoder_for, play_game
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.engine.machine import legal_mask
from ktenv.kings_and_things.engine.victory import ranking_by_income
from ktenv.kings_and_things.env.stats import GOLD, INCOME, player_stats
from ktenv.kings_and_things.env.testing import python_state, random_states
from ktenv.kings_and_things.state import GameState
from ktenv.kings_and_things.worlds import WorldSampler
from tests.arena.test_ismcts import _native, native_only


def test_options():
    a = agents.make("ismcts:playouts=40,rollout=expert,expand=expert,race=8", seed=1)
    assert (a.rollout, a.expand, a.w_race) == ("expert", "expert", 8.0)
    with pytest.raises(ValueError, match="race"):
        agents.make("ismcts:race=fast")
    assert agents.make("ismcts:margin=0.02").margin == 0.02
    with pytest.raises(ValueError, match="margin"):
        agents.make("ismcts:margin=-1")


def test_race_progress_counts_what_a_citadel_needs():
    """R14.3: a Castle, the Citadel income (15 at 2 players), 5 gold; a Citadel counts 4 + 2."""
    cfg = GameConfig(n_players=2, max_rounds=6)
    s = next(iter(random_states(cfg, 1, seed=4, gap=(80, 81))))
    s = python_state(s)
    mine = np.flatnonzero(s.hex_owner == 0)
    s.hex_fort[s.hex_owner == 0] = 0
    s.hex_fort[mine[0]] = 3
    st = player_stats(s)
    expected = 3 + min(1.0, st[0, INCOME] / 15.0) + min(1.0, st[0, GOLD] / 5.0)
    assert race_progress(s)[0] == pytest.approx(expected)
    s.hex_fort[mine[0]] = 4
    assert race_progress(s)[0] == 6.0
    s.hex_fort[mine[0]] = 2
    assert race_progress(s)[0] == 2.0
    v = public_value(s, race=10.0)
    assert v.sum() == pytest.approx(1.0) and (v >= 0).all()


def _with_citadels(cfg, count: int, seed: int = 4) -> GameState:
    """A mid-game state of `cfg` with `count` Citadels: the first owned hex of players 0, 1, ... upgraded."""
    s = next(iter(random_states(cfg, 1, seed=seed, gap=(80, 81))))
    s = python_state(s)
    s.hex_fort[s.hex_fort == 4] = 3
    for p in range(count):
        s.hex_fort[np.flatnonzero(s.hex_owner == p)[0]] = 4
    return s


def seat_observation(s) -> dict:
    """The arena's observation for the actor of native game s: its encoding, mask and world sampler."""
    return {"observation": encoder_for(s.cfg).encode(s, s.actor), "action_mask": legal_mask(s).copy(),
            "worlds": WorldSampler(s, s.actor)}


def test_standings_weigh_in_once_only_conquest_or_the_cap_can_end_the_game():
    """R16.3: with two Citadels only a conquest wins; R16.7/R19.3: at the cap the highest income (then land hexes,
    gold) wins. `standings` of the value goes to the cap's winners now, only then."""
    s = _with_citadels(GameConfig(n_players=2, max_rounds=40), 2)
    assert cap_decides(s)
    share = public_value(s, race=4.0)
    leaders = ranking_by_income(s)
    standing = np.zeros(2)
    standing[leaders] = 1.0 / len(leaders)
    assert public_value(s, race=4.0, standings=1.0) == pytest.approx(standing)
    v = public_value(s, race=4.0, standings=0.25)
    assert v == pytest.approx(0.75 * share + 0.25 * standing) and v.sum() == pytest.approx(1.0)
    one = _with_citadels(GameConfig(n_players=2, max_rounds=40), 1)  # a sole Citadel may still win (R16.2)
    uncapped = _with_citadels(GameConfig(n_players=2, max_rounds=None), 2)  # no cap: no standings
    for s in (one, uncapped):
        assert not cap_decides(s)
        assert public_value(s, standings=1.0) == pytest.approx(public_value(s))
    with pytest.raises(ValueError, match="standings"):
        agents.make("ismcts:standings=1.5")
    assert agents.make("ismcts:standings=0.5").w_standings == 0.5


@native_only
def test_native_standings_value_who_leads_at_the_cap():
    """With standings=1 every rollout of a two-Citadel game is worth 0, 1/2 or 1 to the seat (the cap's winners
    now, or the end), so a candidate's mean paired difference over R rounds is a multiple of 1 / (2R); with one
    Citadel in the game the option is not in force, even where a rollout reaches two (the same seed, the same
    gains)."""
    cfg = GameConfig(n_players=2, max_rounds=40)
    spec = "ismcts:rollout=expert,cutoff=20,paired=3,playouts=30"
    def gains(count: int, standings: float):
        obs = seat_observation(_native(_with_citadels(cfg, count, seed=10)))
        agent = agents.make(f"{spec},standings={standings}", seed=2)
        agent.act(obs, obs["action_mask"])
        assert agent.last_rounds >= 2 and agent._standings_now == (standings if count == 2 else 0.0)
        return np.array(agent.last_gains) * 2 * agent.last_rounds

    assert np.allclose(gains(2, 1.0), np.round(gains(2, 1.0))) and gains(2, 1.0).any()
    assert not np.allclose(gains(2, 0.0), np.round(gains(2, 0.0)))
    assert np.array_equal(gains(1, 1.0), gains(1, 0.0)) and gains(1, 0.0).any()


def test_python_search_with_expert_rollouts_plays_whole_games():
    cfg = GameConfig(n_players=2, max_rounds=2)
    r = play_game(cfg, 4, ["ismcts:playouts=3,cutoff=4,rollout=expert,expand=expert,race=5", "random"],
                  backend="python")
    assert r.winners or r.reason, r.reason
    assert r.decisions > 20


@native_only
def test_native_expert_search_plays_whole_games():
    cfg = GameConfig(n_players=3, max_rounds=2)
    r = play_game(cfg, 4, ["ismcts:playouts=15,cutoff=10,rollout=expert,expand=expert,race=10", "expert",
                           "greedy"], backend="native")
    assert r.winners or r.reason, r.reason


def test_follow_option():
    with pytest.raises(ValueError, match="follow"):
        agents.make("ismcts:follow=1,rollout=greedy")
    with pytest.raises(ValueError, match="follow"):
        agents.make("ismcts:follow=2,rollout=expert")
    a = agents.make("ismcts:follow=1,rollout=expert,expand=expert,playouts=5", seed=1)
    assert a.follow and a.needs_observation  # its own expert reads the observation
    assert not agents.make("ismcts:playouts=5", seed=1).needs_observation


@native_only
def test_native_follow_plays_whole_games_and_moves_by_plan():
    """follow=1: the agent's MOVE_SELECT and MOVE_STACK decisions are not searched (its expert carries out
    the plan of the stack the search started); the search covers the rest."""
    from ktenv.kings_and_things import decisions as D
    from ktenv.kings_and_things.native.game import NativeGame

    cfg = GameConfig(n_players=2, max_rounds=3)
    r = play_game(cfg, 5, ["ismcts:playouts=10,cutoff=10,rollout=expert,expand=expert,follow=1,race=10,margin=0.01",
                           "expert"], backend="native")
    assert r.winners or r.reason, r.reason
    agent = agents.make("ismcts:playouts=10,cutoff=10,rollout=expert,expand=expert,follow=1", seed=2)
    from ktenv.kings_and_things.arena import encoder_for

    enc, searched, followed = encoder_for(cfg), 0, 0
    for s in random_states(cfg, 8, seed=9, gap=(20, 200)):
        s = s if isinstance(s, NativeGame) else _native(s)
        mask = legal_mask(s).copy()
        if np.count_nonzero(mask) < 2:
            continue
        obs = {"observation": enc.encode(s, s.actor), "action_mask": mask, "worlds": WorldSampler(s, s.actor)}
        a = agent.act(obs, mask)
        assert mask[a]
        if s.decision in (D.MOVE_SELECT, D.MOVE_STACK):
            assert agent.last_iterations == 0
            followed += 1
        else:
            assert agent.last_iterations == 10
            searched += 1
    assert searched
