"""Strategy fingerprints from a small dataset of expert and greedy games: curves, first levels reached,
decision shares, event rates and the summary, each with 95% intervals."""

from __future__ import annotations

import pytest

from ktenv.analysis import fingerprints as fp
from ktenv.arena import TournamentConfig, run_tournament
from ktenv.datasets import export_dataset


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    where = tmp_path_factory.mktemp("fingerprints")
    cfg = TournamentConfig(agents=["expert", "greedy"], players=2, games=4, max_rounds=4, seed=2, workers=1,
                           db=str(where / "t.sqlite"), records=str(where / "records"), fresh=True, progress=False)
    run_tournament(cfg)
    export_dataset(cfg.db_path, where / "data", fresh=True, progress=False)
    return fp.read_tables(where / "data")


def test_curves_have_one_row_per_agent_and_round_with_bands(tables):
    assert "income" in fp.figures(tables)
    table = fp.curves(tables, "income")
    assert set(table["agent"]) == {"expert", "greedy"}
    assert ((table["low"] <= table["mean"]) & (table["mean"] <= table["high"])).all()
    assert table[table["round"] == 1]["n"].tolist() == [4, 4]


def test_first_reached_and_shares(tables):
    forts = fp.first_reached(tables, "fort_levels", 1)
    assert forts["games"].tolist() == [4, 4] and (forts["reached"] <= forts["games"]).all()
    shares = fp.decision_shares(tables)
    assert shares.groupby("agent")["rate"].sum().round(9).eq(1).all()
    events = fp.event_rates(tables)
    assert (events["mean"] >= 0).all() and (events["games"] == 4).all()
    summary = fp.summary(tables)
    assert summary["games"].sum() == 8 and summary["wins"].sum() <= 4


def test_the_curves_plot(tables):
    import matplotlib

    matplotlib.use("Agg")
    ax = fp.plot_curves(fp.curves(tables, "hexes"), "hexes")
    assert len(ax.get_lines()) == 2
    assert fp.plot_compare(fp.event_rates(tables), "kind", top=5) is not None
    assert fp.plot_compare(fp.decision_shares(tables), "decision", value="rate", top=5) is not None


def test_the_gold_flow_adds_up_round_by_round_and_over_the_game(tables):
    flows = fp.round_flows(tables).sort_values(["game", "player", "round"])
    after = flows.groupby(["game", "player"])["held"].shift(-1)
    known = after.notna()
    assert ((flows["held"] + flows["gained"] - flows["spent"])[known] == after[known]).all()
    seats = tables["seats"].set_index(["game", "seat"])
    totals = flows.groupby(["game", "player"])[["gained", "spent"]].sum()
    assert (totals["spent"].to_numpy() == seats.loc[totals.index, "gold_spent"].to_numpy()).all()
    assert flows["spent_share"].dropna().between(0, 1).all() and flows["spent"].sum() > 0
    summary = fp.flow_summary(tables).set_index(["agent", "measure"])
    banked = tables["seats"].groupby("agent")["gold"].mean()
    for agent, gold in banked.items():
        assert summary.loc[(agent, "held"), "mean"] == pytest.approx(gold)
        assert summary.loc[(agent, "held"), "games"] == 4
    assert (summary["low"] <= summary["mean"]).all() and (summary["mean"] <= summary["high"]).all()
    curves = fp.flow_curves(tables)
    assert set(curves["measure"]) == {"held", "gained", "spent", "spent_share"}
    assert curves[curves["measure"] == "spent_share"]["high"].max() <= 1


def test_face_down_stacks_and_the_unseen_share_per_agent(tables):
    table = fp.per_game(tables, ["face_down_stacks", "unseen_things"]).set_index(["agent", "figure"])
    rounds = tables["rounds"].merge(tables["seats"][["game", "seat", "agent"]].rename(columns={"seat": "player"}))
    expert = rounds[(rounds["agent"] == "expert") & (rounds["round"] >= 1)]
    by_game = expert.groupby(["game", "player"])["face_down_stacks"].mean()
    assert table.loc[("expert", "face_down_stacks"), "mean"] == pytest.approx(by_game.mean())
    assert (table["games"] == 4).all() and (table["low"] >= 0).all()
    ratio = fp.ratio_curves(tables, "unseen_things", "board_things")
    assert ratio["mean"].between(0, 1).all() and (ratio["high"] <= 1).all()
    with pytest.raises(KeyError, match="no figure"):
        fp.per_game(tables, ["bluffs"])
    with pytest.raises(KeyError, match="no figure"):
        fp.round_flows(tables, held="wood")
    with pytest.raises(KeyError, match="no figure"):
        fp.ratio_curves(tables, "bluffs", "board_things")


def test_the_flow_plot(tables):
    import matplotlib

    matplotlib.use("Agg")
    ax = fp.plot_flow(fp.flow_curves(tables), ("held", "spent"))
    assert len(ax.get_lines()) == 4 and ax.get_legend() is not None
