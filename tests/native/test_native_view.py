"""The native agents' View read from the state itself (src/agents/view_state.cpp) is the View of the seat's
observation, fact by fact, bit for bit.

The search's rollouts let the expert read a seat's facts from the (sampled) state instead of encoding the
seat's observation. Seeded games are played (2, 3, 4 and 6 players; house content, Mysterious Kadab, the
encounter powers) and at every decision, for every seat, `view_differences` compares every column by its
offset and every named fact of every hex, Thing, hero face and register: none may differ. So the state
read shows a seat nothing its observation hides (RD8.2's Lucky Charm window, face-down terrain R20.3,
hidden stacks and screens), and the expert acting on it chooses what it chooses on the observation. The
worlds the search samples for the actor (what its rollouts read) are compared the same way.
"""

from __future__ import annotations

import numpy as np
import pytest

from ktenv.kings_and_things import native

if not native.available() or not hasattr(native.core(), "view_differences"):
    pytest.skip("the native core (with the state-read view) is not built", allow_module_level=True)

from ktenv.gamekit.native import seed_words  # noqa: E402
from ktenv.kings_and_things.config import GameConfig  # noqa: E402
from ktenv.kings_and_things.engine import machine  # noqa: E402
from ktenv.kings_and_things.native import core  # noqa: E402
from ktenv.kings_and_things.native.expert import expert_plan, expert_plan_for  # noqa: E402
from ktenv.kings_and_things.native.observation import NativeObservationEncoder, native_state  # noqa: E402
from ktenv.kings_and_things.worlds import native_sampling  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_shadow")  # they compare two readings, not the engines

CONFIGS = (
    (2, {}), (3, {"encounter_powers": True, "dust_timing": "any_window"}),
    (4, {"house_content": True, "mysterious_kadab": True}), (6, {}),
)


def play_compared(cfg: GameConfig, seed: int, decisions: int) -> tuple[int, int]:
    """Expert seats play `decisions` decisions: every seat's two views compared at each, and the actor's
    choice on the observation and on the state (two experts of one seed); (views compared, searched)."""
    s = machine.new_game(cfg, seed, backend="python")
    enc = NativeObservationEncoder(cfg)
    plan = expert_plan_for(cfg)
    on_obs = [core().Expert(plan, seed_words(seed * 10 + p)) for p in range(cfg.n_players)]
    on_state = [core().Expert(plan, seed_words(seed * 10 + p)) for p in range(cfg.n_players)]
    views = searched = 0
    for k in range(decisions):
        if s.game_over:
            break
        ns = native_state(s)
        states = [("game", ns)]
        if k % 10 == 0 and native_sampling(cfg):  # a world the actor cannot tell from the game: a rollout's start
            states.append(("world", core().WorldSampler(ns, s.actor).sample(str(seed * 1000 + k))[0]))
        for what, state in states:
            for q in range(cfg.n_players):
                obs = np.empty(enc.size, np.float32)
                enc.plan.encode(state, q, obs)
                differ = core().view_differences(plan.greedy_plan, enc.plan, state, q, obs)
                assert differ == [], f"seed {seed}, decision {k} ({what}), seat {q}: {differ[:5]}"
                views += 1
        p, mask = s.actor, machine.legal_mask(s).astype(np.int8)
        a = on_obs[p].act(enc.encode(s, p), mask)
        assert on_state[p].act_state(ns, enc.plan, p, mask) == a, f"seed {seed}, decision {k}: another choice"
        searched += int(np.count_nonzero(mask) > 1)
        machine.step(s, a)
    assert all(e.encodes == 0 for e in on_state), "the expert needed a column the state read does not give"
    return views, searched


@pytest.mark.parametrize("n, options", CONFIGS)
def test_the_state_read_is_the_observation_read(n, options):
    views, searched = play_compared(GameConfig(n_players=n, **options), seed=30 + n, decisions=400 if n < 6 else 200)
    assert searched > 50
    print(f"{n} players {options}: {views} views compared, {searched} expert decisions")


def test_a_bad_seat_or_layout_is_refused():
    cfg = GameConfig(n_players=4)
    enc = NativeObservationEncoder(cfg)
    s = machine.new_game(cfg, 1, backend="python")
    ns, mask = native_state(s), machine.legal_mask(s).astype(np.int8)
    expert = core().Expert(expert_plan_for(cfg), seed_words(1))
    with pytest.raises(ValueError, match="no such player"):
        expert.act_state(ns, enc.plan, 4, mask)
    two = expert_plan(2)  # a 2-player expert on a 4-player game
    with pytest.raises(ValueError, match="layout"):
        core().Expert(two, seed_words(1)).act_state(ns, enc.plan, 0, np.ones(two.n_actions, np.int8))
