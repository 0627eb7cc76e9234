"""Native expert: agents/kings_and_things/expert.py's `ExpertAgent` in C++ (src/agents/expert.cpp), bit-exact with it.

`NativeExpertAgent(seed)` has the ExpertAgent interface (``act(observation, action_mask)``,
``reset(seed)``, ``name``, ``needs_observation``) and makes the choices ``ExpertAgent(seed=seed)``
makes on the same observations: the same scores (float64, bit for bit), the same move plan carried
from one decision of a move to the next, the same tie-break noise (numpy's ``default_rng(seed)``).

The native expert reads what the native greedy reads (`ktenv.kings_and_things.native.agents.greedy_plan`) and a few
more columns and tables, gathered here (`expert_plan_numbers`) from the very layout, board and catalog
`agents.view.View` and `agents.expert` use: the hex distances (`agents.view.hex_distances`), the
movement costs, `agents.expert.EVENT_PLAY` and the names its handlers test. Batched games build one
plan per config with `expert_plan_for(cfg)`.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from ...agents.kings_and_things import expert as _expert
from ...agents.kings_and_things import view as _view
from .. import catalog as cat
from . import core
from .agents import NativeGreedyAgent, greedy_plan

# (section, column) of the columns the expert reads beyond the greedy plan's
_COLUMNS = (
    ("game", "round"), ("players", "fort_levels"), ("players", "citadels"), ("things", "mine_screen"),
    ("things", "selected"), ("things", "mp"), ("things", "reg_thing"), ("things", "reg_b_item"),
    ("heroes", "mp"), ("hexes", "reg_mv_sel"), ("registers", "reg_ev_p_rel0"),
)
SPECIAL_HEROES = ("Dwarf King", "Master Thief", "Marksman", "Swordmaster", "Warlord")  # score_hero_choose


def expert_plan_numbers(n_players: int, house: bool = False, kadab: bool = False) -> tuple[dict, dict]:
    """(ints, tables) of one layout variant, as `_core.ExpertPlan.make` takes them (with the greedy plan)."""
    if (n_players, house, kadab) not in _view.VARIANTS:
        raise ValueError(f"expert plan: no observation layout for {n_players} players "
                         f"(known: {sorted({v[0] for v in _view.VARIANTS})})")
    layout, geo, _ = _view._shape(n_players, house, kadab)
    ints = {f"{s}.{c}": int(layout.section(s).offset(c)) for s, c in _COLUMNS}
    # View.reg_side("ev_p") reads the n + 1 values from reg_ev_p_rel0 on, as the native View does
    if ints["registers.reg_ev_p_rel0"] + n_players + 1 > layout.size:
        raise ValueError("expert plan: the ev_p register lies at the end of the observation")
    names = cat.THING_NAME
    nt = layout.section("things").rows
    if len(names) < nt or len(cat.HERO_NAME) < layout.section("heroes").rows:
        raise ValueError("expert plan: the catalog names fewer Things or heroes than the layout has rows")
    names = names[:nt]

    def flat(a) -> list[float]:
        return np.asarray(a, np.float64).ravel().tolist()

    def named(*wanted: str) -> list[float]:
        return [float(name in wanted) for name in names]

    tables = {
        "steps": flat(_view.hex_distances(n_players)),
        "move_cost": flat(_view.MOVE_COST),
        "event_play": [float(_expert.EVENT_PLAY.get(name, -1.0)) for name in names],
        "mother_lode": named("Mother Lode"), "willing_workers": named("Willing Workers"),
        "big_juju": named("Big Juju"), "balloon": named("Balloon"),
        "special_hero": [float(name in SPECIAL_HEROES) for name in cat.HERO_NAME[:layout.section("heroes").rows]],
    }
    return ints, tables


@cache
def expert_plan(n_players: int, house: bool = False, kadab: bool = False):
    """The `_core.ExpertPlan` of one layout variant (built once)."""
    house, kadab = bool(house), bool(kadab)
    return core().ExpertPlan.make(greedy_plan(n_players, house, kadab),
                                  *expert_plan_numbers(n_players, house, kadab))


def expert_plan_for(cfg):
    """The plan of a game config's observations."""
    return expert_plan(cfg.n_players, cfg.house_content, cfg.mysterious_kadab)


class NativeExpertAgent(NativeGreedyAgent):
    """`agents.expert.ExpertAgent` running in native code: the same scores and the same choices."""

    name = "expert"
    _plan = staticmethod(expert_plan)

    @staticmethod
    def _new(plan, seed):
        return core().Expert(plan, seed)

    def follow(self, action: int) -> bool:
        """After `scores` or `act` of a MOVE_START observation: move the stack of `action` with the plan made for
        it (a search that chose the stack); False, and nothing changed, for an action not scored there."""
        if self._native is None:
            return False
        return bool(self._native.follow(int(action)))

    def played(self, action: int) -> None:
        """ExpertAgent.played: the action played where this agent was last asked (another player's choice)."""
        self.follow(action)

    def scores(self, observation, action_mask) -> tuple[np.ndarray, np.ndarray]:
        """(legal actions, ExpertAgent.scores of them): what act compares before the noise; draws nothing
        (a MOVE_START sets the move plan, as ExpertAgent.scores does)."""
        return super().scores(observation, action_mask)
