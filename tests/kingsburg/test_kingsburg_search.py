"""The `search` agent and its worlds (ktenv.kingsburg.worlds, agents/kingsburg/search.py): worlds keep what the
seat knows and redraw only what it cannot (K1.5, D20, D21), the native sampler draws the Python one's worlds, the
decision ignores hidden facts, depends on the seed alone under a playouts budget (any thread count), and plays
legal moves in whole games."""

from __future__ import annotations

import numpy as np
import pytest
from ktenv.agents.kingsburg import AGENTS
from ktenv.agents.kingsburg.search import SearchAgent

from ktenv.kingsburg import catalog as cat
from ktenv.kingsburg import native
from ktenv.kingsburg.config import KingsburgConfig
from ktenv.kingsburg.machine import legal_mask
from ktenv.kingsburg.observation import ObservationEncoder
from ktenv.kingsburg.testing import hidden_variants, random_states
from ktenv.kingsburg.worlds import WorldSampler, card_hidden, sample_world

pytestmark = [pytest.mark.skipif(not native.available(), reason="the native Kingsburg engine is not built"),
              pytest.mark.usefixtures("python_steps_alone")]


def _python(s):
    return s.to_python() if hasattr(s, "to_python") else s


def _states(players: int, count: int, seed: int = 3) -> list:
    return [_python(s) for s in random_states({"n_players": players}, count, seed=seed, gap=(5, 60))]


@pytest.mark.parametrize("players", [2, 4])
def test_a_world_keeps_what_the_seat_knows_and_redraws_only_hidden_cards(players):
    enc = ObservationEncoder(players)
    rng = np.random.default_rng(1)
    for s in _states(players, 25):
        seat = int(rng.integers(players))
        w = sample_world(s, seat, int(rng.integers(2**63)))
        w.check_invariants()
        assert np.array_equal(enc.encode(w, seat), enc.encode(s, seat))
        if s.actor == seat:
            assert np.array_equal(legal_mask(w), legal_mask(s))
        for y in range(cat.YEARS):
            assert int(w.enemy_deck[y]) in cat.CARDS_OF_YEAR[y]
            if not card_hidden(s, seat, y):
                assert w.enemy_deck[y] == s.enemy_deck[y]
        assert w.rng.state != s.rng.state


def test_hidden_cards_are_drawn_among_the_five_of_their_year():
    s = _states(2, 1)[0]
    seen = {int(sample_world(s, 0, seed).enemy_deck[cat.YEARS - 1]) for seed in range(60)}
    assert seen == set(cat.CARDS_OF_YEAR[cat.YEARS - 1])


@pytest.mark.parametrize("players", [2, 3])
def test_the_native_sampler_draws_the_python_worlds(players):
    from ktenv.kingsburg.native.game import NativeKingsburg

    for i, s in enumerate(_states(players, 20, seed=5)):
        seat = i % players
        py = sample_world(s, seat, 1000 + i)
        nat = sample_world(NativeKingsburg.from_python(s), seat, 1000 + i)
        assert nat.to_json() == py.to_json()


def test_worlds_do_not_depend_on_hidden_facts():
    rng = np.random.default_rng(2)
    for s in _states(2, 20, seed=7):
        seat = int(rng.integers(2))
        base = sample_world(s, seat, 42).to_json()
        for what, t in hidden_variants(s, seat, rng):
            assert sample_world(t, seat, 42).to_json() == base, what


def _decision_states(players: int, count: int) -> list:
    return [s for s in _states(players, 4 * count, seed=11) if not s.game_over][:count]


def _decide(s, agent: SearchAgent) -> tuple[int, list[float], int, int]:
    enc = ObservationEncoder(s.n_players)
    mask = legal_mask(s)
    obs = {"observation": enc.encode(s, s.actor), "action_mask": mask, "worlds": WorldSampler(s, s.actor)}
    a = agent.act(obs, mask)
    assert mask[a] and agent.last_choices[agent.last_candidate] == a
    return a, list(agent.last_gains), agent.last_rounds, len(agent.last_choices)


@pytest.mark.parametrize("rollout", ["plain", "expert", "random"])
def test_the_decision_ignores_hidden_facts(rollout):
    rng = np.random.default_rng(4)
    for s in _decision_states(2, 6):
        seat = s.actor
        base = _decide(s, SearchAgent(seconds=0, playouts=24, rollout=rollout, seed=9))
        for what, t in hidden_variants(s, seat, rng):
            assert _decide(t, SearchAgent(seconds=0, playouts=24, rollout=rollout, seed=9)) == base, what


@pytest.mark.parametrize("rollout", ["plain", "greedy"])
def test_the_decision_depends_on_the_seed_alone_whatever_the_threads(rollout):
    for s in _decision_states(3, 5):
        one = _decide(s, SearchAgent(seconds=0, playouts=40, rollout=rollout, seed=5, threads=1))
        assert _decide(s, SearchAgent(seconds=0, playouts=40, rollout=rollout, seed=5, threads=3)) == one
        assert one[2] == 40 // one[3]  # whole rounds, one rollout per candidate


def test_the_search_plays_legal_moves_in_whole_games():
    from ktenv.kingsburg.arena import play_game

    cfg = KingsburgConfig.from_dict({"n_players": 2})
    for seed, names in ((1, ["search:seconds=0,playouts=8", "expert"]),
                        (2, ["greedy", "search:seconds=0.002,rollout=expert"])):
        res = play_game(cfg, seed, names)
        assert res.reason == "game_end" and res.winners


def test_a_searching_opponent_plays_in_the_single_agent_env():
    from ktenv.kingsburg.single import KingsburgSingleEnv

    env = KingsburgSingleEnv(num_players=2, opponents=["search:seconds=0,playouts=8"])
    _, info = env.reset(seed=3)
    done, steps = False, 0
    while not done and steps < 40:
        _, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        done, steps = term or trunc, steps + 1
    assert steps == 40 or done


def test_the_browser_app_shows_the_candidates_and_their_gains():
    from ktenv.registry import game
    from ktenv.web.inspect import inspect

    spec = game("kingsburg")
    s = spec.new_game(KingsburgConfig.from_dict({"n_players": 2}), 5)
    out = inspect(spec, s, s.actor, "search:seconds=0,playouts=12")
    assert out["kind"] == "mean difference from the first candidate" and out["rounds"] >= 2
    assert sum("(played)" in a["label"] for a in out["actions"]) == 1


def test_the_candidates_are_the_experts_move_then_its_order_of_the_rest():
    from ktenv.agents.kingsburg import ExpertAgent

    enc = ObservationEncoder(2)
    for s in _decision_states(2, 12):
        mask = legal_mask(s)
        obs = enc.encode(s, s.actor)
        ranked = ExpertAgent(seed=1).ranked(obs, mask)
        assert ranked[0] == ExpertAgent(seed=1).act(obs, mask)
        assert sorted(ranked) == np.flatnonzero(mask).tolist()


def test_bad_options_and_a_missing_sampler_are_refused():
    for spec in ("search:candidates=1", "search:rollout=expertish", "search:seconds=0,playouts=0", "search:bogus=1",
                 "search:threads=0", "search:z=-1"):
        with pytest.raises(ValueError):
            AGENTS.make(spec)
    agent = AGENTS.make("search")
    s = _decision_states(2, 1)[0]
    mask = legal_mask(s)
    with pytest.raises(ValueError, match="worlds"):
        agent.act({"observation": ObservationEncoder(2).encode(s, s.actor), "action_mask": mask}, mask)
    with pytest.raises(ValueError, match="seat"):
        WorldSampler(s, 5)
