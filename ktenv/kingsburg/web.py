"""Kingsburg in the browser: the page draws the King's council (the 18 advisors with the dice on them) and
every player's province sheet (goods, buildings, soldiers, VP) as SVG.

A seat's page is made from its observation alone (`ktenv.agents.kingsburg.view.View` and the terminal seat's
words in `human_view`), never from the state: the neutral dice show as a group without their values and the
enemy deck as this year's five possible cards, as the observation holds them. The whole table of a record is
made from the state (`render.advisor_dice`).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ktenv.agents.kingsburg import human_view as hv
from ktenv.agents.kingsburg.view import View
from ktenv.kingsburg import actions as A
from ktenv.kingsburg import catalog as cat
from ktenv.kingsburg.observation import ObservationEncoder

BOARD_KIND = "council"  # the page draws the advisors' board and the province sheets
NO_GROUP, NEUTRAL_GROUP = -1, -2  # View's codes of an advisor's group
_encoders: dict[int, ObservationEncoder] = {}


def encode(state: Any, seat: int) -> np.ndarray:
    n = state.cfg.n_players
    if n not in _encoders:
        _encoders[n] = ObservationEncoder(n)
    return _encoders[n].encode(state, seat)


def agent_observation(agent: Any, state: Any, seat: int, mask: np.ndarray) -> Any:
    """What the arena gives an agent: the vector for readers, worlds its seat cannot tell apart for searchers."""
    from .worlds import WorldSampler

    observation = {"observation": encode(state, seat), "action_mask": mask} \
        if getattr(agent, "needs_observation", False) else None
    if getattr(agent, "needs_worlds", False):
        observation = {**(observation or {"action_mask": mask}), "worlds": WorldSampler(state, seat)}
    return observation


def _named(text: str, names: list[str]) -> str:
    """The terminal's relative names (opp1 ...) as the page's seat names."""
    for k in range(len(names) - 1, 0, -1):
        text = re.sub(rf"\bopp{k}\b", names[k], text)
    return text


# ----- a seat's page, from its observation


def seat_view(obs: np.ndarray, mask: np.ndarray | None, names: list[str]) -> dict:
    """A seat's page: the players, the advisors, the province sheets, the enemy as the seat knows it and (when
    it decides) its actions. Sides are relative seats (0 is the seat itself), `v.n` the neutral dice."""
    v = View(obs)
    out = {"kind": BOARD_KIND, "title": _named(hv.KingsburgSeatView().decision(obs), names),
           "players": [{"name": names[k], "VP": int(v.vp[k]), "gold": int(v.goods[k][0]), "wood": int(v.goods[k][1]),
                        "stone": int(v.goods[k][2]), "+2": int(v.tokens[k]), "soldiers": int(v.soldiers[k])}
                       for k in range(v.n)],
           "advisors": [_advisor(a, _groups_seen(v, a), names) for a in range(1, cat.N_ADVISORS + 1)],
           "sheets": [_sheet(names[k], k, v.built[k], _marks_seen(v, k)) for k in range(v.n)],
           "order": [names[k] for k in sorted(range(v.n), key=lambda k: v.turn_place[k])],
           "enemy": _named(hv.KingsburgSeatView()._enemy(v), names), "actions": []}
    if mask is not None:
        out["actions"] = [_action(v, int(a)) for a in np.flatnonzero(mask)]
    return out


def actions_of(obs: np.ndarray, mask: np.ndarray, names: list[str]) -> list[dict]:
    """The legal actions of `mask` in the seat's words (as its page lists them), without drawing the page."""
    v = View(obs)
    return [_action(v, int(a)) for a in np.flatnonzero(mask)]


def _groups_seen(v: View, a: int) -> list[tuple[int, list[int], bool]]:
    """(side, pips, envoy) of each group of dice on advisor `a` as the observation holds them: the influencing
    group (the neutral dice without their values: the observation has none), then another seat's Envoy group;
    a seat's own Envoy group on an advisor it influences is among its dice (one advisor per die)."""
    g, e = int(v.advisor_group[a]), int(v.advisor_envoy[a])
    out = []
    if g == NEUTRAL_GROUP:
        out.append((v.n, [], False))
    elif g >= 0:
        out.append((g, _pips(v, g, a), e == g))
    if e >= 0 and e != g:
        out.append((e, _pips(v, e, a), True))
    return out


def _pips(v: View, k: int, a: int) -> list[int]:
    return [int(value) for value, on in zip(v.dice[k], v.die_on[k]) if value and on == a]


def _marks_seen(v: View, k: int) -> list[str]:
    marks = [m for m, on in (("Envoy", v.envoy[k]), ("aid die", v.aid_die[k]), ("passed", v.passed[k]),
                             ("looked at the enemy", v.peeked[k] and k)) if on]
    if v.result[k] > -2:  # the last winter battle (K9)
        marks.append(f"last battle: {hv.BATTLE_RESULTS[int(v.result[k])]} at strength {int(v.strength[k])}")
    dice = hv.dice_text(v, k)
    return ([f"dice {dice}"] if dice else []) + marks


def _action(v: View, a: int) -> dict:
    """A legal action in English, and the advisor or building it names (so the board can be clicked)."""
    out = {"action": a, "label": hv.describe(v, a)}
    if A.TARGET <= a < A.DICE:
        out["spot"] = f"advisor {a - A.TARGET + 1}"
    elif A.BUILD <= a < A.STATUE_COLOURED:
        found = hv.next_building(v, a - A.BUILD)
        if found is not None:
            out["spot"] = f"building {found[0]}"
    return out


# ----- shared by both views


def _advisor(a: int, groups: list[tuple[int, list[int], bool]], names: list[str]) -> dict:
    return {"n": a, "name": cat.ADVISOR_NAMES[a], "help": hv.ADVISOR_HELP[a],
            "groups": [{"side": side, "name": names[side] if side < len(names) else "neutral dice",
                        "pips": pips, "envoy": envoy} for side, pips, envoy in groups]}


def _sheet(name: str, side: int, built: np.ndarray, marks: list[str]) -> dict:
    """A province sheet: the buildings row by row (name, built or not), and what else the player has."""
    return {"name": name, "side": side, "marks": marks,
            "rows": [[{"name": cat.BUILDING_NAMES[r * cat.COLUMNS + c], "built": bool(built[r, c])}
                      for c in range(cat.COLUMNS)] for r in range(cat.ROWS)]}


def public_move(before: np.ndarray, actor: int, action: int, after: np.ndarray, names: list[str]) -> str:
    """Every Kingsburg move is made in the open (dice, advisors, buildings): the advisor by name, the dice by
    their values, the building the sheet gained; the enemy deck is never named."""
    v, a = View(before), int(action)
    what = A.action_name(a)
    if A.TARGET <= a < A.DICE:
        what = f"advisor {a - A.TARGET + 1} {cat.ADVISOR_NAMES[a - A.TARGET + 1]}"
    elif A.DICE <= a < A.MOD_MARKET:
        what = "dice " + "+".join(("w" if j >= 3 else "") + str(int(v.dice[actor, j])) for j in A.SUBSETS[a - A.DICE])
    elif A.BUILD <= a < A.STATUE_COLOURED:
        new = np.flatnonzero(View(after).built[actor].ravel() & ~v.built[actor].ravel())
        what = f"build the {', '.join(cat.BUILDING_NAMES[i] for i in new)}" if new.size else what
    return f"{names[actor]}: {what}"


# ----- the whole table of a record, from the state


def table_view(state: Any, names: list[str]) -> dict:
    """The whole table (analysis only): the neutral dice's values, every seat in absolute order."""
    from ktenv.kingsburg.arena import REPLAY_VIEW
    from ktenv.kingsburg.render import advisor_dice
    from ktenv.kingsburg.state import NEUTRAL

    s, n = state, state.n_players

    def groups(a: int) -> list[tuple[int, list[int], bool]]:
        e = int(s.advisor_envoy[a])
        return [(n if owner == NEUTRAL else owner, pips, owner == e) for owner, pips in advisor_dice(s, a)]

    enemy = _enemy_deck(s)
    return {"kind": BOARD_KIND, "title": f"Kingsburg, {REPLAY_VIEW.when(state)} (whole table)",
            "players": [{"name": names[p], "VP": int(s.vp[p]), "gold": int(s.goods[p][0]), "wood": int(s.goods[p][1]),
                         "stone": int(s.goods[p][2]), "+2": int(s.tokens[p]), "soldiers": int(s.soldiers[p])}
                        for p in range(n)],
            "advisors": [_advisor(a, groups(a), names) for a in range(1, cat.N_ADVISORS + 1)],
            "sheets": [_sheet(names[p], p, s.built[p], _marks_of(s, p)) for p in range(n)],
            "order": [names[int(p)] for p in s.order], "enemy": enemy, "actions": []}


def _enemy_deck(s: Any) -> str:
    """The enemy deck, every year's card (hidden from the players until its winter, K1.5), and this winter's
    card once revealed with the King's soldiers."""
    lines = [f"Enemy this winter: {cat.ENEMY_CARDS[s.enemy].text()}; the King sends {int(s.reinforcement)} soldiers"
             ] if s.enemy >= 0 else []
    lines.append("Enemy deck (each card hidden until its winter, K1.5):")
    for y in range(cat.YEARS):
        now = " (this year)" if y == s.year - 1 and not s.game_over else ""
        lines.append(f"  year {y + 1}{now}: {cat.ENEMY_CARDS[int(s.enemy_deck[y])].text()}")
    return "\n".join(lines)


def _marks_of(s: Any, p: int) -> list[str]:
    dice = " ".join(("w" if slot >= 3 else "") + str(int(value)) for slot, (value, on) in
                    enumerate(zip(s.dice[p], s.die_advisor[p])) if value and on < 1)
    marks = [m for m, on in (("Envoy", s.envoy_holder == p), ("aid die", s.aid_player == p),
                             ("passed", s.passed[p]), ("looked at the enemy", s.peeked[p])) if on]
    return ([f"dice {dice}"] if dice else []) + marks
