"""The native engine against the Python engine: the same games, bit for bit.

Seeded games are played on both engines side by side (`ktenv.kings_and_things.dev.diff.play_whole`): at every
decision both must agree on the whole state (`to_dict()`: decision, actor, phase, every array, the
procedure frames, the generator, the statistics) and on the legal mask. 2, 3 and 4 players, the base
game's option mixes, random and heuristic (greedy) policies. CI plays 300 games with short round limits;
the `slow` test plays KTENV_NATIVE_GAMES full-length games (default 12; the issue's figure is 10,000).
The golden playthroughs of the base game replay line for line on the native engine.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from ktenv.kings_and_things import native
from ktenv.kings_and_things.config import GameConfig

pytestmark = pytest.mark.skipif(not native.available() or os.environ.get("KTENV_NO_NATIVE") == "1",
                                reason="the native core is not built")


def _games(count: int, first_seed: int, max_rounds) -> list[tuple[GameConfig, int, str]]:
    from ktenv.kings_and_things.dev.diff import BASE_MIXES

    out = []
    for g in range(count):
        seed = first_seed + g
        rounds = max_rounds(g) if callable(max_rounds) else max_rounds
        cfg = GameConfig(n_players=2 + g % 3, max_rounds=rounds, **BASE_MIXES[g % len(BASE_MIXES)])
        out.append((cfg, seed, "greedy" if g % 25 == 7 else "random"))
    return out


def _play(games) -> tuple[int, list[str]]:
    from ktenv.kings_and_things.dev.diff import Report, play_whole

    report = Report(show=3)
    decisions = 0
    for cfg, seed, policy in games:
        decisions += play_whole(cfg, seed, report, max_decisions=100_000, policy=policy)
    for text in report.dead_ends:  # both engines agree; the rules engine itself has a bug to look at
        warnings.warn(f"dead end: {text}", stacklevel=2)
    return decisions, report.firsts


def test_300_games_match_at_every_decision():
    decisions, firsts = _play(_games(300, 10_000, lambda g: 2 + g % 5))
    assert not firsts, "\n\n".join(firsts)
    assert decisions > 50_000


@pytest.mark.slow
def test_full_length_games_match():
    count = int(os.environ.get("KTENV_NATIVE_GAMES", "12"))
    decisions, firsts = _play(_games(count, 20_000, None))
    assert not firsts, "\n\n".join(firsts)


def test_a_difference_names_the_decision_and_both_values():
    from ktenv.kings_and_things.dev.diff import Report, differences, python_dict, to_native
    from ktenv.kings_and_things.engine import new_game

    s = new_game(GameConfig(n_players=2), 3, backend="python")
    ns = to_native(s)
    assert differences(python_dict(s), ns.to_dict()) == []
    ns.gold[1] += 7  # the native state drifts: the comparison shows the field, index and both values
    diffs = differences(python_dict(s), ns.to_dict())
    assert diffs == [f"gold: at [1] python [{int(s.gold[1])}] native [{int(s.gold[1]) + 7}]"]
    report = Report(show=1)
    report.note("whole game", "differs at game seed 3, decision 0", "\n".join(diffs))
    assert "decision 0" in report.firsts[0] and "gold" in report.firsts[0]


def test_a_shadow_difference_names_the_first_field_and_both_files_of_the_part_played():
    """A step the engines play differently says which state field differs first, and which part of the turn
    was played: the Python module whose rule answered the decision and its C++ twin, both files there."""
    import ktenv
    from ktenv.kings_and_things.dev.diff import part_played
    from ktenv.kings_and_things.engine import machine, new_game
    from tests import conftest

    root = Path(ktenv.__file__).resolve().parent.parent
    s = new_game(GameConfig(n_players=2), 3, backend="python")
    module = machine.DECISIONS[s.decision][1].__module__  # the rule that answers the first decision
    action = int(machine.legal_actions(s)[0])

    def drifting(st, a):  # the Python step, then one gold piece too many: the engines part on `gold`
        machine._step(st, a)
        st.gold[0] += 1

    with pytest.raises(AssertionError) as caught:
        conftest._shadow_checker()(s, action, drifting)
    text = str(caught.value)
    assert text.startswith(f"the native engine played action {action} differently: first differing field 'gold'")
    py, cpp = module.replace(".", "/") + ".py", module.replace(".engine.", ".native.src.engine.").replace(".", "/")
    assert f"{py} (C++ twin: {cpp}.cpp)" in text, text
    assert (root / py).is_file() and (root / f"{cpp}.cpp").is_file()
    assert "gold: at [0]" in text

    lay = machine.layout(s)
    assert part_played(s.decision, s.phase, cashing=True).startswith("cashing at decision")
    assert "engine/machine.py (C++ twin: " in part_played(s.decision, s.phase, cashing=True)
    assert lay.cash < lay.player
    assert part_played(machine.D.NONE, s.phase).startswith(f"phase {machine.PHASE_NAMES[s.phase]}: ")


def test_the_base_playthroughs_replay_on_the_native_engine():
    from ktenv.kings_and_things.dev.playthrough import check

    problems = check(backend="native")
    assert not problems, "\n\n".join(problems)
