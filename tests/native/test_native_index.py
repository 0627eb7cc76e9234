"""The native state's index of the Things (where they are: the cup, the board by hex, each screen; which
move; which have movement points) is derived data: after every decision of many random games it equals an
index built from the arrays alone (`check_things_index`), over the base game's option mixes and the
optional content. Hand edits through the array views are taken in by `edited()`, sampled worlds come
indexed, and the check itself fails on a stale index. Behind `slow`, KTENV_INDEX_GAMES games per config
(default 2 in CI)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from ktenv.kings_and_things import native

if not native.available() or os.environ.get("KTENV_NO_NATIVE") == "1":
    pytest.skip("the native core is not built", allow_module_level=True)

from ktenv.kings_and_things.config import GameConfig  # noqa: E402
from ktenv.kings_and_things.dev.diff import BASE_MIXES, rules_for  # noqa: E402
from ktenv.kings_and_things.native import core  # noqa: E402

CUP, SCREEN, BOARD = 0, 1, 2

OPTIONAL = ({"encounter_powers": True}, {"house_content": True}, {"mysterious_kadab": True},
            {"where_will_they_stop": True},
            {"encounter_powers": True, "house_content": True, "where_will_they_stop": True})


def configs() -> list[GameConfig]:
    base = [GameConfig(n_players=2 + g % 3, max_rounds=12, **mix) for g, mix in enumerate(BASE_MIXES)]
    extra = [GameConfig(n_players=(4, 6)[g % 2], max_rounds=12, **opts) for g, opts in enumerate(OPTIONAL)]
    return base + extra


def play_checked(games: int) -> int:
    decisions = 0
    for g, cfg in enumerate(configs()):
        d, _ = core().play_random_games(rules_for(cfg), 50_000 + 97 * g, games, check_index=True)
        decisions += d
    return decisions


def test_the_index_matches_the_arrays_after_every_decision():
    assert play_checked(2) > 20_000


@pytest.mark.slow
def test_the_index_matches_the_arrays_in_longer_runs():
    assert play_checked(int(os.environ.get("KTENV_INDEX_GAMES", "2"))) > 0


def midgame(seed: int = 3):
    rules = rules_for(GameConfig(n_players=4))
    s = core().State.new_game(rules, seed)
    s.play_random(seed, 600)
    return s


def test_hand_edits_are_taken_in_by_edited_and_a_stale_index_is_caught():
    s = midgame()
    s.check_things_index()
    c = int(np.flatnonzero(s.thing_place == CUP)[0])
    h = int(np.flatnonzero(s.hex_owner == 0)[0])
    s.thing_place[c], s.thing_owner[c], s.thing_hex[c] = BOARD, 0, h  # through the views: the index is stale
    with pytest.raises(AssertionError, match="index differs"):
        s.check_things_index()
    s.edited()
    s.check_things_index()
    s.thing_status[c] = 1  # MOVING
    with pytest.raises(AssertionError, match="index differs"):
        s.check_things_index()
    s.edited()
    s.check_things_index()


def test_copies_conversions_and_sampled_worlds_come_indexed():
    from ktenv.kings_and_things.engine import new_game
    from ktenv.kings_and_things.native.game import NativeGame

    s = midgame(5)
    s.copy().check_things_index()
    game = new_game(GameConfig(n_players=4), 5, backend="native")
    game.native.play_random(5, 600)
    game.edited()
    core().State.from_python_with(game.to_python(), rules_for(GameConfig(n_players=4))).check_things_index()
    NativeGame.from_json(game.to_json()).native.check_things_index()
    for seat in range(4):
        world, _ = core().WorldSampler(s, seat).sample("12345")
        world.check_things_index()
