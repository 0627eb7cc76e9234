"""The flat action space of K16.2 (65 actions) and the decision codes of K16.

    0        PASS / DONE (shared)
    1-18     TARGET(advisor 1..18)                         P4
    19-46    DICE(subset): 7 coloured subsets x 4 white     P5
    47-48    MOD_MARKET, MOD_TOKEN_MARKET                   P6
    49-51    PICK_GOOD(gold, wood, stone)                   P1, P7, P11, P12, P13, P14
    52-56    BUILD(row 1..5)                                P8, P9
    57-58    STATUE_COLOURED, STATUE_WHITE                  P2
    59       CHAPEL                                         P3
    60-63    TOWN_HALL(gold, wood, stone, token)            P10
    64       RECRUIT                                        P11
"""

from __future__ import annotations

from .catalog import GOODS, N_ADVISORS, ROWS
from .state import COLOURED, WHITE

PASS = 0
TARGET = 1
DICE = TARGET + N_ADVISORS  # 19
N_SUBSETS = 28
MOD_MARKET = DICE + N_SUBSETS  # 47
MOD_TOKEN_MARKET = MOD_MARKET + 1
PICK_GOOD = MOD_TOKEN_MARKET + 1  # 49
BUILD = PICK_GOOD + 3  # 52
STATUE_COLOURED = BUILD + ROWS  # 57
STATUE_WHITE = STATUE_COLOURED + 1
CHAPEL = STATUE_WHITE + 1  # 59
TOWN_HALL = CHAPEL + 1  # 60
RECRUIT = TOWN_HALL + 4  # 64
N_ACTIONS = RECRUIT + 1  # 65 (K16.2)

# decisions (K16's ids in the comments)
(NONE, AID_GOOD, REROLL, INFLUENCE, GROUP_DICE, MODIFIER, HELP_GOOD, ALCHEMIST, BUILD_TURN, ENVOY_BUILD,
 TOWN_HALL_TURN, RECRUIT_TURN, RECRUIT_PAY, REWARD_GOOD, LOSS_GOOD, GUILD_GOOD) = range(16)
DECISION_NAMES = {
    NONE: "none", AID_GOOD: "aid good (P1)", REROLL: "reroll (P2/P3)", INFLUENCE: "influence (P4)",
    GROUP_DICE: "group dice (P5)", MODIFIER: "group modifier (P6)", HELP_GOOD: "advisor's good (P7)",
    ALCHEMIST: "alchemist's good to return (P7)", BUILD_TURN: "build (P8)", ENVOY_BUILD: "envoy build (P9)",
    TOWN_HALL_TURN: "town hall (P10)", RECRUIT_TURN: "recruit (P11)", RECRUIT_PAY: "soldier's payment (P11)",
    REWARD_GOOD: "reward good (P12)", LOSS_GOOD: "lost good (P13)", GUILD_GOOD: "merchants' guild good (P14)",
}
N_DECISIONS = len(DECISION_NAMES)


def _subsets() -> tuple[tuple[int, ...], ...]:
    """The 28 dice subsets of K16.1: slots of c1-c3 (at least one) with any of w1-w2."""
    out = []
    for c in range(1, 8):
        for w in range(4):
            out.append(tuple(COLOURED[i] for i in range(3) if c >> i & 1) + tuple(WHITE[i] for i in range(2)
                                                                              if w >> i & 1))
    return tuple(out)


SUBSETS = _subsets()
SLOT_NAMES = ("c1", "c2", "c3", "w1", "w2")


def action_name(action: int) -> str:
    """The action's name, independent of the situation (`machine.describe_action` adds the context)."""
    if not 0 <= action < N_ACTIONS:
        raise ValueError(f"action {action} is outside the action space Discrete({N_ACTIONS})")
    if action == PASS:
        return "pass / done"
    if action < DICE:
        return f"target advisor {action - TARGET + 1}"
    if action < MOD_MARKET:
        return "dice " + "+".join(SLOT_NAMES[i] for i in SUBSETS[action - DICE])
    if action == MOD_MARKET:
        return "Market alone"
    if action == MOD_TOKEN_MARKET:
        return '"+2" token with Market -1'
    if action < BUILD:
        return f"pick {GOODS[action - PICK_GOOD]}"
    if action < STATUE_COLOURED:
        return f"build in row {action - BUILD + 1}"
    if action == STATUE_COLOURED:
        return "Statue: reroll a coloured die"
    if action == STATUE_WHITE:
        return "Statue: reroll a white die"
    if action == CHAPEL:
        return "Chapel: reroll all dice"
    if action < RECRUIT:
        return "Town Hall: pay " + (GOODS + ('"+2" token',))[action - TOWN_HALL] + " for 1 VP"
    return "recruit a soldier"
