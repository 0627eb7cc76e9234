"""Kingsburg's native agents (ktenv/kingsburg/native/agents.py, src/agents/) choose what the Python agents choose.

Seeded games of every player count are played with random, greedy and expert seats; at every decision the native
agent of the seat and its Python twin (same seed) see the same observation and mask and must choose the same
action. CI plays a few games (several hundred decisions of each agent); behind `slow`, KTENV_KINGSBURG_AGENT_GAMES
games.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest
from ktenv.agents.kingsburg.heuristic import ExpertAgent, GreedyAgent

from ktenv.gamekit.native import seed_words
from ktenv.gamekit.random_agent import RandomAgent
from ktenv.kingsburg import actions as A
from ktenv.kingsburg import machine, native
from ktenv.kingsburg.config import KingsburgConfig
from ktenv.kingsburg.observation import ObservationEncoder

pytestmark = [pytest.mark.skipif(not native.available(), reason="the native Kingsburg engine is not built"),
              pytest.mark.usefixtures("python_steps_alone")]

PYTHON = {"random": RandomAgent, "greedy": GreedyAgent, "expert": ExpertAgent}
LINEUPS = (("expert", "greedy"), ("expert", "random", "greedy"), ("greedy", "expert", "expert", "random"),
           ("expert", "greedy", "random", "expert", "greedy"), ("expert", "expert", "expert", "expert"))


def play_compared(seed: int, names: tuple[str, ...]) -> Counter:
    """One game of `names`' seats; every decision compared. Decisions per (agent, decision name)."""
    from ktenv.kingsburg.native.agents import AGENT_CLASSES

    n = len(names)
    cfg = KingsburgConfig(n_players=n, neutral_dice_players=(2, 3) if seed % 2 else ())
    s, enc = machine.new_game(cfg, seed, backend="native"), ObservationEncoder(n)
    py = [PYTHON[name](seed=seed * 10 + p) for p, name in enumerate(names)]
    nat = [AGENT_CLASSES[name](seed=seed * 10 + p) for p, name in enumerate(names)]
    seen: Counter = Counter()
    while not s.game_over:
        p, mask = s.actor, machine.legal_mask(s)
        obs = enc.encode(s, p)
        want = py[p].act(obs, mask)
        got = nat[p].act(obs, mask)
        decision = A.DECISION_NAMES[s.decision]
        assert got == want, (f"{names} seed {seed}, decision {sum(seen.values())} ({decision}) of seat {p} "
                             f"({names[p]}): native {A.action_name(got)}, python {A.action_name(want)}")
        seen[names[p], decision] += 1
        machine.step(s, want)
    return seen


def check_games(games: int) -> Counter:
    seen: Counter = Counter()
    for g in range(games):
        seen += play_compared(g, LINEUPS[g % len(LINEUPS)])
    return seen


def test_native_agents_choose_what_the_python_agents_choose():
    seen = check_games(8)
    per_agent = Counter()
    for (name, _), count in seen.items():
        per_agent[name] += count
    assert min(per_agent[name] for name in PYTHON) >= 250, per_agent
    decisions = {d for (name, d) in seen if name == "expert"}
    assert len(decisions) >= 10, decisions  # most of K16's decisions were met


@pytest.mark.slow
def test_native_agents_choose_what_the_python_agents_choose_in_many_games():
    check_games(int(os.environ.get("KTENV_KINGSBURG_AGENT_GAMES", "12")))


def test_the_native_generator_draws_numpys_integers():
    bounds = [1, 2, 3, 65, 1, 7, 2**32, 1000, 2**31 + 5, 5] * 20
    for seed in (0, 1, 12345, 2**40 + 3, 2**70 + 11):
        want = [int(x) for x in (lambda r: [r.integers(b) for b in bounds])(np.random.default_rng(seed))]
        assert native.core().pcg64_integers(seed_words(seed), bounds) == want, seed


def test_native_agents_reject_bad_input_clearly():
    from ktenv.kingsburg.native.agents import NativeExpertAgent, NativeRandomAgent

    agent = NativeExpertAgent(seed=1)
    with pytest.raises(ValueError, match="allows no action"):
        agent.act(np.zeros(ObservationEncoder(3).size, np.float32), np.zeros(A.N_ACTIONS, np.int8))
    mask = np.zeros(A.N_ACTIONS, np.int8)
    mask[[0, 1]] = 1
    with pytest.raises(ValueError, match="not a Kingsburg observation"):
        agent.act(np.zeros(7, np.float32), mask)
    with pytest.raises(ValueError, match="needs the observation"):
        agent.act(None, mask)
    assert NativeRandomAgent(seed=3).act(None, mask) in (0, 1)  # the random agent reads the mask alone
    with pytest.raises(ValueError, match="seed"):
        NativeRandomAgent(seed=-1)
