"""The outcome model (win chances from public facts, fitted to expert games) and the search option outcome=PATH."""

from __future__ import annotations

import json

import numpy as np
import pytest
from ktenv.agents.kings_and_things import outcome
from ktenv.agents.kings_and_things.ismcts import public_value

from ktenv import agents
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.env.stats import BOARD_THINGS, GOLD, HEXES, INCOME, SCREEN_SIZE, player_stats
from ktenv.kings_and_things.env.testing import python_state, random_states
from tests.arena.test_ismcts import _native, native_only
from tests.arena.test_ismcts_expert import _with_citadels, seat_observation

SHIPPED = "models/outcome_2p.json"


def _states(cfg, count: int, seed: int):
    for s in random_states(cfg, count, seed=seed, gap=(40, 120)):
        yield python_state(s)


def test_features_read_the_public_facts():
    """Income, land, heroes, gold up to the cap, the board's and the screen's counters; the Citadel's last step
    (R14.3: on a Castle the income and 5 gold it needs, 2 on a Citadel)."""
    s = _with_citadels(GameConfig(n_players=2, max_rounds=40), 1)
    x, st = outcome.features(s, gold_cap=3.0), player_stats(s)
    names = outcome.FEATURES
    for p in range(2):
        for name, col in (("income", INCOME), ("hexes", HEXES), ("board_things", BOARD_THINGS),
                          ("screen", SCREEN_SIZE)):
            assert x[p, names.index(name)] == st[p, col]
        assert x[p, names.index("gold")] == min(3.0, st[p, GOLD])
    assert x[0, names.index("highest_fort")] == 4 and x[0, names.index("citadel_step")] == 2.0


def test_win_chances_are_a_softmax_over_the_players_in_the_game():
    x = np.array([[1.0, 0.0], [0.0, 1.0], [3.0, 3.0]])
    w = np.array([2.0, 1.0])
    v = outcome.win_chances(x, w, np.array([True, True, False]))
    assert v[2] == 0.0 and v.sum() == pytest.approx(1.0)
    assert v[0] / v[1] == pytest.approx(np.exp(1.0))  # two players: the logistic of the difference


def test_the_shipped_model_reads_and_checks(tmp_path):
    model = outcome.load(SHIPPED, 2)
    assert model.weights.shape == (len(outcome.FEATURES),) and model.about["games"] > 0
    assert model.about["held_out_log_loss"] < model.about["coin_log_loss"]
    with pytest.raises(ValueError, match="2-player games; this table has 4"):
        outcome.load(SHIPPED, 4)
    with pytest.raises(ValueError, match="No such file"):
        outcome.load(str(tmp_path / "none.json"))
    bad = tmp_path / "bad.json"
    for text in ("{", json.dumps({"n_players": 2, "weights": {"income": 1.0}}),
                 json.dumps({"n_players": 2, "weights": dict.fromkeys(outcome.FEATURES, "x")})):
        bad.write_text(text)
        with pytest.raises(ValueError, match="not an outcome model"):
            outcome.load(str(bad))
    bad.write_text(json.dumps({"n_players": 2, "weights": dict.fromkeys(outcome.FEATURES, float("nan"))}))
    with pytest.raises(ValueError, match="finite"):
        outcome.load(str(bad))
    with pytest.raises(ValueError, match="No such file"):
        agents.make(f"ismcts:outcome={tmp_path / 'x.json'}")
    with pytest.raises(ValueError, match="value=public"):  # the critic would value the cutoffs instead
        agents.make(f"ismcts:paired=3,rollout=expert,policy=models/ppo_2p_rows.zip,outcome={SHIPPED}")


def test_save_then_load_gives_the_model(tmp_path):
    model = outcome.OutcomeModel(3, np.arange(len(outcome.FEATURES), dtype=float) / 7, 20.0, {"games": 5})
    path = tmp_path / "m.json"
    outcome.save(model, str(path))
    back = outcome.load(str(path), 3)
    assert np.allclose(back.weights, model.weights, atol=1e-6) and back.gold_cap == 20.0
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]  # no temporary file left


def test_a_fit_learns_which_facts_win():
    """Synthetic positions where the player with more land hexes wins: the fitted weight of land is the largest."""
    rng = np.random.default_rng(0)
    x = rng.integers(0, 10, size=(4000, 2, len(outcome.FEATURES))).astype(float)
    lead = x[:, 0, 1] - x[:, 1, 1]
    p0 = 1 / (1 + np.exp(-0.8 * lead))
    won = np.zeros((4000, 2))
    won[np.arange(4000), (rng.random(4000) > p0).astype(int)] = 1.0
    w = outcome.fit_weights(x, won)
    assert np.argmax(np.abs(w)) == 1 and w[1] == pytest.approx(0.8, abs=0.15)


def test_public_value_with_an_outcome_model():
    model = outcome.load(SHIPPED, 2)
    for s in _states(GameConfig(n_players=2, max_rounds=40), 3, seed=5):
        v = public_value(s, outcome=model)
        assert v == pytest.approx(outcome.value(s, model)) and v.sum() == pytest.approx(1.0)


@native_only
@pytest.mark.parametrize("n", [2, 3, 4])
def test_native_values_match_python(n):
    """Search::values (the native rollouts' value) and public_value agree on every state: the share with the race
    and standings terms, and the outcome model's win chances."""
    from ktenv.kings_and_things.native import core
    from ktenv.kings_and_things.native.expert import expert_plan_for
    from ktenv.kings_and_things.native.observation import stats_encoder

    cfg = GameConfig(n_players=n, max_rounds=40)
    plan, ex = stats_encoder(cfg).plan, expert_plan_for(cfg)
    rng = np.random.default_rng(n)
    model = outcome.OutcomeModel(n, rng.normal(0, 0.3, len(outcome.FEATURES)), 12.0, {})
    states = list(_states(cfg, 4, seed=20 + n)) + [_with_citadels(cfg, 2)]
    for s in states:
        ns = _native(s).native
        for race, standings in ((0.0, 0.0), (4.0, 0.5)):
            native = core().ismcts_values(ns, plan, ex, w_race=race, w_standings=standings)
            assert native == pytest.approx(public_value(s, race=race, standings=standings))
        native = core().ismcts_values(ns, plan, ex, w_outcome=model.weights.tolist(), outcome_gold_cap=12.0)
        assert native == pytest.approx(public_value(s, outcome=model))
    with pytest.raises(ValueError, match="10 weights"):
        core().ismcts_values(ns, plan, ex, w_outcome=[1.0])


@native_only
def test_the_search_plays_with_the_outcome_model():
    cfg = GameConfig(n_players=2, max_rounds=40)
    obs = seat_observation(_native(next(_states(cfg, 1, seed=7))))
    agent = agents.make(f"ismcts:rollout=expert,cutoff=20,paired=3,playouts=12,outcome={SHIPPED}", seed=2)
    a = agent.act(obs, obs["action_mask"])
    assert obs["action_mask"][a] and agent.last_rounds >= 2
    assert agent._native_options()["w_outcome"] == pytest.approx(outcome.load(SHIPPED).weights.tolist())
    four = GameConfig(n_players=4, max_rounds=40)
    obs4 = seat_observation(_native(next(_states(four, 1, seed=7))))
    with pytest.raises(ValueError, match="2-player games; this table has 4"):
        agent.act(obs4, obs4["action_mask"])


@native_only
def test_outcome_when_two_citadels_switches_the_model_on_with_the_second_citadel():
    """R16.3: with two Citadels only a conquest (or the cap) decides; before that the share with the race term values
    the rollouts, bit for bit as without the model."""
    cfg = GameConfig(n_players=2, max_rounds=40)
    base = "ismcts:rollout=expert,cutoff=20,paired=3,playouts=20,race=4"

    def search(count: int, extra: str):
        obs = seat_observation(_native(_with_citadels(cfg, count, seed=10)))
        agent = agents.make(base + extra, seed=2)
        agent.act(obs, obs["action_mask"])
        return agent

    late = f",outcome={SHIPPED},outcome_when=two_citadels"
    one = search(1, late)
    assert "w_outcome" not in one._native_options() and one.last_gains == search(1, "").last_gains
    assert "w_outcome" in search(2, late)._native_options()
    assert "w_outcome" in search(1, f",outcome={SHIPPED}")._native_options()
    for bad in ("outcome_when=later", "outcome_when=two_citadels"):  # the second: no model to switch on
        with pytest.raises(ValueError, match="outcome_when"):
            agents.make(f"ismcts:{bad}")
