"""Kingsburg as a person at the terminal sees it from a seat (the `SeatView` of `ktenv.agents.human`).

Every word comes from the seat's observation vector (decoded by `view.View`) and the static tables of the
box (buildings, advisors, the five possible enemies of the year): never from a game state. The enemy deck
stays hidden; this year's card shows only to a seat that looked at it (the General, the Queen), and the
revealed card in winter.

Players are named from the seat: ``you``, then ``opp1``, ``opp2`` ... in seat order to your left.
"""

from __future__ import annotations

import numpy as np

from ktenv.kingsburg import actions as A
from ktenv.kingsburg import catalog as cat
from ktenv.kingsburg.observation import build_layout
from ktenv.kingsburg.state import PHASE_NAMES, STAGE_NAMES

from .view import View, enemy_type

# K11: what each advisor gives (index = advisor number)
ADVISOR_HELP = ("", "1 VP", "1 gold", "1 wood", "1 gold or wood", "1 soldier",
                "trade 1 good for 1 of each other kind", '"+2" token and 1 good', "2 gold",
                "1 wood, and 1 gold or stone", "2 soldiers, look at the enemy", "1 stone, and 1 wood or gold",
                '"+2" token and 2 goods', "3 stone", "pay 1 VP for 3 goods", "1 gold, 1 wood, 1 stone", "4 gold",
                "3 VP, 2 goods, look at the enemy", "1 gold, 1 wood, 1 stone, 1 soldier")
# What picking a good means under each decision that asks for one
PICK_WORDS = {A.ALCHEMIST: "give back 1 {good} (take 1 of each other kind)", A.RECRUIT_PAY: "pay 1 {good}",
              A.LOSS_GOOD: "lose 1 {good}"}
BATTLE_RESULTS = {1: "won", 0: "draw", -1: "lost"}
PASS_WORDS = {A.REROLL: "keep the dice", A.INFLUENCE: "pass (no more dice this season)",
              A.MODIFIER: "no modifier", A.BUILD_TURN: "build nothing", A.ENVOY_BUILD: "keep the Envoy",
              A.TOWN_HALL_TURN: "do not use the Town Hall", A.RECRUIT_TURN: "done recruiting"}


def relative_name(k: int) -> str:
    return "you" if k == 0 else f"opp{k}"


def card_text(row: np.ndarray) -> str:
    """An enemy card row of the observation: 'Goblins 5 (victory: 1 vp; defeat: lose 1 gold)'."""
    strength = int(round(row[1]))
    base = 2 + len(cat.ENEMY_TYPES)
    reward = row[base:base + len(cat.REWARD_KEYS)]
    losses = row[base + len(cat.REWARD_KEYS):base + len(cat.REWARD_KEYS) + len(cat.LOSS_KEYS)]

    def part(keys, values) -> str:
        return ", ".join(f"{int(v)} {k}" for k, v in zip(keys, values) if v) or "nothing"

    return f"{enemy_type(row)} {strength} (victory: {part(cat.REWARD_KEYS, reward)}; " \
           f"defeat: lose {part(cat.LOSS_KEYS, losses)})"


def dice_text(v: View, k: int) -> str:
    """A seat's dice not yet placed: coloured values, then the white ones marked w."""
    shown = [("w" if slot >= 3 else "") + str(int(value)) for slot, (value, on) in
             enumerate(zip(v.dice[k], v.die_on[k])) if value and not on]
    return " ".join(shown)


def next_building(v: View, row: int) -> tuple[int, np.ndarray] | None:
    """(building index, price gold/wood/stone) of the next building of `row` for the seat; None when built out.
    The Crane takes 1 gold off columns III and IV (K12.4)."""
    column = int(v.built[0, row].sum())
    if column >= cat.COLUMNS:
        return None
    price = cat.BUILDING_COST[row, column].copy()
    if column >= 2 and v.owns(cat.CRANE):
        price[cat.GOLD] = max(0, int(price[cat.GOLD]) - 1)
    return row * cat.COLUMNS + column, price


class KingsburgSeatView:
    """`board`, `decision` and `describe` of one seat's observation (`ktenv.agents.human.SeatView`)."""

    def board(self, observation: np.ndarray) -> str:
        v = View(observation)
        return "\n\n".join(p for p in (self._players(v), self._advisors(v), self._enemy(v)) if p)

    def decision(self, observation: np.ndarray) -> str:
        v = View(observation)
        actor = _actor(observation, v.n)
        who = "you decide" if actor == 0 else f"{relative_name(actor)} decides" if actor > 0 else "nobody"
        what = A.DECISION_NAMES.get(v.decision, str(v.decision))
        if v.picks_left > 1:
            what += f", {v.picks_left} goods to pick"
        if v.target:
            what += f" (advisor {v.target} {cat.ADVISOR_NAMES[v.target]})"
        stage = STAGE_NAMES[v.stage]
        when = PHASE_NAMES[v.phase] + ("" if stage.lower() == PHASE_NAMES[v.phase].lower() else f" ({stage})")
        return f"Kingsburg, year {v.year} of {cat.YEARS}, {when}: {who}: {what}"

    def describe(self, observation: np.ndarray, action: int) -> str:
        return describe(View(observation), action)

    # ----- parts of the board

    def _players(self, v: View) -> str:
        lines = [f"{'':<7}{'VP':>4}{'gold':>6}{'wood':>6}{'stone':>7}{'+2':>4}{'soldiers':>10}  dice"]
        order = sorted(range(v.n), key=lambda k: v.turn_place[k])
        for k in range(v.n):
            gold, wood, stone = (int(x) for x in v.goods[k])
            marks = [m for m, on in (("Envoy", v.envoy[k]), ("aid die", v.aid_die[k]), ("passed", v.passed[k]),
                                     ("looked at the enemy", v.peeked[k] and k)) if on]
            if v.result[k] > -2:  # the last winter battle (K9)
                marks.append(f"last battle: {BATTLE_RESULTS[int(v.result[k])]} at strength {int(v.strength[k])}")
            lines.append(f"{relative_name(k):<7}{int(v.vp[k]):>4}{gold:>6}{wood:>6}{stone:>7}{int(v.tokens[k]):>4}"
                         f"{int(v.soldiers[k]):>10}  {dice_text(v, k):<12}{'  '.join(marks)}".rstrip())
        lines.append("turn order: " + ", ".join(relative_name(k) for k in order))
        for k in range(v.n):
            built = [cat.BUILDING_NAMES[i] for i in np.flatnonzero(v.built[k].ravel())]
            lines.append(f"{relative_name(k)} built: {', '.join(built) or 'nothing yet'}")
        return "\n".join(lines)

    def _advisors(self, v: View) -> str:
        """The advisors with dice on them, and whose dice (their values are on the table, K5.3)."""
        taken = []
        for a in range(1, cat.N_ADVISORS + 1):
            group, envoy = int(v.advisor_group[a]), int(v.advisor_envoy[a])
            if group == -1 and envoy == -1:
                continue
            who = "neutral dice" if group == -2 else placed_dice(v, group, a) if group >= 0 else ""
            if envoy >= 0:
                who += f"{', ' if who else ''}{relative_name(envoy)}'s Envoy"
            taken.append(f"  {a:>2} {cat.ADVISOR_NAMES[a]:<13} {who}")
        return "Advisors taken:\n" + "\n".join(taken) if taken else ""

    def _enemy(self, v: View) -> str:
        if v.revealed is not None:
            return f"Enemy this winter: {card_text(v.revealed)}; the King sends {v.reinforcement} soldiers"
        if v.peeked_card is not None:
            return f"Enemy this year (you looked): {card_text(v.peeked_card)}"
        return "This year's enemy is one of:\n" + "\n".join("  " + card_text(r) for r in v.options if r[0])


def placed_dice(v: View, k: int, advisor: int) -> str:
    values = [str(int(value)) for value, on in zip(v.dice[k], v.die_on[k]) if value and on == advisor]
    return f"{relative_name(k)} ({'+'.join(values)})" if values else relative_name(k)


def _actor(observation: np.ndarray, n: int) -> int:
    """The relative seat that decides now, -1 nobody (the game section's actor one-hot)."""
    layout = build_layout(n)
    names = [c.name for c in layout.section("game").columns]
    game = layout.table(np.asarray(observation, np.float32), "game")[0]
    seats = [float(game[names.index(f"actor_seat_{k}")]) for k in range(n)]
    return int(np.argmax(seats)) if max(seats) > 0 else -1


def describe(v: View, action: int) -> str:
    """What `action` does now for the seat, in Kingsburg's words."""
    action = int(action)
    if action == A.PASS:
        return PASS_WORDS.get(v.decision, "pass / done")
    if A.TARGET <= action < A.DICE:
        a = action - A.TARGET + 1
        return f"advisor {a} {cat.ADVISOR_NAMES[a]}: {ADVISOR_HELP[a]}"
    if A.DICE <= action < A.MOD_MARKET:
        values = [int(v.dice[0, j]) for j in A.SUBSETS[action - A.DICE]]
        names = "+".join(("w" if j >= 3 else "") + str(int(v.dice[0, j])) for j in A.SUBSETS[action - A.DICE])
        return f"dice {names} = {sum(values)}"
    if A.PICK_GOOD <= action < A.BUILD:
        good = cat.GOODS[action - A.PICK_GOOD]
        return PICK_WORDS.get(v.decision, "take 1 {good}").format(good=good)
    if A.BUILD <= action < A.STATUE_COLOURED:
        found = next_building(v, action - A.BUILD)
        if found is None:
            return A.action_name(action)
        i, price = found
        cost = ", ".join(f"{int(p)} {g}" for g, p in zip(cat.GOODS, price) if p) or "free"
        battle = int(cat.BUILDING_BATTLE.ravel()[i])
        return (f"build the {cat.BUILDING_NAMES[i]} for {cost} ({int(cat.BUILDING_VP.ravel()[i])} VP"
                + (f", battle {battle:+d}" if battle else "") + ")")
    return A.action_name(action)


def make(**kwargs):
    """``human``: a person at the terminal plays this seat (`ktenv.agents.human`)."""
    from ..human import HumanAgent

    return HumanAgent(KingsburgSeatView(), **kwargs)


__all__ = ["KingsburgSeatView", "card_text", "describe", "make"]
