"""How often each Encounter power (R21) changed the game, counted on the Python engine (the oracle).

`with counting() as use:` wraps the powers' hook implementations and decision rules of
`ktenv.kings_and_things.engine.powers` (and restores them afterwards); inside, every time a power's rule gives another
answer than the standard rules (or one of its decisions is applied) its name is counted in `use`
(a Counter). The differential tests play the games inside it, so they can show that every one of the
fifteen powers was reached, and on the native engine matched::

    python -m ktenv.kings_and_things.dev.power_use --games 100 --max-rounds 6     # the counts of diff --whole games
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

from .. import decisions as D
from ..config import ENCOUNTER_POWERS
from ..constants import NEUTRAL, SCREEN, SCREEN_LIMIT
from ..engine import hooks, machine
from ..engine import powers as P
from ..engine.actions import NUMBER, PASS
from ..procedures import Battle, NomadMove

NAMES = ENCOUNTER_POWERS


def _vandal_rule(s, roll: int) -> bool:
    """R21.15's branch of damage_destroys is taken (a Vandal won or lost the hex in this battle)."""
    b = s.frame(Battle)
    won, loser = b.winner, b.defender
    if won < 0 or won == NEUTRAL or won == loser or s.hex_owner[b.hex] != won:
        return False
    return P.has(s, won, P.VANDAL) or P.has(s, loser, P.VANDAL)


def _hooked(use: Counter) -> dict:
    """Per hook point: a wrapper (impl -> counting impl) for the powers' implementation."""
    def answer(power, differs):
        def wrap(impl):
            def counted(*args):
                out = impl(*args)
                if differs(args, out):
                    use[NAMES[power] if isinstance(power, int) else power(args)] += 1
                return out
            return counted
        return wrap

    def amoeba(impl):
        def counted(s, received):
            b = s.frame(Battle)
            before = (dict(received), b.marksman_hits)
            impl(s, received)
            if (dict(received), b.marksman_hits) != before:
                use[NAMES[P.AMOEBA]] += 1
        return counted

    def brute(impl):
        def counted(s, c):
            impl(s, c)
            if s.thing_place[c] == SCREEN:
                use[NAMES[P.BRUTE]] += 1
                if s.screen_size(int(s.thing_owner[c])) > SCREEN_LIMIT:
                    use[f"{NAMES[P.BRUTE]}: screen over 10"] += 1
        return counted

    def plus_one(args):  # R21.2 Ghaog II / Lord of the Eagles, else R21.9
        return NAMES[P.AVIATOR] if args[2] in P._PLUS_ONE[P.AVIATOR] else NAMES[P.MAGICIAN]

    return {
        "hits_received": amoeba,
        "eliminate": brute,
        "hero_roll_bonus": answer(plus_one, lambda a, out: out != 0),
        "hero_target": answer(P.RECRUITER, lambda a, out: out != 2 * int(P.cat.HERO_COMBAT[a[2]])),
        "build_cost": answer(P.BUILDER, lambda a, out: out != a[2]),
        "defenders": answer(P.EXPLORER, lambda a, out: out != (0 if a[2] in (1, 6) else a[2])),
        "extra_free_things": answer(P.KING_OF_THINGS, lambda a, out: out != 0),
        "magic_to_melee": answer(P.MAGICIAN, lambda a, out: bool(out)),
        "fights_as_populous": answer(P.POPULOUS, lambda a, out: bool(out)),
        "trade_ratio": answer(P.TRAFFICKER, lambda a, out: out != 2),
        "damage_destroys": answer(P.VANDAL, lambda a, out: _vandal_rule(a[0], a[1])),
    }


# decisions of the powers: (power, (state, action) -> what is counted, or None)
_DECIDED = {
    D.AVIATOR_CREATURE: (P.AVIATOR, lambda s, a: "flyer declared" if a != PASS else None),
    D.AVIATOR_RETREAT: (P.AVIATOR, lambda s, a: "flyer retreats alone"),
    D.LUCKY_REROLL: (P.LUCKY, lambda s, a: "re-roll" if a != PASS else None),
    D.TAX_FARMER_HEX: (P.TAX_FARMER, lambda s, a: "hex marked"),
    D.NOMAD_DEST: (P.NOMAD, lambda s, a: "town moves" if s.frame(NomadMove).town >= 0 else "fort moves"),
    D.GAMBLER_STAKE: (P.GAMBLER, lambda s, a: "stake" if a != NUMBER else None),
}


@contextmanager
def counting() -> Iterator[Counter]:
    """Count the powers' effects on the Python engine while the block runs (see the module's text)."""
    use: Counter = Counter()
    saved_points = []
    for name, wrap in _hooked(use).items():
        h = hooks.POINTS[name]
        impls = list(h.impls)
        i = next(k for k, (_, impl, _) in enumerate(impls) if impl.__module__ == P.__name__)
        saved_points.append((h, impls))
        active, impl, option = impls[i]
        h.impls = impls[:i] + [(active, wrap(impl), option)] + impls[i + 1:]
        setattr(hooks, name, h.dispatcher())
    saved_decisions = {code: machine.DECISIONS[code] for code in _DECIDED}
    for code, (power, what) in _DECIDED.items():
        legal, apply = saved_decisions[code]

        def counted(s, lay, action, apply=apply, power=power, what=what):
            part = what(s, action)
            if part is not None:
                use[NAMES[power]] += 1
                use[f"{NAMES[power]}: {part}"] += 1
            apply(s, lay, action)

        machine.DECISIONS[code] = (legal, counted)
    try:
        yield use
    finally:
        machine.DECISIONS.update(saved_decisions)
        for h, impls in saved_points:
            h.impls = impls
            setattr(hooks, h.name, h.dispatcher())


def table(use: Counter) -> str:
    """Each power's count, then the counted parts of it (decisions, the Brute's full screen)."""
    lines = []
    for name in NAMES:
        parts = ", ".join(f"{k.split(': ', 1)[1]} {v}" for k, v in sorted(use.items()) if k.startswith(name + ": "))
        lines.append(f"  {name:<15} {use[name]:8}" + (f"  ({parts})" if parts else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from ..config import GameConfig
    from .diff import Report, play_whole

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", default="2,3,4")
    ap.add_argument("--max-rounds", type=int, default=6)
    args = ap.parse_args(argv)
    players = [int(p) for p in args.players.split(",")]
    report = Report(show=3)
    with counting() as use:
        for g in range(args.games):
            cfg = GameConfig(n_players=players[g % len(players)], max_rounds=args.max_rounds, encounter_powers=True)
            play_whole(cfg, args.seed + g, report, max_decisions=100_000)
    t = report.tallies["whole game"]
    print(f"{args.games} games with encounter_powers (diff --whole): {t.matched} matched, {t.differed} differed, "
          f"{t.skipped} skipped\npower effects (Python engine, both engines compared at every decision):")
    print(table(use))
    for text in report.firsts:
        print("\n" + text)
    return 1 if t.differed or t.errors or t.skipped else 0


if __name__ == "__main__":
    sys.exit(main())
