"""Population evaluation: the crosstable and its seat split, the payoff matrix, Nash averaging and alpha-Rank on
textbook games, Bradley-Terry ratings, a run's checkpoints rated against anchors, and the exploiter."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ktenv.analysis import population as pop
from ktenv.arena import TournamentConfig, run_tournament

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "ppo_2p.zip"
RPS = pd.DataFrame([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], index=list("RPS"), columns=list("RPS"), dtype=float)


def game(agents: list[str], winners: list[int], reason: str = "citadel") -> dict:
    return {"agents": agents, "winners": winners, "reason": reason}


# ----------------------------------------------------------------------------- the crosstable

def test_the_crosstable_counts_each_pair_by_seat():
    rows = [game(["a", "b"], [0]), game(["a", "b"], [0]), game(["b", "a"], [1]), game(["b", "a"], [0]),
            game(["a", "b"], [0, 1]),  # a shared win: half each
            game(["a", "b"], [1], reason="engine_error")]  # not counted, as in the standings
    table = pop.crosstable(rows).set_index(["agent", "opponent"])
    a = table.loc[("a", "b")]
    assert (a["games"], a["wins"], a["seat0_games"], a["seat0_wins"], a["seat1_games"], a["seat1_wins"]) == \
        (5, 3.5, 3, 2.5, 2, 1.0)
    b = table.loc[("b", "a")]
    assert b["wins"] == 1.5 and b["seat0_wins"] == 1.0 and b["seat1_wins"] == 0.5
    assert (table["low"] <= table["rate"]).all() and (table["rate"] <= table["high"]).all()
    assert 0 < a["low"] < a["rate"] == 0.7 < a["high"] < 1


def test_an_agent_in_two_seats_plays_one_game():
    """Four seats, two agents (the schedule's tables when there are fewer agents than seats)."""
    table = pop.crosstable([game(["a", "b", "a", "b"], [2]), game(["b", "a", "b", "a"], [0])])
    a = table.set_index(["agent", "opponent"]).loc[("a", "b")]
    assert (a["games"], a["wins"], a["seat2_games"], a["seat2_wins"], a["seat0_wins"]) == (2, 1.0, 1, 1.0, 0.0)


def test_the_crosstable_refuses_what_it_cannot_read():
    with pytest.raises(ValueError, match="no counted games"):
        pop.crosstable([game(["a", "b"], [0], reason="step_limit")])
    with pytest.raises(ValueError, match="played no counted game"):
        pop.crosstable([game(["a", "b"], [0])], agents=["a", "c"])
    with pytest.raises(FileNotFoundError, match="no such tournament store"):
        pop.crosstable("no/such/store.sqlite")
    with pytest.raises(TypeError, match="not a source of games"):
        pop.crosstable(3)


@pytest.fixture(scope="module")
def tournament(tmp_path_factory):
    where = tmp_path_factory.mktemp("population")
    cfg = TournamentConfig(agents=["expert", "greedy", "random"], players=2, games=12, max_rounds=4, seed=5,
                           workers=1, db=str(where / "t.sqlite"), records=str(where / "records"), fresh=True,
                           progress=False)
    report = run_tournament(cfg)
    from ktenv.datasets import export_dataset

    export_dataset(cfg.db_path, where / "data", fresh=True)
    return cfg.db_path, where / "data", report["games"]


def test_a_store_a_dataset_and_the_game_rows_give_one_crosstable(tournament):
    store, data, rows = tournament
    table = pop.crosstable(store, agents=["expert", "greedy", "random"])
    pd.testing.assert_frame_equal(table, pop.crosstable(data, agents=["expert", "greedy", "random"]))
    pd.testing.assert_frame_equal(table, pop.crosstable(rows, agents=["expert", "greedy", "random"]))
    assert list(table["agent"].unique()) == ["expert", "greedy", "random"]
    assert (table["games"] == 4).all() and (table["seat0_games"] + table["seat1_games"] == table["games"]).all()
    pair = table.set_index(["agent", "opponent"])  # two players: the pair's win shares add up to its games
    assert pair.loc[("expert", "greedy"), "wins"] + pair.loc[("greedy", "expert"), "wins"] == 4


def test_the_payoff_matrix_is_antisymmetric_and_needs_every_pair(tournament):
    store, _, rows = tournament
    payoff = pop.payoff_matrix(pop.crosstable(store))
    assert np.allclose(payoff.to_numpy(), -payoff.to_numpy().T)
    assert payoff.at["expert", "random"] == 2 * pop.rate_matrix(pop.crosstable(store)).at["expert", "random"] - 1
    partial = [g for g in rows if set(g["agents"]) != {"greedy", "random"}]
    with pytest.raises(ValueError, match="never met"):
        pop.payoff_matrix(pop.crosstable(partial))


# ----------------------------------------------------------------------------- Nash averaging and alpha-Rank

def test_nash_of_rock_paper_scissors_is_uniform():
    nash = pop.nash_average(RPS).set_index("agent")
    assert np.allclose(nash["mass"], 1 / 3) and np.allclose(nash["payoff"], 0)


def test_nash_gives_a_dominated_agent_no_mass():
    payoff = np.array([[0, -1, 1, 1], [1, 0, -1, 1], [-1, 1, 0, 1], [-1, -1, -1, 0]], float)
    nash = pop.nash_average(payoff).set_index("agent")
    assert nash.at["3", "mass"] == 0 and nash.at["3", "payoff"] == pytest.approx(-1)
    assert np.allclose(nash.loc[["0", "1", "2"], "mass"], 1 / 3)


def test_nash_of_a_transitive_game_is_the_best_agent():
    payoff = np.array([[0, 0.4, 0.8], [-0.4, 0, 0.6], [-0.8, -0.6, 0]])
    nash = pop.nash_average(payoff)
    assert nash["agent"].tolist() == ["0", "1", "2"] and nash["mass"].tolist() == [1.0, 0.0, 0.0]
    assert nash["payoff"].tolist() == pytest.approx([0, -0.4, -0.8])


def test_nash_averaging_is_not_fooled_by_a_copy():
    """Rock twice: the maximum-entropy equilibrium splits rock's third between the copies (Balduzzi et al.)."""
    payoff = np.array([[0, 0, -1, 1], [0, 0, -1, 1], [1, 1, 0, -1], [-1, -1, 1, 0]], float)
    nash = pop.nash_average(payoff).set_index("agent")
    assert nash.loc[["0", "1", "2", "3"], "mass"].tolist() == pytest.approx([1 / 6, 1 / 6, 1 / 3, 1 / 3], abs=1e-5)


def test_nash_needs_an_antisymmetric_square_matrix():
    with pytest.raises(ValueError, match="antisymmetric"):
        pop.nash_average(np.array([[0, 1], [1, 0]]))
    with pytest.raises(ValueError, match="square"):
        pop.nash_average(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="missing"):
        pop.nash_average(np.array([[0, np.nan], [np.nan, 0]]))


def test_alpha_rank_on_textbook_games():
    assert np.allclose(pop.alpha_rank(RPS)["mass"], 1 / 3)
    transitive = pop.alpha_rank(np.array([[0, 0.4, 0.8], [-0.4, 0, 0.6], [-0.8, -0.6, 0]]))
    assert transitive.iloc[0]["agent"] == "0" and transitive.iloc[0]["mass"] > 0.999
    dominated = pop.alpha_rank(np.array([[0, -1, 1, 1], [1, 0, -1, 1], [-1, 1, 0, 1], [-1, -1, -1, 0]], float))
    assert dominated.set_index("agent").at["3", "mass"] < 1e-6 and dominated.iloc[-1]["rank"] == 4
    weak = pop.alpha_rank(np.array([[0, 0.4], [-0.4, 0]]), alpha=0.01)  # weak selection: nearly a coin toss
    assert 0.5 < weak.iloc[0]["mass"] < 0.6
    with pytest.raises(ValueError, match="alpha"):
        pop.alpha_rank(RPS, alpha=0)


# ----------------------------------------------------------------------------- ratings

def bradley_terry_games(strengths: dict[str, float], games: int, seed: int = 0) -> list[dict]:
    rng = np.random.default_rng(seed)
    names = list(strengths)
    rows = []
    for _ in range(games):
        a, b = rng.choice(names, 2, replace=False)
        p = 1 / (1 + np.exp(-(strengths[a] - strengths[b])))
        rows.append(game([a, b], [0] if rng.random() < p else [1]))
    return rows


def test_bradley_terry_finds_the_strengths_it_was_given():
    strengths = {"expert": 0.0, "strong": 1.0, "weak": -1.0}
    ratings = pop.fit_ratings(pop.crosstable(bradley_terry_games(strengths, 3000)), prior_games=0).set_index("agent")
    assert ratings.at["expert", "rating"] == 0 and ratings.at["expert", "low"] == ratings.at["expert", "high"] == 0
    for name in ("strong", "weak"):
        row = ratings.loc[name]
        assert row["low"] < strengths[name] * pop.ELO < row["high"] and row["high"] - row["low"] < 60


def test_a_perfect_record_needs_the_prior():
    table = pop.crosstable([game(["expert", "random"], [0])] * 5)
    assert pop.fit_ratings(table).set_index("agent").at["random", "rating"] < -100
    with pytest.raises(ValueError, match="do not converge"):
        pop.fit_ratings(table, prior_games=0)
    with pytest.raises(ValueError, match="fixed agent"):
        pop.fit_ratings(table, fixed="greedy")


def test_the_pictures(tournament):
    import matplotlib

    matplotlib.use("Agg")
    store, _, _ = tournament
    table = pop.crosstable(store)
    assert len(pop.plot_crosstable(table).texts) == 9
    assert len(pop.plot_population(pop.nash_average(pop.payoff_matrix(table))).patches) == 3
    ratings = pop.fit_ratings(table).assign(step=pd.array([None] * 3, dtype="Int64"))
    ratings = pd.concat([ratings, pd.DataFrame({"agent": ["step_10"], "step": [10], "rating": [-50.0],
                                                "low": [-90.0], "high": [-10.0]})], ignore_index=True)
    ax = pop.plot_checkpoint_ratings(ratings)
    assert len(ax.get_legend().get_texts()) == 4  # the checkpoints and three anchors


# ----------------------------------------------------------------------------- a training run

@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    """A run folder as ktenv train leaves one: its config and two checkpoints (the shipped model, twice)."""
    pytest.importorskip("sb3_contrib")
    from ktenv.training.config import TrainConfig

    run = tmp_path_factory.mktemp("run")
    cfg = TrainConfig.from_mapping({"out": str(run), "env": {"players": 2, "max_rounds": 3},
                                    "policy": {"features": 256, "pi": [256], "vf": [256]}})
    cfg.save(run / "config.yaml")
    for step in (1000, 2000):
        (run / "checkpoints").mkdir(exist_ok=True)
        shutil.copyfile(MODEL, run / "checkpoints" / f"step_{step:010d}.zip")
    return run


def test_checkpoint_ratings_rate_each_step_against_the_anchors(run_folder):
    result = pop.checkpoint_ratings(run_folder, anchors=("expert", "rnd=random"), games=2, between_checkpoints=True)
    ratings = result["ratings"]
    assert ratings["agent"].tolist()[:2] == ["step_1000", "step_2000"]
    assert ratings["step"].tolist()[:2] == [1000, 2000] and ratings["step"].isna().sum() == 2
    assert ratings.set_index("agent").at["expert", "rating"] == 0
    assert {"vs_expert_rate", "vs_rnd_low", "vs_rnd_high"} <= set(ratings.columns)  # an anchor by its label
    assert len(result["crosstable"]) == 4 * 3 and len(result["games"]) == 6 * 2
    stores = sorted(p.name for p in (run_folder / "ratings").glob("*.sqlite"))
    assert stores[0] == "expert_vs_rnd.sqlite" and len(stores) == 6
    again = pop.checkpoint_ratings(run_folder, anchors=("expert", "rnd=random"), games=2, between_checkpoints=True)
    pd.testing.assert_frame_equal(again["ratings"], ratings)  # read back from the stores, nothing played again


def test_checkpoint_ratings_refuse_bad_requests(run_folder, tmp_path):
    with pytest.raises(ValueError, match="must be one of the anchors"):
        pop.checkpoint_ratings(run_folder, anchors=("random",), games=2)
    with pytest.raises(ValueError, match="no checkpoint of step"):
        pop.checkpoint_ratings(run_folder, games=2, steps=[5])
    with pytest.raises(FileNotFoundError, match="not a training run folder"):
        pop.checkpoint_ratings(tmp_path, games=2)
    assert [s for s, _ in pop.run_checkpoints(run_folder)] == [1000, 2000]


def test_the_exploiter_is_aimed_at_its_target(tmp_path):
    pytest.importorskip("sb3_contrib")
    from ktenv.analysis.exploiter import target_overrides
    from ktenv.errors import ConfigError

    keys = target_overrides(MODEL, 5000, tmp_path / "x")
    assert keys["league.opponents"] == {f"ppo:{MODEL}": 1.0} and keys["league.snapshots"] == 0
    assert keys["init_from"] == str(MODEL) and keys["policy.features"] == 256 and keys["env.players"] == 2
    assert keys["env.max_rounds"] == 30 and "max_rounds" not in keys["env.game"]
    assert target_overrides(MODEL, 5000, tmp_path / "x", from_scratch=True)["init_from"] is None
    with pytest.raises(ConfigError, match="no such model file"):
        target_overrides(tmp_path / "none.zip", 5000, tmp_path / "x")
    with pytest.raises(ConfigError, match="--budget"):
        target_overrides(MODEL, 0, tmp_path / "x")


def test_ktenv_exploit_names_a_missing_model(tmp_path, capsys):
    from ktenv.cli import main

    assert main(["exploit", str(tmp_path / "none.zip"), "--budget", "100", "--out", str(tmp_path / "x")]) == 2
    assert "none.zip: no such model file" in capsys.readouterr().err and not (tmp_path / "x").exists()


@pytest.mark.slow
def test_an_exploiter_trains_and_reports(tmp_path, monkeypatch):
    """A tiny budget against the shipped model: the run, both matches, the fingerprint and exploit.json."""
    pytest.importorskip("sb3_contrib")
    from ktenv.analysis.exploiter import exploit, exploit_report, format_report

    monkeypatch.chdir(ROOT)
    out = tmp_path / "exploiter"
    report = exploit(MODEL, 64, out, games=2, settings={"n_envs": 2, "ppo.n_steps": 32, "ppo.batch_size": 32,
                                                        "checkpoint_every": 64, "eval.games": 1})
    assert (out / "final.zip").is_file() and (out / "exploit" / "exploit.json").is_file()
    for name in ("exploiter_result", "reference_result"):
        result = report[name]
        assert result["games"] == 2 and result["low"] <= result["rate"] <= result["high"]
    assert set(report["summary"]["agent"]) == {"exploiter", "target"}
    assert {"difference", "exploiter_rate", "target_rate"} <= set(report["decisions"].columns)
    assert "exploiter" in format_report(report)
    saved = json.loads((out / "exploit" / "exploit.json").read_text(), parse_constant=pytest.fail)  # no NaN
    assert saved["exploiter_result"]["games"] == 2 and saved["decisions"][0]["decision"]
    with pytest.raises(ValueError, match="not an exploiter's run folder"):
        exploit_report(tmp_path / "elsewhere")
