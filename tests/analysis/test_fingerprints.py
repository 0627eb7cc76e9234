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
