"""Golden playthroughs (design.md, the OpenSpiel habit): stored seeded games replay line for line.

A failure here means the rules, the action layout or the observation changed. If the change is
intended, run `python -m ktenv.kings_and_things.dev.playthrough --regenerate` and review the diff of
tests/playthroughs/.
"""

from ktenv.kings_and_things.dev.playthrough import GAMES, _changes, check, first_difference


def test_every_playthrough_replays_exactly():
    problems = check()
    hint = "\n\n(intended? python -m ktenv.dev.regenerate)"
    assert not problems, "\n\n".join(problems) + hint


def test_the_comparison_names_the_decision_and_shows_both_texts():
    stored = ["# header", "", "[0] r0 setup | p1 decides: claim a hex", "  obs players p0: gold=3>5",
              "  action 21: claim a hex: hex h3"]
    assert first_difference(stored, list(stored)) is None
    changed = stored[:3] + ["  obs players p0: gold=3>6"] + stored[4:]
    report = first_difference(stored, changed)
    assert "line 4, in decision [0] r0 setup | p1 decides: claim a hex" in report
    assert "stored:     obs players p0: gold=3>5" in report and "replayed:   obs players p0: gold=3>6" in report
    assert "-  obs players p0: gold=3>5" in report and "+  obs players p0: gold=3>6" in report
    assert "stored 5 lines, replayed 4" in first_difference(stored, stored[:4])


def test_observation_changes_read_per_row():
    before = {("players", "p0"): {"gold": "3", "hexes": "2"}, ("hexes", "h4"): {"owner": "p1"}}
    after = {("players", "p0"): {"gold": "5", "hexes": "2"}, ("things", "Ogre#95"): {"hex": "h4"}}
    assert _changes(before, after) == ["obs players p0: gold=3>5", "obs hexes h4: owner=p1>-",
                                       "obs things Ogre#95: hex=h4"]


def test_the_playthroughs_cover_the_optional_content():
    options = [o for _name, o, _seed in GAMES]
    assert {o["n_players"] for o in options} >= {2, 3, 4, 6}
    for flag in ("mysterious_kadab", "encounter_powers", "house_content"):
        assert any(o.get(flag) for o in options), flag
    assert {o.get("mysterious_flip", "on_exploration") for o in options if o.get("mysterious_kadab")} == {
        "on_exploration", "on_entry"}
