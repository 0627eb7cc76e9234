"""Golden playthroughs (design.md, the OpenSpiel habit): stored seeded games replay line for line.

A failure here means the rules, the action layout or the observation changed. If the change is
intended, run `python -m ktenv.playthrough --regenerate` and review the diff of tests/playthroughs/.
"""

from ktenv.playthrough import GAMES, check, first_difference


def test_every_playthrough_replays_exactly():
    problems = check()
    assert not problems, "\n".join(problems) + "\n(intended? python -m ktenv.playthrough --regenerate)"


def test_the_comparison_finds_a_changed_line_and_a_changed_length():
    assert first_difference(["a", "b"], ["a", "b"]) is None
    assert "line 2" in first_difference(["a", "b"], ["a", "c"])
    assert "stored 2 lines, replayed 1" in first_difference(["a", "b"], ["a"])
    assert len(GAMES) >= 3
