"""Kings & Things as a person at the terminal sees it from a seat (the `SeatView` of `ktenv.agents.human`).

Every word comes from the seat's observation vector (decoded by `view.View`), the action layout and the
static box (names, combat values and terrains of the counter manifest, the board's geometry): never from a
game state. So the text holds what the observation holds: own counters by name, the other players' public
facts, their face-down counters only as a count, nothing of the cup or of future dice.

Players are named from the seat: ``you``, then ``opp1``, ``opp2`` ... in seat order to your left (the
observation's relative seats, and the PLAYER actions' order).
"""

from __future__ import annotations

import numpy as np

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.constants import (
    CITY,
    CREATURE,
    EVENT,
    MAGIC,
    SPECIAL_INCOME,
    TERRAIN_NAMES,
    TREASURE,
    VILLAGE,
)
from ktenv.kings_and_things.state import PHASE_NAMES

from .view import View

DIRECTION_NAMES = ("E", "SE", "SW", "W", "NW", "NE")  # the DIRECTION block's order (R3.1.2)
TERRAIN_LETTER = "DFWJMPS~"  # map letters, in TERRAIN_NAMES order (W: Frozen Waste, ~: Sea)
STEP_NAMES = ("magic", "ranged", "melee")
BATTLE_KINDS = ("battle for an owned hex", "exploration", "contest")

# What PASS and YES mean where "done" and "yes" would say too little (decisions.py's notes)
PASS_WORDS = {
    D.SEA_REPLACE: "keep the sea hex", D.PLACE: "done placing", D.EXCHANGE: "done exchanging",
    D.HERO_CHOOSE: "done with heroes", D.HERO_PAY: "decline to pay", D.RECRUIT_PAID: "skip the draws",
    D.RECRUIT_TRADE: "done trading", D.BUILD: "done building", D.MOVE_START: "end your movement",
    D.MOVE_SELECT: "cancel this move", D.MOVE_STACK: "end this move here", D.FLY_INTEND: "done",
    D.FLY_BLOCK: "block no flyer", D.PIN_CHALLENGE: "do not challenge", D.PIN_REVEAL: "reveal nothing",
    D.REMOVE_INCOME: "done", D.BRIBE: "bribe no more", D.RETREAT: "stay and fight", D.HERO_TURN: "keep the side",
    D.EVENT_PLAY: "play no event this round", D.ESCAPE_HEX: "no escape (eliminated)", D.REACT: "no reaction",
    D.FAN_HEX: "remove the black cloud", D.SPECIAL_USE: "done", D.ITEM_WINDOW: "play no item",
    D.WARLORD: "no attempt", D.LUCKY_DIE: "not now", D.BALLOON_LOAD: "cancel the balloon",
    D.AVIATOR_CREATURE: "none now", D.LUCKY_REROLL: "keep the dice", D.GYPSY_TAKE: "done",
}
YES_WORDS = {
    D.SEA_REPLACE: "replace the sea hex", D.HERO_PAY: "pay the minimum", D.MOVE_SELECT: "go: move this stack",
    D.PIN_CHALLENGE: "challenge the pin", D.HERO_TURN: "turn the counter over",
    D.ASSASSIN_TARGET: "one of the face-down counters", D.BALLOON_LOAD: "lift off",
    D.PORTAL_SEND: "send no more", D.BOAT_LOAD: "sail",
}


def relative_name(k: int, n: int) -> str:
    """A relative side's name: you, opp1 ... (the neutral side is n)."""
    return "you" if k == 0 else "neutral" if k == n else f"opp{k}"


def thing_label(t: int) -> str:
    """A Thing's name and the printed facts a player reads on its face."""
    kind, name = int(cat.THING_KIND[t]), cat.THING_NAME[t]
    if kind == CREATURE:
        terrain = int(cat.THING_TERRAIN[t])
        flags = [f for f, on in (("fly", cat.THING_FLYING[t]), ("magic", cat.THING_MAGIC[t]),
                                 ("ranged", cat.THING_RANGED[t]), ("charge", cat.THING_CHARGE[t])) if on]
        where = TERRAIN_NAMES[terrain] + " " if terrain >= 0 else ""
        return f"{name} ({where}{int(cat.THING_COMBAT[t])}{', ' + ', '.join(flags) if flags else ''})"
    if kind in (SPECIAL_INCOME, CITY, VILLAGE):
        return f"{name} (income {int(cat.THING_INCOME[t])})"
    if kind == TREASURE:
        return f"{name} (treasure, {int(cat.THING_GOLD[t])} gold)"
    return f"{name} ({'magic item' if kind == MAGIC else 'event' if kind == EVENT else 'thing'})"


def hero_label(f: int) -> str:
    return f"{cat.HERO_NAME[f]} (hero {int(cat.HERO_COMBAT[f])})"


class KingsAndThingsSeatView:
    """`board`, `decision` and `describe` of one seat's observation (`ktenv.agents.human.SeatView`)."""

    def board(self, observation: np.ndarray) -> str:
        v = View(observation)
        parts = [self._players(v), self._screen(v), hex_map(v), self._hexes(v)]
        battle = self._battle(v)
        if battle:
            parts.append(battle)
        return "\n\n".join(p for p in parts if p)

    def decision(self, observation: np.ndarray) -> str:
        v = View(observation)
        phase = PHASE_NAMES[v.phase]
        rounds = f"round {v.round}" + (f" ({v.rounds_left} left)" if v.rounds_left else "")
        actor = _actor(v)
        who = "you decide" if actor == 0 else f"{relative_name(actor, v.n)} decides" if actor > 0 else "nobody"
        return f"Kings & Things, {rounds}, {phase}: {who}: {D.NAMES.get(v.decision, v.decision)}{_subject(v)}"

    def describe(self, observation: np.ndarray, action: int) -> str:
        return describe(View(observation), action)

    # ----- parts of the board

    def _players(self, v: View) -> str:
        lines = [f"{'':<8}{'gold':>6}{'income':>8}{'hexes':>7}{'forts':>7}{'heroes':>8}{'screen':>8}{'on board':>10}"]
        first = v.col("players", "is_first")
        board_things = v.col("players", "board_things")
        forts = v.col("players", "forts")
        for k in range(v.n):
            marks = (" first" if first[k] else "") + ("" if v.alive[k] else " (out)")
            lines.append(f"{relative_name(k, v.n):<8}{int(v.gold[k]):>6}{int(v.income[k]):>8}"
                         f"{int(v.hexes_owned[k]):>7}{int(forts[k]):>7}{int(v.heroes_owned[k]):>8}"
                         f"{int(v.screen_size[k]):>8}{int(board_things[k]):>10}{marks}")
        return "\n".join(lines)

    def _screen(self, v: View) -> str:
        mine = np.flatnonzero(v.mine_screen)
        text = ", ".join(thing_label(int(t)) for t in mine) if mine.size else "empty"
        return f"Your screen: {text}"

    def _hexes(self, v: View) -> str:
        """One line per hex someone owns or stands on (the map shows the others)."""
        return "\n".join(line for line in (hex_line(v, h) for h in range(v.h)) if line)

    def _battle(self, v: View) -> str:
        b, x = v.reg_hex("b_hex"), v.reg_hex("x_hex")
        if b >= 0:
            kind = BATTLE_KINDS[min(int(v.reg("reg_b_kind")), 2)]
            hits = _per_side(v, "reg_b_hits")
            owed = ", ".join(f"{relative_name(k, v.n)} {int(h)}" for k, h in enumerate(hits) if h)
            return (f"Battle at h{b} ({kind}): round {int(v.reg('reg_b_round'))}, "
                    f"{STEP_NAMES[min(int(v.reg('reg_b_step')), 2)]} step"
                    + (f"; hits to assign: {owed}" if owed else ""))
        if x >= 0:
            who = v.reg_side("x_player")
            return f"Exploration of h{x} by {relative_name(who, v.n)}" if who >= 0 else f"Exploration of h{x}"
        return ""


def _subject(v: View) -> str:
    """What the decision is about, when a register names it: the Thing or hero being placed, the moving stack."""
    thing, hero, moving = v.reg_thing("thing"), v.reg_hero("hero"), v.reg_hex("mv_hex")
    if thing >= 0:
        return f": {thing_label(thing)}"
    if hero >= 0:
        return f": {hero_label(hero)}"
    if moving >= 0 and v.decision in (D.MOVE_SELECT, D.MOVE_STACK):
        return f" (the stack at h{moving})"
    side = v.reg_side("b_side")
    if v.reg_hex("b_hex") >= 0 and side > 0:  # the seat decides for another side: the neutral defenders (RD1.6)
        return f" (for the {relative_name(side, v.n)} side)"
    return ""


def _actor(v: View) -> int:
    """The relative seat that decides now, -1 nobody."""
    a = v.layout.section("game").offset("actor_rel0")
    block = v.obs[a:a + v.n]
    return int(block.argmax()) if block.max() > 0 else -1


def _per_side(v: View, key: str) -> np.ndarray:
    """A per-side register (`reg_b_hits_rel0` ...) by relative side."""
    sec = v.layout.section("registers")
    a = sec.offset(f"{key}_rel0")
    return v.obs[a:a + v.n + 1]


def hex_terrain(v: View, h: int) -> str:
    return "face down" if v.face_down[h] else TERRAIN_NAMES[int(v.terrain[h])]  # R20.3


def hex_facts(v: View, h: int) -> tuple[str, str, str]:
    """(owner, fort and income counter; what stands there, side by side; markers) of hex h, each '' when none."""
    income = [int(t) for t in np.flatnonzero(v.on_board & (v.thing_hex == h)) if _is_income(t)]
    owner = int(v.owner[h])
    head = ["yours" if owner == 0 else f"{relative_name(owner, v.n)}'s"] if owner >= 0 else []
    if v.fort[h]:
        head.append(cat.FORT_NAME[int(v.fort[h])])
    head += [thing_label(t) for t in income]
    stacks = "; ".join(s for s in (stack_text(v, h, k) for k in range(v.n + 1)) if s)
    marks = [m for m, on in (("[black cloud]", v.col("hexes", "cloud")[h] > 0),
                             ("[battle]", v.reg_hex("b_hex") == h), ("[exploring]", v.reg_hex("x_hex") == h),
                             ("[moving stack]", v.reg_hex("mv_hex") == h)) if on]
    return ", ".join(head), stacks, " ".join(marks)


def hex_line(v: View, h: int) -> str:
    """A board line: 'h4  Swamp         opp1's, Tower        opp1: 7 face down'; '' for nobody's empty hex."""
    head, stacks, marks = hex_facts(v, h)
    if not (head or stacks or marks):
        return ""
    return f"{'h' + str(h):<4}{hex_terrain(v, h):<13}{head:<24} {stacks} {marks}".rstrip()


def hex_choice(v: View, h: int) -> str:
    """A hex as a choice: 'h4 Swamp (opp1's, Tower): opp1: 7 face down'."""
    head, stacks, marks = hex_facts(v, h)
    return (f"h{h} {hex_terrain(v, h)}" + (f" ({head})" if head else "") + (f": {stacks}" if stacks else "")
            + (f" {marks}" if marks else ""))


def stack_text(v: View, h: int, k: int) -> str:
    """Side k's counters in hex h as that seat may know them: names of identified ones, a count of the rest."""
    named = [int(t) for t in np.flatnonzero(v.on_board & (v.thing_hex == h) & (v.thing_owner == k))
             if not _is_income(t)]
    heroes = [int(f) for f in np.flatnonzero((v.hero_owner == k) & (v.hero_hex == h))] if k < v.n else []
    words = [thing_label(t) + ("" if k or v.thing_supported[t] or cat.THING_KIND[t] != CREATURE else " [bluff]")
             for t in named]
    words += [hero_label(f) for f in heroes]
    unknown = int(v.things_at[k, h]) - len(named)
    if unknown > 0:
        words.append(f"{unknown} face down")
    if not words:
        return ""
    return f"{relative_name(k, v.n)}: " + ", ".join(words)


def _is_income(t: int) -> bool:
    return int(cat.THING_KIND[t]) in (SPECIAL_INCOME, CITY, VILLAGE)


def hex_map(v: View) -> str:
    """The board as rows of hexes (pointy-top, axial), the legend beside it: each cell the hex number, its
    terrain letter and who owns it (* you, k oppk, blank nobody)."""
    coords = v.geo.coords
    rows: dict[int, list[tuple[int, int]]] = {}
    for h in range(v.h):
        q, r = int(coords[h, 0]), int(coords[h, 1])
        rows.setdefault(r, []).append((2 * q + r, h))
    low = min(x for cells in rows.values() for x, _ in cells)
    lines = []
    for r in sorted(rows):
        line = ""
        for x, h in sorted(rows[r]):
            owner = int(v.owner[h])
            mark = "*" if owner == 0 else str(owner) if owner > 0 else " "
            letter = "?" if v.face_down[h] else TERRAIN_LETTER[int(v.terrain[h])]
            line = line.ljust((x - low) * 3) + f"{h:>2}{letter}{mark}"
        lines.append("  " + line)
    width = max(len(line) for line in lines) + 4
    opponents = "1 opp1" if v.n == 2 else f"1-{v.n - 1} opp1-{v.n - 1}"
    legend = [f"{TERRAIN_LETTER[i]} {name}" for i, name in enumerate(TERRAIN_NAMES)] + ["* yours", opponents]
    per_row = -(-len(legend) // len(lines))
    for i in range(len(lines)):
        items = legend[i * per_row:(i + 1) * per_row]
        lines[i] = (lines[i].ljust(width) + "  ".join(f"{item:<14}" for item in items)).rstrip()
    return "\n".join(lines)


def describe(v: View, action: int) -> str:
    """What `action` does now, from the seat's observation: the block and the decision it answers."""
    block, i = v.split(int(action))
    i = int(i)
    if block == "PASS":
        return PASS_WORDS.get(v.decision, "done / pass")
    if block == "YES":
        return YES_WORDS.get(v.decision, "yes")
    if block == "NUMBER":
        return number_text(v.decision, i)
    if block == "HEX":
        return hex_choice(v, i)
    if block == "THING":
        return moving_choice(v, thing_label(i), v.thing_status[i], v.thing_mp[i]) or thing_choice(v, i)
    if block == "HERO":
        where = f" at h{int(v.hero_hex[i])}" if v.hero_hex[i] >= 0 else " (in the pool)" if v.hero_pool[i] else ""
        return moving_choice(v, hero_label(i), v.hero_status[i], v.hero_mp[i]) or hero_label(i) + where
    if block == "CASH":
        t = int(v.actions.treasure_ids[i])
        return f"cash {cat.THING_NAME[t]} for {int(cat.THING_GOLD[t])} gold"
    if block == "PLAYER":
        return relative_name(i, v.n) if i < v.n else f"player {i} seats to your left"
    return direction_choice(v, i)


def number_text(decision: int, i: int) -> str:
    if decision == D.HERO_BONUS:
        return f"pay {5 * i} gold before the roll"
    if decision == D.RECRUIT_PAID:
        return f"buy {i} paid thing{'s' if i != 1 else ''} ({5 * i} gold)"
    if decision == D.EVENT_TERRAIN and i < len(TERRAIN_NAMES):
        return f"new terrain: {TERRAIN_NAMES[i]}"
    if decision == D.THIEF_TAKE:
        return "all the victim's gold" if i == 0 else "one random counter of the victim's screen"
    if decision == D.LUCKY_SIGN:
        return "-1" if i == 0 else "+1"
    if decision == D.GAMBLER_STAKE:
        return f"stake {i} gold"
    if decision in (D.LUCKY_DIE, D.LUCKY_REROLL):
        return f"die {i + 1}"
    if decision == D.MARKSMAN:
        return f"the Marksman fights at {i}" + (" (a hit falls where you choose)" if i == 2 else "")
    return str(i)


def thing_choice(v: View, t: int) -> str:
    """A Thing as a choice, with where it is when the seat knows it."""
    where = ""
    if v.mine_screen[t]:
        where = " from your screen"
    elif v.on_board[t] and v.thing_hex[t] >= 0:
        owner = int(v.thing_owner[t])
        side = "" if owner == 0 else f" ({relative_name(owner, v.n)})" if owner > 0 else ""
        where = f" at h{int(v.thing_hex[t])}{side}"
    return thing_label(t) + where


def moving_choice(v: View, label: str, status: float, mp: float) -> str:
    """A counter of the seat's own move (RP-5): added to the stack, dropped from it, or picked up on the way;
    '' outside a move."""
    if v.decision == D.MOVE_SELECT:
        return f"add {label} to the moving stack ({int(mp)} MP)"
    if v.decision == D.MOVE_STACK:
        here = v.reg_hex("mv_hex")
        if status == 1:  # a member of the moving stack
            return f"drop {label} at h{here} ({int(mp)} MP left)"
        return f"pick up {label} ({int(mp)} MP)"
    return ""


def direction_choice(v: View, d: int) -> str:
    """A step of the moving stack: the direction and the hex it leads to."""
    here = v.reg_hex("mv_hex")
    if here < 0:
        return f"step {DIRECTION_NAMES[d]}"
    to = int(v.geo.neighbours[here, d])
    return f"step {DIRECTION_NAMES[d]} to {hex_choice(v, to)}" if to >= 0 else f"step {DIRECTION_NAMES[d]}"


def make(**kwargs):
    """``human``: a person at the terminal plays this seat (`ktenv.agents.human`)."""
    from ..human import HumanAgent

    return HumanAgent(KingsAndThingsSeatView(), **kwargs)


__all__ = ["KingsAndThingsSeatView", "describe", "hex_map", "make", "thing_label"]
