"""`greedy`: one step ahead, by a simple evaluation of the observer's own facts.

Every legal action is scored by what it does at once to the observer's position, valued as

    3 x income + 1.5 x land hexes + army strength + 4 x fort levels + 0.25 x gold

(army strength = combat values of own creatures and heroes). The agent cannot call the engine, so
the change is estimated from the observation: building adds a fort level and 1 income for 5 gold,
placing an income counter adds its value, stepping into an unexplored or weakly held hex may add a
hex, bribing trades gold for a defender's strength, a hit is given to the counter worth least, and
so on. Nothing is planned beyond the current decision.
"""

from __future__ import annotations

import numpy as np

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things.constants import CITY, CREATURE, MAGIC, SPECIAL_INCOME, TREASURE, VILLAGE

from .rules import RuleAgent
from .view import HERO_COMBAT, HIDDEN_COMBAT, THING_COMBAT, THING_KIND, View

W_INCOME, W_HEX, W_ARMY, W_FORT, W_GOLD = 3.0, 1.5, 1.0, 4.0, 0.25
DRAW_VALUE = 2.0  # expected worth of a Thing drawn from the cup
GOOD_EVENTS = ("Willing Workers", "Mother Lode", "Good Harvest", "Teeniepox", "Vandals", "Defection",
               "Terrain Disaster")
# R10.1: any event may be played, one with nothing to act on included; these can find nothing to act on
# (event_without_effect), the others always have an effect or a condition the engine checks (Appendix B)
EFFECT_CHECKED = ("Mother Lode", "Good Harvest", "Vandals", "Defection")


class GreedyAgent(RuleAgent):
    name = "greedy"

    # ----- values of single counters

    def counter_value(self, v: View, block: str, i: int) -> float:
        """Worth of one counter named by a THING/HERO/HEX action (for losses and hits)."""
        if block == "HERO":
            return HERO_COMBAT[i] + W_INCOME
        if block == "HEX":
            return 0.3  # a hit on a fort only lowers it until the battle ends (R13.5.2)
        if block == "THING":
            kind = THING_KIND[i]
            if kind in (CITY, VILLAGE):
                return 0.5
            if kind == CREATURE:
                return THING_COMBAT[i] * (1.0 if v.thing_supported[i] or v.thing_owner[i] != 0 else 0.4)
            return 1.0
        return 0.0

    def loss_scores(self, v: View, legal: np.ndarray) -> np.ndarray:
        """Give up what is worth least (own counters), or hit what is worth most (others')."""
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b in ("THING", "HERO", "HEX"):
                out[k] = -self.counter_value(v, b, int(i))
            else:
                out[k] = -50.0
        return out

    # ----- setup

    def score_start_position(self, v, legal):
        return np.zeros(legal.size)

    def score_sea_replace(self, v, legal):
        return (legal == 1).astype(float)

    def hex_room(self, v: View, hexes: np.ndarray) -> np.ndarray:
        """Unexplored land next to each hex (room to grow)."""
        unexplored = v.unexplored()
        return np.array([sum(unexplored[y] for y in v.geo.adjacent[x]) for x in hexes], float)

    def score_claim(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return W_HEX + W_INCOME + 0.1 * self.hex_room(v, idx)

    def score_tower(self, v, legal):
        return np.zeros(legal.size)

    # ----- placing and exchanging Things

    def score_place(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b != "THING":
                continue
            if v.on_board[i] and v.thing_owner[i] == 0:  # an own income counter to remove
                out[k] = -W_INCOME * cat.THING_INCOME[i]
            elif THING_KIND[i] in (CITY, VILLAGE, SPECIAL_INCOME):
                out[k] = W_INCOME * cat.THING_INCOME[i]
            elif THING_KIND[i] == CREATURE:
                out[k] = W_ARMY * THING_COMBAT[i] * (0.6 if not self.supported_on_screen(v, i) else 1.0) + 0.1
        return out

    def supported_on_screen(self, v: View, t: int) -> bool:
        terrain = cat.THING_TERRAIN[t]
        return terrain < 0 or bool(np.any((v.owner == 0) & (v.terrain == terrain)))

    def score_place_hex(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return 0.1 * self.hex_room(v, idx) - 0.01 * v.own_counters()[idx]

    def score_exchange(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return np.array([DRAW_VALUE - v.thing_value(int(i)) if b == "THING" else 0.0
                         for b, i in zip(blocks, idx)])

    def score_recruit_paid(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        k = np.where(blocks == "NUMBER", idx, 0).astype(float)
        return k * (DRAW_VALUE - 5 * W_GOLD) - 0.3 * k * k - np.where(blocks == "PASS", 1.0, 0.0)

    def score_recruit_trade(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return np.array([DRAW_VALUE / 2 - v.thing_value(int(i)) if b == "THING" else 0.0
                         for b, i in zip(blocks, idx)])

    def score_trade_keep(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return np.array([v.thing_value(int(i)) if b == "THING" else -1.0 for b, i in zip(blocks, idx)])

    def score_discard(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return np.array([-v.thing_value(int(i)) if b == "THING" else -50.0 for b, i in zip(blocks, idx)])

    # ----- heroes

    def score_hero_choose(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "HERO":
                if v.hero_owner[i] == 0:
                    out[k] = -(HERO_COMBAT[i] + W_INCOME)  # dismissing
                else:  # chance of 2d6 >= twice the value, times what the hero adds
                    out[k] = _p2d6_at_least(2 * HERO_COMBAT[i]) * (HERO_COMBAT[i] + W_INCOME)
        return out

    def score_hero_bonus(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return -np.where(blocks == "NUMBER", idx, 0).astype(float)

    def score_hero_pay(self, v, legal):
        cost = v.reg("reg_cost")
        hero = v.reg_hero("hero")
        worth = (HERO_COMBAT[hero] + W_INCOME) if hero >= 0 else 5.0
        return np.where(legal == 1, worth - W_GOLD * cost, 0.0)

    def score_hero_place(self, v, legal):
        return self.score_place_hex(v, legal)

    # ----- construction

    def score_build(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "HEX":
                out[k] = W_INCOME + W_FORT - 5 * W_GOLD + (20.0 if v.fort[i] == 3 else 0.0)
            elif b == "THING":
                out[k] = -W_INCOME * cat.THING_INCOME[i]
        return out

    def score_remove_income(self, v, legal):
        return np.where(legal == 0, 0.0, -5.0)

    # ----- movement, one step ahead

    def step_gain(self, v: View, target: int, strength: float) -> float:
        """What entering `target` with a stack of `strength` may add at once."""
        if not v.land[target]:
            return -10.0
        defence = v.defence()[target]
        gain = W_HEX + W_INCOME + W_INCOME * v.income_value[target]
        if v.owner[target] == 0:
            return 0.05 * self.hex_room(v, np.array([target]))[0]
        if v.owner[target] < 0:  # unexplored: defenders drawn on 2-5
            expected = defence if defence > 0 else 0.6 * 3.5 * HIDDEN_COMBAT * 0.75
            return gain * (0.35 + 0.65 * (strength > expected))
        return gain if strength > 1.2 * defence else -2.0

    def moving_members(self, v: View) -> tuple[np.ndarray, np.ndarray]:
        things = np.flatnonzero(v.mine_board & (v.thing_status == 1))
        heroes = np.flatnonzero(v.my_heroes & (v.hero_status == 1))
        return things, heroes

    def stack_strength(self, v: View, things: np.ndarray, heroes: np.ndarray) -> float:
        return float(THING_COMBAT[things].sum() + HERO_COMBAT[heroes].sum())

    def score_move_start(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        strength = v.own_strength()
        for k, (b, x) in enumerate(zip(blocks, idx)):
            if b == "HEX":
                out[k] = max((self.step_gain(v, y, strength[x]) for y in v.geo.adjacent[x]), default=0.0) - 0.5
        return out

    def score_move_select(self, v, legal):
        things, heroes = self.moving_members(v)
        size = things.size + heroes.size
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        out[blocks == "THING"] = 1.0 if size < 4 else -0.1
        out[blocks == "HERO"] = 1.0 if size < 4 else -0.1
        out[blocks == "YES"] = 0.5
        out[blocks == "PASS"] = -5.0
        return out

    def score_move_stack(self, v, legal):
        things, heroes = self.moving_members(v)
        strength = self.stack_strength(v, things, heroes)
        here = v.reg_hex("mv_hex")
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "DIRECTION" and here >= 0:
                y = int(v.geo.neighbours[here, i])
                out[k] = self.step_gain(v, y, strength) if y >= 0 else -10.0
            elif b == "PASS":
                out[k] = 0.02
            else:
                out[k] = -1.0
        return out

    def score_fly_intend(self, v, legal):
        return np.where(legal == 0, 0.1, 0.0)

    def score_fly_block(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return np.array([1.0 if b == "THING" and v.thing_supported[i] else (0.5 if b == "HERO" else 0.0)
                         for b, i in zip(blocks, idx)])

    def score_pin_challenge(self, v, legal):
        return (legal == 1).astype(float)

    def score_pin_reveal(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return np.array([1.0 if b == "THING" and v.thing_supported[i] else 0.0 for b, i in zip(blocks, idx)])

    # ----- exploration and battles

    def score_segment(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return v.own_strength()[idx] - v.defence()[idx]

    def bribe_multiplier(self, v: View, x: int) -> float:
        guarded = v.on_board & (v.thing_hex == x) & np.isin(THING_KIND[:v.n_things], (TREASURE, MAGIC))
        return 2.0 if v.has_income[x] or guarded.any() else 1.0

    def score_bribe(self, v, legal):
        x = v.reg_hex("x_hex")
        mult = self.bribe_multiplier(v, x) if x >= 0 else 2.0
        blocks, idx = self.blocks(v, legal)
        return np.array([W_ARMY * THING_COMBAT[i] - W_GOLD * mult * THING_COMBAT[i] if b == "THING" else 0.0
                         for b, i in zip(blocks, idx)])

    def battle_balance(self, v: View) -> tuple[float, float]:
        """(my strength, strongest enemy side's strength) in the battle hex."""
        x = v.reg_hex("b_hex")
        if x < 0:
            return 0.0, 0.0
        mine = v.own_strength()[x]
        if v.owner[x] == 0:
            mine += v.fort[x] + v.income_combat[x]
        enemy = max(v.side_strength(s)[x] for s in range(1, v.n + 1))
        if v.owner[x] > 0:
            enemy += v.fort[x] + v.income_combat[x]
        elif v.owner[x] < 0:
            enemy += v.income_combat[x]
        return mine, enemy

    def score_retreat(self, v, legal):
        mine, enemy = self.battle_balance(v)
        retreat = W_ARMY * (enemy - 1.3 * mine)
        return np.where(legal == 0, 0.0, retreat)

    def score_target(self, v, legal):
        x = v.reg_hex("b_hex")
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "PLAYER" and x >= 0:
                side = int(i) if int(i) < v.n else v.n
                out[k] = -v.side_strength(side)[x]  # the weakest side falls first
        return out

    def score_assign_hit(self, v, legal):
        return self.loss_scores(v, legal)

    def score_retreat_excess(self, v, legal):
        return self.loss_scores(v, legal)

    def score_loss(self, v, legal):
        return self.loss_scores(v, legal)

    def score_hero_turn(self, v, legal):
        return np.where(legal == 0, 0.1, 0.0)

    def score_item_window(self, v, legal):
        return np.where(legal == 0, 0.0, 1.0)

    def score_item_bearer(self, v, legal):
        """The strongest creature carries the Bow or Sword; keeping it (PASS, C.10) is worth its bearer."""
        blocks, idx = self.blocks(v, legal)
        item = v.reg_thing("b_bear")
        bearer = int(v.col("things", "bearer")[item]) if item >= 0 else -1
        kept = THING_COMBAT[bearer] + 0.01 if bearer >= 0 else 0.0  # ties: no pointless move
        return np.where(blocks == "THING", THING_COMBAT[np.where(blocks == "THING", idx, 0)], kept)

    def enemy_value_scores(self, v: View, legal: np.ndarray) -> np.ndarray:
        """Hit (or name) the enemy counter worth most; never an own one."""
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "THING":
                own = v.thing_owner[i] == 0
                out[k] = (-1 if own else 1) * (THING_COMBAT[i] + 0.1)
            elif b == "HERO":
                own = v.hero_owner[i] == 0
                out[k] = (-1 if own else 1) * (HERO_COMBAT[i] + W_INCOME)
            elif b == "HEX":
                out[k] = 0.2
        return out

    def score_warlord(self, v, legal):
        return self.enemy_value_scores(v, legal)

    def score_marksman_hit(self, v, legal):
        return self.enemy_value_scores(v, legal)

    def score_assassin_target(self, v, legal):
        """YES: one of the face-down counters the assassin cannot tell apart, worth an unknown counter."""
        return np.where(legal == 1, HIDDEN_COMBAT + 0.1, self.enemy_value_scores(v, legal))

    def score_marksman(self, v, legal):
        return np.where(legal == 7, 1.0, 0.0)  # NUMBER 5: full value

    def score_lucky_die(self, v, legal):
        return np.where(legal == 0, 1.0, 0.0)

    # ----- events, reactions, special powers

    def score_event_play(self, v, legal):
        """A good event, unless it would do nothing now (R10.1 offers it all the same): never that."""
        blocks, idx = self.blocks(v, legal)
        return np.array([(-1.0 if self.event_without_effect(v, i) else 1.0)
                         if b == "THING" and cat.THING_NAME[i] in GOOD_EVENTS else 0.0
                         for b, i in zip(blocks, idx)])

    def event_without_effect(self, v: View, t: int) -> bool:
        """Would event t find nothing to act on now (as the engine's events.PLAYABLE judges)? Mother
        Lode: no income counter on my hexes (B.5); Good Harvest: no hex (B.6); Vandals: no enemy Tower,
        Keep or Castle (B.9); Defection: no hero in the pool or with another player, or no hex of mine
        with room for one (B.8, RD5.3; a Citadel has no limit)."""
        name = cat.THING_NAME[t]
        own = v.owner == 0
        if name == "Mother Lode":
            return not (own & (v.income_value > 0)).any()
        if name == "Good Harvest":
            return not own.any()
        if name == "Vandals":
            return not ((v.owner > 0) & (v.fort > 0) & (v.fort < 4)).any()
        if name == "Defection":
            room = own & ((v.fort == 4) | (v.own_army() < 10))
            return not room.any() or not (v.hero_pool.any() or (v.hero_owner > 0).any())
        return False

    def leader_scores(self, v: View, legal: np.ndarray, key: np.ndarray) -> np.ndarray:
        """PLAYER actions (relative to me) scored by `key` of that player; me last."""
        blocks, idx = self.blocks(v, legal)
        return np.array([(key[i] if 0 < i < v.n else -1e3) if b == "PLAYER" else -1e3
                         for b, i in zip(blocks, idx)], float)

    def score_event_player(self, v, legal):
        return self.leader_scores(v, legal, v.income)

    def score_special_victim(self, v, legal):
        return self.leader_scores(v, legal, v.gold)

    def score_dust_target(self, v, legal):
        x = v.reg_hex("b_hex")
        key = np.array([v.side_strength(s)[x] if x >= 0 else 0.0 for s in range(v.n)])
        return self.leader_scores(v, legal, key)

    def event_name(self, v: View) -> str:
        c = v.reg_thing("ev_c")
        return cat.THING_NAME[c] if c >= 0 else ""

    def score_event_hex(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        name = self.event_name(v)
        own = v.owner[idx] == 0
        if name in ("Willing Workers", "Big Juju"):
            return np.where(own, 1.0 + v.fort[idx], -1.0)
        return np.where(v.owner[idx] > 0, 1.0 + v.enemy_counters()[idx] + v.fort[idx], np.where(own, -5.0, 0.0))

    def score_plague_hex(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return -v.own_counters()[idx]

    def score_escape_hex(self, v, legal):
        return np.where(legal == 0, -1.0, 0.0)

    def score_defect_hero(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return np.where(blocks == "HERO", HERO_COMBAT[np.where(blocks == "HERO", idx, 0)], 0.0)

    def score_react(self, v, legal):
        return np.where(legal == 0, 0.0, 0.5)

    def score_special_use(self, v, legal):
        return np.where(legal == 0, 0.0, 1.0)

    def score_thief_take(self, v, legal):
        victim = v.reg_side("sp_victim")
        gold = v.gold[victim] if 0 < victim < v.n else 0
        return np.where(legal == 2, gold * W_GOLD, DRAW_VALUE)

    def score_special_hex(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return v.enemy_counters()[idx] - 5.0 * (v.owner[idx] == 0)

    def score_balloon_load(self, v, legal):
        return np.where(legal == 0, 1.0, 0.0)


def _p2d6_at_least(target: float) -> float:
    sums = np.add.outer(np.arange(1, 7), np.arange(1, 7)).ravel()
    return float(np.mean(sums >= target))
