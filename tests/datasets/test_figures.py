"""The games' figures in `rounds` and `seats`: the gold flow adds up to the gold in hand, the face-down counts
hold together, and no hidden fact moves them (docs/datasets.md: every figure is public at the table)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ktenv import registry
from ktenv.arena import TournamentConfig, run_tournament
from ktenv.arena.records import GameRecord, replay
from ktenv.datasets.export import export_dataset
from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things.arena import play_game
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.constants import BOARD, CREATURE, CUP

KT = "kings_and_things"


@pytest.fixture(scope="module", params=registry.names())
def tables(request, tmp_path_factory) -> tuple[str, dict[str, pd.DataFrame]]:
    game, where = request.param, tmp_path_factory.mktemp(request.param)
    agents = ["expert", "greedy"] if game == KT else ["greedy", "random"]
    cfg = TournamentConfig(agents=agents, players=2, games=3, max_rounds=5, seed=11, workers=1, game_name=game,
                           db=str(where / "t.sqlite"), records=str(where / "records"), fresh=True, progress=False)
    run_tournament(cfg)
    export_dataset(cfg.db_path, where / "data")
    return game, {t: pd.read_parquet(where / "data" / t) for t in ("rounds", "seats")}


def test_gold_gained_less_gold_spent_is_the_change_of_the_gold_in_hand(tables):
    _, t = tables
    rounds = t["rounds"].sort_values(["game", "player", "round"])
    start = rounds.groupby(["game", "player"])["gold"].transform("first")
    assert (rounds.gold - start == rounds.gold_gained - rounds.gold_spent).all()
    assert (rounds.groupby(["game", "player"])[["gold_gained", "gold_spent"]].diff().fillna(0) >= 0).all().all()
    assert rounds.gold_spent.max() > 0, "nobody spent gold in five rounds"
    ends = t["seats"].merge(rounds.groupby(["game", "player"])["gold"].first().rename("start").reset_index(),
                            left_on=["game", "seat"], right_on=["game", "player"])
    assert (ends.gold - ends.start == ends.gold_gained - ends.gold_spent).all()


def test_face_down_counts_hold_together(tables):
    game, t = tables
    if game != KT:
        pytest.skip("face-down Things are Kings & Things'")
    r = t["rounds"]
    assert (r.unseen_things <= r.face_down_things).all() and (r.face_down_things <= r.board_things).all()
    assert ((r.face_down_stacks > 0) == (r.face_down_things > 0)).all()
    assert (r.face_down_stacks <= r.face_down_things).all() and (10 * r.face_down_stacks >= r.face_down_things).all()
    assert r.unseen_things.max() > 0 and (r.unseen_things < r.face_down_things).any()


def _a_game_with_face_down_things():
    """A Python state of a 2-player expert game with face-down Things on the board, and its reader's watch."""
    rec = GameRecord.from_dict(play_game(GameConfig(n_players=2, max_rounds=4), seed=3, names=["expert", "greedy"],
                                         record=True).record)
    s = replay(rec, upto=len(rec.actions) // 2).state
    s = s.to_python() if hasattr(s, "to_python") else s
    return s, registry.game(KT).dataset(rec.config).watch(s)


def test_a_hidden_identity_does_not_move_the_figures():
    """Swap a face-down Thing on the board for one in the cup: the table sees the same board, so the figures of
    every player are the same (RI.2, RI.3)."""
    s, watch = _a_game_with_face_down_things()
    before = watch.figures(s)
    down = np.flatnonzero((s.thing_place == BOARD) & ~s.thing_face_up & ~s.thing_public & (s.thing_owner >= 0)
                          & (s.thing_owner < s.n_players))
    cup = np.flatnonzero((s.thing_place == CUP) & (cat.THING_KIND[:s.n_things] == CREATURE))
    assert len(down) and len(cup)
    a, b = int(down[0]), int(cup[0])
    for name in ("thing_place", "thing_owner", "thing_hex", "thing_face_up", "thing_public"):
        arr = getattr(s, name)
        arr[a], arr[b] = arr[b], arr[a]
    assert watch.figures(s) == before
    s.thing_face_up[b] = True  # but a Thing turned face up is seen by all
    assert watch.figures(s) != before
