"""The hand-over agent (`agents.handoff`) and the decision ablation (`ktenv.analysis.ablation`)."""

from __future__ import annotations

import numpy as np
import pytest
from ktenv.agents import handoff

from ktenv.analysis.ablation import ablation, plot_ablation
from ktenv.arena.game import AgentError
from ktenv.errors import ConfigError
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.arena import play_out
from ktenv.kings_and_things.config import GameConfig
from ktenv.kingsburg.arena import play_out as kingsburg_play_out
from ktenv.kingsburg.config import KingsburgConfig

CFG = GameConfig(n_players=2, max_rounds=6)


def test_parse_reads_the_options_and_keeps_the_models_spec_whole():
    assert handoff.parse("to=greedy;kinds=build+move_select;model=ismcts:playouts=5,c=1") == (
        "ismcts:playouts=5,c=1", "greedy", ("build", "move_select"), False)
    assert handoff.parse("only=build;model=ppo:a.zip") == ("ppo:a.zip", "expert", ("build",), True)


@pytest.mark.parametrize("argument", ["kinds=build", "to=expert;kinds=build;model=", "kinds=a;only=b;model=greedy",
                                      "model=greedy", "to=expert;colour=red;kinds=a;model=greedy",
                                      "kinds=a;kinds=b;model=greedy"])
def test_a_malformed_handoff_is_refused_with_its_reason(argument):
    with pytest.raises(ConfigError, match="handoff"):
        handoff.parse(argument)


def test_an_unknown_kind_is_refused_naming_the_known_ones():
    with pytest.raises(AgentError, match=r"no decision kind build_forts .*known: .*\bbuild\b"):
        play_out(CFG, 3, ["handoff:kinds=build_forts;model=greedy", "expert"])


def test_the_kinds_are_the_observations_decision_columns_in_code_order():
    from ktenv.kings_and_things.arena import encoder_for

    names = handoff.decision_kinds("kings_and_things", np.zeros(encoder_for(CFG).layout.size))
    assert names[D.BUILD] == "build" and names[D.MOVE_SELECT] == "move_select" and names[0] == "none"


def _actions(names, seed=5, cfg=CFG):
    return play_out(cfg, seed, names).actions


def test_handing_everything_over_plays_the_references_game_and_nothing_the_models():
    """kinds=all is the reference alone, kinds=none the model alone, action for action (the same seeds)."""
    assert _actions(["handoff:to=expert;kinds=all;model=random", "greedy"]) == _actions(["expert", "greedy"])
    assert _actions(["handoff:to=expert;kinds=none;model=greedy", "expert"]) == _actions(["greedy", "expert"])
    assert _actions(["handoff:to=expert;only=none;model=random", "greedy"]) == _actions(["expert", "greedy"])


class _Fixed:
    """An agent that always answers `action` and remembers what it was told."""

    needs_observation = True

    def __init__(self, action):
        self.action, self.told = action, []

    def reset(self, seed=None):
        pass

    def act(self, observation, mask):
        return self.action

    def played(self, action):
        self.told.append(action)


def _observation(kind: int) -> dict:
    from ktenv.kings_and_things.arena import encoder_for

    layout = encoder_for(CFG).layout
    vector = np.zeros(layout.size, np.float32)
    vector[layout.sections["game"].offset("decision_none") + kind] = 1
    return {"observation": vector, "action_mask": np.ones(10, bool)}


@pytest.mark.parametrize("only", [False, True])
def test_the_named_kinds_go_to_the_reference_or_alone_to_the_model(only):
    model, reference = _Fixed(1), _Fixed(2)
    agent = handoff.HandOff(model, reference, ("build",), "kings_and_things", only)
    build, move = _observation(D.BUILD), _observation(D.MOVE_SELECT)
    assert agent.act(build, np.ones(10, bool)) == (1 if only else 2)
    assert agent.act(move, np.ones(10, bool)) == (2 if only else 1)
    assert reference.told == [1]  # the reference hears the model's action where it was played instead of its own


def test_a_handoff_plays_kingsburg_by_its_decision_columns():
    cfg = KingsburgConfig(n_players=2)
    names = ["handoff:to=expert;kinds=all;model=random", "greedy"]
    assert kingsburg_play_out(cfg, 7, names)[1] == kingsburg_play_out(cfg, 7, ["expert", "greedy"])[1]
    state, actions, fault = kingsburg_play_out(cfg, 7, ["handoff:to=expert;kinds=0+1+2;model=random", "greedy"])
    assert state.game_over and fault is None and actions


def test_the_ablation_frames_its_rows_and_resumes(tmp_path):
    kwargs = dict(reference="expert", opponent="expert", games=4, workers=1, max_rounds=6, db_dir=str(tmp_path),
                  progress=False, seed=11)
    table = ablation("greedy", ["build", "move_select+move_stack"], **kwargs)
    assert list(table["kind"]) == ["none", "all", "build", "move_select+move_stack"]
    assert list(table["mode"]) == ["frame", "frame", "hand", "hand"]
    assert (table["games"] == 4).all() and table["win_rate"].between(0, 1).all()
    assert (table["low"] <= table["win_rate"]).all() and (table["win_rate"] <= table["high"]).all()
    gap = table["win_rate"][1] - table["win_rate"][0]
    assert table["effect"][2] == pytest.approx(table["win_rate"][2] - table["win_rate"][0])
    if gap > 0:
        assert table["share"][2] == pytest.approx(table["effect"][2] / gap)
    else:
        assert np.isnan(table["share"][2])  # the policy does not trail the reference: no gap to share
    stored = sorted(p.name for p in tmp_path.iterdir())
    assert ablation("greedy", ["build", "move_select+move_stack"], **kwargs).equals(table)  # resumed, not replayed
    assert sorted(p.name for p in tmp_path.iterdir()) == stored
    only = ablation("greedy", ["build"], mode="only", **kwargs)
    assert only["mode"].tolist() == ["frame", "frame", "only"]
    assert only["effect"][2] == pytest.approx(only["win_rate"][1] - only["win_rate"][2])
    assert plot_ablation(only).get_title() == "where the policy loses its games"


@pytest.mark.parametrize("bad", [dict(kinds=[]), dict(mode="swap"), dict(players=1)])
def test_a_bad_ablation_is_refused_before_any_game(tmp_path, bad):
    kwargs = dict(kinds=["build"], db_dir=str(tmp_path), progress=False) | bad
    with pytest.raises(ConfigError, match="ablation"):
        ablation("greedy", **kwargs)
    assert not any(tmp_path.iterdir())
