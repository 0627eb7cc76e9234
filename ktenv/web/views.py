"""Each game's page views, found through the game's spec: its optional registry part ``web_view``, a module
that provides

- ``BOARD_KIND``: how the page draws the board (``hexes``: a hex map; ``council``: a grid of advisors with
  dice and the players' sheets of buildings; ``text``: the table as text);
- ``encode(state, seat)``: the seat's observation vector;
- ``agent_observation(agent, state, seat, mask)``: what the arena would give that agent;
- ``seat_view(observation, mask, names)``: a seat's page, from its observation (and mask) alone;
- optionally ``actions_of(observation, mask, names)``: the actions of `mask` as `seat_view` lists them, without
  drawing the page (a log line, an agent's answer);
- ``public_move(before, actor, action, after, names)``: another seat's move as the watching seat knows it,
  from the watcher's observations before and after the move;
- ``table_view(state, names)``: the whole table, hidden facts included (finished records only);
- optionally ``public_events(before, after, names)``: log lines of what a move set off that the watching seat
  sees (a battle's hits), from its observations before and after;
- optionally ``move_rolls(state, action)``: the dice `action` rolls in `state` (public at the table), as plain
  data, from the state before the move (the state itself left as it was); and ``roll_lines(rolls, seat,
  names)``: those rolls in English for `seat`'s log (`seat` None: the whole table, names in seat order);
- optionally ``win_chances(state, seat)``: each seat's chance to win as `seat` may estimate it (shown with a
  search's candidates).

The shared web code never names a game: it asks this module for the views of a `GameSpec`.
"""

from __future__ import annotations

from types import ModuleType

from ..errors import ConfigError
from ..registry import GameSpec


def view_of(spec: GameSpec) -> ModuleType:
    """The page views of a game (its registry part ``web_view``); ConfigError when it declares none."""
    if not spec.has("web_view"):
        raise ConfigError(f"the browser app has no view of {spec.title} yet")
    return spec.web_view
