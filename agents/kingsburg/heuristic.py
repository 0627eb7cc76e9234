"""The Kingsburg rule-based agents: `greedy` (each decision by its immediate worth) and `expert` (prices
from a building plan and the coming battle, a look-ahead over its own dice, soldiers by expected battle
value). Both read only the observation and the mask (`View`)."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ktenv.kingsburg import actions as A
from ktenv.kingsburg import catalog as cat

from .values import Prices, battle_value, effect_value, help_value
from .view import View


def legal_targets(mask: np.ndarray) -> list[int]:
    return [a - A.TARGET + 1 for a in np.flatnonzero(mask[A.TARGET:A.DICE]) + A.TARGET]


def build_cost(v: View, row: int, column: int) -> np.ndarray:
    price = cat.BUILDING_COST[row, column].copy()
    if column >= 2 and v.owns(cat.CRANE):
        price[cat.GOLD] = max(0, price[cat.GOLD] - 1)
    return price


def next_buildings(v: View) -> list[tuple[int, int]]:
    """(row, column) of the next building of every row not complete."""
    out = []
    for row in range(cat.ROWS):
        column = int(v.built[0, row].sum())
        if column < cat.COLUMNS:
            out.append((row, column))
    return out


class KingsburgHeuristic:
    """Shared skeleton: `act` decodes the observation and hands the decision to a method."""

    name = "heuristic"
    needs_observation = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def act(self, observation, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError(f"{self.name}: the action mask allows no action")
        if legal.size == 1:
            return int(legal[0])
        if observation is None:
            raise ValueError(f"{self.name} needs the observation")
        v = View(observation)
        p = self.prices(v)
        d = v.decision
        if d == A.INFLUENCE:
            a = self.influence(v, p, action_mask)
        elif d == A.GROUP_DICE:
            a = self.group_dice(v, p, action_mask)
        elif d == A.MODIFIER:
            a = A.MOD_MARKET  # keep the token
        elif d in (A.BUILD_TURN, A.ENVOY_BUILD):
            a = self.build(v, p, action_mask)
        elif d == A.RECRUIT_TURN:
            a = A.RECRUIT if self.recruit(v, p) else A.PASS
        elif d == A.REROLL:
            a = self.reroll(v, action_mask)
        elif d == A.TOWN_HALL_TURN:
            a = self.town_hall(v, p, action_mask)
        elif d in (A.RECRUIT_PAY, A.LOSS_GOOD, A.ALCHEMIST):
            a = self.pick(p, action_mask, lowest=True)
        else:  # goods taken: aid, help, reward, Merchants' Guild
            a = self.pick(p, action_mask, lowest=False)
        return int(a) if action_mask[a] else int(legal[0])

    def ranked(self, observation, action_mask: np.ndarray) -> list[int]:
        """The legal actions, the agent's own choice (`act`) first, then the others by its scores of them, best
        first (ties and unscored actions: ascending). A search's candidates (agents.kingsburg.search)."""
        legal = np.flatnonzero(action_mask).tolist()
        choice = self.act(observation, action_mask)
        if len(legal) < 2:
            return legal
        v = View(observation)
        scores = self.rank_scores(v, self.prices(v), action_mask)
        rest = sorted((a for a in legal if a != choice), key=lambda a: (-scores.get(a, -np.inf), a))
        return [choice] + rest

    def rank_scores(self, v: View, p: Prices, mask: np.ndarray) -> dict[int, float]:
        """What the agent's rules think of each legal action at the decision pending (higher is better); the
        goods picked by their prices, other decisions unscored here."""
        d = v.decision
        if d in (A.RECRUIT_PAY, A.LOSS_GOOD, A.ALCHEMIST):
            return {A.PICK_GOOD + k: -float(p.goods[k]) for k in range(3) if mask[A.PICK_GOOD + k]}
        if d in (A.AID_GOOD, A.HELP_GOOD, A.REWARD_GOOD, A.GUILD_GOOD):
            return {A.PICK_GOOD + k: float(p.goods[k]) for k in range(3) if mask[A.PICK_GOOD + k]}
        return {}

    # ----- overridable parts

    def prices(self, v: View) -> Prices:
        return Prices(goods=np.ones(3), vp=1.5, soldier=0.8, token=0.5)

    def influence(self, v: View, p: Prices, mask: np.ndarray) -> int:
        stable = v.owns(cat.STABLE)
        best = max(legal_targets(mask), key=lambda a: (help_value(a, p, v.goods[0], stable), a))
        return A.TARGET + best - 1

    def group_dice(self, v: View, p: Prices, mask: np.ndarray) -> int:
        """Fewest dice, then the lowest pips: keep the rest for later."""
        options = np.flatnonzero(mask[A.DICE:A.MOD_MARKET])
        return A.DICE + int(min(options, key=lambda i: (len(A.SUBSETS[i]), self._pips(v, i))))

    def build(self, v: View, p: Prices, mask: np.ndarray) -> int:
        rows = [a - A.BUILD for a in np.flatnonzero(mask[A.BUILD:A.STATUE_COLOURED]) + A.BUILD]
        if not rows:
            return A.PASS
        return A.BUILD + max(rows, key=lambda r: (self.building_score(v, r, int(v.built[0, r].sum())), -r))

    def building_score(self, v: View, row: int, column: int) -> float:
        return float(cat.BUILDING_VP[row, column])

    def recruit(self, v: View, p: Prices) -> bool:
        need = float(np.mean(v.enemy_strengths())) - (int(v.soldiers[0]) + v.battle_bonus() + 3.5)
        return need > 0

    def reroll(self, v: View, mask: np.ndarray) -> int:
        if mask[A.CHAPEL]:
            return A.CHAPEL
        if mask[A.STATUE_COLOURED] and v.dice[0, 0] <= 3:
            return A.STATUE_COLOURED
        return A.PASS

    def town_hall(self, v: View, p: Prices, mask: np.ndarray) -> int:
        if mask[A.TOWN_HALL + 3] and p.token < p.vp:
            return A.TOWN_HALL + 3
        kinds = [k for k in range(3) if mask[A.TOWN_HALL + k]]
        if kinds:
            k = min(kinds, key=lambda k: p.goods[k])
            if p.goods[k] < p.vp:
                return A.TOWN_HALL + k
        return A.PASS

    def pick(self, p: Prices, mask: np.ndarray, lowest: bool) -> int:
        kinds = [k for k in range(3) if mask[A.PICK_GOOD + k]]
        order = sorted(kinds, key=lambda k: (p.goods[k], -k))
        return A.PICK_GOOD + (order[0] if lowest else order[-1])

    @staticmethod
    def _pips(v: View, subset: int) -> int:
        return int(sum(v.dice[0, j] for j in A.SUBSETS[subset]))


class GreedyAgent(KingsburgHeuristic):
    """Each decision by its immediate worth: the advisor whose help is worth most now, the fewest dice for
    it, the building with the most VP, the good it owns least of, soldiers to an average enemy."""

    name = "greedy"

    def prices(self, v: View) -> Prices:
        scarce = 1.0 + 0.1 * (v.goods[0] == v.goods[0].min())  # a slight wish for the good it lacks
        return Prices(goods=scarce, vp=1.5, soldier=0.8, token=0.5)


class ExpertAgent(KingsburgHeuristic):
    """Prices from a building plan and the coming battle; influence by a look-ahead over its own dice."""

    name = "expert"
    DISCOUNT = 0.7  # later placements of the plan may be taken by others first

    # ----- prices

    def prices(self, v: View) -> Prices:
        late = v.year == cat.YEARS and v.phase >= 7
        goods = np.full(3, 0.35 if late else 0.9)
        if v.owns(cat.CATHEDRAL) and late:
            goods[:] = 0.5
        if not late:
            wish = self.wish_list(v)[:2]
            have = v.goods[0].astype(float)
            for row, column in wish:
                deficit = build_cost(v, row, column) - have
                goods += 0.35 * (deficit > 0)
                have = np.maximum(0, have - build_cost(v, row, column))
        p = Prices(goods=goods, vp=1.0, token=0.45, peek=0.15 if not v.peeked[0] else 0.0)
        if v.phase <= 7:  # soldiers count in this year's battle only
            p.soldier = max(0.05, battle_value(v, 1, p) - battle_value(v, 0, p))
        else:
            p.soldier = 0.0
        return p

    def building_score(self, v: View, row: int, column: int) -> float:
        return float(cat.BUILDING_VP[row, column]) + effect_value(row, column, v)

    def wish_list(self, v: View) -> list[tuple[int, int]]:
        """Next buildings by worth per good spent, best first."""
        def worth(rc):
            row, column = rc
            return self.building_score(v, row, column) / max(1, int(build_cost(v, row, column).sum()))

        return sorted(next_buildings(v), key=worth, reverse=True)

    def rank_scores(self, v: View, p: Prices, mask: np.ndarray) -> dict[int, float]:
        d = v.decision
        if d == A.INFLUENCE:
            out = {A.TARGET + a - 1: self._target_value(v, p, a) for a in legal_targets(mask)}
            return {**out, A.PASS: 0.05} if mask[A.PASS] else out
        if d == A.GROUP_DICE:
            return self._group_values(v, p, mask)
        if d in (A.BUILD_TURN, A.ENVOY_BUILD):
            return {A.BUILD + r: self.building_score(v, r, int(v.built[0, r].sum()))
                    for r in range(cat.ROWS) if mask[A.BUILD + r]}
        if d == A.RECRUIT_TURN:
            return {A.RECRUIT: self._recruit_gain(v, p), A.PASS: 0.0}
        return super().rank_scores(v, p, mask)

    # ----- influence: a look-ahead over the own unplaced dice

    def influence(self, v: View, p: Prices, mask: np.ndarray) -> int:
        best_value, best_target = 0.05, None
        for a in legal_targets(mask):
            value = self._target_value(v, p, a)
            if value > best_value:
                best_value, best_target = value, a
        return A.PASS if best_target is None else A.TARGET + best_target - 1

    def _target_value(self, v: View, p: Prices, target: int) -> float:
        stable = v.owns(cat.STABLE)
        here = help_value(target, p, v.goods[0], stable)
        dice = self._free_dice(v)
        # the dice that reach `target` cost the plan what they could have done elsewhere
        best_rest = max((self._plan(v, p, tuple(d for j, d in enumerate(dice) if j not in used), target)
                         for used in self._groups_for(dice, target, v)), default=0.0)
        return here + self.DISCOUNT * best_rest

    def group_dice(self, v: View, p: Prices, mask: np.ndarray) -> int:
        best, choice = -1e9, None
        for a, value in self._group_values(v, p, mask).items():
            if value > best:
                best, choice = value, a
        return choice

    def _group_values(self, v: View, p: Prices, mask: np.ndarray) -> dict[int, float]:
        """Per legal group of dice: the plan's worth of the dice it leaves (fewer dice preferred)."""
        dice = self._free_dice(v)
        slots = [j for j in range(5) if v.dice[0, j] and v.die_on[0, j] == 0]
        out = {}
        for i in np.flatnonzero(mask[A.DICE:A.MOD_MARKET]):
            used = {slots.index(j) for j in A.SUBSETS[i]}
            rest = tuple(d for j, d in enumerate(dice) if j not in used)
            out[A.DICE + int(i)] = self._plan(v, p, rest, v.target) - 0.01 * len(used)
        return out

    def _free_dice(self, v: View) -> tuple[tuple[int, bool], ...]:
        return tuple((int(v.dice[0, j]), j < 3) for j in range(5) if v.dice[0, j] and v.die_on[0, j] == 0)

    def _groups_for(self, dice, target: int, v: View) -> list[set[int]]:
        """Index sets of `dice` (with a coloured die) whose pips reach `target` with the own modifiers."""
        token = v.tokens[0] > 0 and not v.flags[0, 0]
        market = v.owns(cat.MARKET) and not v.flags[0, 1]
        diffs = {0} | ({-1, 1} if market else set()) | ({2} if token else set())
        diffs |= {1, 3} if token and market else set()
        out = []
        for bits in range(1, 1 << len(dice)):
            used = {j for j in range(len(dice)) if bits >> j & 1}
            if any(dice[j][1] for j in used) and target - sum(dice[j][0] for j in used) in diffs:
                out.append(used)
        return out

    def _plan(self, v: View, p: Prices, dice, taken: int) -> float:
        free = tuple(a for a in range(1, cat.N_ADVISORS + 1) if v.advisor_group[a] == -1 and a != taken)
        values = tuple(help_value(a, p, v.goods[0], v.owns(cat.STABLE)) for a in range(1, cat.N_ADVISORS + 1))
        return _best_plan(tuple(sorted(dice)), free, values, self.DISCOUNT)

    # ----- soldiers

    def recruit(self, v: View, p: Prices) -> bool:
        return self._recruit_gain(v, p) > 0

    def _recruit_gain(self, v: View, p: Prices) -> float:
        """One more soldier's worth in this year's battle less the goods it costs."""
        price = 1 if v.owns(cat.BARRACKS) else 2
        cheapest = sorted(k for k in range(3) for _ in range(int(v.goods[0, k])))
        cost = sum(sorted(p.goods[k] for k in cheapest)[:price])
        return battle_value(v, 1, p) - battle_value(v, 0, p) - cost

    def reroll(self, v: View, mask: np.ndarray) -> int:
        if mask[A.CHAPEL]:
            return A.CHAPEL
        if mask[A.STATUE_COLOURED] and v.dice[0, 0] <= 4:
            return A.STATUE_COLOURED
        return A.PASS


@lru_cache(maxsize=200_000)
def _best_plan(dice: tuple, free: tuple, values: tuple, discount: float) -> float:
    """The best worth of placing `dice` ((pips, coloured) pairs) one group at a time on `free` advisors
    (exact pips, no modifiers), each later group discounted."""
    if not any(c for _, c in dice):
        return 0.0
    best = 0.0
    n = len(dice)
    for bits in range(1, 1 << n):
        used = [j for j in range(n) if bits >> j & 1]
        if len(used) > 3 or not any(dice[j][1] for j in used):
            continue
        target = sum(dice[j][0] for j in used)
        if target not in free:
            continue
        rest = tuple(d for j, d in enumerate(dice) if not bits >> j & 1)
        value = values[target - 1] + discount * _best_plan(rest, tuple(a for a in free if a != target), values,
                                                          discount)
        best = max(best, value)
    return best
