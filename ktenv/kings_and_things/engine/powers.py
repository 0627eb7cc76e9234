"""R21 "Kings & Things Encounter": the fifteen player powers (only with `encounter_powers`).

The powers change the standard rules through the hook points of `hooks` (each implementation here
is registered for games with `encounter_powers`; without it every point gives the standard rules'
answer). The core never imports this module.

Each player's power is `s.power[p]` (code k is rule R21.(k+1); names in
`config.ENCOUNTER_POWERS`), dealt when the game starts (R21.0 / RD10.16) and public (RI.1). The Tax
Farmer's marked hex is `s.power_hex[p]` (R21.7). What a power remembers between decisions is in
procedure frames (ktenv.kings_and_things.procedures):

- `AviatorFlight`: the Aviator's creature that flies this round, and that round (R21.2); `retreating`:
  that creature while it retreats alone.
- `LuckyReroll`: the Lucky side's re-roll (R21.5); `Battle.lucky_round[side]`: the round it last
  re-rolled.
- `Battle.amoeba_round[side]`: the round in which the Amoeba last ignored a hit (R21.1).
- `Battle.powers_applied`: the battle-start powers were applied; `Battle.stake`: gold each side
  staked (R21.11).
- `NomadMove`: the hex of the Nomad's moving fort or town, and the town; `MovementTurn.fort_spent` /
  `town_spent`: MP spent this movement turn by a fort now in that hex / by a town (R21.10).
- `BruteScreens.over`: players whose screen may be over 10 until the rules next pause, after a
  Charge creature came back to it in the middle of a decision (R21.4, R17.1).

C++ twin: native/src/engine/powers.cpp
"""

from __future__ import annotations

import numpy as np

from .. import catalog as cat
from .. import decisions as D
from ..config import ENCOUNTER_POWERS, power_code
from ..constants import BOARD, CITY, CREATURE, NEUTRAL, SCREEN, SCREEN_LIMIT, VILLAGE
from ..procedures import AviatorFlight, Battle, BruteScreens, LuckyReroll, MovementTurn, NomadMove
from ..state import UNMOVED, GameState
from . import dice, hooks
from . import movement as M
from .actions import NUMBER, PASS, YES, ActionLayout
from .common import move_fort, move_town, to_cup

(AMOEBA, AVIATOR, BUILDER, BRUTE, LUCKY, EXPLORER, TAX_FARMER, KING_OF_THINGS, MAGICIAN, NOMAD, GAMBLER,
 POPULOUS, RECRUITER, TRAFFICKER, VANDAL) = range(len(ENCOUNTER_POWERS))

MP = 4  # R11.1.2 / R21.10: a moving fort or town has 4 MP a movement turn
REROLL = 30  # roll code of the Lucky re-roll (dice.py uses 0-10 and BATTLE + side = 20-24)
MAX_STAKE = 3  # R21.11
FLY_RETREAT = 4  # RD10.16: the Aviator's flyer retreats up to 4 hexes
_EMPTY = np.zeros(0, np.int64)
_T_FLY = cat.THING_FLYING.astype(bool)
_IS_CREATURE = cat.THING_KIND == CREATURE
_IS_TOWN = (cat.THING_KIND == CITY) | (cat.THING_KIND == VILLAGE)
_COST = cat.MOVE_COST.astype(np.int64)
_PLUS_ONE = {  # R21.2 / R21.9: +1 to the recruitment roll of these heroes
    AVIATOR: (cat.hero_id("Ghaog II"), cat.hero_id("Lord of the Eagles")),
    MAGICIAN: (cat.hero_id("Arch Cleric"), cat.hero_id("Arch Mage")),
}
_RECRUITER_TARGET = {4: 7, 5: 8, 6: 9}  # R21.13


def has(s: GameState, player: int, power: int) -> bool:
    """Does `player` (a player, or NEUTRAL / NOBODY) hold `power`?"""
    return s.cfg.encounter_powers and 0 <= player < s.n_players and s.power[player] == power


def holder(s: GameState, power: int) -> int:
    """The player holding `power`, or -1 (powers are distinct, R21.0)."""
    if not s.cfg.encounter_powers:
        return -1
    hit = np.flatnonzero(s.power == power)
    return int(hit[0]) if hit.size else -1


# ----- R21.0 dealing -----

@hooks.game_setup.implement("encounter_powers")
def deal(s: GameState) -> None:
    """R21.0 / RD10.16: as configured, else distinct powers uniformly at random from the game's dice."""
    if not s.cfg.encounter_powers:
        return
    if s.cfg.powers is not None:
        s.power[:] = [power_code(name) for name in s.cfg.powers]
        return
    pool = list(range(len(ENCOUNTER_POWERS)))
    for p in range(s.n_players):
        s.power[p] = pool.pop(s.rng.below(len(pool)))


# ----- interrupts (machine: asked before any phase runner resumes) -----

@hooks.interrupt.implement("encounter_powers")
def pending(s: GameState) -> bool:
    """R21.4 screen flag housekeeping; R21.2 the flyer of a past round is forgotten; R21.5 the Lucky
    re-roll question and its result."""
    if not s.cfg.encounter_powers:
        return False
    fly = s.frame(AviatorFlight)
    if fly is not None and fly.round != s.round:
        s.drop(AviatorFlight)
    brute = s.frame(BruteScreens)
    if brute is not None:
        brute.over = [p for p in brute.over if s.screen_size(p) > SCREEN_LIMIT]
        if not brute.over:  # else the screen check that follows asks the discards (R17.1.2)
            s.drop(BruteScreens)
    lucky = s.frame(LuckyReroll)
    if lucky is None:
        return False
    code = dice.BATTLE + lucky.side
    if lucky.die >= 0:  # the re-roll was made (and offered to the Lucky Charm): use it
        dice.set_die(s, code, lucky.die, dice.take(s, REROLL)[0])
        s.drop(LuckyReroll)
        return False
    lucky.shown = dice.peek(s, code)[:dice.SHOWN]
    s.decision, s.actor = D.LUCKY_REROLL, lucky.side
    return True


# ----- R21.1 Amoeba -----

@hooks.hits_received.implement("encounter_powers")
def amoeba(s: GameState, received: dict[int, int]) -> None:
    """R21.1 / RD10.16: the first hit scored against the Amoeba's side in a round is ignored (a hit
    the Marksman's owner would place goes first, else one of the side's own to assign)."""
    p = holder(s, AMOEBA)
    b = s.frame(Battle)
    if p < 0 or b.amoeba_round[p] == b.round:
        return
    if b.marksman_hits > 0 and b.marksman_target == p:
        b.marksman_hits -= 1
    elif received.get(p, 0) > 0:
        received[p] -= 1
    else:
        return
    b.amoeba_round[p] = b.round  # an ignored hit is no hit for RD7.4 (as the Golem's, C.7): else a battle
    # where only the Amoeba's side is hit, once a round, and nobody can retreat would never end


# ----- R21.2 Aviator -----

def _flight(s: GameState) -> AviatorFlight | None:
    """The Aviator's flight of this round (a past round's is dropped at the next pause), or None."""
    fly = s.frame(AviatorFlight)
    return fly if fly is not None and fly.round == s.round else None


@hooks.flyers.implement("encounter_powers")
def flyers(s: GameState, printed: np.ndarray) -> np.ndarray:
    """R21.2: the Aviator's creature of this round flies too (`creatures.flying`)."""
    fly = _flight(s)
    if fly is None:
        return printed
    out = printed.copy()
    out[fly.flyer] = True
    return out


def _aviator_creatures(s: GameState, p: int) -> np.ndarray:
    """The mover's unmoved non-flying creatures that may be declared, if the power is unused."""
    if not has(s, p, AVIATOR) or _flight(s) is not None:
        return _EMPTY
    n = s.n_things
    return np.flatnonzero((s.thing_owner == p) & (s.thing_place == BOARD) & _IS_CREATURE[:n] & ~_T_FLY[:n]
                          & (s.thing_status == UNMOVED) & (s.thing_mp > 0))


@hooks.extra_start_hexes.implement("encounter_powers")
def aviator_hexes(s: GameState, p: int) -> np.ndarray:
    """Hexes where a move may start by declaring the Aviator's flyer (it may be pinned there)."""
    return np.unique(s.thing_hex[_aviator_creatures(s, p)]).astype(np.int64)


@hooks.move_begins_in.implement("encounter_powers")
def aviator_offer(s: GameState, hx: int) -> bool:
    """R21.2: when a move starts in `hx`, the Aviator may declare one creature there a flyer."""
    t = _aviator_creatures(s, s.actor)
    if not (s.thing_hex[t] == hx).any():
        return False
    s.decision = D.AVIATOR_CREATURE
    return True


def _aviator_pass_ok(s: GameState, hx: int) -> bool:
    """Declining leads somewhere: a counter may join the move, or a pin may be challenged."""
    t, h = M._selectable(s, hx)
    if t.size or h.size:
        return True
    return hx not in s.frame(MovementTurn).challenged and M.pin_challengeable(s, s.actor, hx)


def legal_aviator(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    hx = M.move(s).start
    t = _aviator_creatures(s, s.actor)
    mask[lay.thing + t[s.thing_hex[t] == hx]] = 1
    if _aviator_pass_ok(s, hx):
        mask[PASS] = 1


def apply_aviator(s: GameState, lay: ActionLayout, action: int) -> None:
    if action != PASS:
        s.drop(AviatorFlight)  # a past round's flyer (R21.2)
        s.push(AviatorFlight(flyer=action - lay.thing, round=s.round))
    M.start_from(s, M.move(s).start)


def _flyer_in_battle(s: GameState, side: int) -> int:
    """The Aviator's flyer of this round if it fights in this battle for `side`, else -1."""
    fly = _flight(s)
    if not has(s, side, AVIATOR) or fly is None:
        return -1
    c = fly.flyer
    ok = s.thing_place[c] == BOARD and s.thing_owner[c] == side and s.thing_hex[c] == s.frame(Battle).hex
    return c if ok else -1


def flyer_retreat_hexes(s: GameState, side: int) -> np.ndarray:
    """RD10.16: own hexes without enemy counters within 4 hexes (a flyer's path), room permitting."""
    c = _flyer_in_battle(s, side)
    b = s.frame(Battle)
    if c < 0 or b.forced or b.force_side >= 0:
        return _EMPTY  # a forced retreat moves the whole side (RD7.4, C.1)
    hx = b.hex
    ok = (s.geo.distance[hx] <= FLY_RETREAT) & (s.hex_owner == side) & (s.room_for(side) > 0)
    ok[hx] = False
    enemy = (s.thing_place == BOARD) & _IS_CREATURE[:s.n_things] & (s.thing_owner != side)
    ok[s.thing_hex[enemy]] = False
    ok[s.hero_hex[(s.hero_owner != side) & (s.hero_owner >= 0)]] = False
    return np.flatnonzero(ok)


@hooks.can_fly_away.implement("encounter_powers")
def can_fly_away(s: GameState, side: int) -> bool:
    return flyer_retreat_hexes(s, side).size > 0


@hooks.retreat_options.implement("encounter_powers")
def retreat_options(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """RETREAT: THING (the Aviator's flyer) retreats alone."""
    side = s.frame(Battle).side
    if can_fly_away(s, side):
        mask[lay.thing + _flyer_in_battle(s, side)] = 1


@hooks.retreat_alone.implement("encounter_powers")
def retreat_alone(s: GameState, lay: ActionLayout, action: int) -> bool:
    """RETREAT answered with the flyer: ask where it goes (the side is asked again afterwards)."""
    if not lay.thing <= action < lay.hero:
        return False
    _flight(s).retreating = action - lay.thing
    s.decision = D.AVIATOR_RETREAT
    return True


def legal_fly_retreat(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + flyer_retreat_hexes(s, s.frame(Battle).side)] = 1


def apply_fly_retreat(s: GameState, lay: ActionLayout, action: int) -> None:
    fly = _flight(s)
    c, fly.retreating = fly.retreating, -1
    s.thing_hex[c] = action - lay.hex
    s.thing_face_up[c] = False  # R13.8.6: face down again, still known to all (RI.4)
    s.decision = D.NONE  # the battle asks the rest of the side again (R13.8)


# ----- R21.2 / R21.9 / R21.13 hero recruitment -----

@hooks.hero_roll_bonus.implement("encounter_powers")
def hero_roll_bonus(s: GameState, player: int, face: int) -> int:
    """R21.2 (Ghaog II, Lord of the Eagles) and R21.9 (Arch Cleric, Arch Mage): +1 to the roll."""
    for power, faces in _PLUS_ONE.items():
        if face in faces and has(s, player, power):
            return 1
    return 0


@hooks.hero_target.implement("encounter_powers")
def hero_target(s: GameState, player: int, face: int) -> int:
    """R7.5: twice the combat value; R21.13 Recruiter: 4 -> 7, 5 -> 8, 6 -> 9."""
    value = int(cat.HERO_COMBAT[face])
    if has(s, player, RECRUITER):
        return _RECRUITER_TARGET.get(value, 2 * value)
    return 2 * value


def bonus_cap(s: GameState, player: int, face: int) -> int:
    """RD5.2: gold before the roll only up to certain success (the powers' +1 counted)."""
    return max(0, hero_target(s, player, face) - 2 - hero_roll_bonus(s, player, face))


# ----- R21.3 Builder -----

@hooks.build_cost.implement("encounter_powers")
def build_cost(s: GameState, player: int, standard: int) -> int:
    """R14.1: 5 gold a level; R21.3 Builder: 4."""
    return 4 if has(s, player, BUILDER) else standard


# ----- R21.4 Brute -----

@hooks.eliminate.implement("encounter_powers")
def eliminate(s: GameState, c: int) -> None:
    """An eliminated Thing goes to the cup; R21.4: a Brute's own Charge creature goes behind his
    screen instead (R17.1 applies: over 10, he discards at the next pause)."""
    owner = int(s.thing_owner[c])
    to_cup(s, c)
    if has(s, owner, BRUTE) and _IS_CREATURE[c] and cat.THING_CHARGE[c]:
        s.thing_place[c], s.thing_owner[c] = SCREEN, owner
        if s.screen_size(owner) > SCREEN_LIMIT:
            brute = s.frame(BruteScreens) or s.push(BruteScreens())
            if owner not in brute.over:
                brute.over = sorted(brute.over + [owner])


# ----- R21.5 Lucky -----

@hooks.after_battle_roll.implement("encounter_powers")
def after_battle_roll(s: GameState, side: int, n: int) -> None:
    """After a side's battle roll: the Lucky player may re-roll one own die, once per round."""
    b = s.frame(Battle)
    if n and has(s, side, LUCKY) and b.lucky_round[side] != b.round:
        s.push(LuckyReroll(side=side))


def legal_reroll(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[NUMBER:NUMBER + len(s.frame(LuckyReroll).shown)] = 1
    mask[PASS] = 1


def apply_reroll(s: GameState, lay: ActionLayout, action: int) -> None:
    s.decision = D.NONE
    lucky = s.frame(LuckyReroll)
    if action == PASS:
        s.drop(LuckyReroll)
        return
    b = s.frame(Battle)
    b.lucky_round[lucky.side] = b.round
    lucky.die = action - NUMBER
    dice.roll(s, REROLL, 1)  # roll event (R18.5): read by `pending` once any Lucky Charm window closed


# ----- R21.6 Explorer -----

@hooks.defenders.implement("encounter_powers")
def defenders(s: GameState, player: int, roll: int) -> int:
    """R12.2.2: 1 or 6 none, 2-5 that many; R21.6 Explorer: 5 or 6 none, 1-4 that many."""
    if has(s, player, EXPLORER):
        return 0 if roll >= 5 else roll
    return 0 if roll in (1, 6) else roll


# ----- R21.7 Tax Farmer -----

def _tax_hexes(s: GameState, p: int) -> np.ndarray:
    """Own hexes other than the one marked now (not the same hex twice in a row)."""
    ok = s.hex_owner == p
    if s.power_hex[p] >= 0:
        ok[s.power_hex[p]] = False
    return np.flatnonzero(ok)


@hooks.phase_end_question.implement("encounter_powers")
def tax_farmer_ask(s: GameState) -> bool:
    """End of the Income phase: the Tax Farmer marks a hex (mandatory when there is one)."""
    p = holder(s, TAX_FARMER)
    if p < 0:
        return False
    if not s.alive[p] or _tax_hexes(s, p).size == 0:
        s.power_hex[p] = -1  # the old mark ends with this phase
        return False
    s.decision, s.actor = D.TAX_FARMER_HEX, p
    return True


def legal_tax(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + _tax_hexes(s, s.actor)] = 1


def apply_tax(s: GameState, lay: ActionLayout, action: int) -> None:
    s.power_hex[s.actor] = action - lay.hex
    s.decision = D.NONE


# ----- R21.8 King of Things -----

@hooks.extra_free_things.implement("encounter_powers")
def extra_free_things(s: GameState, player: int) -> int:
    return int(has(s, player, KING_OF_THINGS))


# ----- R21.9 Magician -----

@hooks.magic_to_melee.implement("encounter_powers")
def magic_to_melee(s: GameState, side: int) -> bool:
    """R21.9 / RD10.16: in a battle with the Magician as a side, every other side's magic
    creatures and heroes attack in the melee step (the neutral side's too)."""
    m = holder(s, MAGICIAN)
    if m < 0 or m == side:
        return False
    b = s.frame(Battle)
    return b is not None and m in b.order


# ----- R21.10 Nomad -----

def _spent(spent: list[int], i: int) -> int:
    """MP spent this turn by fort / town `i` (a list per hex / per Thing, grown as needed)."""
    return spent[i] if i < len(spent) else 0


def _spend(spent: list[int], i: int, value: int) -> None:
    if i >= len(spent):
        spent.extend([0] * (i + 1 - len(spent)))
    spent[i] = value


def _nomad_dests(s: GameState, p: int, hx: int, left: int, fort: bool) -> np.ndarray:
    """RD10.16: adjacent own hexes without enemies, MP permitting, with no fort (for a fort) or
    no income counter (for a town) there; nothing leaves a hex where enemies stand (R11.5)."""
    presence = M.enemy_presence(s, p)
    if presence[hx]:
        return _EMPTY
    around = s.geo.neighbours[hx]
    around = around[around >= 0]
    ok = (s.hex_owner[around] == p) & ~presence[around] & (_COST[s.hex_terrain[around]] <= left)
    ok &= (s.hex_fort[around] == 0) if fort else (s.hex_income[around] < 0)
    return around[ok].astype(np.int64)


def _nomad_forts(s: GameState, p: int) -> np.ndarray:
    """Own Towers and Keeps (not Castles, not Citadels) that can still move this turn."""
    hexes = np.flatnonzero((s.hex_owner == p) & (s.hex_fort >= 1) & (s.hex_fort <= 2))
    return np.array([h for h in hexes.tolist()
                     if _nomad_dests(s, p, h, MP - _spent(s.frame(MovementTurn).fort_spent, h), True).size],
                    np.int64)


def _nomad_towns(s: GameState, p: int) -> np.ndarray:
    """Own cities and villages on the board that can still move this turn."""
    counters = s.hex_income[s.hex_owner == p]
    counters = counters[counters >= 0]
    counters = counters[_IS_TOWN[counters]]
    return np.array([c for c in counters.tolist()
                     if _nomad_dests(s, p, int(s.thing_hex[c]), MP - _spent(s.frame(MovementTurn).town_spent, c),
                                     False).size],
                    np.int64)


@hooks.move_options.implement("encounter_powers")
def nomad_options(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    """MOVE_START for the Nomad: THING (own city or village) moves it; YES moves a Tower or Keep."""
    if not has(s, s.actor, NOMAD):
        return
    mask[lay.thing + _nomad_towns(s, s.actor)] = 1
    if _nomad_forts(s, s.actor).size:
        mask[YES] = 1


@hooks.move_start.implement("encounter_powers")
def nomad_start(s: GameState, lay: ActionLayout, action: int) -> bool:
    """MOVE_START answered with a Nomad move (else False: a normal move or the Balloon)."""
    if not has(s, s.actor, NOMAD):
        return False
    if action == YES:
        s.decision = D.NOMAD_FORT
        return True
    c = action - lay.thing
    if lay.thing <= action < lay.hero and _IS_TOWN[c]:
        s.push(NomadMove(hex=int(s.thing_hex[c]), town=c))
        s.decision = D.NOMAD_DEST
        return True
    return False


def legal_nomad_fort(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + _nomad_forts(s, s.actor)] = 1


def apply_nomad_fort(s: GameState, lay: ActionLayout, action: int) -> None:
    s.push(NomadMove(hex=action - lay.hex))
    s.decision = D.NOMAD_DEST


def _nomad_move_dests(s: GameState) -> np.ndarray:
    nomad, turn = s.frame(NomadMove), s.frame(MovementTurn)
    hx, c = nomad.hex, nomad.town
    left = MP - (_spent(turn.town_spent, c) if c >= 0 else _spent(turn.fort_spent, hx))
    return _nomad_dests(s, s.actor, hx, left, c < 0)


def legal_nomad_dest(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[lay.hex + _nomad_move_dests(s)] = 1


def apply_nomad_dest(s: GameState, lay: ActionLayout, action: int) -> None:
    """The fort or town enters the hex and pays its terrain cost (R11.1.2)."""
    dest = action - lay.hex
    nomad, turn = s.frame(NomadMove), s.frame(MovementTurn)
    src, c = nomad.hex, nomad.town
    s.drop(NomadMove)
    cost = int(_COST[s.hex_terrain[dest]])
    if c >= 0:
        _spend(turn.town_spent, c, _spent(turn.town_spent, c) + cost)
        move_town(s, c, src, dest)
    else:
        spent = _spent(turn.fort_spent, src)
        _spend(turn.fort_spent, src, 0)  # the fort's points go with it
        _spend(turn.fort_spent, dest, spent + cost)
        move_fort(s, src, dest)
    s.decision = D.NONE


# ----- R21.9 / R21.11 at the start and end of a battle -----

@hooks.battle_start.implement("encounter_powers")
def battle_start(s: GameState) -> bool:
    """First thing in a battle: R21.11 the Gambler may stake (two-sided battles against a player)."""
    b = s.frame(Battle)
    if not s.cfg.encounter_powers or b.powers_applied:
        return False
    b.powers_applied = True
    g = holder(s, GAMBLER)
    sides = _sides(s)
    if g < 0 or g not in sides or len(sides) != 2 or NEUTRAL in sides or _stake_cap(s, sides) < 1:
        return False
    s.decision, s.actor = D.GAMBLER_STAKE, g
    return True


def _stake_cap(s: GameState, sides: list[int]) -> int:
    """R21.11: up to 3, and no more than either player has (the opponent has as much gold)."""
    return min(MAX_STAKE, *(int(s.gold[p]) for p in sides))


def _sides(s: GameState) -> list[int]:
    return s.frame(Battle).order


def legal_stake(s: GameState, lay: ActionLayout, mask: np.ndarray) -> None:
    mask[NUMBER:NUMBER + _stake_cap(s, _sides(s)) + 1] = 1


def apply_stake(s: GameState, lay: ActionLayout, action: int) -> None:
    k = action - NUMBER
    if k:
        for p in _sides(s):
            s.gold[p] -= k
        s.frame(Battle).stake = k
    s.decision = D.NONE


@hooks.battle_end.implement("encounter_powers")
def battle_end(s: GameState, won: int) -> None:
    """R21.11 / RD10.16: the side holding the hex takes both stakes (the defender unless the
    attacker won). Where that is neither staker (two players met in a third one's hex and neither
    won it), each takes back his own stake."""
    b = s.frame(Battle)
    k, b.stake = b.stake, 0
    if not k:
        return
    taker = won if won >= 0 else b.defender
    if taker in b.order:
        s.gold[taker] += 2 * k
    else:
        for p in b.order:
            s.gold[p] += k


# ----- R21.12 Populous -----

@hooks.fights_as_populous.implement("encounter_powers")
def populous(s: GameState, side: int) -> bool:
    """R21.12: n value-1 creatures attacking in a step roll 3n - 1 dice instead of n (the dice:
    `battle_sides.populous_dice`)."""
    return has(s, side, POPULOUS)


# ----- R21.14 Trafficker -----

@hooks.trade_ratio.implement("encounter_powers")
def trade_ratio(s: GameState, player: int) -> int:
    """R8.1.1: two counters a Thing; R21.14 Trafficker: one (still at most five Things)."""
    return 1 if has(s, player, TRAFFICKER) else 2


# ----- R21.15 Vandal -----

@hooks.damage_destroys.implement("encounter_powers")
def damage_destroys(s: GameState, roll: int) -> bool:
    """R13.10 step 2: a damage roll of 1 or 6 destroys or reduces. R21.15: only a 1 after the Vandal
    conquered the hex in this battle; 1, 2 or 3 after the Vandal lost the hex."""
    if s.cfg.encounter_powers:
        b = s.frame(Battle)
        won, loser = b.winner, b.defender
        if won >= 0 and won != NEUTRAL and won != loser and s.hex_owner[b.hex] == won:
            if has(s, won, VANDAL):
                return roll == 1
            if has(s, loser, VANDAL):
                return roll <= 3
    return roll in (1, 6)


DECISIONS = {
    D.TAX_FARMER_HEX: (legal_tax, apply_tax),
    D.GAMBLER_STAKE: (legal_stake, apply_stake),
    D.AVIATOR_CREATURE: (legal_aviator, apply_aviator),
    D.AVIATOR_RETREAT: (legal_fly_retreat, apply_fly_retreat),
    D.LUCKY_REROLL: (legal_reroll, apply_reroll),
    D.NOMAD_FORT: (legal_nomad_fort, apply_nomad_fort),
    D.NOMAD_DEST: (legal_nomad_dest, apply_nomad_dest),
}
