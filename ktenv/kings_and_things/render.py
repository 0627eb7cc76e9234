"""Pictures and text of a game: the environments' render modes and `ktenv render`.

- `ansi(state)`: a readable text board and status (one line per hex, one per player).
- `rgb_array(state)`: an HxWx3 uint8 picture of the hex map (terrain colours, owner borders,
  forts, income counters, stack sizes per side, battle markers, the black cloud) and a panel per
  player. Drawn with Pillow (``pip install pillow``); no matplotlib.
- `render_command(args)`: loads a saved game (``GameState.from_json``) and writes a PNG.

Only public information is drawn (stack sizes, never face-down identities), so a picture can be
shown to every player.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from . import catalog as cat
from . import decisions as D
from .board import hex_label
from .constants import BOARD, CITY, NEUTRAL, SPECIAL_INCOME, TERRAIN_NAMES, VILLAGE
from .procedures import Battle, Exploration
from .state import PHASE_NAMES, GameState
from .summary import power_name

FACE_DOWN_RGB = (150, 150, 150)  # R20.3 Mysterious Kadab: a tile not yet turned up
TERRAIN_RGB = (
    (232, 200, 120),  # Desert
    (46, 120, 58),  # Forest
    (222, 236, 246),  # Frozen Waste
    (92, 170, 74),  # Jungle
    (150, 128, 108),  # Mountain
    (196, 222, 120),  # Plains
    (104, 120, 88),  # Swamp
    (70, 120, 190),  # Sea
)
# one colour per seat, up to six players (R20.1)
PLAYER_RGB = ((214, 39, 40), (31, 119, 180), (240, 170, 0), (148, 103, 189), (227, 119, 194), (23, 190, 207))
NEUTRAL_RGB = (110, 110, 110)
FORT_LETTER = ("", "T", "K", "C", "Z")  # Tower, Keep, Castle, Citadel
_IS_INCOME = np.isin(cat.THING_KIND, (SPECIAL_INCOME, CITY, VILLAGE))


class RenderError(ValueError):
    """A picture cannot be made (unreadable saved game, Pillow missing)."""


# ---------------------------------------------------------------- shared facts


def _stacks(s: GameState) -> dict[int, dict[int, tuple[int, int, int]]]:
    """hex -> side (player or NEUTRAL) -> (Things, of which face down and unknown, heroes)."""
    out: dict[int, dict[int, list[int]]] = {}
    on = np.flatnonzero((s.thing_place == BOARD) & ~_IS_INCOME[:s.n_things])
    hidden = ~(s.thing_public | s.thing_face_up)
    for c in on:
        entry = out.setdefault(int(s.thing_hex[c]), {}).setdefault(int(s.thing_owner[c]), [0, 0, 0])
        entry[0] += 1
        entry[1] += int(hidden[c])
    for f in np.flatnonzero(s.hero_owner >= 0):
        entry = out.setdefault(int(s.hero_hex[f]), {}).setdefault(int(s.hero_owner[f]), [0, 0, 0])
        entry[2] += 1
    return {hx: {side: tuple(v) for side, v in sides.items()} for hx, sides in out.items()}


def _battle_hexes(s: GameState, stacks: dict) -> set[int]:
    """Hexes with a battle under way or pending: two sides there, or the engine's battle hex."""
    hexes = {hx for hx, sides in stacks.items() if len(sides) >= 2}
    for hx, sides in stacks.items():
        owner = int(s.hex_owner[hx])
        creatures = {side for side in sides if side != owner}
        if owner >= 0 and creatures:
            hexes.add(hx)
    battle = s.frame(Battle)
    if battle is not None:
        hexes.add(battle.hex)
    x = s.frame(Exploration)
    if x is not None:
        hexes.add(x.hex)
    return hexes


def _status_line(s: GameState) -> str:
    if s.game_over:
        who = " and ".join(f"player {p}" for p in s.winners) or "nobody"
        return f"round {s.round}: game over, won by {who} ({s.reason})"
    decision = D.NAMES.get(s.decision, str(s.decision))
    actor = f"player {s.actor}" if s.actor >= 0 else "nobody"
    return f"round {s.round}, phase '{PHASE_NAMES[s.phase]}': {actor} decides ({decision})"


def _players(s: GameState) -> list[dict]:
    rows = []
    for p in range(s.n_players):
        owned = s.hex_owner == p
        rows.append({
            "gold": int(s.gold[p]), "income": s.income(p), "hexes": int(owned.sum()),
            "forts": int((s.hex_fort[owned] > 0).sum()), "citadels": int((s.hex_fort[owned] == 4).sum()),
            "heroes": int((s.hero_owner == p).sum()), "screen": s.screen_size(p),
            "board": int(((s.thing_place == BOARD) & (s.thing_owner == p) & ~_IS_INCOME[:s.n_things]).sum()),
            "alive": bool(s.alive[p]),
            "power": power_name(s, p) if s.cfg.encounter_powers else None,  # R21, public
        })
    return rows


def _side_name(side: int) -> str:
    return "neutral" if side == NEUTRAL else f"p{side}"


# ---------------------------------------------------------------- ansi


def ansi(s: GameState) -> str:
    """Text board and status: players, then one line per hex."""
    lines = ["Kings & Things: " + _status_line(s), ""]
    lines.append(f"{'player':<9}{'gold':>6}{'income':>8}{'hexes':>7}{'forts':>7}{'heroes':>8}{'screen':>8}"
                 f"{'board':>7}")
    for p, row in enumerate(_players(s)):
        marks = (" first" if p == s.first_player else "") + ("" if row["alive"] else " (out)")
        marks += " <- to act" if p == s.actor and not s.game_over else ""
        marks += f" power: {row['power']}" if row["power"] else ""
        lines.append(f"{'p' + str(p):<9}{row['gold']:>6}{row['income']:>8}{row['hexes']:>7}{row['forts']:>7}"
                     f"{row['heroes']:>8}{row['screen']:>8}{row['board']:>7}{marks}")
    lines.append("")
    stacks = _stacks(s)
    battles = _battle_hexes(s, stacks)
    for hx in range(s.geo.n_hexes):
        owner = int(s.hex_owner[hx])
        terrain = "face down" if s.hex_down[hx] else TERRAIN_NAMES[s.hex_terrain[hx]]  # R20.3
        parts = [f"{hex_label(s.geo, hx):<18}", f"{terrain:<13}",
                 f"{('p' + str(owner)) if owner >= 0 else '-':<4}"]
        fort = int(s.hex_fort[hx])
        parts.append(f"{cat.FORT_NAME[fort] if fort else '':<8}")
        c = int(s.hex_income[hx])
        parts.append(f"{(cat.THING_NAME[c] + ' ' + str(int(cat.THING_INCOME[c]))) if c >= 0 else '':<22}")
        here = stacks.get(hx, {})
        stack_text = ", ".join(
            f"{_side_name(side)}: {things} things" + (f" ({hidden} hidden)" if hidden else "")
            + (f" + {heroes} hero{'es' if heroes > 1 else ''}" if heroes else "")
            for side, (things, hidden, heroes) in sorted(here.items()))
        parts.append(stack_text)
        if hx == s.cloud_hex:
            parts.append("[black cloud]")
        if hx in battles:
            parts.append("[battle]")
        lines.append(" ".join(parts).rstrip())
    return "\n".join(lines)


# ---------------------------------------------------------------- rgb_array


def _pillow():
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:  # pragma: no cover - Pillow is a dependency of the render extra
        raise RenderError("rendering pictures needs Pillow: pip install pillow") from None
    return Image, ImageDraw, ImageFont


@cache
def _font(size: int):
    _, _, image_font = _pillow()
    try:
        return image_font.load_default(size=size)
    except TypeError:  # Pillow < 10.1: the fixed bitmap font
        return image_font.load_default()


def _hex_corners(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """Pointy-top hexagon (axial E/W neighbours, R3.1.2)."""
    return [(cx + r * math.cos(math.radians(60 * k - 30)), cy + r * math.sin(math.radians(60 * k - 30)))
            for k in range(6)]


def _text(draw, xy, text, size, fill=(0, 0, 0), anchor="mm"):
    draw.text(xy, text, font=_font(size), fill=fill, anchor=anchor)


MIN_WIDTH, MAX_WIDTH = 300, 8000  # pixels: below, the board is unreadable; above, a picture of 100+ MB
MIN_LABEL_FONT = 8  # smallest font an income label shrinks to before a shorter name is tried
# Income counters' names too long for a hex (the four- and six-player boards): short forms, kept unique
SHORT_NAMES = {"Elephants' Graveyard": "Graveyard", "Diamond Field": "Diamonds", "Copper Mine": "Copper",
               "Silver Mine": "Silver", "Gold Mine": "Gold", "Oil Field": "Oil", "Timberland": "Timber",
               "Farmlands": "Farms", "Peat Bog": "Peat"}
# In hex radii below the centre: the stack circles, and the income label's lower edge, high enough that
# the hex is still wide there (a pointy-top hexagon narrows below half its radius)
_STACK_Y, _LABEL_BOTTOM = -0.16, 0.52


def check_width(width) -> int:
    """The picture width as an int, or RenderError (a ValueError) naming a bad one."""
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise RenderError(f"width: expected a whole number of pixels {MIN_WIDTH}-{MAX_WIDTH}, got {width!r}")
    return int(width)


@dataclass(frozen=True)
class _Layout:
    width: int
    height: int
    board_w: int
    r: float  # hex radius
    small: int  # board fonts
    medium: int
    p_large: int  # panel fonts
    p_medium: int
    p_small: int
    box_h: int  # a player's panel box

    def centre(self, s: GameState, hx: int) -> tuple[float, float]:
        q, rr = (int(v) for v in s.geo.coords[hx])
        return self.board_w / 2 + self.r * math.sqrt(3) * (q + rr / 2), self.height / 2 + self.r * 1.5 * rr


def _layout(s: GameState, width: int) -> _Layout:
    radius = s.geo.radius
    board_w = width - int(width * 0.3)
    r = board_w / (math.sqrt(3) * (2 * radius + 1) + 1.2)
    small, medium = max(10, int(r / 4.2)), max(12, int(r / 3.2))
    p_large, p_medium, p_small = max(14, width // 50), max(11, width // 75), max(10, width // 92)
    box_h = 5 * (p_medium + 4) + 10
    panel_h = (p_large + 8 + 3 * (p_medium + 4) + 8 + s.n_players * (box_h + 10)
               + 3 * (p_small + 4) + 4 + 4 * (p_small + 8) + 20)
    height = int(max(r * (3 * radius + 2) + 40, panel_h))
    return _Layout(width, height, board_w, r, small, medium, p_large, p_medium, p_small, box_h)


def _half_width(radius: float, dy: float) -> float:
    """Half the width of a pointy-top hexagon at height `dy` from its centre."""
    dy = abs(dy)
    return math.sqrt(3) / 2 * radius if dy <= radius / 2 else max(0.0, math.sqrt(3) * (radius - dy))


def _fit_label(draw, name: str, value: int, cx: float, cy: float, r: float, size: int):
    """(text, font size, box) of an income label that fits inside its hex: the full name, shrunk a
    little, else the short name; None if not even that fits (a tiny picture)."""
    bottom = cy + _LABEL_BOTTOM * r
    room = 2 * _half_width(r - 3, _LABEL_BOTTOM * r)  # the hex is narrowest at the box's lower edge
    short = SHORT_NAMES.get(name, name.split()[0])
    full_smallest = max(MIN_LABEL_FONT, round(size * 0.85))  # smaller still: the short name reads better
    for text, smallest in ((f"{name} {value}", full_smallest), (f"{short} {value}", MIN_LABEL_FONT)):
        for px in range(size, smallest - 1, -1):
            w = draw.textlength(text, font=_font(px)) + 6
            if w <= room:
                return text, px, (cx - w / 2, bottom - px - 4, cx + w / 2, bottom)
    return None


def income_labels(s: GameState, width: int = 1200) -> dict[int, tuple[str, int, tuple, list]]:
    """hex -> (text, font size, box, hex corners) of every income counter's label, as `image` draws it."""
    image_mod, image_draw, _ = _pillow()
    lay = _layout(s, check_width(width))
    draw = image_draw.Draw(image_mod.new("RGB", (1, 1)))
    out = {}
    for hx in np.flatnonzero(s.hex_income >= 0).tolist():
        cx, cy = lay.centre(s, hx)
        c = int(s.hex_income[hx])
        name = {CITY: "City", VILLAGE: "Village"}.get(int(cat.THING_KIND[c]), cat.THING_NAME[c])
        fit = _fit_label(draw, name, int(cat.THING_INCOME[c]), cx, cy, lay.r, lay.small)
        if fit is not None:
            out[hx] = (*fit, _hex_corners(cx, cy, lay.r - 1))
    return out


def image(s: GameState, width: int = 1200):
    """The picture as a PIL image (board on the left, player panels on the right)."""
    image_mod, image_draw, _ = _pillow()
    lay = _layout(s, check_width(width))
    width, height, board_w, r, small, medium = lay.width, lay.height, lay.board_w, lay.r, lay.small, lay.medium
    p_large, p_medium, p_small, box_h = lay.p_large, lay.p_medium, lay.p_small, lay.box_h
    img = image_mod.new("RGB", (width, height), (250, 248, 240))
    draw = image_draw.Draw(img)
    stacks = _stacks(s)
    battles = _battle_hexes(s, stacks)
    labels = income_labels(s, width)

    for hx in range(s.geo.n_hexes):
        cx, cy = lay.centre(s, hx)
        corners = _hex_corners(cx, cy, r - 1)
        fill = FACE_DOWN_RGB if s.hex_down[hx] else TERRAIN_RGB[s.hex_terrain[hx]]  # R20.3
        draw.polygon(corners, fill=fill, outline=(60, 60, 60))
        owner = int(s.hex_owner[hx])
        if owner >= 0:
            inner = _hex_corners(cx, cy, r - 5)
            draw.line([*inner, inner[0]], fill=PLAYER_RGB[owner], width=max(3, int(r / 10)))
            dot = max(4, r / 9)
            draw.ellipse([cx - r * 0.62 - dot, cy - r * 0.35 - dot, cx - r * 0.62 + dot, cy - r * 0.35 + dot],
                         fill=PLAYER_RGB[owner], outline=(0, 0, 0))
        _text(draw, (cx, cy - r * 0.72), str(hx), small, fill=(40, 40, 40))
        fort = int(s.hex_fort[hx])
        if fort:
            box = [cx + r * 0.38, cy - r * 0.55, cx + r * 0.38 + r * 0.34, cy - r * 0.55 + r * 0.34]
            draw.rectangle(box, fill=(70, 60, 50) if fort < 4 else (180, 30, 30), outline=(255, 255, 255))
            _text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), FORT_LETTER[fort], medium,
                  fill=(255, 255, 255))
        if hx in labels:
            text, size, box, _ = labels[hx]
            draw.rounded_rectangle(box, radius=3, fill=(255, 255, 230), outline=(90, 80, 40))
            _text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, size)
        if hx == s.cloud_hex:  # the black cloud (B.10): a dark cloud left of the stacks
            for dx, dy, rad in ((-0.66, 0.02, 0.11), (-0.54, -0.04, 0.13), (-0.43, 0.03, 0.1)):
                draw.ellipse([cx + (dx - rad) * r, cy + (dy - rad) * r, cx + (dx + rad) * r, cy + (dy + rad) * r],
                             fill=(40, 40, 50))
        sides = sorted(stacks.get(hx, {}).items())
        if sides:
            span, y = r * 0.42, cy + _STACK_Y * r
            for k, (side, (things, _hidden, heroes)) in enumerate(sides):
                x = cx + (k - (len(sides) - 1) / 2) * span
                colour = NEUTRAL_RGB if side == NEUTRAL else PLAYER_RGB[side]
                rad = r * 0.19
                draw.ellipse([x - rad, y - rad, x + rad, y + rad], fill=colour, outline=(0, 0, 0), width=2)
                _text(draw, (x, y), str(things + heroes), medium, fill=(255, 255, 255))
                if heroes:  # above the circle: below it is the income label
                    _text(draw, (x, y - rad - small / 2 - 1), "H" * min(heroes, 3), small, fill=(0, 0, 0))
        if hx in battles:  # right of the stacks
            d = r * 0.12
            bx, by = cx + r * 0.62, cy + r * 0.02
            draw.line([bx - d, by - d, bx + d, by + d], fill=(200, 0, 0), width=4)
            draw.line([bx - d, by + d, bx + d, by - d], fill=(200, 0, 0), width=4)

    # ---- panel
    x0, x1 = board_w + 10, width - 12
    y = 12 + p_large / 2
    _text(draw, (x0, y), "Kings & Things", p_large, anchor="lm")
    y += p_large / 2 + 8 + p_medium / 2
    for line in _wrap(draw, _status_line(s), _font(p_medium), x1 - x0)[:3]:
        _text(draw, (x0, y), line, p_medium, anchor="lm")
        y += p_medium + 4
    y += 4
    for p, row in enumerate(_players(s)):
        top = y
        draw.rectangle([x0, top, x1, top + box_h], outline=PLAYER_RGB[p], width=3,
                       fill=(255, 255, 255) if row["alive"] else (225, 225, 225))
        draw.rectangle([x0, top, x0 + 12, top + box_h], fill=PLAYER_RGB[p])
        title = f"player {p}" + (" (first)" if p == s.first_player else "") + (" OUT" if not row["alive"] else "")
        if p == s.actor and not s.game_over:
            title += "  <- to act"
        if s.game_over and p in s.winners:
            title += "  WINNER"
        yy = top + 5 + p_medium / 2
        _text(draw, (x0 + 20, yy), title, p_medium, anchor="lm")
        for text in (f"gold {row['gold']}   income {row['income']}",
                     f"hexes {row['hexes']}   forts {row['forts']}   citadels {row['citadels']}",
                     f"heroes {row['heroes']}   on board {row['board']}",
                     f"behind screen {row['screen']}" + (f"   power: {row['power']}" if row["power"] else "")):
            yy += p_medium + 4
            _text(draw, (x0 + 20, yy), text, p_small, anchor="lm")
        y = top + box_h + 10
    legend = "T Tower, K Keep, C Castle, Z Citadel; circles: counters (H: heroes) per side; X: battle"
    y += p_small / 2
    for line in _wrap(draw, legend, _font(p_small), x1 - x0)[:3]:
        _text(draw, (x0, y), line, p_small, fill=(60, 60, 60), anchor="lm")
        y += p_small + 4
    y += 4
    column = (x1 - x0) / 2
    for t, name in enumerate(TERRAIN_NAMES):
        x = x0 + (t % 2) * column
        yy = y + (t // 2) * (p_small + 8)
        draw.rectangle([x, yy - p_small / 2, x + p_small, yy + p_small / 2], fill=TERRAIN_RGB[t],
                       outline=(60, 60, 60))
        _text(draw, (x + p_small + 6, yy), name, p_small, fill=(60, 60, 60), anchor="lm")
    return img


def _wrap(draw, text: str, font, max_width: float) -> list[str]:
    """Greedy word wrap to a width in pixels."""
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if line and draw.textlength(candidate, font=font) > max_width:
            lines.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


def rgb_array(s: GameState, width: int = 1200) -> np.ndarray:
    """The picture as an HxWx3 uint8 array; `width` in pixels, MIN_WIDTH-MAX_WIDTH (else RenderError)."""
    return np.asarray(image(s, width).convert("RGB"), dtype=np.uint8)


# ---------------------------------------------------------------- command line


def render_command(args: argparse.Namespace) -> int:
    """`ktenv render`: load a saved game, write its picture. Errors raise RenderError (a ValueError)."""
    path = Path(args.game)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RenderError(f"cannot read saved game {str(path)!r}: {exc}") from None
    try:
        state = GameState.from_json(text)
    except ValueError as exc:  # StateFileError and malformed generator fields
        raise RenderError(f"{path}: {exc}") from None
    width = getattr(args, "width", None)
    try:
        width = check_width(1200 if width is None else width)  # --width 0 is refused, not read as the default
    except RenderError as exc:
        raise RenderError(f"--{exc}") from None
    out = Path(getattr(args, "out", None) or "board.png")
    img = image(state, width)
    try:
        img.save(out, format="PNG")
    except OSError as exc:
        raise RenderError(f"cannot write {str(out)!r}: {exc}") from None
    if getattr(args, "text", False):
        print(ansi(state))
    print(f"wrote {out} ({img.width}x{img.height}): {_status_line(state)}")
    return 0
