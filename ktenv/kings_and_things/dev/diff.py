"""The differential test of the native engine against the Python engine, step by step.

`python -m ktenv.kings_and_things.dev.diff --games 20 --players 2,3,4` plays seeded games on the Python engine
(the oracle). At every small step of its phase machine (`machine._advance`): each pass of a phase
runner, each mask, each action applied (chosen or forced), it runs the same step natively from the
same state and compares the whole state (`to_dict()`) and the mask. It prints, per phase and per
decision, the steps that matched or differed, and the first differences in detail: the first differing
field of the state, and the part of the turn played with its Python module and C++ twin (`mismatch`).

`--whole` plays the games on both engines side by side instead (native `step` from native state),
comparing at every decision.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from .. import decisions as D
from ..config import GameConfig
from ..engine import interrupts, machine
from ..engine.machine import RUNNERS, legal_mask
from ..native import core
from ..native.bridge import rules_for, to_native
from ..state import _ARRAYS, _SCALARS, GAME_OVER, PHASE_NAMES, SETUP, GameState

_SKIP_KEYS = ("schema", "version", "config")

# The base game's option mixes: every option that applies to 2-4 players without the
# optional content, each choice in turn, and random mixes.
BASE_MIXES: tuple[dict, ...] = (
    {},
    {"victory": "quick"}, {"victory": "unique_a"}, {"victory": "unique_b"}, {"victory": "fixed_rounds"},
    {"victory": "land_conquest"},
    {"start_land_neighbours": 3, "start_sea_replacement": "optional"},
    {"setup_exchange_timing": "before_placement", "setup_second_placement": "any"},
    {"hero_post_roll_bonus_per_10": 2, "hero_attempts_per_round": "unlimited"},
    {"citadel_income_2p": 20, "fort_supply": "unlimited", "quick_victory_acquire": "build_only"},
    {"unique_a_capture": "immediate", "unique_b_vulnerable": "disaster_when_two", "land_check": "immediate"},
    {"neutral_control": "policy", "event_losses": "free_choice", "vandals_chooser": "event_player"},
    {"assassin_dice": 2, "talisman_save_scope": "round", "balloon_retreat": "within_3"},
    {"dust_timing": "any_window", "stack_limit_check": "end_of_movement", "contest_attacker": "second_to_enter"},
    {"free_draws_mandatory": False, "no_construction_round_1": True, "cup_size_public": True,
     "bribe_double_on_city": False, "dispel_vs_events": False, "baron_hits_citadel": True},
    {"good_harvest_counts_heroes": False, "willing_workers_counts_toward_limit": False,
     "talisman_covers_heroes": True, "events_playable": "with_effect"},
)


# The optional rules of R20: each alone, with each other, and over base mixes
# (`--options r20`; the player count comes from --players, six players being R20.1). Seven mixes: prime
# to every player count, so that cycling both meets every pair.
R20_MIXES: tuple[dict, ...] = (
    {"where_will_they_stop": True},
    {"mysterious_kadab": True},
    {"mysterious_kadab": True, "mysterious_flip": "on_entry"},
    {"where_will_they_stop": True, "mysterious_kadab": True, "victory": "unique_a", "balloon_retreat": "within_3"},
    {"mysterious_kadab": True, "mysterious_flip": "on_entry", "victory": "land_conquest",
     "stack_limit_check": "end_of_movement", "contest_attacker": "second_to_enter"},
    {"mysterious_kadab": True, "start_land_neighbours": 3, "start_sea_replacement": "optional",
     "neutral_control": "policy", "event_losses": "free_choice"},
    {"where_will_they_stop": True, "free_draws_mandatory": False, "setup_exchange_timing": "before_placement",
     "setup_second_placement": "any", "hero_attempts_per_round": "unlimited"},
)


def option_sets(name: str) -> tuple[dict, ...]:
    """The option mixes of `--options`: default (none), mixes (the base game's), r20 (R20.2 and R20.3)."""
    return {"default": ({},), "mixes": BASE_MIXES, "r20": R20_MIXES}[name]


def parse_sets(pairs: list[str]) -> dict:
    """`--set name=value` options: value read as JSON (true, 3, "x"), else as a string."""
    out = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or name not in GameConfig.__dataclass_fields__:
            raise SystemExit(f"--set {pair!r}: expected NAME=VALUE with NAME a GameConfig option")
        try:
            out[name] = json.loads(text)
        except json.JSONDecodeError:
            out[name] = text
    return out


def python_dict(s: GameState) -> dict:
    d = s.to_dict()
    for k in _SKIP_KEYS:
        d.pop(k, None)
    return d


def differences(py: dict, nat: dict, limit: int = 8) -> list[str]:
    """The fields that differ, with both values (arrays: the first differing indices)."""
    out = []
    for k, v in py.items():
        w = nat.get(k)
        if v == w:
            continue
        if isinstance(v, list) and isinstance(w, list) and len(v) == len(w) and k != "frames":
            idx = [i for i, (a, b) in enumerate(zip(v, w)) if a != b]
            out.append(f"{k}: at {idx[:6]} python {[v[i] for i in idx[:6]]} native {[w[i] for i in idx[:6]]}")
        else:
            out.append(f"{k}: python {v!r:.400} native {w!r:.400}")
        if len(out) >= limit:
            break
    return out


def first_field(py: dict, nat: dict) -> str | None:
    """The first field of the state (in `to_dict`'s order) where the two engines differ, or None."""
    return next((k for k, v in py.items() if nat.get(k) != v), None)


_TWIN = re.compile(r"^C\+\+ twin: (\S+)", re.M)


@cache
def twin_files(module: str) -> tuple[str, str]:
    """The file of an engine module (`ktenv.kings_and_things.engine.battle`) and of its C++ twin, named by its docstring
    ("C++ twin: PATH", relative to the game's folder); both as paths from the folder that holds the package."""
    mod = importlib.import_module(module)
    path = Path(mod.__file__).resolve()
    game = Path(machine.__file__).resolve().parent.parent
    root = Path(importlib.import_module(module.partition(".")[0]).__file__).resolve().parent.parent
    found = _TWIN.search(mod.__doc__ or "")
    twin = found.group(1) if found else "none"
    cpp = "(none)" if twin == "none" else (game / twin).relative_to(root).as_posix()
    return path.relative_to(root).as_posix(), cpp


def part_played(decision: int, phase: int, cashing: bool = False, mask: bool = False) -> str:
    """Which part of the turn a step plays from a state at `decision` in `phase`, and its two files: the
    module whose rule answers the decision (machine.DECISIONS: its apply, or its mask with `mask`; `cashing`:
    a treasure cashed, the machine's), else the one whose runner plays the phase (machine.RUNNERS)."""
    if decision != D.NONE:
        rule = None if cashing else machine.DECISIONS.get(decision)
        module = rule[0 if mask else 1].__module__ if rule else machine.__name__
        what = (f"{'cashing at ' if cashing else 'the mask of ' if mask else ''}decision {D.NAMES[decision]} "
                f"in phase {PHASE_NAMES[phase]}")
    else:
        runner = machine.RUNNERS.get(phase)
        module = runner.__module__ if runner else machine.__name__
        what = f"phase {PHASE_NAMES[phase]}"
    py, cpp = twin_files(module)
    return f"{what}: {py} (C++ twin: {cpp})"


def mismatch(s: GameState, ns, decision: int, phase: int, cashing: bool = False) -> str:
    """Where the two engines part after a step played from `decision` in `phase`: the first differing field
    of the state, the part of the turn with its Python and C++ files, and the differing fields."""
    py, nat = python_dict(s), ns.to_dict()
    diffs = differences(py, nat) or ["(a field outside to_dict)"]
    first = first_field(py, nat) or "(outside to_dict)"
    return (f"first differing field '{first}', after {part_played(decision, phase, cashing)}\n  "
            + "\n  ".join(diffs))


def same_state(s: GameState, ns) -> bool:
    """True when the two engines' states are equal, field for field (arrays compared as bytes where the
    dtypes agree: a fraction of a Python step). On False, `differences` says where."""
    for name in _SCALARS:
        if getattr(s, name) != getattr(ns, name):
            return False
    for name in _ARRAYS:
        a, b = getattr(s, name), getattr(ns, name)
        if a.dtype == b.dtype and a.shape == b.shape:
            if a.tobytes() != b.tobytes():  # the same test as array_equal, a tenth of the time
                return False
        elif not np.array_equal(a, b):
            return False
    rng = s.rng.to_json()
    if str(rng["state"]) != ns.rng_state or list(rng["script"]) != ns.rng_script:
        return False
    if list(s.hex_stack) != ns.hex_stack or list(s.hex_aside) != ns.hex_aside:
        return False
    if list(s.winners) != ns.winners or s.reason != ns.reason or s.stats != ns.stats:
        return False
    return [f.to_dict() for f in s.frames] == ns.frames_list()


@dataclass
class Tally:
    matched: int = 0
    differed: int = 0
    errors: int = 0


@dataclass
class Report:
    tallies: dict = field(default_factory=lambda: defaultdict(Tally))
    firsts: list = field(default_factory=list)
    dead_ends: list = field(default_factory=list)
    show: int = 3

    def note(self, key: str, what: str, text: str) -> None:
        if len(self.firsts) < self.show:
            self.firsts.append(f"[{key}] {what}\n    " + "\n    ".join(text.splitlines()))


def _frame_name(s: GameState) -> str:
    return s.frames[-1].NAME if s.frames else "-"


class Stepper:
    """Plays a Python game step by step, checking each step natively."""

    def __init__(self, report: Report, focus: str | None, where: str) -> None:
        self.report = report
        self.focus = focus
        self.where = where

    def unit(self, s: GameState, key: str, py_step, native_step, cashing: bool = False) -> None:
        tally = self.report.tallies[key]
        if self.focus and self.focus not in key:
            py_step(s)
            return
        ns = to_native(s)
        decision, phase = s.decision, s.phase
        before = python_dict(s) if self.report.show else None
        try:
            native_step(ns)
            error = None
        except Exception as exc:  # a native error where Python went on: a difference
            error = f"{type(exc).__name__}: {exc}"
        py_step(s)
        if error is not None:
            tally.errors += 1
            self.report.note(key, f"native raised at {self.where}",
                             f"{error}\nin {part_played(decision, phase, cashing)}")
            return
        if not same_state(s, ns):
            tally.differed += 1
            changed = differences(before, python_dict(s), limit=6) if before else []
            self.report.note(key, f"state differs after the step at {self.where}",
                             mismatch(s, ns, decision, phase, cashing) + "\n(python changed: " + "; ".join(changed)
                             + ")")
        else:
            tally.matched += 1

    def mask(self, s: GameState) -> np.ndarray:
        key = f"mask {D.NAMES[s.decision]}"
        s._mask = None
        py = legal_mask(s)
        if self.focus and self.focus not in key:
            return py
        tally = self.report.tallies[key]
        ns = to_native(s)
        out = np.zeros(py.size, np.int8)
        try:
            ns.legal_mask(out)
        except Exception as exc:
            tally.errors += 1
            self.report.note(key, f"native raised at {self.where}",
                             f"{type(exc).__name__}: {exc}\nin {part_played(s.decision, s.phase, mask=True)}")
            return py
        if np.array_equal(out, py):
            tally.matched += 1
        else:
            tally.differed += 1
            lay = machine.layout(s)
            only_py = [machine.describe_action(s, a) for a in np.flatnonzero(py & ~out)][:6]
            only_nat = [machine.describe_action(s, a) for a in np.flatnonzero(out & ~py)][:6]
            self.report.note(key, f"mask differs at {self.where} (layout size {lay.size})",
                             f"in {part_played(s.decision, s.phase, mask=True)}\n"
                             f"python only: {only_py}\nnative only: {only_nat}")
        return py

    def advance(self, s: GameState) -> None:
        """machine._advance, one small step at a time."""
        while True:
            while s.decision == D.NONE and s.phase != GAME_OVER:
                key = f"run {PHASE_NAMES[s.phase]}/{_frame_name(s)}"
                self.unit(s, key, _run_once, lambda ns: ns.run_once())
            if s.phase == GAME_OVER:
                s._mask = None
                return
            legal = np.flatnonzero(self.mask(s))
            if legal.size != 1:
                return
            self.apply(s, int(legal[0]))

    def apply(self, s: GameState, action: int) -> None:
        key = f"apply {D.NAMES[s.decision]}"
        lay = machine.layout(s)
        self.unit(s, key, lambda st: _apply(st, action), lambda ns: ns.apply(action),
                  cashing=lay.cash <= action < lay.player)


def _run_once(s: GameState) -> None:
    if not interrupts.pending(s):
        RUNNERS[s.phase](s)


def _apply(s: GameState, action: int) -> None:
    machine._apply(s, action)


def play_stepwise(cfg: GameConfig, seed: int, report: Report, focus: str | None, max_decisions: int) -> int:
    """One Python game, each step checked natively; returns the decisions played."""
    s = GameState(cfg, seed)
    stepper = Stepper(report, focus, f"game seed {seed}, {cfg.n_players} players, start")
    from ..engine import setup

    rnd = random.Random(seed)
    stepper.unit(s, "start_game", setup.start_game, _native_start)
    stepper.advance(s)
    n = 0
    while s.phase != GAME_OVER and n < max_decisions:
        legal = np.flatnonzero(legal_mask(s))
        action = int(legal[rnd.randrange(legal.size)])
        n += 1
        stepper.where = (f"game seed {seed}, {cfg.n_players} players, decision {n} "
                         f"(round {s.round}, phase {PHASE_NAMES[s.phase]}, {D.NAMES[s.decision]}, "
                         f"player {s.actor}: {machine.describe_action(s, action)})")
        s.stats["decisions"] += 1
        stepper.apply(s, action)
        stepper.advance(s)
    return n


def _native_start(ns) -> None:
    ns.start_game()


def chooser(policy: str, cfg: GameConfig, seed: int):
    """(state, legal actions) -> action: "random" (uniform, its own generator) or a registered agent such
    as "greedy" or "expert", fed the Python encoder's observation of the actor."""
    rnd = random.Random(seed)
    if policy == "random":
        return lambda s, legal: int(legal[rnd.randrange(legal.size)])
    from ... import agents
    from ..arena import encoder_for

    encoder = encoder_for(cfg)
    seats = [agents.make(policy, seed=seed * 10 + p) for p in range(cfg.n_players)]

    def choose(s: GameState, legal: np.ndarray) -> int:
        mask = legal_mask(s)
        return int(seats[s.actor].act({"observation": encoder.encode(s, s.actor), "action_mask": mask}, mask))

    return choose


def play_whole(cfg: GameConfig, seed: int, report: Report, max_decisions: int, policy: str = "random",
               visit=None) -> int:
    """Both engines side by side from the seed, native state never refreshed from Python. `visit(s)`, if
    given, sees the Python state at every decision the engines agree on (to count what a run reached)."""
    s = machine.new_game(cfg, seed, backend="python")
    assert type(s) is GameState, "the oracle must be the Python engine"
    key = "whole game"
    tally = report.tallies[key]
    ns = core().State.new_game(rules_for(cfg), seed)
    choose = chooser(policy, cfg, seed)
    n = 0
    lay = machine.layout(s)
    buf = np.zeros(lay.size, np.int8)
    last = (D.NONE, SETUP, False)  # the step that made this state: (decision, phase, cashing)
    while True:
        where = f"game seed {seed}, {cfg.n_players} players, decision {n}"
        text = "" if same_state(s, ns) else mismatch(s, ns, *last)
        if not text:
            ns.legal_mask(buf)
            if not np.array_equal(buf, legal_mask(s)):
                text = f"the mask differs, in {part_played(s.decision, s.phase, mask=True)}"
        if text:
            tally.differed += 1
            report.note(key, f"differs at {where} (round {s.round}, phase {PHASE_NAMES[s.phase]}, "
                        f"{D.NAMES[s.decision]})", text)
            return n
        if s.phase == GAME_OVER or n >= max_decisions:
            tally.matched += 1
            return n
        if visit is not None:
            visit(s)
        legal = np.flatnonzero(legal_mask(s))
        if legal.size == 0:  # both engines agree on a dead end: a rules-engine bug, not a difference
            report.dead_ends.append(f"{where}: no legal action at '{D.NAMES[s.decision]}' (round {s.round})")
            tally.matched += 1
            return n
        action = choose(s, legal)
        last = (s.decision, s.phase, lay.cash <= action < lay.player)
        machine.step(s, action)
        ns.step(action)
        ns.check_things_index()  # the native state's derived index of the Things still matches its arrays
        n += 1


def config_for(players: int, mix: dict) -> GameConfig:
    return GameConfig(n_players=players, **mix)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--options", choices=("default", "mixes", "r20"), default="default",
                    help="mixes: cycle through the base game's option mixes; r20: those of R20.2 / R20.3")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="an option of every game, over the mix (repeatable): --set mysterious_kadab=true")
    ap.add_argument("--focus", default=None, help="check only steps whose key contains this text")
    ap.add_argument("--show", type=int, default=3, help="how many first differences to print in detail")
    ap.add_argument("--max-decisions", type=int, default=3000)
    ap.add_argument("--whole", action="store_true", help="play both engines side by side, native state never refreshed")
    ap.add_argument("--policy", default="random", help="with --whole: random, or an agent name (greedy, expert)")
    ap.add_argument("--max-rounds", type=int, default=None, help="round limit of every game (default: the config's)")
    args = ap.parse_args(argv)
    players = [int(p) for p in args.players.split(",")]
    fixed = parse_sets(args.set)
    report = Report(show=args.show)
    start = time.time()
    total = 0
    for g in range(args.games):
        seed = args.seed + g
        mixes = option_sets(args.options)
        cfg = config_for(players[g % len(players)], {**mixes[g % len(mixes)], **fixed})
        if args.max_rounds is not None:
            cfg = GameConfig.from_dict({**cfg.to_dict(), "max_rounds": args.max_rounds})
        if args.whole:
            total += play_whole(cfg, seed, report, args.max_decisions, args.policy)
        else:
            total += play_stepwise(cfg, seed, report, args.focus, args.max_decisions)
        print(f"\rgame {g + 1}/{args.games}: {total} decisions, {time.time() - start:.0f} s", end="",
              file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(f"{'step':44} {'matched':>8} {'differed':>8} {'errors':>7}")
    bad = 0
    for key in sorted(report.tallies):
        t = report.tallies[key]
        print(f"{key:44} {t.matched:8} {t.differed:8} {t.errors:7}")
        bad += t.differed + t.errors
    for text in report.firsts:
        print("\n" + text)
    for text in report.dead_ends:
        print("dead end (both engines):", text)
    print(f"\n{bad} differing steps; {total} decisions in {args.games} games, {time.time() - start:.0f} s")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
