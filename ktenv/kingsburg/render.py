"""Pictures of a Kingsburg position: `ansi` (text) and `rgb_array` (a PIL drawing): the year and phase,
the advisors' board with the dice on it, and every player's province sheet (K12) with goods, tokens,
VP and soldiers. The enemy deck is never shown, only a revealed card (a spectator's view)."""

from __future__ import annotations

import numpy as np

from . import actions as A
from . import catalog as cat
from .machine import describe_state
from .state import NEUTRAL, KingsburgState

# Okabe-Ito: vermillion, blue, bluish green, reddish purple, orange (told apart with any colour vision)
COLOURS = ((213, 94, 0), (0, 114, 178), (0, 158, 115), (204, 121, 167), (230, 159, 0))
COLOUR_NAMES = ("vermillion", "blue", "green", "purple", "orange")
NEUTRAL_COLOUR = (130, 130, 130)


def _short(name: str) -> str:
    return name.replace("Merchants' Guild", "Merch.Guild").replace("Wizards' Guild", "Wiz.Guild")


def advisor_dice(s: KingsburgState, a: int) -> list[tuple[int, list[int]]]:
    """(owner, pips) of each group of dice on advisor `a`: the influencing group (owner NEUTRAL for the
    neutral dice), then another player's Envoy group. A player's own Envoy group on an advisor it already
    influences has its dice among that player's (the state keeps one advisor per die), listed once."""
    g, e = int(s.advisor_group[a]), int(s.advisor_envoy[a])
    out = []
    if g == NEUTRAL:
        out.append((NEUTRAL, [int(v) for v, on in zip(s.neutral_dice, s.neutral_advisor) if on == a]))
    elif g >= 0:
        out.append((g, [int(v) for v, on in zip(s.dice[g], s.die_advisor[g]) if on == a]))
    if e >= 0 and e != g:
        out.append((e, [int(v) for v, on in zip(s.dice[e], s.die_advisor[e]) if on == a]))
    return out


def _advisor_cell(s: KingsburgState, a: int) -> str:
    parts = [("N:" if owner == NEUTRAL else f"P{owner}:") + "".join(map(str, pips))
             for owner, pips in advisor_dice(s, a)[:1]]
    e = int(s.advisor_envoy[a])
    if e >= 0:  # the Envoy group: its holder, and its dice unless they are listed with the holder's above
        parts.append(f"E{e}" if e == int(s.advisor_group[a]) else
                     f"E{e}:" + "".join(map(str, advisor_dice(s, a)[-1][1])))
    return " ".join(parts)


def ansi(s: KingsburgState) -> str:
    lines = [f"Kingsburg, {s.n_players} players. {describe_state(s)}",
             "turn order: " + " ".join(f"P{int(p)}" for p in s.order)
             + (f"   Envoy: P{s.envoy_holder}" if s.envoy_holder >= 0 else "")
             + (f"   aid die: P{s.aid_player}" if s.aid_player >= 0 else "")]
    if s.enemy >= 0:
        lines.append(f"enemy: {cat.ENEMY_CARDS[s.enemy].text()}, King's reinforcements {s.reinforcement}")
    lines.append("advisors:")
    for a in range(1, cat.N_ADVISORS + 1):
        cell = _advisor_cell(s, a)
        lines.append(f"  {a:2d} {cat.ADVISOR_NAMES[a]:<13} {cell}")
    for p in range(s.n_players):
        gold, wood, stone = s.goods[p].tolist()
        dice = " ".join(f"{int(v)}{'*' if on >= 1 else ''}" for v, on in zip(s.dice[p], s.die_advisor[p]) if v)
        lines.append(f"P{p} ({COLOUR_NAMES[p]}): VP {int(s.vp[p])}  gold {gold} wood {wood} stone {stone}  "
                     f'"+2" {int(s.tokens[p])}  soldiers {int(s.soldiers[p])}'
                     + (f"  dice {dice}" if dice else "") + ("  passed" if s.passed[p] else ""))
        for r in range(cat.ROWS):
            cells = [(_short(cat.BUILDING_NAMES[r * cat.COLUMNS + c]) if s.built[p, r, c] else "-").ljust(12)
                     for c in range(cat.COLUMNS)]
            lines.append("    " + "".join(cells))
    if s.decision != A.NONE and not s.game_over:
        lines.append("legal: " + "; ".join(A.action_name(int(a)) for a in np.flatnonzero(_mask(s))))
    return "\n".join(line.rstrip() for line in lines)


def _mask(s: KingsburgState) -> np.ndarray:
    from .machine import legal_mask

    return legal_mask(s)


def rgb_array(s: KingsburgState) -> np.ndarray:
    """An RGB picture (height x width x 3, uint8)."""
    from PIL import Image, ImageDraw

    n = s.n_players
    width, sheet_h = 900, 150
    height = 70 + 6 * 34 + 10 + ((n + 1) // 2) * (sheet_h + 10)
    img = Image.new("RGB", (width, height), (245, 240, 225))
    d = ImageDraw.Draw(img)
    d.text((10, 8), f"Kingsburg, {n} players: {describe_state(s)}", fill=(0, 0, 0))
    order = "turn order: " + " ".join(f"P{int(p)}" for p in s.order)
    if s.enemy >= 0:
        order += f"   enemy: {cat.ENEMY_CARDS[s.enemy].text()}  (reinforcements {s.reinforcement})"
    d.text((10, 26), order, fill=(0, 0, 0))
    y0 = 50
    for a in range(1, cat.N_ADVISORS + 1):  # the advisors' board: 3 rows of 6
        col, row = (a - 1) % 6, (a - 1) // 6
        x, y = 10 + col * 146, y0 + row * 68
        d.rectangle((x, y, x + 140, y + 62), outline=(90, 70, 40), fill=(235, 225, 200))
        d.text((x + 4, y + 3), f"{a} {cat.ADVISOR_NAMES[a]}", fill=(60, 40, 20))
        dx = x + 4
        groups = [(NEUTRAL_COLOUR if owner == NEUTRAL else COLOURS[owner], pips) for owner, pips in advisor_dice(s, a)]
        for colour, values in groups:
            for v in values:
                d.rectangle((dx, y + 24, dx + 18, y + 42), fill=colour, outline=(0, 0, 0))
                d.text((dx + 6, y + 27), str(v), fill=(255, 255, 255))
                dx += 22
            dx += 8
    y0 += 3 * 68 + 10
    for p in range(n):  # the province sheets, two per line
        x, y = 10 + (p % 2) * 445, y0 + (p // 2) * (sheet_h + 10)
        d.rectangle((x, y, x + 435, y + sheet_h), outline=COLOURS[p], width=3, fill=(255, 252, 240))
        gold, wood, stone = s.goods[p].tolist()
        head = (f"P{p} VP {int(s.vp[p])}  G{gold} W{wood} S{stone}  +2:{int(s.tokens[p])}  "
                f"soldiers {int(s.soldiers[p])}" + ("  ENVOY" if s.envoy_holder == p else ""))
        d.text((x + 6, y + 4), head, fill=COLOURS[p])
        for r in range(cat.ROWS):
            for c in range(cat.COLUMNS):
                cx, cy = x + 6 + c * 106, y + 22 + r * 25
                built = s.built[p, r, c]
                d.rectangle((cx, cy, cx + 102, cy + 21), outline=(120, 120, 120),
                            fill=COLOURS[p] if built else (250, 250, 250))
                d.text((cx + 3, cy + 5), _short(cat.BUILDING_NAMES[r * cat.COLUMNS + c]),
                       fill=(255, 255, 255) if built else (150, 150, 150))
    return np.asarray(img, dtype=np.uint8)


def render_command(args) -> int:
    """`ktenv render SAVED.json --game kingsburg`: the picture of a saved Kingsburg game as a PNG."""
    from pathlib import Path

    from PIL import Image

    path = Path(args.game)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot read saved game {str(path)!r}: {exc}") from None
    try:
        state = KingsburgState.from_json(text)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None
    img = Image.fromarray(rgb_array(state))
    width = getattr(args, "width", None) or img.width
    if width != img.width:
        img = img.resize((width, round(img.height * width / img.width)), Image.LANCZOS)
    out = Path(getattr(args, "out", None) or "board.png")
    try:
        img.save(out, format="PNG")
    except OSError as exc:
        raise ValueError(f"cannot write {str(out)!r}: {exc}") from None
    if getattr(args, "text", False):
        print(ansi(state))
    print(f"wrote {out} ({img.width}x{img.height}): {describe_state(state)}")
    return 0
