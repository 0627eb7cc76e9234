"""A battle's dice in the log: every die a move rolls, attacker by attacker with its hits (RD1.1: dice are
public), for a person playing and in a record's replay, seat by seat and as the whole table."""

from __future__ import annotations

import re

import numpy as np

from ktenv.kings_and_things.rolls import move_rolls, roll_lines

from .test_leak import _step_seeing_dice, battle_moves

ROLL = re.compile(r"^  (magic|ranged|melee) step, round \d+: (your|neutral|\S.*'s) .+ \(\d+\) rolls \d")


def test_the_rolls_are_the_dice_the_battle_used():
    """The dice in the rolls are those the generator gave, in order (where the move read every die it rolled:
    a Lucky Charm's holder decides between a roll and its reading), and an attacker hits with a die at most
    its value (R13.4.2): with every die scripted 1 each attacker of value 1 or more hits, with every die 6
    only those of value 6 or more."""
    compared = 0
    for s, a in battle_moves(2, 8, seed=7):
        rolls = move_rolls(s, a)
        battle = [x for x in rolls if x["kind"] == "battle"]
        thrown = [d for x in rolls for d in (x["dice"] if x["kind"] != "battle" else
                                             [d for at in x["attacks"] for d in at["dice"]])]
        _, rolled = _step_seeing_dice(s, a)
        assert battle
        if len(thrown) != len(rolled):
            continue
        assert thrown == list(rolled)
        compared += 1
        for face in (1, 6):
            t = s.to_python().copy()
            t.rng.script = [face] * 60
            for x in move_rolls(t, a):
                for at in x.get("attacks", []):
                    assert at["dice"] and set(at["dice"]) == {face}
                    assert at["hits"] == (len(at["dice"]) if at["value"] >= face else 0), at
        before = s.to_json()
        move_rolls(s, a)
        assert s.to_json() == before  # the state itself is left as it was
    assert compared >= 4


def test_roll_lines_read_as_english():
    rolls = [{"kind": "battle", "side": 1, "target": 0, "hex": 3, "round": 2, "step": "melee",
              "attacks": [{"who": "Ogre", "value": 2, "dice": [4], "hits": 0},
                          {"who": "White Knight", "value": 3, "dice": [2, 3], "hits": 2}]},
             {"kind": "battle", "side": 6, "target": 1, "hex": 3, "round": 2, "step": "melee",
              "attacks": [{"who": "Goblins", "value": 1, "dice": [1], "hits": 1}]},
             {"kind": "damage roll", "dice": [6], "hex": 3, "what": "Keep", "fort": True, "destroys": True},
             {"kind": "exploration roll", "dice": [4], "hex": 5, "player": 1, "defenders": 4},
             {"kind": "saving roll", "dice": [2]}]
    assert roll_lines(rolls, 0, ["you", "Bob"]) == [
        "  melee step, round 2: Bob's Ogre (2) rolls 4: a miss; White Knight (3) rolls 2 and 3: 2 hits (2 hits on you)",
        "  melee step, round 2: neutral Goblins (1) rolls 1: a hit (1 hit on Bob)",
        "  damage roll for the Keep at h3: 6: it loses a level",
        "  exploration of h5 by Bob: rolls 4: 4 defenders drawn",
        "  saving roll: 2"]
    assert roll_lines(rolls, 1, ["you", "Ann"])[0].startswith("  melee step, round 2: your Ogre (2) rolls 4: a miss")
    assert roll_lines(rolls, 1, ["you", "Ann"])[0].endswith("(2 hits on Ann)")
    assert roll_lines(rolls, None, ["Ann", "Bob"])[1].endswith("(1 hit on Bob)")


def test_a_person_reads_the_battles_dice(client, tmp_path):
    """A game against expert played until its log holds a battle's dice; the same lines then come in the watch
    page of the stored game, seen by that seat."""
    page = client.post("/api/tables", json={"players": 2, "agents": ["expert"], "max_rounds": 4, "seed": 3}).json()
    rng = np.random.default_rng(0)
    while not page["over"] and not any(ROLL.match(line) for line in page["log"]):
        choice = page["view"]["actions"][int(rng.integers(len(page["view"]["actions"])))]
        page = client.post(f"/api/tables/{page['id']}/act",
                           json={"decision": page["decision"], "action": choice["action"]}).json()
    rolled = [line for line in page["log"] if ROLL.match(line)]
    assert rolled, "no battle in the game"
    at = page["decision"]
    path = f"web/{page['id']}.json"
    seen = client.get("/api/replay", params={"path": path, "at": at, "seat": "0"}).json()
    assert [line for line in seen["log"] if ROLL.match(line)] == rolled
