"""`expert`: a rule-based player with a plan.

The plan, in the order the rules page's round runs (R5.1):

- **Home and Citadel.** One own hex is *home*: the hex with the highest fort (the first Tower at
  the start). Every Construction phase raises home by one level first (Tower, Keep, Castle, then
  the Citadel as soon as income allows, R14.3); spare gold builds Towers and Keeps elsewhere,
  which is income too. Willing Workers goes on home.
- **Economy.** Income counters are always placed; paid draws only with gold beyond what
  construction needs; junk (bluffs, income counters without a matching hex) is traded away
  2-for-1; one free hero attempt a round at the best odds, paying after a short roll when cheap.
- **Expansion.** Creatures are placed on the frontier, in stacks. In the Movement phase every
  stack looks for the best target within reach: an enemy hex left empty (taken by walking in,
  R11.8.1), an unexplored hex (with a stack strong enough for the defenders it may meet), or an
  enemy hex clearly weaker than the stack. Bluffs (creatures without support, R9) never go into
  a fight, since a battle reveals and removes them (R9.5); they walk into empty hexes and stay
  behind as garrisons, where face down they look as strong as anything. While an enemy holds a
  Citadel the army gathers on the nearest own hex and storms it (R16.2/R16.3). Home keeps a
  garrison while enemies are near.
- **Battles.** Bribe when the whole garrison of an explored hex is cheap, or to tip a close fight;
  hits go to forts and cities first (they only lose value until the battle ends), then to the
  weakest creatures; retreat when clearly losing, never from home; battle items are played when
  the fight is close; the Marksman shoots at full value and picks the best target.
- **Events and powers.** Good events on the right target (Disaster and Weather Control on the
  leader's strongest hex, Teenie Pox and Vandals on the leader), never one that would do nothing
  (R10.1 offers it all the same); the Plague and Big Juju are kept;
  the Master Thief robs the richest, the Assassin the strongest.

Everything is read from the observation (`agents.view.View`); the agent keeps only its own plan
for the move it is making (which hex it is heading for, which counters go).
"""

from __future__ import annotations

import heapq

import numpy as np

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things.constants import CITY, CREATURE, SEA, VILLAGE

from .greedy import W_INCOME, GreedyAgent
from .view import HERO_COMBAT, MOVE_COST, THING_COMBAT, THING_KIND, View

EXPLORE_STRENGTH = 5.0  # a stack this strong usually beats or bribes what an exploration draws
EXPECTED_DEFENCE = 5.5
EVENT_PLAY = {"Willing Workers": 3.0, "Good Harvest": 2.0, "Mother Lode": 1.5, "Teeniepox": 1.5,
              "Vandals": 1.0, "Defection": 1.0, "Terrain Disaster": 1.0, "Weather Control": 0.5}


class ExpertAgent(GreedyAgent):
    name = "expert"
    explore_strength = EXPLORE_STRENGTH
    attack_ratio = 1.6  # attack an enemy hex with this many times its estimated defence
    citadel_attack_ratio = 1.3
    retreat_factor = 1.1  # an attacker retreats when the enemy is stronger than this many times its side
    explore_margin = 1.0  # strength sent to explore beyond the goal
    bluffs_explore = False  # bluffs (unsupported creatures) stay out of stacks that will fight
    spread = False  # place new creatures evenly over the frontier
    buy_extra = 5  # gold kept back before paid draws after round 3
    hero_pay_max = 10.0  # most gold paid after a short hero roll

    # ----- the plan's anchors

    def home(self, v: View) -> int:
        """The hex the Citadel is (or will be) built on."""
        mine = np.flatnonzero(v.owner == 0)
        if mine.size == 0:
            return -1
        exposure = np.array([sum(1 for y in v.geo.adjacent[x] if v.owner[y] != 0) for x in mine])
        key = v.fort[mine] * 100 - exposure
        return int(mine[int(np.argmax(key))])

    def threat_near(self, v: View, x: int, radius: int = 2) -> float:
        """Strength of enemy counters within `radius` steps of hex `x`."""
        if x < 0:
            return 0.0
        strength = sum(v.side_strength(s) for s in range(1, v.n))
        seen, frontier, total = {x}, [x], 0.0
        for _ in range(radius):
            nxt = []
            for a in frontier:
                for b in v.geo.adjacent[a]:
                    if b not in seen:
                        seen.add(b)
                        nxt.append(b)
                        total += strength[b]
            frontier = nxt
        return float(total + strength[x])

    def leader(self, v: View) -> int:
        """The opponent (relative seat) closest to winning."""
        score = v.income + 15 * v.citadels + 3 * (v.fort_levels >= 3)
        score = np.where(np.arange(v.n) == 0, -1e9, score)
        return int(np.argmax(score))

    def war_target(self, v: View) -> int:
        """An enemy Citadel to take: it threatens to win (R16.2), or taking it wins (R16.3)."""
        enemy = np.flatnonzero((v.owner > 0) & (v.fort == 4))
        if enemy.size == 0:
            return -1
        home = self.home(v)
        near = v.steps[home, enemy] if home >= 0 else np.zeros(enemy.size)
        return int(enemy[int(np.argmin(near))])

    def staging(self, v: View, target: int) -> int:
        """The own hex nearest to `target` (where the army gathers before an assault)."""
        mine = np.flatnonzero((v.owner == 0) & v.land)
        if mine.size == 0:
            return -1
        key = v.steps[mine, target] * 10 - v.own_counters()[mine] * 0.1
        return int(mine[int(np.argmin(key))])

    def reserve(self, v: View) -> float:
        """Gold to keep for this round's construction."""
        home = self.home(v)
        if home >= 0 and v.fort[home] < 4:
            return 5.0
        return 0.0

    # ----- setup

    def score_claim(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        room = self.hex_room(v, idx)
        return room

    def score_tower(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        exposure = np.array([sum(1 for y in v.geo.adjacent[x] if v.owner[y] != 0 and v.land[y]) for x in idx])
        return -exposure.astype(float)

    # ----- economy

    def score_recruit_paid(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        spare = v.gold[0] - self.reserve(v) - (0 if v.round <= 3 else self.buy_extra)
        want = int(np.clip(spare // 5, 0, 5))
        k = np.where(blocks == "NUMBER", idx, -1)
        return np.where(k >= 0, -np.abs(k - want), -10.0)

    def score_recruit_trade(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        selected = int(np.count_nonzero(v.mine_screen & v.thing_selected))
        junk = [i for i in np.flatnonzero(v.mine_screen & ~v.thing_selected) if v.thing_value(int(i)) < 1.0]
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "THING":
                value = v.thing_value(int(i))
                if selected % 2 == 1:  # must make the set even: the cheapest
                    out[k] = 5.0 - value
                elif len(junk) >= 2 and value < 1.0:
                    out[k] = 1.0 - value
                else:
                    out[k] = -1.0
            elif b == "PASS":
                out[k] = 0.0
        return out

    def score_exchange(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return np.array([1.2 - v.thing_value(int(i)) if b == "THING" else 0.0 for b, i in zip(blocks, idx)])

    def score_place(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b != "THING":
                continue
            if v.on_board[i] and v.thing_owner[i] == 0:
                out[k] = -10.0  # never remove an own income counter
            elif THING_KIND[i] in (CITY, VILLAGE) or cat.THING_INCOME[i] > 0:
                out[k] = 5.0 + cat.THING_INCOME[i]
            elif THING_KIND[i] == CREATURE:
                supported = self.supported_on_screen(v, i)
                out[k] = 1.0 + THING_COMBAT[i] if supported else 0.5
        return out

    def frontier_score(self, v: View, hexes: np.ndarray) -> np.ndarray:
        """Where a new counter is most useful: next to unexplored or enemy land, in a stack that
        is not yet full; home while threatened."""
        home = self.home(v)
        unexplored = v.unexplored()
        enemy = (v.owner > 0) & v.land
        own = v.own_counters()
        out = np.zeros(hexes.size)
        for k, x in enumerate(hexes):
            adj = v.geo.adjacent[x]
            room = sum(1 for y in adj if unexplored[y]) + 1.5 * sum(1 for y in adj if enemy[y])
            if self.spread:
                out[k] = min(room, 3) - 0.5 * own[x]
            else:
                out[k] = min(room, 3) + (1.0 if 0 < own[x] < 6 else 0.0) - 0.3 * max(own[x] - 6, 0)
            if x == home and self.threat_near(v, home) > v.own_strength()[home]:
                out[k] += 3.0
        return out

    def score_place_hex(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        t = v.reg_thing("thing")
        if t >= 0 and THING_KIND[t] != CREATURE:  # an income counter: the hex least likely to be lost
            return -np.array([sum(1 for y in v.geo.adjacent[x] if v.owner[y] > 0) for x in idx], float)
        return self.frontier_score(v, idx)

    def score_hero_place(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return self.frontier_score(v, idx)

    def score_hero_choose(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "HERO":
                if v.hero_owner[i] == 0:
                    out[k] = -10.0
                else:
                    special = 1.0 if cat.HERO_NAME[i] in ("Dwarf King", "Master Thief", "Marksman",
                                                          "Swordmaster", "Warlord") else 0.0
                    out[k] = 0.5 + (6 - HERO_COMBAT[i]) + 0.3 * special
        return out

    def score_hero_bonus(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        spare = v.gold[0] - self.reserve(v) - 15
        want = int(np.clip(spare // 5, 0, 2))
        k = np.where(blocks == "NUMBER", idx, -1)
        return np.where(k >= 0, -np.abs(k - want), -10.0)

    def score_hero_pay(self, v, legal):
        cost = v.reg("reg_cost")
        ok = cost <= min(self.hero_pay_max, v.gold[0] - self.reserve(v) - 5)
        return np.where(legal == 1, 1.0 if ok else -1.0, 0.0)

    # ----- construction: home first, then everywhere

    def score_build(self, v, legal):
        home = self.home(v)
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "HEX":
                out[k] = 10.0 + v.fort[i] + (50.0 if i == home else 0.0) + (100.0 if v.fort[i] == 3 else 0.0)
            elif b == "THING":
                out[k] = -10.0
        return out

    def score_remove_income(self, v, legal):
        return np.where(legal == 0, 1.0, -10.0)

    # ----- movement with a target

    def garrison(self, v: View, x: int) -> int:
        """Counters to leave in own hex `x`: a hex with counters cannot be taken by walking in
        (R11.8.1) and face-down counters look strong to others; home keeps more while threatened."""
        if v.owner[x] != 0:
            return 0
        enemy_near = any(v.owner[y] > 0 or v.enemy_counters()[y] > 0 for y in v.geo.adjacent[x])
        if x == self.home(v):
            threat = self.threat_near(v, x, 3)
            return (2 if enemy_near else 1) + int(np.ceil(threat / 3.0)) if threat > 0 or enemy_near else 1
        if enemy_near and v.fort[x] >= 2:
            return 1
        return 0

    def move_targets(self, v: View, x: int, values: np.ndarray) -> tuple[int, float, int]:
        """(target hex, value, counters wanted) of the best move for the counters in hex `x`
        (`values`: their combat values, strongest first; the weakest stay as the garrison)."""
        count = values.size
        keep = min(count, self.garrison(v, x))
        mobile = count - keep
        if mobile <= 0:
            return -1, 0.0, 0
        cum = np.cumsum(values[:mobile])
        strength = float(cum[-1])

        def enough(goal: float) -> int:
            return int(min(mobile, np.searchsorted(cum, goal) + 1))
        dist, _ = self.paths(v, x)
        defence = v.defence()
        enemy_counters = v.enemy_counters()
        own_there = v.own_counters()
        leader = self.leader(v)
        best = (-1, 0.0, 0)
        war = self.war_target(v)
        if war >= 0:  # an enemy Citadel: gather next to it, then storm it
            staging = self.staging(v, war)
            if staging >= 0 and staging != x and dist[staging] <= 4:
                best = (staging, 7.0 + 0.5 * strength - 0.3 * dist[staging], mobile)
        for y in range(v.h):
            d = dist[y]
            if d == 0 or d > 4 or not v.land[y] or v.owner[y] == 0:
                continue
            value, need = 0.0, mobile
            if own_there[y] > 0 and enemy_counters[y] == 0:
                continue  # already on the way there (taken at the end of the move, or explored)
            empty_enemy = v.owner[y] > 0 and enemy_counters[y] == 0 and v.fort[y] == 0 and \
                v.income_combat[y] == 0
            if empty_enemy:
                value, need = 7.0 + W_INCOME * v.income_value[y], 1
            elif v.owner[y] < 0:
                guard = defence[y] if v.things_at[v.n][y] > 0 else EXPECTED_DEFENCE
                goal = max(self.explore_strength, 1.3 * guard)
                if strength >= min(goal, 2.0 if v.things_at[v.n][y] == 0 else goal):
                    value = (5.0 if strength >= goal else 3.0) + 2.0 * v.income_value[y]
                    need = enough(goal + self.explore_margin)
            else:
                citadel = v.fort[y] == 4
                ratio = strength / max(defence[y], 0.5)
                if citadel and y == war:
                    ratio *= 1.3  # the game is at stake: attack at smaller odds
                if ratio >= (self.citadel_attack_ratio if citadel else self.attack_ratio):
                    value = 6.0 + 2 * v.fort[y] + W_INCOME * v.income_value[y] + (40.0 if citadel else 0.0)
                    value += 3.0 if v.owner[y] == leader else 0.0
            if value <= 0:
                continue
            value -= 0.4 * d
            if value > best[1]:
                best = (y, value, need)
        return best

    def paths(self, v: View, x: int, mp: float = 4.0) -> tuple[np.ndarray, np.ndarray]:
        """Cheapest MP cost from `x` to every hex and the first direction to take (Dijkstra; hexes
        that stop a move may only be entered as the last step)."""
        far = 10**6
        dist = np.full(v.h, far, np.int64)
        first = np.full(v.h, -1, np.int64)
        stop = v.unexplored() | (v.enemy_counters() > 0) | ((v.owner > 0) & (v.fort > 0))
        dist[x] = 0
        heap = [(0, x)]
        nb = v.geo.neighbours
        while heap:
            d, a = heapq.heappop(heap)
            if d > dist[a] or (stop[a] and a != x):
                continue
            for direction in range(6):
                b = int(nb[a, direction])
                if b < 0 or v.terrain[b] == SEA:
                    continue
                c = d + int(MOVE_COST[v.terrain[b]])
                if c <= mp and c < dist[b]:
                    dist[b] = c
                    first[b] = direction if a == x else first[a]
                    heapq.heappush(heap, (c, b))
        return dist, first

    def unmoved_at(self, v: View, x: int) -> tuple[np.ndarray, np.ndarray]:
        things = np.flatnonzero(v.mine_board & (v.thing_hex == x) & (v.thing_status == 0)
                                & IS_CREATURE_MASK[:v.n_things])
        heroes = np.flatnonzero(v.my_heroes & (v.hero_hex == x) & (v.hero_status == 0))
        return things, heroes

    def scores(self, v: View, legal: np.ndarray) -> np.ndarray:
        self.memory["started"] = {}  # the plans of the MOVE_START scored now (its handler fills them), for played
        return super().scores(v, legal)

    def act(self, observation, action_mask=None) -> int:
        self.memory["started"] = {}
        return super().act(observation, action_mask)

    def played(self, action: int) -> None:
        """The action played where this agent was last asked, when another player chose it (a teacher labelling a
        learner's game, a reference shadowing a record): after a MOVE_START the expert carries out the move of the
        stack chosen, with the plan it made for that stack, so that its later labels of that move follow it."""
        started = self.memory.get("started", {}).get(int(action))
        if started is not None:
            self.memory["move"] = started

    def score_move_start(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        plans = {}
        for k, (b, x) in enumerate(zip(blocks, idx)):
            if b != "HEX":
                continue
            things, heroes = self.unmoved_at(v, int(x))
            bluff = 0.3 if self.bluffs_explore else 0.0  # a bluff is removed when a battle reveals it (R9.5)
            values = np.sort(np.concatenate([THING_COMBAT[things] * np.where(v.thing_supported[things], 1.0, bluff),
                                             HERO_COMBAT[heroes]]))[::-1]
            target, value, need = self.move_targets(v, int(x), values)
            out[k] = value if target >= 0 and need > 0 else -1.0
            plans[int(x)] = (target, need)
            self.memory["started"][int(legal[k])] = (int(x), target, need)
        best = int(np.argmax(out)) if legal.size else -1
        if best >= 0 and blocks[best] == "HEX":
            self.memory["move"] = (int(idx[best]),) + plans.get(int(idx[best]), (-1, 0))
        return out

    def score_move_select(self, v, legal):
        things, heroes = self.moving_members(v)
        size = things.size + heroes.size
        here = v.reg_hex("mv_sel")
        plan = self.memory.get("move")
        need = plan[2] if plan and plan[0] == here else 4
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "THING":
                value = THING_COMBAT[i] * (1.0 if v.thing_supported[i] else 0.3)
                out[k] = (2.0 + value) if size < need else -1.0
                if not v.thing_supported[i] and not self.bluffs_explore and need > 1:
                    out[k] = -1.0
                if need == 1:  # walking into an empty hex: send the weakest
                    out[k] = 2.0 + 6 - value if size < 1 else -1.0
            elif b == "HERO":
                out[k] = (2.0 + HERO_COMBAT[i]) if size < need and need > 1 else -1.0
            elif b == "YES":
                out[k] = 1.0 if size > 0 else -5.0
            elif b == "PASS":
                out[k] = -0.5 if size == 0 else -5.0
        return out

    def score_move_stack(self, v, legal):
        here = v.reg_hex("mv_hex")
        plan = self.memory.get("move")
        blocks, idx = self.blocks(v, legal)
        out = np.where(blocks == "PASS", 0.0, -1.0)
        if here < 0 or not plan or plan[1] < 0:
            return out
        target = plan[1]
        things, heroes = self.moving_members(v)
        mp = min([v.thing_mp[t] for t in things] + [v.hero_mp[h] for h in heroes] + [4])
        dist, first = self.paths(v, here, mp)
        if target == here or dist[target] > mp or first[target] < 0:
            return out
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "DIRECTION" and int(i) == first[target]:
                out[k] = 1.0
        return out

    # ----- exploration and battles

    def score_segment(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        return v.own_strength()[idx] - v.defence()[idx] + 2.0 * (v.owner[idx] < 0)

    def score_bribe(self, v, legal):
        """Gold for defenders: a hex without a fight keeps the army whole. Bribe every defender
        whose price fits the gold beyond this round's construction, the best value first."""
        x = v.reg_hex("x_hex")
        if x < 0:
            return super().score_bribe(v, legal)
        mult = self.bribe_multiplier(v, x)
        spare = v.gold[0] - self.reserve(v)
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b != "THING":
                continue
            cost = max(THING_COMBAT[i] * mult, 1.0)
            out[k] = 1.0 + THING_COMBAT[i] / cost + 0.1 * THING_COMBAT[i] if cost <= spare else -1.0
        return out

    def score_retreat(self, v, legal):
        x = v.reg_hex("b_hex")
        mine, enemy = self.battle_balance(v)
        if x >= 0 and x == self.home(v) and v.owner[x] == 0:
            return np.where(legal == 0, 1.0, -1.0)
        defending = x >= 0 and v.owner[x] == 0
        retreat = enemy - (2.0 if defending else self.retreat_factor) * mine
        return np.where(legal == 0, 0.0, retreat)

    def score_target(self, v, legal):
        x = v.reg_hex("b_hex")
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "PLAYER" and x >= 0:
                side = int(i)
                out[k] = (5.0 if v.owner[x] == side else 0.0) - 0.5 * v.side_strength(min(side, v.n))[x]
        return out

    def score_item_window(self, v, legal):
        mine, enemy = self.battle_balance(v)
        close = mine < 1.6 * enemy
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "THING":
                out[k] = 1.0 if close and cat.THING_NAME[i] != "Balloon" else -0.5
        return out

    def score_react(self, v, legal):
        """React only against another player's event or item."""
        item = v.reg_thing("b_item")
        by = v.thing_owner[item] if item >= 0 else v.reg_side("ev_p")
        good = by != 0
        return np.where(legal == 0, 0.0, 1.0 if good else -1.0)

    # ----- events

    def score_event_play(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        out = np.zeros(legal.size)
        for k, (b, i) in enumerate(zip(blocks, idx)):
            if b == "THING":
                name = cat.THING_NAME[i]
                value = EVENT_PLAY.get(name, -1.0)
                if name == "Mother Lode":
                    value = 0.5 * float((v.income_value * (v.owner == 0)).sum()) - 0.5
                if self.event_without_effect(v, i):  # R10.1 offers it: playing it would only spend it
                    value = -1.0
                out[k] = value
        return out

    def score_event_hex(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        name = self.event_name(v)
        home = self.home(v)
        own = v.owner[idx] == 0
        if name == "Willing Workers":
            return np.where(own, 1.0 + v.fort[idx] + 10.0 * (idx == home), -1.0)
        if name == "Big Juju":
            return np.where(own, -1.0, 0.0)
        leader = self.leader(v)
        value = v.enemy_counters()[idx] + 2 * v.fort[idx] + 3.0 * (v.owner[idx] == leader)
        return np.where(v.owner[idx] > 0, 1.0 + value, np.where(own, -5.0, 0.0))

    def score_event_player(self, v, legal):
        leader = self.leader(v)
        blocks, idx = self.blocks(v, legal)
        return np.where((blocks == "PLAYER") & (idx == leader), 1.0, 0.0)

    def score_loss(self, v, legal):
        home = self.home(v)
        out = self.loss_scores(v, legal)
        blocks, idx = self.blocks(v, legal)
        return out - np.where((blocks == "HEX") & (idx == home), 5.0, 0.0)

    def score_special_hex(self, v, legal):
        blocks, idx = self.blocks(v, legal)
        heroes = v.heroes_at[1:v.n].sum(axis=0)
        return 3 * heroes[idx] + v.enemy_counters()[idx] - 5.0 * (v.owner[idx] == 0)

    def score_lucky_die(self, v, legal):
        return np.where(legal == 0, 1.0, 0.0)

    def score_lucky_sign(self, v, legal):
        return np.zeros(legal.size)

    # ----- hits: forts and cities first, then the weakest

    def score_assign_hit(self, v, legal):
        home = self.home(v)
        out = self.loss_scores(v, legal)
        blocks, idx = self.blocks(v, legal)
        return out + np.where((blocks == "HEX") & (idx == home), 0.1, 0.0)


IS_CREATURE_MASK = THING_KIND == CREATURE
