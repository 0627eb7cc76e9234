"""Regenerates the generated parts of docs/observation.md and docs/actions.md.

    python -m ktenv.kings_and_things.dev.docs           # rewrite the parts between the markers
    python -m ktenv.kings_and_things.dev.docs --check   # exit 1 if they are out of date

The tables come from the code itself: the observation layout (`build_layout`), the action
blocks (`ActionLayout`) and the comments next to the decision codes in
`ktenv/kings_and_things/decisions.py`, so the documents cannot drift from what the env does.
"""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

from .. import catalog as cat
from .. import decisions as D
from ..engine.actions import action_layout
from ..env.observation import REGISTERS, build_layout

DOCS = Path(__file__).resolve().parents[3] / "docs"
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
    house, six = cat.catalog_for(4, house=True), cat.catalog_for(6)
    intro = ("Generated from `ktenv.kings_and_things.env.observation.build_layout` for a default 4-player game "
             "(37 hexes); with "
             "2-3 players the board has 19 hexes and the per-seat families have 2-3 `rel*` columns. The "
             "`things` and `heroes` sections have a row per Thing and hero face of the game's catalog "
             f"(`catalog.catalog_for`): {cat.N_THINGS} and {cat.N_HERO_FACES} by default; with house_content "
             f"(R22) {house.N_THINGS} and {house.N_HERO_FACES}, and the house decisions and registers join "
             f"(`decision_*` gets {D.N_DECISIONS - D.n_decisions(False)} more codes); with 6 players (R20.1, two "
             f"boxes and the house block) {six.N_THINGS} and {six.N_HERO_FACES} on a 61-hex board with 6 `rel*` "
             "columns. Mysterious Kadab (R20.3) adds the `face_down` column of `hexes`. A default game's "
             "layout is therefore the same with or without these options in the code.\n\n")
    regs = ["| register (columns `reg_<key>`) | reads (`ktenv.kings_and_things.procedures`) | kind | who sees it "
            "| meaning |",
            "|---|---|---|---|---|"]
    for r in REGISTERS:
        only = " (only with house_content)" if r.house else ""
        regs.append(f"| `{r.key}` | `{r.source}` | {r.kind} | {r.visible} | {r.doc}{only} |")
    return intro + layout.markdown() + "\n#### Registers carried\n\n" + "\n".join(regs) + "\n"


def _decision_comments() -> dict[int, str]:
    source = inspect.getsource(D)
    out = {}
    for _name, code, comment in re.findall(r"^([A-Z_]+) = (\d+)\s*#\s*(.*)$", source, re.MULTILINE):
        out[int(code)] = comment.strip()
    return out


# Games whose action layouts differ: (heading, layout)
LAYOUTS = (("2-3 players", action_layout(2)), ("4 players", action_layout(4)),
           ("2-3, house_content", action_layout(2, True)), ("4, house_content", action_layout(4, True)),
           ("6 players, R20.1", action_layout(6)))


def action_tables() -> str:
    lines = ["| block | " + " | ".join(f"first action ({head})" for head, _ in LAYOUTS) + " | size | meaning |",
             "|---|" + "---|" * len(LAYOUTS) + "---|---|"]
    for blocks in zip(*(lay.blocks() for _, lay in LAYOUTS), strict=True):
        name, sizes = blocks[0][0], list(dict.fromkeys(size for _, _, size in blocks))
        starts = " | ".join(str(start) for _, start, _ in blocks)
        lines.append(f"| `{name}` | {starts} | {' / '.join(map(str, sizes))} | {BLOCK_MEANING.get(name, '')} |")
    lines.append("| total | " + " | ".join(str(lay.size) for _, lay in LAYOUTS) + " | | |")
    lines += ["", "Sizes: the distinct sizes over these games, in column order. The THING and HERO blocks hold the "
              "game's catalog (`catalog.catalog_for(n_players, house)`): the house Things and hero faces (R22) "
              "only with house_content; six players always have them (out of play without the option)."]
    lines += ["", "| code | decision | name | actions offered (block: meaning) |", "|---|---|---|---|"]
    comments = _decision_comments()
    constants = {v: k for k, v in vars(D).items() if k.isupper() and isinstance(v, int) and k != "N_DECISIONS"}
    for code in sorted(constants):
        if code == D.NONE:
            continue
        text = comments.get(code, "").replace("|", "/")
        lines.append(f"| {code} | `{constants[code]}` | {D.NAMES.get(code, '')} | {text} |")
    return ("Generated from `ktenv.kings_and_things.engine.actions.action_layout` and "
            "`ktenv/kings_and_things/decisions.py`.\n\n" + "\n".join(lines) + "\n")


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
        print(f"out of date: {', '.join(stale)} (run: python -m ktenv.kings_and_things.dev.docs)")
        return 1
    print("updated: " + ", ".join(stale) if stale else "docs are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
