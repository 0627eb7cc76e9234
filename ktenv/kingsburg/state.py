"""The whole Kingsburg game as small numpy arrays plus a few integers (K1), with an exact JSON round trip
and `check_invariants()`.

Per player (seat order): goods (gold/wood/stone), "+2" tokens, VP, soldiers, the province sheet as a
5x4 boolean grid, the per-season flags, the dice (5 slots: coloured c1-c3 then white w1-w2, each sorted
by value; 0 = no die) and the advisor each die stands on. Shared: the advisors' groups, the neutral
dice (2 players, K14.1), the turn order, the Envoy, the aid die, the enemy deck (hidden, K1.5), the
year and phase, the procedure under way (stage, cursor, pending decision) and the seeded generator.
"""

from __future__ import annotations

import json

import numpy as np

from ..rng import Dice
from . import catalog as cat
from .config import KingsburgConfig

SCHEMA = "ktenv.kingsburg/1"
NEUTRAL = -2  # owner code of the neutral dice's group (K14.1)
COLOURED, WHITE = (0, 1, 2), (3, 4)
DIE_SLOTS = 5

# per-season flags (K1.3)
TOKEN_USED, MARKET_USED, STATUE_USED, CHAPEL_USED, TOWN_HALL_USED = range(5)
FLAG_NAMES = ("+2 used", "Market used", "Statue used", "Chapel used", "Town Hall used")

# stages of the year (K3.1); the productive seasons run SEASON_START..SEASON_END
(AID, SEASON_START, REROLL, INFLUENCE, HELP, BUILD, SEASON_END, KINGS_REWARD, ENVOY, RECRUIT, BATTLE,
 GAME_END) = range(12)
STAGE_NAMES = ("aid from the King", "start of the season", "rerolls", "influence", "help from the advisors",
               "construction", "end of the season", "the King's reward", "the King's envoy", "recruit soldiers",
               "winter battle", "game over")
PHASE_NAMES = ("", "Aid from the King", "Spring", "The King's Reward", "Summer", "The King's Envoy", "Autumn",
               "Recruit Soldiers", "Winter")
SEASON_OF_PHASE = {2: 0, 4: 1, 6: 2}  # spring, summer, autumn

_INT_FIELDS = ("year", "phase", "stage", "cursor", "sub", "decision", "actor", "target", "group", "picks_left",
               "pick_kinds", "envoy_holder", "aid_player", "enemy", "reinforcement", "steps")
_ARRAY_FIELDS = {  # name -> (dtype, shape as a function of n)
    "goods": (np.int32, lambda n: (n, 3)), "tokens": (np.int32, lambda n: (n,)), "vp": (np.int32, lambda n: (n,)),
    "soldiers": (np.int32, lambda n: (n,)), "built": (np.bool_, lambda n: (n, cat.ROWS, cat.COLUMNS)),
    "passed": (np.bool_, lambda n: (n,)), "flags": (np.bool_, lambda n: (n, 5)),
    "dice": (np.int8, lambda n: (n, DIE_SLOTS)), "die_advisor": (np.int8, lambda n: (n, DIE_SLOTS)),
    "order": (np.int8, lambda n: (n,)), "peeked": (np.bool_, lambda n: (n,)),
    "strength": (np.int32, lambda n: (n,)), "result": (np.int8, lambda n: (n,)),
    "advisor_group": (np.int8, lambda n: (cat.N_ADVISORS + 1,)),
    "advisor_envoy": (np.int8, lambda n: (cat.N_ADVISORS + 1,)),
    "neutral_dice": (np.int8, lambda n: (5,)), "neutral_advisor": (np.int8, lambda n: (5,)),
    "pending": (np.bool_, lambda n: (n,)),
    "enemy_deck": (np.int16, lambda n: (cat.YEARS,)),
}


class KingsburgState:
    """One game. Read the arrays freely; change them only through the engine (`machine.step`)."""

    __slots__ = ("cfg", "n_players", "rng", "game_over", "winners", *_INT_FIELDS, *_ARRAY_FIELDS)

    def __init__(self, cfg: KingsburgConfig, seed: int = 0) -> None:
        self.cfg = cfg
        n = self.n_players = cfg.n_players
        self.rng = Dice(seed)
        self.game_over = False
        self.winners: list[int] = []
        for name in _INT_FIELDS:
            setattr(self, name, -1)
        self.year, self.phase, self.stage, self.cursor, self.sub, self.decision = 1, 1, AID, 0, 0, 0
        self.picks_left = self.pick_kinds = self.reinforcement = self.steps = 0
        for name, (dtype, shape) in _ARRAY_FIELDS.items():
            setattr(self, name, np.zeros(shape(n), dtype))
        self.die_advisor[:] = -1
        self.order[:] = np.arange(n)
        self.result[:] = -2  # -2: no battle yet this year
        self.advisor_group[:] = -1
        self.advisor_envoy[:] = -1
        self.neutral_advisor[:] = -1

    # ----- derived facts

    @property
    def season(self) -> int:
        """0 spring, 1 summer, 2 autumn; -1 outside a productive season."""
        return SEASON_OF_PHASE.get(self.phase, -1)

    def owns(self, player: int, building: tuple[int, int]) -> bool:
        return bool(self.built[player, building[0], building[1]])

    def building_count(self, player: int) -> int:
        return int(self.built[player].sum())

    def goods_count(self, player: int) -> int:
        return int(self.goods[player].sum())

    # ----- copy and JSON

    def copy(self) -> KingsburgState:
        t = KingsburgState.__new__(KingsburgState)
        t.cfg, t.n_players, t.rng = self.cfg, self.n_players, self.rng.copy()
        t.game_over, t.winners = self.game_over, list(self.winners)
        for name in _INT_FIELDS:
            setattr(t, name, getattr(self, name))
        for name in _ARRAY_FIELDS:
            setattr(t, name, getattr(self, name).copy())
        return t

    def __deepcopy__(self, memo) -> KingsburgState:
        return self.copy()

    def __getstate__(self) -> str:
        return self.to_json()

    def __setstate__(self, text: str) -> None:
        other = KingsburgState.from_json(text)
        for name in KingsburgState.__slots__:
            setattr(self, name, getattr(other, name))

    def to_json(self) -> str:
        d = {"schema": SCHEMA, "config": self.cfg.to_dict(), "rng": self.rng.to_json(),
             "game_over": self.game_over, "winners": list(self.winners)}
        d.update({name: int(getattr(self, name)) for name in _INT_FIELDS})
        d.update({name: getattr(self, name).tolist() for name in _ARRAY_FIELDS})
        return json.dumps(d, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> KingsburgState:
        """A state from `to_json`'s text; a malformed or inconsistent save raises ValueError naming the fault."""
        try:
            d = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"kingsburg save: not JSON ({exc})") from None
        if not isinstance(d, dict) or d.get("schema") != SCHEMA:
            raise ValueError(f"kingsburg save: schema must be {SCHEMA!r}")
        try:
            cfg = KingsburgConfig.from_dict(d["config"])
            s = cls(cfg)
            s.rng = Dice.from_json(d["rng"])
            s.game_over = bool(d["game_over"])
            s.winners = [int(p) for p in d["winners"]]
            for name in _INT_FIELDS:
                value = d[name]
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ValueError(f"{name} must be a whole number")
                setattr(s, name, value)
            for name, (dtype, shape) in _ARRAY_FIELDS.items():
                arr = np.asarray(d[name])
                if arr.shape != shape(cfg.n_players) or (arr.size and arr.dtype.kind not in "iub"):
                    raise ValueError(f"{name} must have shape {shape(cfg.n_players)}")
                setattr(s, name, arr.astype(dtype))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"kingsburg save: {exc}") from None
        problems = s.invariant_errors()
        if problems:
            raise ValueError(f"kingsburg save: inconsistent state ({'; '.join(problems)})")
        return s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KingsburgState) and self.to_json() == other.to_json()

    __hash__ = None

    # ----- invariants

    def invariant_errors(self) -> list[str]:
        """Every broken conservation or consistency rule, in words (empty when all hold)."""
        n, errors = self.n_players, []
        if (self.goods < 0).any() or (self.tokens < 0).any() or (self.soldiers < 0).any():
            errors.append("goods, tokens and soldiers are never negative (K1.3)")
        filled = self.built.astype(np.int8)
        if (np.diff(filled, axis=2) > 0).any():
            errors.append("a row is built from the left only (K5.5.2)")
        limit = self.cfg.building_token_limit
        if limit is not None and (self.built.sum(axis=(1, 2)) > limit).any():
            errors.append(f"at most {limit} buildings (K15.D2)")
        if sorted(self.order.tolist()) != list(range(n)):
            errors.append("the turn order is a permutation of the players")
        if not (1 <= self.year <= cat.YEARS and 1 <= self.phase <= 8 and AID <= self.stage <= GAME_END):
            errors.append("year 1-5, phase 1-8")
        if not -1 <= self.envoy_holder < n or not -1 <= self.aid_player < n:
            errors.append("Envoy holder and aid player are players or nobody")
        if ((self.dice < 0) | (self.dice > 6)).any() or ((self.neutral_dice < 0) | (self.neutral_dice > 6)).any():
            errors.append("dice show 1-6 (0: no die)")
        for y in range(cat.YEARS):
            if int(self.enemy_deck[y]) not in cat.CARDS_OF_YEAR[y]:
                errors.append(f"the enemy card of year {y + 1} is one of that year's five (K2.3)")
        if self.picks_left < 0 or not 0 <= self.decision < 16 or self.pick_kinds & ~0b111:
            errors.append("a pending decision is one of K16's, with picks >= 0 among the three goods")
        if (self.decision != 0 or self.game_over) and not (-1 <= self.actor < n):
            errors.append("the actor is a player")
        if self.decision != 0 and not (0 <= self.actor < n and not self.game_over):
            errors.append("a pending decision has a player to make it")
        errors += self._placement_errors()
        return errors

    def _placement_errors(self) -> list[str]:
        n, errors = self.n_players, []
        on = self.die_advisor
        if ((on != -1) & ((on < 1) | (on > cat.N_ADVISORS))).any() or ((on >= 1) & (self.dice == 0)).any():
            errors.append("a placed die stands on an advisor 1-18")
        for a in range(1, cat.N_ADVISORS + 1):
            group, envoy = int(self.advisor_group[a]), int(self.advisor_envoy[a])
            holders = {int(p) for p in np.flatnonzero((on == a).any(axis=1))}
            neutral = bool((self.neutral_advisor == a).any())
            expected = ({group} if group >= 0 else set()) | ({envoy} if envoy >= 0 else set())
            if holders != expected or neutral != (group == NEUTRAL) or not (-2 <= group < n and -1 <= envoy < n):
                errors.append(f"advisor {a}: groups and dice disagree")
            elif envoy >= 0 and group == -1:
                errors.append(f"advisor {a}: an Envoy group joins an influenced advisor only (K5.3.6)")
        for p in range(n):
            for a in set(on[p][on[p] >= 1].tolist()):
                if not (on[p][list(COLOURED)] == a).any():
                    errors.append(f"player {p}: every group has a coloured die (K5.3.2)")
        return errors

    def check_invariants(self) -> None:
        problems = self.invariant_errors()
        if problems:
            raise AssertionError("; ".join(problems))


def is_saved_game(data) -> bool:
    """Whether parsed JSON is a saved game of Kingsburg (its schema says so)."""
    return isinstance(data, dict) and data.get("schema") == SCHEMA
