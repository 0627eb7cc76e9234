"""Kingsburg's golden playthroughs (tests/playthroughs/kingsburg_*.txt) replay line for line: any change of
the rules, the actions, the masks or the observations shows as a reviewed diff. Regenerate them with
``python -m ktenv.kingsburg.dev.playthrough --regenerate`` after an intended change."""

from ktenv.kingsburg.dev.playthrough import check


def test_the_kingsburg_playthroughs_replay():
    problems = check()
    assert not problems, "\n\n".join(problems)
