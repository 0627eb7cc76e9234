"""Kings & Things in the browser: what a seat's page shows, made from that seat's observation alone.

`seat_view` reads the observation vector with the agents' decoder (`ktenv.agents.kings_and_things.view.View`)
and the terminal seat's words (`human_view`), never the game state: so a page holds what the observation
holds (the observation's leak tests cover it, and tests/web checks the page itself). `table_view` is the
whole table, every hidden fact included: only for finished records, and only when asked for.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ktenv.agents.kings_and_things import human_view as hv
from ktenv.agents.kings_and_things.view import View
from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.board import board_radius, geometry
from ktenv.kings_and_things.constants import BOARD, NEUTRAL, SCREEN, TERRAIN_NAMES
from ktenv.kings_and_things.env.observation import ObservationEncoder
from ktenv.kings_and_things.rolls import move_rolls, roll_lines  # noqa: F401 - this view's roll log
from ktenv.kings_and_things.state import PHASE_NAMES

BOARD_KIND = "hexes"  # the page draws a hex map
_encoders: dict = {}


def encode(state: Any, seat: int) -> np.ndarray:
    """The seat's observation vector, as the env and the arena give it."""
    cfg = state.cfg
    key = repr(cfg)
    if key not in _encoders:
        _encoders[key] = ObservationEncoder(cfg, geometry(board_radius(cfg.n_players)).n_hexes)
    return _encoders[key].encode(state, seat)


def agent_observation(agent: Any, state: Any, seat: int, mask: np.ndarray) -> Any:
    """What the arena gives an agent: the vector for readers, worlds its seat cannot tell apart for searchers."""
    from ktenv.kings_and_things.worlds import WorldSampler

    observation = {"observation": encode(state, seat), "action_mask": mask} \
        if getattr(agent, "needs_observation", False) else None
    if getattr(agent, "needs_worlds", False):
        observation = {**(observation or {"action_mask": mask}), "worlds": WorldSampler(state, seat)}
    return observation


def seat_view(obs: np.ndarray, mask: np.ndarray | None, names: list[str]) -> dict:
    """A seat's page: the players, its screen, the hexes and (when it decides) its actions in English.
    `names` are the seats' display names in the seat's relative order (0 is the seat itself)."""
    v = View(obs)
    out = {"kind": BOARD_KIND, "title": _named(hv.KingsAndThingsSeatView().decision(obs), names),
           "players": _players(v, names), "hexes": _hexes(v, names),
           "screen": [hv.thing_label(int(t)) for t in np.flatnonzero(v.mine_screen)],
           "actions": [], "battle": _named(hv.KingsAndThingsSeatView()._battle(v), names),
           "battle_hex": int(v.reg_hex("b_hex"))}  # -1: none (the battle's hex is public)
    if mask is not None:
        out["actions"] = _actions(v, mask, names)
    return out


def actions_of(obs: np.ndarray, mask: np.ndarray, names: list[str]) -> list[dict]:
    """The legal actions of `mask` in the seat's words (as its page lists them), without drawing the page."""
    return _actions(View(obs), mask, names)


def _actions(v: View, mask: np.ndarray, names: list[str]) -> list[dict]:
    return [_action(v, int(a), names) for a in np.flatnonzero(mask)]


def _marks(v: View) -> dict[int, str]:
    """The markers on the hexes (`human_view.hex_facts`' last part), hex by hex, read once for the page."""
    out: dict[int, list[str]] = {}
    for h in np.flatnonzero(v.col("hexes", "cloud") > 0):
        out.setdefault(int(h), []).append("[black cloud]")
    for mark, reg in (("[battle]", "b_hex"), ("[exploring]", "x_hex"), ("[moving stack]", "mv_hex")):
        if v.reg_hex(reg) >= 0:
            out.setdefault(int(v.reg_hex(reg)), []).append(mark)
    return {h: " ".join(m) for h, m in out.items()}


def _players(v: View, names: list[str]) -> list[dict]:
    first = v.col("players", "is_first")
    forts = v.col("players", "forts")
    return [{"name": names[k], "gold": int(v.gold[k]), "income": int(v.income[k]), "hexes": int(v.hexes_owned[k]),
             "forts": int(forts[k]), "heroes": int(v.heroes_owned[k]), "screen": int(v.screen_size[k]),
             "first": bool(first[k]), "alive": bool(v.alive[k])} for k in range(v.n)]


def _hexes(v: View, names: list[str]) -> list[dict]:
    """Every hex as the seat sees it: terrain, owner, fort, income counters, each side's stack (the counters it
    can name, a count of the rest), markers. The counters on the board are read once, not hex by hex."""
    marks = _marks(v)
    income: dict[int, list[str]] = {}
    named: dict[tuple[int, int], list[str]] = {}
    for t in np.flatnonzero(v.on_board).tolist():
        h = int(v.thing_hex[t])
        if hv._is_income(t):
            income.setdefault(h, []).append(hv.thing_label(t))
        else:
            named.setdefault((h, int(v.thing_owner[t])), []).append(hv.thing_label(t))
    heroes: dict[tuple[int, int], list[str]] = {}
    for f in np.flatnonzero((v.hero_owner >= 0) & (v.hero_owner < v.n) & (v.hero_hex >= 0)).tolist():
        heroes.setdefault((int(v.hero_hex[f]), int(v.hero_owner[f])), []).append(hv.hero_label(f))
    out = []
    for h in range(v.h):
        q, r = (int(x) for x in v.geo.coords[h])
        stacks = []
        for k in range(v.n + 1):
            things = named.get((h, k), [])
            down = max(0, int(v.things_at[k, h]) - len(things))
            labels = things + heroes.get((h, k), [])
            if labels or down:
                stacks.append({"side": k, "name": names[k] if k < v.n else "neutral", "known": labels, "down": down})
        out.append({"h": h, "q": q, "r": r, "terrain": "" if v.face_down[h] else TERRAIN_NAMES[int(v.terrain[h])],
                    "owner": int(v.owner[h]), "fort": cat.FORT_NAME[int(v.fort[h])] if v.fort[h] else "",
                    "income": income.get(h, []), "stacks": stacks, "marks": marks.get(h, "")})
    return out


def _action(v: View, a: int, names: list[str]) -> dict:
    """A legal action: its English words, and the hex it names or where the counter it names stands, when the
    seat sees it (so the map can be clicked)."""
    block, i = v.split(a)
    out = {"action": a, "label": _named(hv.describe(v, a), names)}
    where = int(i) if block == "HEX" else -1
    if block == "THING" and v.on_board[i]:
        where = int(v.thing_hex[i])
    elif block == "HERO":
        where = int(v.hero_hex[i])
    if where >= 0:
        out["hex"] = where
    return out


def public_move(before: np.ndarray, actor: int, action: int, after: np.ndarray, names: list[str]) -> str:
    """A log line for another seat's move as the watching seat may know it: the decision (public), the hex
    or direction (seen on the map), and a counter's name only once the watcher's observation after the
    move identifies it; otherwise "a counter"."""
    v, w = View(before), View(after)
    what = D.NAMES.get(v.decision, str(v.decision))
    block, i = v.split(int(action))
    i = int(i)
    if block in ("THING", "HERO"):
        known = (w.on_board[i] and w.thing_hex[i] >= 0) if block == "THING" else w.hero_hex[i] >= 0
        detail = (hv.thing_label(i) if block == "THING" else hv.hero_label(i)) if known else "a counter"
    elif block == "HEX":
        detail = f"h{i} {hv.hex_terrain(w, i)}"
    elif block in ("PASS", "YES"):
        detail = (hv.PASS_WORDS if block == "PASS" else hv.YES_WORDS).get(v.decision, block.lower())
    elif block == "DIRECTION":
        detail = f"step {hv.DIRECTION_NAMES[i]}"
    elif block == "PLAYER":
        detail = names[(i + actor) % v.n] if i < v.n else "a player"
    else:  # NUMBER, CASH: what it costs or gives shows in the public gold
        detail = hv.describe(v, action) if block == "NUMBER" else "cash a treasure"
    return f"{names[actor]}: {what}: {detail}"


def _named(text: str, names: list[str]) -> str:
    """The terminal's relative names (opp1 ...) as the page's seat names."""
    for k in range(len(names) - 1, 0, -1):
        text = re.sub(rf"\bopp{k}\b", names[k], text)
    return text


def public_events(before: np.ndarray, after: np.ndarray, names: list[str]) -> list[str]:
    """What a move set off that the watching seat sees: a battle's round, step and the hits each side has to
    assign (every die and hit is public, RD1.1), when they changed."""
    battle = hv.KingsAndThingsSeatView()._battle
    now = battle(View(after))
    return [f"  {_named(now, names)}"] if now and now != battle(View(before)) else []


def win_chances(state: Any, seat: int, worlds: int = 16, cutoff: int = 400, seed: int = 0) -> list[float]:
    """Each seat's chance to win as `seat` may estimate it: games played on by `expert` seats from `worlds`
    worlds that seat cannot tell from the true one (the others' hidden counters, the cup and the dice drawn
    afresh), each scored by its winners, or by the public value of the position after `cutoff` decisions
    (`ktenv.agents.kings_and_things.ismcts.public_value`). Absolute seat order."""
    from ktenv.agents.kings_and_things import AGENTS
    from ktenv.agents.kings_and_things.ismcts import public_value

    from .engine import legal_mask, step
    from .worlds import WorldSampler

    sampler, rng = WorldSampler(state, seat), np.random.default_rng(seed)
    total = np.zeros(state.cfg.n_players)
    for k in range(worlds):
        w = sampler.sample(rng)
        bots = [AGENTS.make("expert", seed=seed * 1009 + 31 * k + p) for p in range(state.cfg.n_players)]
        for _ in range(cutoff):
            if w.game_over:
                break
            mask = legal_mask(w)
            step(w, int(bots[w.actor].act({"observation": encode(w, w.actor), "action_mask": mask}, mask)))
        total += public_value(w)
    return [round(float(x), 3) for x in total / worlds]


def table_view(state: Any, names: list[str]) -> dict:
    """The whole table of a record's position: every counter by name, face down or not (analysis only)."""
    s = state.to_python() if hasattr(state, "to_python") else state
    n = s.n_players
    geo = geometry(board_radius(n))
    hexes = []
    for h in range(geo.n_hexes):
        q, r = (int(x) for x in geo.coords[h])
        on = (s.thing_place == BOARD) & (s.thing_hex == h)
        stacks = []
        for k in list(range(n)) + [NEUTRAL]:
            ids = [int(t) for t in np.flatnonzero(on & (s.thing_owner == k)) if not hv._is_income(int(t))]
            labels = [hv.thing_label(t) + ("" if s.thing_face_up[t] or s.thing_public[t] else " [face down]")
                      for t in ids]
            if k < n:
                labels += [hv.hero_label(int(f)) for f in np.flatnonzero((s.hero_owner == k) & (s.hero_hex == h))]
            if labels:
                stacks.append({"side": min(k, n), "name": names[k] if k < n else "neutral",
                               "known": labels, "down": 0})
        income = [hv.thing_label(int(t)) for t in np.flatnonzero(on) if hv._is_income(int(t))]
        hexes.append({"h": h, "q": q, "r": r, "terrain": TERRAIN_NAMES[int(s.hex_terrain[h])],
                      "owner": int(s.hex_owner[h]), "fort": cat.FORT_NAME[int(s.hex_fort[h])] if s.hex_fort[h] else "",
                      "income": income, "stacks": stacks, "marks": ""})
    players = [{"name": names[p], "gold": int(s.gold[p]), "screen_things":
                [hv.thing_label(int(t)) for t in np.flatnonzero((s.thing_place == SCREEN) & (s.thing_owner == p))]}
               for p in range(n)]
    when = f"round {int(s.round)}, {PHASE_NAMES[int(s.phase)]}"
    return {"kind": BOARD_KIND, "title": f"Kings & Things, {when} (whole table)", "players": players,
            "hexes": hexes, "screen": [], "actions": [], "battle": ""}
