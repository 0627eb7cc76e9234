"""Regenerates the generated parts of docs/observation.md and docs/actions.md.

    python -m ktenv.env.docs           # rewrite the parts between the markers
    python -m ktenv.env.docs --check   # exit 1 if they are out of date

The tables come from the code itself: the observation layout (`build_layout`), the action
blocks (`ActionLayout`) and the comments next to the decision codes in
`ktenv/engine/decisions.py`, so the documents cannot drift from what the env does.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

from ..engine import decisions as D
from ..engine.actions import action_layout
from .observation import REGISTERS, build_layout

DOCS = Path(__file__).resolve().parents[2] / "docs"
BEGIN, END = "<!-- generated: begin {} -->", "<!-- generated: end {} -->"

BLOCK_MEANING = {
    "PASS": "done / pass / decline / cancel (per decision)",
    "YES": "confirm / accept / go",
    "NUMBER": "an amount 0-15 (paid Things, hero gold in steps of 5, a terrain code)",
    "HEX": "a hex, by its index in spiral order (R3.1.4)",
    "THING": "a Thing (counter of the cup), by catalog id",
    "HERO": "a hero face, by catalog id (faces 2k and 2k+1 share counter k)",
    "CASH": "cash this treasure now (R18.3, RD8.1); offered at every decision of its holder",
    "PLAYER": "a player, relative to the actor: PLAYER+i is the player i seats to the actor's left",
    "DIRECTION": "a direction E, SE, SW, W, NW, NE (movement steps)",
}


def observation_tables() -> str:
    layout = build_layout(4, 37)
    intro = ("Generated from `ktenv.env.observation.build_layout` for 4 players (37 hexes); with 2-3 players "
             "the board has 19 hexes and the per-seat families have 2-3 `rel*` columns; with 6 players "
             "(R20.1, two boxes) the board has 61 hexes, the per-seat families have 6 `rel*` columns and the "
             "`things` section has a row for each of the 392 Things of both boxes.\n\n")
    regs = ["| register (`s.reg` key) | kind | who sees it | meaning |", "|---|---|---|---|"]
    for r in REGISTERS:
        regs.append(f"| `{r.key}` | {r.kind} | {r.visible} | {r.doc} |")
    return intro + layout.markdown() + "\n#### Registers carried\n\n" + "\n".join(regs) + "\n"


def _decision_comments() -> dict[int, str]:
    source = inspect.getsource(D)
    out = {}
    for _name, code, comment in re.findall(r"^([A-Z_]+) = (\d+)\s*#\s*(.*)$", source, re.MULTILINE):
        out[int(code)] = comment.strip()
    return out


def action_tables() -> str:
    small, large, six = action_layout(2), action_layout(4), action_layout(6)
    lines = ["| block | first action (2-3 players) | first action (4 players) | first action (6 players, R20.1) "
             "| size | meaning |",
             "|---|---|---|---|---|---|"]
    for (name, start2, size2), (_, start4, size4), (_, start6, size6) in zip(
            small.blocks(), large.blocks(), six.blocks(), strict=True):
        size = str(size2) if size2 == size4 == size6 else " / ".join(map(str, (size2, size4, size6)))
        lines.append(f"| `{name}` | {start2} | {start4} | {start6} | {size} | {BLOCK_MEANING.get(name, '')} |")
    lines.append(f"| total | {small.size} | {large.size} | {six.size} | | |")
    lines += ["", "| code | decision | name | actions offered (block: meaning) |", "|---|---|---|---|"]
    comments = _decision_comments()
    constants = {v: k for k, v in vars(D).items() if k.isupper() and isinstance(v, int) and k != "N_DECISIONS"}
    for code in sorted(constants):
        if code == D.NONE:
            continue
        text = comments.get(code, "").replace("|", "/")
        lines.append(f"| {code} | `{constants[code]}` | {D.NAMES.get(code, '')} | {text} |")
    return "Generated from `ktenv.engine.actions.action_layout` and `ktenv/engine/decisions.py`.\n\n" + \
        "\n".join(lines) + "\n"


GENERATED = {"observation.md": ("layout", observation_tables), "actions.md": ("actions", action_tables)}


def _splice(text: str, tag: str, body: str) -> str:
    begin, end = BEGIN.format(tag), END.format(tag)
    i, j = text.find(begin), text.find(end)
    if i < 0 or j < i:
        raise ValueError(f"markers {begin!r} ... {end!r} not found")
    return text[:i + len(begin)] + "\n" + body + text[j:]


def expected(name: str, docs: Path = DOCS) -> tuple[str, str]:
    """(current text, text with the generated part refreshed) of docs/<name>."""
    tag, make = GENERATED[name]
    text = (docs / name).read_text(encoding="utf-8")
    return text, _splice(text, tag, make())


def main(argv: list[str] | None = None) -> int:
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    stale = []
    for name in GENERATED:
        text, new = expected(name)
        if text != new:
            stale.append(name)
            if not check:
                (DOCS / name).write_text(new, encoding="utf-8")
    if check and stale:
        print(f"out of date: {', '.join(stale)} (run: python -m ktenv.env.docs)")
        return 1
    print("updated: " + ", ".join(stale) if stale else "docs are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
