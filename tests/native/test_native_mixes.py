"""The optional content mixed: the Encounter powers (R21), the house content (R22), six
players (R20.1), "Where will they stop?" (R20.2) and Mysterious Kadab (R20.3) together, on both engines
side by side (`ktenv.kings_and_things.dev.diff.play_whole`): the whole state and the legal mask agree at every
decision. Each option alone, and over the base game's mixes, is tested in its own file
(test_native_powers, test_native_house, test_native_r20); this one plays them with each other. Behind
`slow`, KTENV_MIXED_GAMES longer games (default 8 in CI)."""

from __future__ import annotations

import os
import warnings
from itertools import combinations

import pytest

from ktenv.kings_and_things import native

if not native.available() or os.environ.get("KTENV_NO_NATIVE") == "1":
    pytest.skip("the native core is not built", allow_module_level=True)

from ktenv.kings_and_things.config import GameConfig  # noqa: E402
from ktenv.kings_and_things.dev.diff import BASE_MIXES, Report, play_whole  # noqa: E402

pytestmark = pytest.mark.usefixtures("no_shadow")  # they compare the engines themselves

OPTIONS = {"powers": {"encounter_powers": True}, "house": {"house_content": True},
           "kadab": {"mysterious_kadab": True}, "stop": {"where_will_they_stop": True}}
PAIRS = list(combinations(OPTIONS, 2)) + [tuple(OPTIONS)]  # every two of them, and all four


def mixed_config(g: int, max_rounds: int) -> GameConfig:
    """Game g: the g-th mix of two or all four options, 2, 3, 4 or 6 players, over a base mix, Kadab's
    flip mode alternating."""
    options = dict(BASE_MIXES[g % len(BASE_MIXES)])
    for name in PAIRS[g % len(PAIRS)]:
        options.update(OPTIONS[name])
    if options.get("mysterious_kadab"):
        options["mysterious_flip"] = ("on_exploration", "on_entry")[g // len(PAIRS) % 2]
    return GameConfig(n_players=(2, 3, 4, 6)[g % 4], max_rounds=max_rounds, **options)


def _play(games, max_decisions: int) -> int:
    report = Report(show=3)
    decisions = 0
    for cfg, seed in games:
        decisions += play_whole(cfg, seed, report, max_decisions=max_decisions)
    tally = report.tallies["whole game"]
    for text in report.dead_ends:
        warnings.warn(f"dead end: {text}", stacklevel=2)
    assert not report.firsts, "\n\n".join(report.firsts)
    assert tally.matched == len(games)
    return decisions


def test_every_pair_of_options_and_all_four_match_at_every_decision():
    games = [(mixed_config(g, 1 + g % 4), 60_000 + g) for g in range(140)]  # each of the 7 mixes 20 times
    assert {PAIRS[g % len(PAIRS)] for g in range(140)} == set(PAIRS)
    assert _play(games, max_decisions=600) > 30_000


@pytest.mark.slow
def test_long_mixed_games_match():
    count = int(os.environ.get("KTENV_MIXED_GAMES", "8"))
    _play([(mixed_config(g, 4 + g % 6), 70_000 + g) for g in range(count)], max_decisions=1_000_000)
