"""The dice a move rolls, as everybody at the table sees them (RD1.1: every die result is public).

The engine keeps no log of its dice: a rule rolls (`engine.dice.roll`), the Lucky Charm may change a die,
and the rule reads the dice in its next stage (`engine.dice.take`). `move_rolls(state, action)` takes the
move on a copy of the state on the Python reference engine with an observer on `dice.take`, so it records
exactly the dice the rules used, with what they were for: a battle step's dice attacker by attacker (each
attacker by name, as R13.2 reveals every creature of a battle; its effective value; its hits), saving
rolls, damage rolls, the exploration roll. Besides the dice it reads only what the table sees at that roll:
the battle's hex, round, step and targets, the attackers' values, a counter's name only where the state marks
it face up or public. The state itself is left as it was. The native engine is the same game bit for bit, so
a native state's copy rolls the same dice.
The observer (`engine.dice.WATCH`, a thread's own) is set only inside `move_rolls`; elsewhere the engine pays
one attribute read per roll.
"""

from __future__ import annotations

import warnings
from typing import Any

from . import catalog as cat
from .constants import NEUTRAL
from .engine import battle_sides as B
from .engine import dice, hooks
from .procedures import Battle, BattleStage, Exploration
from .state import COMBAT

STEP_NAMES = ("magic", "ranged", "melee")
CITADEL = 4  # the fort level of a Citadel
ROLL_NAMES = {dice.HERO: "hero recruitment roll", dice.EXPLORE: "exploration roll", dice.DAMAGE: "damage roll",
              dice.SAVE: "saving roll", dice.FIREWALL: "Firewall's value roll", dice.WARLORD: "Warlord's roll",
              dice.DUEL_A: "duel roll", dice.DUEL_B: "duel roll", dice.STRIKE: "strike roll",
              dice.EVENT: "event roll", dice.EVENT_B: "event roll"}


def move_rolls(state: Any, action: int) -> list[dict]:
    """The rolls `action` sets off in `state` (the position before it), in the order the rules read them:
    dicts of plain values, seats absolute. Only the Combat phase (R12, R13) is looked at: its battles,
    explorations and the rolls after a battle."""
    if int(state.phase) != COMBAT:
        return []
    from .engine import step

    copy = (state.to_python() if hasattr(state, "to_python") else state).copy()  # to_python is cached: never step it
    rolls: list[dict] = []
    dice.WATCH.on_take = lambda s, code, out: rolls.append(_roll(s, code, out))
    try:
        step(copy, int(action))
        return rolls
    except Exception as exc:  # noqa: BLE001 - the engines disagree (a bug the differential tests hunt): the
        # move itself is the native engine's and stands; only its dice are missing from the log
        warnings.warn(f"the dice of action {action} could not be read on the reference engine: {exc!r}",
                      RuntimeWarning, stacklevel=2)
        return []
    finally:
        dice.WATCH.on_take = None


def _roll(s: Any, code: int, out: list[int]) -> dict:
    """One roll the rules just read (`dice.take`), in plain values."""
    return _battle_roll(s, code - dice.BATTLE, out) if code >= dice.BATTLE else _other_roll(s, code, out)


def _other_roll(s: Any, code: int, rolled: list[int]) -> dict:
    """A roll other than a battle step's: what it was for, and for the exploration and damage rolls where and
    what it did (R12.2.2, R13.10 step 2)."""
    out = {"kind": ROLL_NAMES.get(code, "roll"), "dice": [int(d) for d in rolled]}
    x, b = s.frame(Exploration), s.frame(Battle)
    if code == dice.EXPLORE and x is not None:
        out.update(hex=int(x.hex), player=int(x.player),
                   defenders=int(hooks.defenders(s, int(x.player), dice.table(rolled[0]))))
    elif code == dice.DAMAGE and b is not None:
        hx = int(b.hex)
        fort = b.stage == BattleStage.DAMAGE_FORT_ROLLED
        what = cat.FORT_NAME[int(s.hex_fort[hx])] if fort else cat.THING_NAME[int(s.hex_income[hx])]
        citadel_safe = not (s.cfg.victory == "unique_b" and s.cfg.unique_b_vulnerable == "combat_and_disaster")
        kept = fort and s.hex_fort[hx] == CITADEL and citadel_safe  # R13.10: a Citadel is never reduced
        out.update(hex=hx, what=str(what), fort=fort,
                   destroys=bool(hooks.damage_destroys(s, dice.table(rolled[0]))) and not kept)
    return out


def _battle_roll(s: Any, side: int, rolled: list[int]) -> dict:
    """One side's dice of a battle step, attacker by attacker (R13.4.2: a die at most the effective value
    hits). Read as the battle reads them (`engine.battle._hits`), before the hits are counted."""
    from .engine.battle import target_of

    b = s.frame(Battle)
    entries = B.attackers(s, side, b.step)
    names = _attacker_names(s, side, b.step)
    if names is None or len(names) != len(entries):  # a rule the names do not follow (R21.12 Populous)
        names = ["an attacker"] * len(entries)
    attacks, i = [], 0
    for who, (value, n, _tag) in zip(names, entries):
        thrown = [int(d) for d in rolled[i:i + n]]
        i += n
        attacks.append({"who": who, "value": int(value), "dice": thrown, "hits": sum(d <= value for d in thrown)})
    return {"kind": "battle", "side": int(side), "target": int(target_of(s, side)), "hex": int(b.hex),
            "round": int(b.round), "step": STEP_NAMES[int(b.step)], "attacks": attacks}


def _attacker_names(s: Any, side: int, step: int) -> list[str] | None:
    """The attackers of `B.attackers(s, side, step)` by name, in its order; None where it could differ."""
    if hooks.fights_as_populous(s, side):
        return None
    b = s.frame(Battle)
    hx = b.hex
    dispelled = (side != NEUTRAL and b.dispelled >> side & 1) or hooks.magic_to_melee(s, side)
    bow, sword = B._carried(s, B.BOW, side), B._carried(s, B.SWORD, side)
    riders = B.balloon_riders(s, side)
    sailors, sailing_heroes = hooks.battle_riders(s, side)
    riders = (riders or set()) | sailors if sailors else riders
    out = []
    if step == B.RANGED_STEP:
        out += ["the Balloon"] * (B.balloon_riders(s, side) is not None)
        out += ["the Boat"] * len(hooks.extra_ranged_attacks(s, side))
    for c in B.creatures(s, side, hx).tolist():
        if riders and c in riders:
            own = B.RANGED_STEP
        elif c == bow:
            own = B.RANGED_STEP
        elif c == sword:
            own = B.MELEE_STEP
        else:
            own = B.MELEE_STEP if B._STEP_OF_THING[c] == B.MAGIC_STEP and dispelled else int(B._STEP_OF_THING[c])
        if own == step:
            out.append(_thing_name(s, c))
    for f in B.heroes(s, side, hx).tolist():
        own = B.MELEE_STEP if B._STEP_OF_HERO[f] == B.MAGIC_STEP and dispelled else int(B._STEP_OF_HERO[f])
        if (B.RANGED_STEP if f in sailing_heroes else own) == step:
            out.append(str(cat.HERO_NAME[f]))
    if step == B.MELEE_STEP:
        town = B.town(s, side, hx)
        out += [_thing_name(s, town)] * bool(B.town_value(s, town))
        out += ["the Golem"] * bool(B.has_golem(s, side))
    level = B.fort_value(s, side, hx)
    if level and B.FORT_STEP[int(s.hex_fort[hx])] == step:
        out.append(str(cat.FORT_NAME[int(s.hex_fort[hx])]))
    if step == B.MAGIC_STEP and B.firewall_value(s, side):
        out.append("the Firewall")
    return out


def _thing_name(s: Any, c: int) -> str:
    """A counter's name where the table knows it (R13.2 reveals a battle's creatures), else "a counter"."""
    known = s.thing_face_up[c] or s.thing_public[c] or s.thing_owner[c] == NEUTRAL
    return str(cat.THING_NAME[c]) if known else "a counter"


def roll_lines(rolls: list[dict], seat: int | None, names: list[str]) -> list[str]:
    """The rolls in English for `seat`'s log; `names` are the seats' names in its relative order (0: the seat
    itself, which reads "your"), or in absolute order when `seat` is None (the whole table)."""
    n = len(names)

    def name(side: int) -> str:
        return names[side if seat is None else (side - seat) % n]

    out = []
    for r in rolls:
        if r["kind"] != "battle":
            out.append(f"  {_other_words(r, seat, name)}")
            continue
        side = r["side"]
        whose = "neutral" if side >= n else "your" if side == seat else f"{name(side)}'s"
        parts = [f"{a['who']} ({a['value']}) rolls {_dice_words(a['dice'])}: {_hit_words(a['hits'], len(a['dice']))}"
                 for a in r["attacks"] if a["dice"]]
        if not parts:
            continue
        total = sum(a["hits"] for a in r["attacks"])
        target = r["target"]
        on = "" if target < 0 or not total else \
            " on the neutral defenders" if target >= n else " on you" if target == seat else \
            f" on {name(target)}"
        hits = "no hits" if not total else f"{total} hit{'' if total == 1 else 's'}{on}"
        out.append(f"  {r['step']} step, round {r['round']}: {whose} {'; '.join(parts)} ({hits})")
    return out


def _other_words(r: dict, seat: int | None, name: Any) -> str:
    thrown = _dice_words(r["dice"])
    if "defenders" in r:
        who = "you" if r["player"] == seat else name(r["player"])
        drawn = f"{r['defenders']} defender{'' if r['defenders'] == 1 else 's'} drawn" if r["defenders"] else \
            "no defenders: the hex is taken"
        return f"exploration of h{r['hex']} by {who}: rolls {thrown}: {drawn}"
    if "destroys" in r:
        done = ("it loses a level" if r["fort"] else "it is destroyed") if r["destroys"] else "no damage"
        return f"damage roll for the {r['what']} at h{r['hex']}: {thrown}: {done}"
    return f"{r['kind']}: {thrown}"


def _dice_words(thrown: list[int]) -> str:
    """1; 4 and 2; 3, 5 and 6."""
    words = [str(d) for d in thrown] or ["no dice"]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _hit_words(hits: int, n: int) -> str:
    if n == 1:
        return "a hit" if hits else "a miss"
    return "no hit" if not hits else "a hit" if hits == 1 else f"{hits} hits"

