"""Native agents: the `greedy` agent (agents/kings_and_things/greedy.py) in C++, bit-exact with the Python one.

`NativeGreedyAgent(seed)` has the GreedyAgent interface (``act(observation, action_mask)``,
``reset(seed)``, ``name``, ``needs_observation``) and makes the choices ``agents.make("greedy",
seed=seed)`` makes on the same observations: the same scores (float64, bit for bit) and the same
tie-break noise (numpy's ``default_rng(seed)``, reimplemented natively). It reads only the
observation vector and the mask.

What the C++ agent reads of an observation comes from Python: `greedy_plan(n, house, kadab)` builds a
`_core.GreedyPlan` from the very layout, board and action layout `agents.view.View` decodes with
(`agents.view._shape`) and from the catalog tables View reads, so the two can never disagree. Every
layout View knows is supported: 2, 3, 4 or 6 players, with or without house content and Mysterious
Kadab. Batched games build one plan per config (`plan_for(cfg)`) and play many seats at once with
`GreedyBatch` (``act(obs[N, size], mask[N, n_actions]) -> actions[N]``) or from C++
(``ktenv::agents::Greedy``, src/agents/greedy.hpp).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ...agents.kings_and_things import greedy as _greedy
from ...agents.kings_and_things import view as _view
from ...agents.kings_and_things.rules import unpack
from ...gamekit.native import seed_words
from .. import catalog as cat
from . import core

# (section, column) of every column the native View reads (a family: its first column)
_COLUMNS = (
    ("game", "decision_none"), ("players", "gold"), ("players", "income"),
    ("hexes", "terrain_desert"), ("hexes", "owner_rel0"), ("hexes", "fort"), ("hexes", "income_value"),
    ("hexes", "income_combat"), ("hexes", "income_special"), ("hexes", "income_city"), ("hexes", "income_village"),
    ("hexes", "things_rel0"), ("hexes", "hidden_rel0"), ("hexes", "known_combat_rel0"), ("hexes", "heroes_rel0"),
    ("hexes", "hero_combat_rel0"), ("hexes", "reg_mv_hex"), ("hexes", "reg_b_hex"), ("hexes", "reg_x_hex"),
    ("hexes", "own_value_1"),
    ("things", "on_board"), ("things", "hex"), ("things", "owner_rel0"), ("things", "status"),
    ("things", "supported"), ("things", "bearer"), ("things", "reg_b_bear"), ("things", "reg_ev_c"),
    ("heroes", "owner_rel0"), ("heroes", "hex"), ("heroes", "status"), ("heroes", "pool"), ("heroes", "reg_hero"),
    ("registers", "reg_cost"), ("registers", "reg_sp_victim_rel0"),
)
# families read as consecutive columns: (section, first column, prefix, count(n))
_FAMILIES = (
    ("hexes", "terrain_", lambda n: 8), ("hexes", "owner_rel", lambda n: n), ("things", "owner_", lambda n: n + 1),
    ("heroes", "owner_rel", lambda n: n), ("hexes", "things_", lambda n: n + 1), ("hexes", "hidden_", lambda n: n + 1),
    ("hexes", "known_combat_", lambda n: n + 1), ("hexes", "heroes_", lambda n: n + 1),
    ("hexes", "hero_combat_", lambda n: n + 1), ("registers", "reg_sp_victim_", lambda n: n + 1),
    ("hexes", "own_value_", lambda n: 6),
)
BUILDER_EVENTS = ("Willing Workers", "Big Juju")  # GreedyAgent.score_event_hex
# GreedyAgent.event_without_effect: the events it checks, coded 1, 2, ... in this order (view.hpp)
EFFECT_CHECKED = _greedy.EFFECT_CHECKED


def _check_families(layout, n: int) -> None:
    """The native View steps from a family's first column to the next by the section's rows."""
    for section, prefix, count in _FAMILIES:
        sec = layout.section(section)
        names = [c.name for c in sec.columns if c.name.startswith(prefix)][:count(n)]
        first = sec.offset(names[0])
        if len(names) != count(n) or any(sec.offset(c) != first + k * sec.rows for k, c in enumerate(names)):
            raise ValueError(f"greedy plan: the {section} columns {prefix}* are not {count(n)} consecutive columns")


def greedy_plan_numbers(n_players: int, house: bool = False, kadab: bool = False) -> tuple[dict, dict]:
    """(ints, tables) of one layout variant, as `_core.GreedyPlan.make` takes them."""
    if (n_players, house, kadab) not in _view.VARIANTS:
        raise ValueError(f"greedy plan: no observation layout for {n_players} players "
                         f"(known: {sorted({v[0] for v in _view.VARIANTS})})")
    layout, geo, actions = _view._shape(n_players, house, kadab)
    _check_families(layout, n_players)
    ints = {f"{s}.{c}": int(layout.section(s).offset(c)) for s, c in _COLUMNS}
    ints.update(n=n_players, h=geo.n_hexes, nt=layout.section("things").rows, nf=layout.section("heroes").rows,
                size=layout.size, n_actions=actions.size, n_decisions=_view.D.n_decisions(house),
                a_hex=actions.hex, a_thing=actions.thing, a_hero=actions.hero, a_cash=actions.cash,
                a_player=actions.player, a_direction=actions.direction)
    for name, combat in (("THING_COMBAT", _view.THING_COMBAT), ("HERO_COMBAT", _view.HERO_COMBAT)):
        if not np.array_equal(combat, np.round(combat)):  # sums of them are then exact in any order
            raise ValueError(f"greedy plan: {name} holds a value that is not a whole number")
    adjacent = [list(map(int, a)) for a in geo.adjacent]

    def flat(a) -> list[float]:
        return np.asarray(a, np.float64).ravel().tolist()

    names = cat.THING_NAME
    tables = {
        "thing_combat": flat(_view.THING_COMBAT), "hero_combat": flat(_view.HERO_COMBAT),
        "thing_kind": flat(_view.THING_KIND), "thing_terrain": flat(cat.THING_TERRAIN),
        "thing_income": flat(cat.THING_INCOME), "thing_gold": flat(cat.THING_GOLD),
        "thing_flying": flat(cat.THING_FLYING),
        "good_event": [float(name in _greedy.GOOD_EVENTS) for name in names],
        "builder_event": [float(name in BUILDER_EVENTS) for name in names],
        "event_effect": [float(EFFECT_CHECKED.index(name) + 1 if name in EFFECT_CHECKED else 0) for name in names],
        "hidden_combat": [_view.HIDDEN_COMBAT],
        "adjacent_start": flat(np.cumsum([0] + [len(a) for a in adjacent])),
        "adjacent": [float(y) for a in adjacent for y in a],
        "neighbours": flat(geo.neighbours),
    }
    return ints, tables


@cache
def greedy_plan(n_players: int, house: bool = False, kadab: bool = False):
    """The `_core.GreedyPlan` of one layout variant (built once)."""
    return core().GreedyPlan.make(*greedy_plan_numbers(n_players, bool(house), bool(kadab)))


def plan_for(cfg):
    """The plan of a game config's observations."""
    return greedy_plan(cfg.n_players, cfg.house_content, cfg.mysterious_kadab)


def plan_for_size(obs_size: int):
    """The plan of the layout an observation of this length has (agents.view.variant_for)."""
    return greedy_plan(*_view.variant_for(obs_size))


def _int8(mask: np.ndarray) -> np.ndarray:
    mask = np.asarray(mask)
    if mask.dtype == np.int8 or mask.dtype == np.bool_:
        return np.ascontiguousarray(mask).view(np.int8)
    return np.ascontiguousarray(mask != 0).view(np.int8)


class NativeGreedyAgent:
    """`agents.greedy.GreedyAgent` running in native code: the same scores and the same choices."""

    name = "greedy"
    needs_observation = True

    def __init__(self, seed: int | None = None, n_players: int | None = None) -> None:
        self.n_players = n_players
        self._native = None
        self.reset(seed)

    def reset(self, seed: int | None = None) -> None:
        self._seed = seed_words(seed)
        if self._native is not None:
            self._native.reset(self._seed)

    def _agent(self, obs_size: int):
        """The native agent for this layout; another layout later swaps its plan, the generator goes on."""
        if self._native is not None and self._native.size == obs_size:
            return self._native
        if self.n_players is None:
            plan = self._plan(*_view.variant_for(obs_size))
        else:  # View(obs, n_players): that player count's variant of this length
            v = next((v for v in _view.VARIANTS if v[0] == self.n_players and _view._shape(*v)[0].size == obs_size),
                     None)
            if v is None:
                raise _view.LayoutError(f"observation of length {obs_size} matches no layout for "
                                        f"{self.n_players} players")
            plan = self._plan(*v)
        if self._native is None:
            self._native = self._new(plan, self._seed)
        else:
            self._native.set_plan(plan)
        return self._native

    # the plan of a layout variant and a native agent on it (NativeExpertAgent,
    # ktenv/kings_and_things/native/expert.py, swaps them)
    _plan = staticmethod(greedy_plan)

    @staticmethod
    def _new(plan, seed):
        return core().Greedy(plan, seed)

    def act(self, observation, action_mask=None) -> int:
        obs, mask = unpack(observation, action_mask)
        if obs is None:
            raise ValueError(f"native {self.name} agent: it needs the observation vector (needs_observation)")
        obs = np.ascontiguousarray(obs, dtype=np.float32).ravel()
        mask = _int8(mask).ravel()
        try:
            agent = self._agent(obs.size)
        except _view.LayoutError:
            legal = np.flatnonzero(mask)
            if legal.size == 1:  # the Python agent plays it without reading the observation
                return int(legal[0])
            raise
        return int(agent.act(obs, mask))

    def scores(self, observation, action_mask) -> tuple[np.ndarray, np.ndarray]:
        """(legal actions, GreedyAgent.scores of them): what act compares before the noise; draws nothing."""
        obs = np.ascontiguousarray(observation, dtype=np.float32).ravel()
        legal, scores = self._agent(obs.size).scores(obs, _int8(action_mask).ravel())
        return np.asarray(legal, np.int64), np.asarray(scores, np.float64)


class GreedyBatch:
    """N greedy agents for N seats of batched games of one config: ``act(obs[N, size], mask[N, n_actions])``
    decides for all of them in one native call. Agent i is seeded like ``agents.make("greedy", seed=seeds[i])``."""

    def __init__(self, cfg_or_plan, seeds) -> None:
        self.plan = cfg_or_plan if isinstance(cfg_or_plan, core().GreedyPlan) else plan_for(cfg_or_plan)
        self._native = core().GreedyBatch(self.plan, [seed_words(s) for s in seeds])
        self._out = np.empty(len(self._native), np.int64)

    def __len__(self) -> int:
        return len(self._native)

    def reset(self, i: int, seed: int | None = None) -> None:
        self._native.reset(int(i), seed_words(seed))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Agent i's action for row i (a new int64 array)."""
        obs = np.ascontiguousarray(obs, dtype=np.float32)
        self._native.act(obs, _int8(mask), self._out)
        return self._out.copy()
