"""Golden playthroughs (the OpenSpiel habit): seeded games written out decision by decision as text.

Each file under ``tests/playthroughs/`` is one game of seeded random agents. It opens with the
config, the seed and the observation layout (every column name, in order), then one block per
decision, for example (tests/playthroughs/3p_house.txt)::

    [133] r1 movement | p2 decides: start a move
      pending: -
      obs hexes h2: things_p2=1 hidden_p2=1 own_value_3=1 own_unsupported=1
      obs hexes h8: things_p2=1>- hidden_p2=1>- own_value_3=1>- own_unsupported=1>-
      obs things Buffalo Herd#97: hex=h8>h2 mp=4>3 status=1>2 moved=1
      legal 4: 0 done / pass | 19 hex h1 (q=0,r=-1) Mountain | 25 hex h7 (q=0,r=-2) Swamp | 234 Boat (thing 197)
      action 234: start a move: Boat (thing 197)
      digest 4c3a3b08e9

- ``pending``: the registers of the pending decision as the actor sees them (scalars, sides and
  the hexes, Things and heroes they point at), in full at every decision.
- ``obs``: what changed in the actor's observation since that player last decided (everything,
  at a player's first decision), one line per changed row (a player, a hex, a Thing, a hero face),
  read from the observation vector through its layout: ``key=old>new``; ``key=new`` when it was
  at its blank value (0, or -1 for the columns whose "none" is -1); ``key=old>-`` when it went
  back to it. A one-hot family reads as one key (``owner=p1``). Seats are shown as absolute
  players (``p2``), not the vector's relative ones. Left out because the block's first line states
  them: the phase, decision and actor one-hots.
- ``legal``: every legal action, its id and its English text (``describe_action``).
- ``digest``: an exact digest of the full observation (its non-blank entries by column name) and
  of the action mask, so nothing escapes the text. Adding or removing a column that is always
  blank changes only the header's ``layout`` lines; any other change of the observation changes
  the digest and, unless it is in the one-hots left out, an ``obs`` line.
- The public text board (``ktenv.kings_and_things.render.ansi``) at every change of round or phase, and at the end.

The file ends with the winners and a digest of the final state's ``to_json()``. The test replays
every file and shows the first difference, decision by decision. After an intended change of the
rules, the actions or the observation, regenerate them and review the diff:

    python -m ktenv.kings_and_things.dev.playthrough --regenerate      # rewrites tests/playthroughs/*.txt
    python -m ktenv.kings_and_things.dev.playthrough --check           # what the test does
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import sys
from pathlib import Path

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..board import board_radius, geometry
from ..config import GameConfig
from ..engine import describe_action, legal_mask, new_game, step
from ..engine.machine import PHASE_NAMES
from ..env.observation import ObservationEncoder
from ..render import ansi

FOLDER = Path(__file__).resolve().parents[3] / "tests" / "playthroughs"
HEADER = "# ktenv golden playthrough; regenerate: python -m ktenv.kings_and_things.dev.playthrough --regenerate"
AGENTS = "uniform random over the legal actions, player p drawing from numpy default_rng(seed * 100 + p)"

# (file name, game options, seed): short games that still reach battles, events and heroes, and
# between them every optional rule family (six players, Mysterious Kadab, Encounter powers, house content)
GAMES = (
    ("2p_standard.txt", {"n_players": 2, "max_rounds": 8}, 11),
    ("3p_standard.txt", {"n_players": 3, "max_rounds": 6}, 12),
    ("4p_options.txt", {"n_players": 4, "max_rounds": 5, "encounter_powers": True,
                        "stack_limit_check": "end_of_movement", "where_will_they_stop": True}, 13),
    ("6p_standard.txt", {"n_players": 6, "max_rounds": 2}, 14),
    ("3p_kadab_on_entry.txt", {"n_players": 3, "max_rounds": 5, "mysterious_kadab": True,
                               "mysterious_flip": "on_entry"}, 15),
    ("2p_kadab_on_exploration.txt", {"n_players": 2, "max_rounds": 6, "mysterious_kadab": True}, 16),
    ("4p_powers.txt", {"n_players": 4, "max_rounds": 4, "encounter_powers": True,
                       "powers": ["Aviator", "Gambler", "Tax Farmer", "Nomad"]}, 21),
    ("3p_house.txt", {"n_players": 3, "max_rounds": 6, "house_content": True}, 33),
)

# observation columns the block's first line already states (round, phase, decision, actor)
_STATED = ("phase_*", "decision_*", "actor_*")
_STATED_COLUMNS = ("is_actor",)


class ObservationText:
    """Reads one game's observation vectors as named rows (``key -> value text``) for the playthroughs."""

    def __init__(self, cfg: GameConfig, encoder: ObservationEncoder) -> None:
        self.n = cfg.n_players
        layout = encoder.layout
        catalog = cat.catalog_for(cfg.n_players, cfg.house_content)
        self.layout = layout
        self.blank = np.where(layout.low == -1, -1, 0).astype(np.float32)
        self.names = layout.names()
        # per flat index: (section, row, column, group base or None, one-hot, stated, pending)
        info: list[tuple] = [None] * layout.size
        self.row_name: dict[str, list[str]] = {
            "hexes": [f"h{r}" for r in range(layout.section("hexes").rows)],
            "things": [f"{catalog.THING_NAME[r]}#{r}" for r in range(layout.section("things").rows)],
            "heroes": [f"{catalog.HERO_NAME[r]}#{r}" for r in range(layout.section("heroes").rows)],
        }
        self.thing_names = self.row_name["things"]
        for sec in layout.sections.values():
            for j, c in enumerate(sec.columns):
                base = c.group[:-2] if c.group.endswith("_*") else None
                one_hot = base is not None and c.high == 1
                stated = c.group in _STATED or c.name in _STATED_COLUMNS
                pending = sec.name == "registers" or c.name.startswith("reg_")
                for r in range(sec.rows):
                    info[sec.start + j * sec.rows + r] = (sec.name, r, c.name, base, one_hot, stated, pending)
        self.info = info

    def _seat(self, suffix: str, observer: int) -> str:
        """A relative seat suffix (rel2) as the absolute player (p3); others unchanged."""
        if suffix.startswith("rel") and suffix[3:].isdigit():
            return f"p{(observer + int(suffix[3:])) % self.n}"
        return suffix

    def _value(self, column: str, v: float) -> str:
        if float(v).is_integer():
            k = int(v)
            if column in ("hex", "marked_hex") and k >= 0:
                return f"h{k}"
            if column == "bearer" and k >= 0:
                return self.thing_names[k]
            return str(k)
        return repr(float(v))

    def rows(self, obs: np.ndarray, observer: int) -> tuple[dict, dict]:
        """(rows, pending): ``(section, row label) -> {key: value text}`` of the non-blank entries,
        the pending decision's registers apart, the stated one-hots left out."""
        rows: dict[tuple[str, str], dict[str, str]] = {}
        pending: dict[tuple[str, str], dict[str, str]] = {}
        for i in np.flatnonzero(obs != self.blank):
            section, r, column, base, one_hot, stated, is_pending = self.info[i]
            if stated:
                continue
            label = self.row_name[section][r] if section in self.row_name else (
                f"p{(observer + r) % self.n}" if section == "players" else "")
            entry = (pending if is_pending else rows).setdefault((section, label), {})
            v = float(obs[i])
            if one_hot and v == 1:
                suffix = self._seat(column[len(base) + 1:], observer)
                entry[base] = f"{entry[base]},{suffix}" if base in entry else suffix
            else:
                if base is not None:
                    column = f"{base}_{self._seat(column[len(base) + 1:], observer)}"
                entry[column] = self._value(column, v)
        return rows, pending

    def digest(self, obs: np.ndarray, mask: np.ndarray) -> str:
        """Exact digest of the observation's non-blank entries by name, and of the mask: a column
        that stays blank can be added or removed without changing it (the header lists the layout)."""
        h = hashlib.sha1(np.ascontiguousarray(mask).tobytes())
        for i in np.flatnonzero(obs != self.blank):
            h.update(f"|{self.names[i]}={float(obs[i])!r}".encode())
        return h.hexdigest()[:10]

    def layout_lines(self) -> list[str]:
        out = []
        for sec in self.layout.sections.values():
            out.append(f"layout {sec.name} ({sec.rows} rows): {' '.join(c.name for c in sec.columns)}")
        return out


def _changes(before: dict, after: dict) -> list[str]:
    """One text per row that changed: ``key=old>new`` (``key=new`` from blank, ``key=old>-`` to blank)."""
    out = []
    for key in sorted(set(before) | set(after), key=_row_order):
        old, new = before.get(key, {}), after.get(key, {})
        if old == new:
            continue
        parts = []
        for k in list(new) + [k for k in old if k not in new]:
            if k not in old:
                parts.append(f"{k}={new[k]}")
            elif k not in new:
                parts.append(f"{k}={old[k]}>-")
            elif old[k] != new[k]:
                parts.append(f"{k}={old[k]}>{new[k]}")
        section, label = key
        out.append(f"obs {section}{' ' + label if label else ''}: {' '.join(parts)}")
    return out


_SECTION_ORDER = {name: k for k, name in enumerate(("game", "registers", "players", "self", "hexes", "things",
                                                     "heroes"))}


def _row_order(key: tuple[str, str]) -> tuple:
    section, label = key
    number = label.rsplit("#", 1)[-1] if "#" in label else label[1:]
    return (_SECTION_ORDER.get(section, 99), int(number) if number.isdigit() else 0, label)


def _pending_text(pending: dict) -> str:
    parts = []
    for key in sorted(pending, key=_row_order):
        section, label = key
        items = " ".join(f"{k[4:] if k.startswith('reg_') else k}" + ("" if v == "1" and label else f"={v}")
                         for k, v in pending[key].items())
        parts.append(f"{label}: {items}" if label else items)
    return " | ".join(parts) if parts else "-"


def _legal_text(s, action: int, context: str) -> str:
    text = describe_action(s, action)
    return text[len(context) + 2:] if text.startswith(context + ": ") else text


def play_lines(options: dict, seed: int, backend: str = "python") -> list[str]:
    """The playthrough of one game: random agents seeded from `seed`, every decision a block; `backend`:
    the engine that plays it (ktenv.kings_and_things.engine.new_game): the text is the same on either."""
    cfg = GameConfig.from_dict(options)
    encoder = ObservationEncoder(cfg, geometry(board_radius(cfg.n_players)).n_hexes)
    text = ObservationText(cfg, encoder)
    rngs = [np.random.default_rng(seed * 100 + p) for p in range(cfg.n_players)]
    s = new_game(cfg, seed, backend=backend)
    lines = [HEADER, f"config: {json.dumps(options, sort_keys=True)}", f"seed: {seed}", f"agents: {AGENTS}",
             *text.layout_lines()]
    seen: list[dict] = [{} for _ in range(cfg.n_players)]
    board_at = None
    k = 0
    while not s.game_over:
        p = s.actor
        if (s.round, s.phase) != board_at:
            board_at = (s.round, s.phase)
            lines += ["", f"== board, round {s.round}, {PHASE_NAMES[s.phase]} ==", *ansi(s).splitlines()[2:]]
        mask = legal_mask(s)
        legal = np.flatnonzero(mask)
        action = int(legal[rngs[p].integers(legal.size)])
        obs = encoder.encode(s, p)
        rows, pending = text.rows(obs, p)
        context = D.NAMES.get(s.decision, str(s.decision))
        lines.append("")
        lines.append(f"[{k}] r{s.round} {PHASE_NAMES[s.phase]} | p{p} decides: {context}")
        lines.append(f"  pending: {_pending_text(pending)}")
        lines += [f"  {line}" for line in _changes(seen[p], rows)]
        seen[p] = rows
        lines.append(f"  legal {legal.size}: " + " | ".join(f"{a} {_legal_text(s, a, context)}" for a in legal))
        lines.append(f"  action {action}: {describe_action(s, action)}")
        lines.append(f"  digest {text.digest(obs, mask)}")
        step(s, action)
        k += 1
    lines += ["", f"== board, end (round {s.round}) ==", *ansi(s).splitlines()[2:], ""]
    lines.append(f"result: winners {list(s.winners)} reason {s.reason} round {s.round} after {k} decisions")
    lines.append(f"state: {hashlib.sha256(s.to_json().encode()).hexdigest()}")
    return lines


def _decision_at(lines: list[str], i: int) -> str:
    """The decision block holding line i (its first line), or the part of the file before any."""
    for j in range(min(i, len(lines) - 1), -1, -1):
        if lines[j].startswith("["):
            return lines[j]
    return "(file header)"


def first_difference(expected: list[str], actual: list[str], context: int = 3) -> str | None:
    """None when equal; else the decision and line of the first difference, and a short diff around it."""
    shorter = min(len(expected), len(actual))
    i = next((k for k in range(shorter) if expected[k] != actual[k]), shorter)
    if i == shorter and len(expected) == len(actual):
        return None
    where = _decision_at(expected, i)
    lo = max(0, i - context)
    diff = difflib.unified_diff(expected[lo:i + 12], actual[lo:i + 12], "stored", "replayed", n=context,
                                lineterm="")
    shown = "\n".join(list(diff)[2:40])
    head = (f"line {i + 1}, in decision {where}\n"
            f"  stored:   {expected[i] if i < len(expected) else '(end of file)'}\n"
            f"  replayed: {actual[i] if i < len(actual) else '(end of game)'}")
    if len(expected) != len(actual):
        head += f"\n  (stored {len(expected)} lines, replayed {len(actual)})"
    return f"{head}\n{shown}"


def check(folder: Path = FOLDER, backend: str = "python") -> list[str]:
    """Problems found (empty when every playthrough replays exactly), on the Python or the native engine."""
    problems = []
    for name, options, seed in GAMES:
        path = folder / name
        if not path.exists():
            problems.append(f"{path}: missing (python -m ktenv.kings_and_things.dev.playthrough --regenerate)")
            continue
        diff = first_difference(path.read_text().splitlines(), play_lines(options, seed, backend))
        if diff:
            problems.append(f"{path.name} differs at {diff}")
    return problems


def regenerate(folder: Path = FOLDER) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name, options, seed in GAMES:
        path = folder / name
        path.write_text("\n".join(play_lines(options, seed)) + "\n")
        out.append(path)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ktenv.kings_and_things.dev.playthrough",
                                     description=__doc__.split("\n")[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--regenerate", action="store_true", help="rewrite the stored playthroughs")
    group.add_argument("--check", action="store_true", help="replay them and report the first difference")
    args = parser.parse_args(argv)
    if args.regenerate:
        for path in regenerate():
            print(f"wrote {path} ({len(path.read_text().splitlines())} lines, {path.stat().st_size} bytes)")
        return 0
    problems = check()
    print("\n\n".join(problems) if problems else "all playthroughs replay exactly")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
