"""Training against any agent, and a warm start from a model.

`league.opponents` and `eval.opponents` take any agent spec the arena plays (``ppo:PATH``, a search, a user's
``FILE.py:CLASS``), checked on load; ``init_from: PATH`` starts the learner from a model's weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from ktenv.training.config import TrainConfig  # noqa: E402
from ktenv.training.curve import read_scalars  # noqa: E402
from ktenv.training.policy import read_weights  # noqa: E402
from ktenv.training.train_ppo import main as train_main  # noqa: E402

from ktenv.errors import ConfigError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "configs" / "ppo_smoke.yaml"
MODEL = "models/ppo_2p.zip"
SHIPPED = ROOT / MODEL
BIG = {"policy.features": 256, "policy.pi": [256], "policy.vf": [256]}  # the shipped model's network
USER_AGENT = '''
import numpy as np

class FirstLegal:
    """A user's bot: the first legal action (it counts its games, to show it is reset)."""
    needs_observation = True

    def __init__(self, seed=None):
        self.games = 0

    def reset(self, seed=None):
        self.games += 1

    def act(self, observation, action_mask):
        return int(np.flatnonzero(action_mask)[0])
'''


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # configs name the shipped model relative to the checkout


@pytest.fixture
def user_file(tmp_path) -> str:
    path = tmp_path / "mine.py"
    path.write_text(USER_AGENT)
    return f"{path}:FirstLegal"


def load(**overrides) -> TrainConfig:
    return TrainConfig.from_yaml(SMOKE, {"eval.best_against": None, **overrides})


# ----------------------------------------------------------------------------- configs

def test_league_and_evaluation_take_any_agent_spec(user_file):
    cfg = load(**{"league.opponents": {"random": 0.5, f"ppo:{MODEL}": 0.3, f"ppo-sample:{MODEL}": 0.1,
                                       user_file: 0.1},
                  "eval.opponents": ["random", f"ppo:{MODEL}", f"shipped=ppo-sample:{MODEL}", user_file, "ismcts"]})
    assert f"ppo:{MODEL}" in cfg.league.opponents and "ismcts" in cfg.eval.opponents
    # a search plays in the league only where the games can hand it the game state: the subprocess games
    load(vec_env="subproc", **{"league.opponents": {"random": 0.5, "ismcts:playouts=2": 0.5}})


@pytest.mark.parametrize("overrides, message", [
    ({"eval.opponents": ["random", "gredy"]}, "training key 'eval.opponents': unknown agent 'gredy' (did you mean "
                                              "'greedy'?)"),
    ({"league.opponents": {"exprt": 1.0}}, "training key 'league.opponents': unknown agent 'exprt' (did you mean "
                                           "'expert'?)"),
    ({"eval.opponents": ["ppo:models/nothing_here.zip"]}, "ppo:models/nothing_here.zip: no such model file"),
    ({"league.opponents": {"bots/none.py:Bot": 1.0}}, "'bots/none.py:Bot' cannot be loaded"),
    ({"league.opponents": {"ismcts": 1.0}}, "searches the game state"),
    ({"league.opponents": {f"ppo:{MODEL}": 1.0}, "env.players": 3},
     f"ppo:{MODEL} is a model of kings_and_things for 2 players; this plays kings_and_things with 3 players"),
    ({"eval.opponents": [f"ppo:{MODEL}"], "env.game": {"house_content": True}}, "has the observation size 7081"),
    ({"league.opponents": {f"ppo:{MODEL}": 1.0}, "trainer": "rllib", "imitation.teacher": None},
     "trainer rllib plays random, greedy, expert"),
])
def test_a_bad_opponent_is_refused_on_load(overrides, message):
    with pytest.raises(ConfigError) as error:
        load(**overrides)
    assert message in str(error.value), error.value
    if "searches" in message:
        assert "vec_env: subproc" in str(error.value)


def test_an_evaluation_opponent_may_be_a_whole_table(tmp_path):
    """``"A + B + C"``: the model and those agents, one seat each, as the tournaments people run (with one agent
    at a table of four the rotation gives the model two seats and the agent two)."""
    from ktenv.training.config import eval_tournament, opponent_tag

    from ktenv.arena.tournament import run_tournament, schedule

    table = "expert + greedy + random"
    cfg = load(**{"env.players": 4, "eval.opponents": [table, "expert"], "eval.best_against": table,
                  "eval.games": 4, "eval.workers": 1, "env.max_rounds": 2})
    assert opponent_tag(table) == "expert+greedy+random"
    me = "ppo:models/ppo_4p_vs_expert.zip"
    tcfg = eval_tournament(cfg, me, table, 0, tmp_path / "table.sqlite")
    assert all(sorted(seats) == sorted([me, "expert", "greedy", "random"]) for _, _, seats in schedule(tcfg))
    assert [sorted(seats).count(me) for *_, seats in schedule(eval_tournament(cfg, me, "expert", 0, tmp_path / "x"))
            ] == [2] * 4
    assert sum(row.games for row in run_tournament(tcfg)["standings"] if row.agent == me) == 4
    with pytest.raises(ConfigError, match="seats 2 agents beside the model; a game of 4 players has 3"):
        load(**{"env.players": 4, "eval.opponents": ["expert + greedy"]})
    with pytest.raises(ConfigError, match="unknown agent 'gredy'"):
        load(**{"env.players": 4, "eval.opponents": ["expert + gredy + random"]})


def test_a_model_of_another_game_is_refused_before_training(tmp_path, capsys):
    args = ["--config", str(ROOT / "configs" / "ppo_kingsburg_4p.yaml"), "--out", str(tmp_path / "kb"),
            "--set", f"eval.opponents=[random, 'ppo:{MODEL}']"]
    assert train_main(args) == 2
    err = capsys.readouterr().err
    assert f"ppo:{MODEL} is a model of kings_and_things for 2 players; this plays kingsburg with 4 players" in err
    assert not (tmp_path / "kb").exists()


# ----------------------------------------------------------------------------- runs

def test_the_batched_games_train_against_a_model_and_a_users_bot_and_evaluate_against_a_model(tmp_path, user_file):
    """The shipped model plays league seats in native code, the user's bot in Python (its own agent per game and
    seat); the evaluation plays the model with the arena's tournament code."""
    out = tmp_path / "run"
    args = ["--config", str(SMOKE), "--out", str(out), "--set", "eval.best_against=null",
            "--set", f"league.opponents={{'ppo:{MODEL}': 0.5, '{user_file}': 0.5}}", "--set", "league.snapshots=0",
            "--set", f"eval.opponents=[random, 'ppo:{MODEL}']", "--set", "env.max_rounds=3"]
    assert train_main(args) == 0
    scalars = read_scalars(out)
    # both kinds of seat were played: the model's games count as "snapshot" games, the bot's under its spec
    tags = [t for t in scalars if t.startswith("game/win_rate_vs_")]
    assert "game/win_rate_vs_snapshot" in tags and any(t.endswith("mine.py_FirstLegal") for t in tags), tags
    assert all(v == 0 for _, v in scalars["game/illegal_actions"])
    for tag in ("eval/win_rate_vs_random", "eval/win_rate_vs_ppo_models_ppo_2p.zip"):
        assert tag in scalars, sorted(scalars)
    # a barely trained network against the shipped model: it loses
    assert scalars["eval/win_rate_vs_ppo_models_ppo_2p.zip"][-1][1] < 0.5
    assert (out / "eval" / "final_vs_ppo_models_ppo_2p.zip.sqlite").exists()


def test_a_search_plays_league_seats_in_the_subprocess_games():
    """A league seat hands a searching agent the world sampler (needs_worlds), as SingleAgentEnv does for
    its own opponents."""
    from ktenv.training.config import LeagueSection
    from ktenv.training.league import LeagueOpponent

    import ktenv

    seat = LeagueOpponent("/nonexistent", LeagueSection(opponents={"ismcts:playouts=2": 1.0}, snapshots=0.0), seed=1)
    env = ktenv.SingleAgentEnv(seat=0, opponents=[seat], n_players=2, max_rounds=2)
    obs, _ = env.reset(seed=3)
    assert seat.needs_worlds
    for _ in range(40):
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if terminated or truncated:
            break
    assert seat.name == "ismcts:playouts=2"


def test_init_from_starts_the_learner_from_the_models_weights(tmp_path, monkeypatch):
    """The learner's weights when PPO begins are the model's (float16 in the file, float32 here), and the
    imitation the config asks for is skipped."""
    import ktenv.training.train_ppo as train_ppo

    seen = {}

    class StopError(Exception):
        pass

    def first_weights(cfg, run_dir, model, meta, start, counters=None):
        seen.update({k: v.detach().clone() for k, v in model.policy.state_dict().items()})
        raise StopError

    monkeypatch.setattr(train_ppo, "learn", first_weights)
    cfg, run_dir = train_ppo.prepare_run(str(SMOKE), False, {"out": str(tmp_path / "warm"), "init_from": MODEL,
                                                             "imitation.teacher": "expert", **BIG})
    with pytest.raises(StopError):
        train_ppo.train(cfg, run_dir)
    shipped = read_weights(SHIPPED)
    assert set(seen) == set(shipped)
    for key in ("features_extractor.linear.0.weight", "action_net.weight", "value_net.bias"):
        assert str(seen[key].dtype) == "torch.float32"
        assert np.array_equal(seen[key].numpy(), shipped[key].float().numpy()), key
    assert not (run_dir / "imitation.zip").exists()


def test_init_from_trains_on_and_a_mismatch_is_refused(tmp_path, capsys):
    out = tmp_path / "tuned"
    base = ["--config", str(SMOKE), "--set", f"init_from={MODEL}", "--set", "eval.opponents=[random]",
            "--total-steps", "1024", "--set", "env.max_rounds=3"] + [f"--set={k}={v}" for k, v in BIG.items()]
    assert train_main([*base, "--out", str(out)]) == 0
    assert "init_from: the learner starts from models/ppo_2p.zip" in capsys.readouterr().err
    tuned, shipped = read_weights(out / "final.zip"), read_weights(SHIPPED)
    first = "features_extractor.linear.0.weight"
    change = (tuned[first] - shipped[first].float()).abs()
    assert 0 < change.max() < 0.05  # PPO went on from the model's weights, not from fresh ones

    for extra, message in ((["--set", "env.players=4"], "models/ppo_2p.zip is a model of kings_and_things for 2 "
                                                        "players; this run trains kings_and_things with 4 players"),
                           (["--set", "policy.features=128"], "has the network features 256"),
                           (["--set", "env.game={house_content: true}"], "observation size 7081")):
        assert train_main([*base, "--out", str(tmp_path / "refused"), *extra]) == 2
        err = capsys.readouterr().err
        assert "training key 'init_from'" in err and message in err, err
        assert len(err.strip().splitlines()) == 1
        assert not (tmp_path / "refused").exists()
