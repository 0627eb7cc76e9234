"""The native expert agent (ktenv.kings_and_things.native.expert, src/agents/expert.cpp) is bit-exact with
agents/kings_and_things/expert.py.

Seeded games are played (2, 3, 4 and 6 players; option mixes with house content, Mysterious Kadab and the
encounter powers) with expert seats: at every decision the native scores of every legal action must equal
the Python ExpertAgent.scores bit for bit, and the native agent must choose what the Python agent chooses
(same seed, same tie-break draws, the same move plan carried from MOVE_START to MOVE_SELECT and
MOVE_STACK). Observations perturbed with fractional values and set to every decision the agent has a
handler for check the float32/float64 arithmetic of every handler. CI plays short games; behind `slow`,
KTENV_EXPERT_GAMES full-length ones.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np
import pytest

from ktenv.kings_and_things import native

if not native.available() or not hasattr(native.core(), "Expert"):
    pytest.skip("the native core (with the expert agent) is not built", allow_module_level=True)

from ktenv.agents.kings_and_things.expert import ExpertAgent  # noqa: E402  (the oracle: the Python agent, always)
from ktenv.agents.kings_and_things.rules import HANDLER_NAMES  # noqa: E402
from ktenv.agents.kings_and_things.view import VARIANTS, LayoutError, View, _shape  # noqa: E402

from ktenv import agents  # noqa: E402
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.arena import encoder_for  # noqa: E402
from ktenv.kings_and_things.config import GameConfig  # noqa: E402
from ktenv.kings_and_things.engine import machine  # noqa: E402
from ktenv.kings_and_things.engine.machine import legal_mask, step  # noqa: E402
from ktenv.kings_and_things.native import core  # noqa: E402
from ktenv.kings_and_things.native.agents import greedy_plan  # noqa: E402
from ktenv.kings_and_things.native.expert import NativeExpertAgent, expert_plan, expert_plan_numbers  # noqa: E402

from .. import play  # noqa: E402

EXPERT = ExpertAgent(seed=0)
HANDLED = sorted(code for code, name in HANDLER_NAMES.items() if hasattr(EXPERT, name))
CONFIGS = (
    (2, {}), (3, {"victory": "quick"}), (4, {"neutral_control": "policy", "event_losses": "free_choice"}),
    (2, {"house_content": True}), (3, {"mysterious_kadab": True}),
    (4, {"house_content": True, "mysterious_kadab": True}),
    (3, {"encounter_powers": True, "dust_timing": "any_window"}),
)

pytestmark = pytest.mark.usefixtures("no_shadow")  # they compare the agents, not the engines


def bits(a) -> np.ndarray:
    return np.asarray(a, np.float64).view(np.int64)


def play_compared(cfg: GameConfig, seed: int, max_decisions: int = 100_000) -> Counter:
    """Play a game of expert seats, comparing scores and choices at every decision; decisions per code."""
    s = machine.new_game(cfg, seed, backend="python")
    enc = encoder_for(cfg)
    py = [ExpertAgent(seed=seed * 10 + p) for p in range(cfg.n_players)]
    nat = [NativeExpertAgent(seed=seed * 10 + p) for p in range(cfg.n_players)]
    seen: Counter = Counter()
    while not s.game_over and sum(seen.values()) < max_decisions:
        p, mask = s.actor, legal_mask(s)
        obs = enc.encode(s, p)
        legal = np.flatnonzero(mask)
        where = f"{cfg.n_players} players, seed {seed}, decision {sum(seen.values())}"
        if legal.size > 1:
            v = View(obs)
            where += f" ({D.NAMES[v.decision]})"
            want = py[p].scores(v, legal)
            got_legal, got = nat[p].scores(obs, mask)
            assert np.array_equal(got_legal, legal), where
            assert np.array_equal(bits(got), bits(want)), f"{where}: scores {got} != {want}"
            seen[v.decision] += 1
        else:
            seen[-1] += 1
        a = py[p].act(obs, mask)
        assert nat[p].act(obs, mask) == a, f"{where}: another choice"
        step(s, a)
    return seen


@pytest.mark.parametrize("n, options", CONFIGS)
def test_games_same_scores_and_choices(n, options):
    seen = play_compared(GameConfig(n_players=n, max_rounds=3, **options), seed=11 + n)
    assert sum(seen.values()) > 150
    assert seen[D.MOVE_SELECT] and seen[D.MOVE_STACK], "no move with a plan was compared"
    print(f"{n} players {options}: {sum(seen.values())} decisions compared, {len(seen)} decision kinds")


def test_six_players_short():
    seen = play_compared(GameConfig(n_players=6, max_rounds=1), seed=5, max_decisions=250)
    assert sum(seen.values()) == 250


@pytest.mark.slow
def test_games_full_length():
    games = int(os.environ.get("KTENV_EXPERT_GAMES", "4"))
    total: Counter = Counter()
    for g in range(games):
        n, options = CONFIGS[g % len(CONFIGS)]
        total += play_compared(GameConfig(n_players=n, **options), seed=2000 + g)
    print(f"{games} games, {sum(total.values())} decisions compared, {len(total)} decision kinds: "
          f"{sorted(D.NAMES.get(d, 'single') for d in total)}")


def recorded(cfg: GameConfig, seed: int, every: int = 7, count: int = 14) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observation, mask) at every `every`-th decision of an expert game."""
    return play.recorded(cfg, seed, ExpertAgent(seed=seed), every, count)


@pytest.mark.parametrize("n, options", [(2, {}), (4, {"house_content": True}), (3, {"mysterious_kadab": True})])
def test_every_handler_on_perturbed_observations(n, options):
    """Every decision the agent handles, on real observations with some values made fractional or
    negative (float32 rounding then shows) and random masks: the same scores bit for bit. One Python
    and one native agent see the same sequence, so their move plans stay the same."""
    rng = np.random.default_rng(n)
    cfg = GameConfig(n_players=n, max_rounds=5, **options)
    py, nat = ExpertAgent(seed=0), NativeExpertAgent(seed=0)
    compared: Counter = Counter()
    for obs, _ in recorded(cfg, seed=n):
        v0 = View(obs)
        first = v0.layout.section("game").offset("decision_none")
        size = v0.actions.size
        small = np.r_[0:v0.actions.thing, v0.actions.player:size]  # actions whose index is a hex
        # MOVE_START first: its plan is what MOVE_SELECT and MOVE_STACK read next
        for d in [D.MOVE_START] + HANDLED:
            for _ in range(4):  # until the Python agent can read one
                o = obs.copy()
                noisy = rng.random(o.size) < 0.05
                o[noisy] = rng.integers(-1, 4, noisy.sum()) + rng.choice([0.0, 0.3, 0.5, 0.77], noisy.sum())
                o[first:first + D.n_decisions(cfg.house_content)] = 0
                o[first + d] = 1
                mask = np.zeros(size, np.int8)
                pool = small if rng.random() < 0.5 else np.arange(size)
                mask[rng.choice(pool, size=int(rng.integers(2, 24)), replace=False)] = 1
                legal = np.flatnonzero(mask)
                try:
                    want = py.scores(View(o), legal)
                except (IndexError, ValueError):  # an index or a hex the Python agent cannot read (never in a game)
                    continue
                got_legal, got = nat.scores(o, mask)
                assert np.array_equal(got_legal, legal)
                assert np.array_equal(bits(got), bits(want)), f"{D.NAMES[d]}: {got} != {want}"
                compared[d] += 1
                break
    assert set(compared) == set(HANDLED), f"never compared: {set(HANDLED) - set(compared)}"
    print(f"{n} players {options}: {sum(compared.values())} perturbed decisions compared")


def test_one_legal_action_draws_nothing_reset_and_layout_change():
    a = recorded(GameConfig(n_players=2, max_rounds=3), seed=3, every=3, count=8)
    b = recorded(GameConfig(n_players=3, max_rounds=2, house_content=True), seed=2, every=2, count=6)
    py, nat = ExpertAgent(seed=9), NativeExpertAgent(seed=9)
    for obs, mask in a[:4] + b + a[4:]:
        one = np.zeros_like(mask)
        one[np.flatnonzero(mask)[-1]] = 1
        assert py.act(obs, one) == nat.act(obs, one) == np.flatnonzero(mask)[-1]
        assert py.act(obs, mask) == nat.act(obs, mask)
    py.reset(4)
    nat.reset(4)
    assert [py.act(o, m) for o, m in a] == [nat.act(o, m) for o, m in a]


def test_plans_follow_views_layouts():
    for v in VARIANTS:
        layout, geo, actions = _shape(*v)
        plan = expert_plan(*v)
        assert (plan.size, plan.n_actions, plan.n_players) == (layout.size, actions.size, v[0])
        assert plan.greedy_plan is greedy_plan(*v) or plan.greedy_plan.size == layout.size


def test_bad_input_is_refused():
    obs = recorded(GameConfig(n_players=2, max_rounds=2), seed=3, count=1)[0][0]
    size = View(obs).actions.size
    nat = NativeExpertAgent(seed=1)
    with pytest.raises(ValueError, match="allows no action"):
        nat.act(obs, np.zeros(size, np.int8))
    with pytest.raises(ValueError, match="mask of length"):
        nat.act(obs, np.ones(size + 1, np.int8))
    with pytest.raises(LayoutError, match="length 5"):
        nat.act(np.zeros(5, np.float32), np.ones(size, np.int8))
    with pytest.raises(ValueError, match="needs the observation"):
        nat.act(None, np.ones(size, np.int8))
    with pytest.raises(ValueError, match="no observation layout for 5 players"):
        expert_plan_numbers(5)
    ints, tables = expert_plan_numbers(2)
    del ints["things.selected"]
    with pytest.raises(ValueError, match="missing number 'things.selected'"):
        core().ExpertPlan.make(greedy_plan(2), ints, tables)
    ints, tables = expert_plan_numbers(2)
    tables["steps"] = tables["steps"][:10]
    with pytest.raises(ValueError, match="table 'steps' has 10 entries"):
        core().ExpertPlan.make(greedy_plan(2), ints, tables)
    ints, tables = expert_plan_numbers(2)
    ints["game.round"] = 10**9
    with pytest.raises(ValueError, match="outside the observation"):
        core().ExpertPlan.make(greedy_plan(2), ints, tables)
    nat.act(obs, np.ones(size, np.int8))  # the agent still plays after refusals


def test_the_registered_expert_is_the_native_one_when_built():
    """agents.make("expert") plays natively (the same choices as ExpertAgent, tested above)."""
    assert isinstance(agents.make("expert", seed=1), NativeExpertAgent)


def test_vector_expert_seats_play_the_python_expert():
    """VectorEnv's "expert" seats play inside native code what agents/kings_and_things/expert.py plays on the AEC
    env (seeded as the greedy seats are, docs/vector.md)."""
    from ktenv.kings_and_things.vector import VectorEnv
    from tests.native.test_vector import Twin, drive

    n, seed, seats = 2, 23, ("expert", "external", "random")
    env = VectorEnv(n, seed=seed, num_threads=2, reward="shaped", seats=seats, n_players=3, max_rounds=2)
    twins = [Twin("native", seats, "shaped", None, {"max_rounds": 2}) for _ in range(n)]
    for twin in twins:  # the oracle: the Python agent
        twin.greedy = {p: ExpertAgent(n_players=3) for p, kind in enumerate(seats) if kind == "expert"}
    assert drive(env, twins, seed, 150, np.random.default_rng(8)) >= n
    env.set_next_seats(0, ("greedy", "external", "expert"))  # set later: the plan is added then
    with pytest.raises(ValueError, match="unknown seat kind|not one of|expert"):
        VectorEnv(1, seed=1, seats=("expert", "nobody"), n_players=2)


def test_follow_moves_the_stack_a_search_chose():
    """follow(action) after a MOVE_START: the expert then carries out its plan for that stack, the plan
    agents/kings_and_things/expert.py makes for it (move_targets), as if it had started that stack itself."""
    from ktenv.agents.kings_and_things.view import HERO_COMBAT, THING_COMBAT

    cfg = GameConfig(n_players=2, max_rounds=4)
    s = machine.new_game(cfg, 7, backend="python")
    enc, players = encoder_for(cfg), [ExpertAgent(seed=p) for p in range(2)]
    followed = 0
    while not s.game_over and followed < 3:
        p, mask = s.actor, legal_mask(s)
        obs = enc.encode(s, p)
        v = View(obs)
        starts = [a for a in np.flatnonzero(mask) if v.split(int(a))[0] == "HEX"]
        if v.decision == D.MOVE_START and len(starts) >= 2:
            nat = NativeExpertAgent(seed=1)
            nat.scores(obs, mask)
            assert not nat.follow(-5)  # not an action scored there: nothing changes
            a = int(starts[-1])
            x = v.split(a)[1]
            assert nat.follow(a)
            py = ExpertAgent(seed=1)
            things, heroes = py.unmoved_at(v, x)
            values = np.sort(np.concatenate([THING_COMBAT[things] * np.where(v.thing_supported[things], 1.0, 0.0),
                                             HERO_COMBAT[heroes]]))[::-1]
            target, _, need = py.move_targets(v, x, values)
            py.memory["move"] = (x, target, need)
            t = s.copy()
            step(t, a)  # then both carry out the move of that stack
            while not t.game_over and t.actor == p and t.decision in (D.MOVE_SELECT, D.MOVE_STACK):
                o, m = enc.encode(t, p), legal_mask(t)
                b = py.act(o, m)
                assert nat.act(o, m) == b
                step(t, b)
            followed += 1
        step(s, players[p].act(obs, mask))
    assert followed == 3


@pytest.mark.parametrize("n", [2, 4])
def test_a_teacher_told_what_was_played_follows_that_move(n):
    """A teacher labelling another player's game (DAgger, a probe's reference) hears the action played where its
    label was not (agents.base.tell_played): after a MOVE_START it carries out the move of the stack chosen, with
    the plan it made for that stack, so its labels of the rest of that move belong to it. The Python and the native
    expert label alike throughout."""
    from ktenv.agents.base import tell_played

    cfg = GameConfig(n_players=n, max_rounds=5)
    s = machine.new_game(cfg, 13, backend="python")
    enc, rng = encoder_for(cfg), np.random.default_rng(5)
    py, nat = [ExpertAgent(seed=p) for p in range(n)], [NativeExpertAgent(seed=p) for p in range(n)]
    switched = labelled_moves = 0
    for _ in range(3000):
        if s.game_over:
            break
        p, mask = s.actor, legal_mask(s)
        obs = enc.encode(s, p)
        label = py[p].act(obs, mask)
        assert nat[p].act(obs, mask) == label
        legal = np.flatnonzero(mask)
        played = int(legal[rng.integers(legal.size)]) if rng.random() < 0.5 else label  # the learner's choice
        if played != label:
            tell_played(py[p], played)
            tell_played(nat[p], played)
            if s.decision == D.MOVE_START and View(obs).split(played)[0] == "HEX":
                assert py[p].memory["move"][0] == View(obs).split(played)[1]  # the move under way is the played one
                switched += 1
        labelled_moves += s.decision == D.MOVE_STACK
        step(s, played)
    assert switched >= 3 and labelled_moves >= 10
