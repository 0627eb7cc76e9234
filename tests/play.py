"""Playing helpers for the tests: policies, running a game on, and naming actions (no arranging: that is
`tests.builders`).

- `config`, `scripted_new_game`: games to play; `recorded`: (observation, mask) pairs met by an agent;
- `legal`, `random_action`, `passive_action`, `run_until`, `act`: choosing and taking actions;
- `a_hex`, `a_thing`, `a_hero`, `a_cash`, `a_dir`: the action that names a hex, Thing, hero face,
  treasure to cash or direction; `masked_in`: the indices one block of the mask allows;
- `legal_directions`, `move`: the moving stack of the Movement phase (R11).
"""

from __future__ import annotations

import numpy as np

from ktenv.kings_and_things import catalog as cat
from ktenv.kings_and_things import decisions as D
from ktenv.kings_and_things.board import DIRECTION_NAMES
from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.engine import layout, legal_actions, legal_mask, resume, step
from ktenv.kings_and_things.engine.actions import NUMBER, PASS
from ktenv.kings_and_things.procedures import Move
from ktenv.kings_and_things.state import UNMOVED, GameState

# ----------------------------------------------------------------- games


def config(n_players: int = 2, **options) -> GameConfig:
    return GameConfig(n_players=n_players, **options)


def scripted_new_game(cfg: GameConfig, seed: int, dice: list[int]) -> GameState:
    """`new_game` with the first d6 results scripted (the first-player roll comes before any decision)."""
    from ktenv.kings_and_things.engine import setup

    s = GameState(cfg, seed)
    s.rng.script = list(dice)
    setup.start_game(s)
    return resume(s)


# ----------------------------------------------------------------- choosing and taking actions


def legal(s: GameState) -> set[int]:
    """The legal actions now, as a set."""
    return {int(a) for a in legal_actions(s)}


def random_action(s: GameState, rng: np.random.Generator) -> int:
    return int(rng.choice(legal_actions(s)))


def passive_action(s: GameState) -> int:
    """Decline whenever possible: PASS, else the number 0, else the lowest legal action."""
    mask = legal_mask(s)
    if mask[PASS]:
        return PASS
    if mask[NUMBER]:
        return NUMBER
    return int(np.flatnonzero(mask)[0])


def run_until(s: GameState, done, policy=None, limit: int = 100_000, check: bool = True) -> None:
    """Step with `policy(s)` (default: passive) until `done(s)` or the game ends."""
    policy = policy or passive_action
    for _ in range(limit):
        if s.game_over or done(s):
            return
        step(s, policy(s))
        if check:
            s.check_invariants()
    raise AssertionError("run_until: limit reached")


def act(s: GameState, action: int) -> None:
    """`step`, then `check_invariants`."""
    step(s, action)
    s.check_invariants()


# ----------------------------------------------------------------- naming actions


def a_hex(s: GameState, hx: int) -> int:
    return layout(s).hex + int(hx)


def a_thing(s: GameState, c: int) -> int:
    return layout(s).thing + int(c)


def a_hero(s: GameState, face: int) -> int:
    return layout(s).hero + int(face)


def a_cash(s: GameState, c: int) -> int:
    """Cash treasure `c` (RD8.1)."""
    return layout(s).cash + list(cat.TREASURE_IDS).index(int(c))


def a_dir(s: GameState, frm: int, to: int) -> int:
    """The DIRECTION action from hex `frm` to its neighbour `to`."""
    d = list(s.geo.neighbours[frm]).index(to)
    return layout(s).direction + d


def dir_name(d: int) -> str:
    return DIRECTION_NAMES[d]


def masked_in(s: GameState, block: str) -> list[int]:
    """Indices inside one action block (HEX, THING, HERO, NUMBER, ...) that the mask allows."""
    for name, start, size in layout(s).blocks():
        if name == block:
            return [int(i) for i in np.flatnonzero(legal_mask(s)[start:start + size])]
    raise KeyError(block)


# ----------------------------------------------------------------- the moving stack (R11)


def legal_directions(s: GameState) -> set[int]:
    """Neighbour hexes the moving stack may step to now."""
    lay = layout(s)
    here = s.frame(Move).hex
    return {int(s.geo.neighbours[here, a - lay.direction]) for a in legal(s) if a >= lay.direction}


def move(s: GameState, start: int, counters: list[tuple[str, int]], path: list[int]) -> None:
    """Start a move from `start` with the given ("thing"|"hero", id) members and walk `path`."""
    if s.decision == D.MOVE_START:
        act(s, a_hex(s, start))
    for kind, i in counters:
        chosen = s.thing_status[i] if kind == "thing" else s.hero_status[i]
        if s.decision == D.MOVE_SELECT and chosen == UNMOVED:  # a lone choice is made by the engine
            act(s, a_thing(s, i) if kind == "thing" else a_hero(s, i))
    if s.decision == D.MOVE_SELECT:
        act(s, 1)  # YES
    here = start
    for h in path:
        act(s, a_dir(s, here, h))
        here = h


def recorded(cfg: GameConfig, seed: int, agent, every: int, count: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observation, mask) at every `every`-th decision with a choice of a Python-engine game `agent` plays
    in every seat, `count` of them at most."""
    from ktenv.kings_and_things.arena import encoder_for
    from ktenv.kings_and_things.engine import new_game

    s = new_game(cfg, seed, backend="python")
    enc, out, k = encoder_for(cfg), [], 0
    while not s.game_over and len(out) < count:
        obs, mask = enc.encode(s, s.actor), legal_mask(s)
        if k % every == 0 and np.count_nonzero(mask) > 1:
            out.append((obs, mask))
        step(s, agent.act(obs, mask))
        k += 1
    return out
