"""The year's phase machine: stops at a decision point, exposes the legal actions, resumes on one.

`new_game(config, seed)` -> the state at its first decision; `legal_mask(state)` -> int8 mask of the 65
actions; `step(state, action)` applies one legal action and runs the automatic parts of the rules up to
the next real decision. A decision with one legal action is taken by the engine (K16: no choice), so
every decision a player sees has at least two options.
"""

from __future__ import annotations

import numpy as np

from ..errors import IllegalActionError
from ..gamekit import Engine
from ..gamekit.native import resolve_backend as resolve_native
from . import actions as A
from . import advisors, aid, battle, construction, influence, recruiting, season, year
from . import catalog as cat
from .common import pick_legal
from .config import KingsburgConfig
from .state import PHASE_NAMES, STAGE_NAMES, KingsburgState

RUNNERS: dict = {}
for _part in (aid, season, influence, advisors, construction, year, recruiting, battle):
    RUNNERS.update(_part.RUNNERS)


def _take_legal(s, mask):
    pick_legal(s, mask, paying=False)


def _pay_legal(s, mask):
    pick_legal(s, mask, paying=True)


DECISIONS = {  # decision -> (fill the mask, apply a legal action)
    A.AID_GOOD: (_take_legal, aid.take_good),
    A.GUILD_GOOD: (_take_legal, aid.take_good),
    A.HELP_GOOD: (_take_legal, aid.take_good),
    A.REWARD_GOOD: (_take_legal, aid.take_good),
    A.REROLL: (season.reroll_legal, season.reroll_apply),
    A.INFLUENCE: (influence.influence_legal, influence.influence_apply),
    A.GROUP_DICE: (influence.dice_legal, influence.dice_apply),
    A.MODIFIER: (influence.modifier_legal, influence.modifier_apply),
    A.ALCHEMIST: (_pay_legal, advisors.alchemist_apply),
    A.BUILD_TURN: (construction.build_legal, construction.build_apply),
    A.ENVOY_BUILD: (construction.build_legal, construction.build_apply),
    A.TOWN_HALL_TURN: (season.town_hall_legal, season.town_hall_apply),
    A.RECRUIT_TURN: (recruiting.recruit_legal, recruiting.recruit_apply),
    A.RECRUIT_PAY: (_pay_legal, recruiting.pay_apply),
    A.LOSS_GOOD: (_pay_legal, recruiting.pay_apply),
}


def new_game(config: KingsburgConfig | dict | None = None, seed: int = 0, backend: str = "auto") -> KingsburgState:
    """A new game at its first decision (K2): random turn order, one hidden enemy card per year. `backend`:
    "python" (this engine, the reference), "native" (the C++ twin in `native`: the same game bit for bit, a
    `NativeKingsburg`) or "auto" (native when it is built, else Python)."""
    if config is None:
        config = KingsburgConfig()
    elif isinstance(config, dict):
        config = KingsburgConfig.from_dict(config)
    if resolve_backend(backend) == "native":
        from .native.game import NativeKingsburg

        return NativeKingsburg.new(config, seed)
    s = KingsburgState(config, seed)
    order = list(range(s.n_players))
    s.rng.shuffle(order)  # K2.2
    s.order[:] = order
    for y in range(cat.YEARS):  # K2.3
        s.enemy_deck[y] = cat.CARDS_OF_YEAR[y][s.rng.below(5)]
    _advance(s)
    return s


def resolve_backend(backend: str = "auto") -> str:
    """"native" or "python": what `backend` means here (`ktenv.gamekit.native.resolve_backend`)."""
    from . import native

    return resolve_native(backend, native)


def legal_mask(s: KingsburgState) -> np.ndarray:
    """int8 mask over the 65 actions for the player to act (all zeros once the game is over)."""
    if type(s) is not KingsburgState:  # a native game (native/game.py)
        return s.legal_mask()
    mask = np.zeros(A.N_ACTIONS, np.int8)
    if not s.game_over and s.decision != A.NONE:
        DECISIONS[s.decision][0](s, mask)
    return mask


def legal_actions(s: KingsburgState) -> list[int]:
    return np.flatnonzero(legal_mask(s)).tolist()


def step(s: KingsburgState, action: int) -> None:
    """Apply `action` for the player to act; an illegal one raises IllegalActionError and changes nothing."""
    if s.game_over:
        raise IllegalActionError("the game is over")
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"action {action!r} is not a whole number")
    action = int(action)
    if not 0 <= action < A.N_ACTIONS or not legal_mask(s)[action]:
        raise IllegalActionError(f"action {action} ({_name(action)}) is not legal now: "
                                 f"{A.DECISION_NAMES[s.decision]} of player {s.actor}, legal {legal_actions(s)}")
    if type(s) is not KingsburgState:  # a native game (native/game.py)
        s.apply(action)
    elif shadow is not None:
        shadow(s, action, _step)
    else:
        _step(s, action)


# A checker the Kingsburg tests install (tests/kingsburg/conftest.py): shadow(s, action, play) plays the step (or,
# with action None, `resume`) on the native engine too and compares.
shadow = None


def _step(s: KingsburgState, action: int) -> None:
    DECISIONS[s.decision][1](s, action)
    s.steps += 1
    _advance(s)


def _name(action: int) -> str:
    try:
        return A.action_name(action)
    except ValueError:
        return "outside the action space"


def _advance(s: KingsburgState) -> None:
    """Run the automatic rules up to the next decision with two or more options (or the end)."""
    while not s.game_over:
        if s.decision == A.NONE:
            RUNNERS[s.stage](s)
            continue
        mask = legal_mask(s)
        legal = np.flatnonzero(mask)
        if legal.size >= 2:
            return
        if legal.size == 0:
            raise RuntimeError(f"no legal action at {A.DECISION_NAMES[s.decision]} (engine bug)")
        DECISIONS[s.decision][1](s, int(legal[0]))  # a forced move is no choice (K16)


def describe_action(s: KingsburgState, action: int) -> str:
    """What `action` means for the player to act now, in English."""
    try:
        name = A.action_name(int(action))
    except ValueError as exc:
        return str(exc)
    context = A.DECISION_NAMES.get(s.decision, "?")
    p = s.actor
    if A.TARGET <= action < A.DICE:
        name += f" ({cat.ADVISOR_NAMES[action - A.TARGET + 1]})"
    elif A.DICE <= action < A.MOD_MARKET and p >= 0:
        values = [int(s.dice[p, j]) for j in A.SUBSETS[action - A.DICE]]
        name += f" = {'+'.join(map(str, values))} = {sum(values)} for advisor {s.target}"
    elif A.BUILD <= action < A.STATUE_COLOURED and p >= 0:
        row = action - A.BUILD
        column = construction.next_column(s, p, row)
        if column < cat.COLUMNS:
            price = construction.cost(s, p, row, column)
            name += (f": {cat.BUILDING_NAMES[row * cat.COLUMNS + column]} for "
                     f"{'/'.join(map(str, price.tolist()))} gold/wood/stone")
    return f"{context}: {name}"


def describe_state(s: KingsburgState) -> str:
    """One line: year, phase, stage and who must decide what."""
    who = f"player {s.actor} to decide {A.DECISION_NAMES[s.decision]}" if s.decision != A.NONE else "nobody"
    if s.game_over:
        who = f"game over, winners {s.winners}"
    return f"year {s.year}, phase {s.phase} {PHASE_NAMES[s.phase]} ({STAGE_NAMES[s.stage]}): {who}"


def resume(s: KingsburgState) -> None:
    """Run the automatic rules from a hand-arranged state up to its next decision (tests, tools)."""
    if type(s) is not KingsburgState:  # a native game
        s.native.resume()
    elif shadow is not None:
        shadow(s, None, lambda state, _: _advance(state))
    else:
        _advance(s)


ENGINE = Engine(state_type=KingsburgState, new_game=new_game, step=step, legal_mask=legal_mask,
                describe_action=describe_action)
