"""Codes of the decision points (rules page RP): what the pending choice is about (`GameState.decision`;
the engine's parts read them as ``ktenv.kings_and_things.decisions``, which re-exports this module).

The observation carries the code, so an agent knows what each action block means right now.
"""

NONE = 0
# Setup (RP-S)
START_POSITION = 1  # RP-S1: HEX, the first player's start corner
SEA_REPLACE = 2  # RP-S2: YES replace / PASS keep (start_sea_replacement=optional)
CLAIM = 3  # RP-S3: HEX, second or third hex
TOWER = 4  # RP-S4: HEX, where the first Tower stands
PLACE = 5  # RP-S5, RP-S7, RP-3.4, RP-6.13: THING to place (or own income counter to remove), PASS done
PLACE_HEX = 6  # ... then HEX where it goes
EXCHANGE = 7  # RP-S6: THING to give back 1-for-1, PASS done
# Recruit heroes (RP-2)
HERO_CHOOSE = 8  # HERO: dismiss an own hero, or attempt a pool hero; PASS done
HERO_BONUS = 9  # NUMBER b: pay 5*b gold before the roll
HERO_PAY = 10  # YES pay the minimum after a short roll / PASS decline
HERO_PLACE = 11  # HEX for the recruited hero
# Recruit Things (RP-3)
RECRUIT_PAID = 12  # NUMBER: paid Things 0-5 (PASS: skip the draws, free_draws_mandatory=false)
RECRUIT_TRADE = 13  # THING into the trade set; PASS when the set is even
TRADE_KEEP = 14  # THING of the trade set that stays behind the screen (cup ran out, R8.1.5)
DISCARD = 15  # THING to discard to the cup (screen over 10, R17.1.2)
# Construction (RP-7)
BUILD = 16  # HEX to build or upgrade; THING own income counter to remove; PASS done
# Movement (RP-5)
MOVE_START = 17  # HEX: start a move from this hex; PASS: end the movement turn
MOVE_SELECT = 18  # THING/HERO: add an unmoved counter of that hex to the stack; YES: go; PASS: cancel
MOVE_STACK = 19  # DIRECTION: step; THING/HERO member: drop it here; THING/HERO non-member: pick up; PASS: end
FLY_INTEND = 20  # THING/HERO: a flyer that intends to continue (revealed); PASS: done (RP-5.3)
FLY_BLOCK = 21  # THING/HERO: an enemy reveals/declares a flyer to block (RP-5.4); PASS: done
FLY_LEAVE = 22  # THING/HERO: an intending flyer that stays behind (RP-5.5)
PIN_CHALLENGE = 23  # YES: challenge the bluff pin in this hex; PASS: do not (RP-5.6)
PIN_REVEAL = 24  # THING: reveal one supported face-down creature; PASS: decline (RP-5.6)
REMOVE_INCOME = 25  # THING: remove an own income counter; PASS: done (R11.9, RP-5.8)
# Exploration and battles (RP-6)
SEGMENT = 26  # HEX: the pending battle/exploration/contest to resolve now (RP-6.1)
INCOME_TIE = 27  # THING: which tied income counter stays (neutral controller, RP-6.2)
BRIBE = 28  # THING: bribe this defender; PASS: done (RP-6.3)
TARGET = 29  # PLAYER: target side for this round, multi-sided battles (RP-6.6)
ASSIGN_HIT = 30  # THING/HERO: the counter that takes the hit; HEX (the battle hex): the fort (RP-6.10)
RETREAT = 31  # HEX: retreat there; PASS: stay (RP-6.12)
RETREAT_EXCESS = 32  # THING/HERO: eliminated over the stack limit after a retreat (RP-6.12)
HERO_TURN = 33  # YES: turn the eliminated hero's counter over; PASS: keep the side (RP-2.6)
# Events (RP-4)
EVENT_PLAY = 34  # THING: the event to play; PASS: none this round (RP-4.1)
EVENT_HEX = 35  # HEX: the event's hex (Willing Workers, Disaster, Big Juju, Weather Control, Vandals)
EVENT_PLAYER = 36  # PLAYER (relative): the victim (Teenie Pox, Vandals)
EVENT_CASTER = 37  # THING/HERO: the magic creature or hero that casts Big Juju / Weather Control
EVENT_TERRAIN = 38  # NUMBER: the terrain code of the new tile (Big Juju on an own hex)
LOSS = 39  # THING/HERO: a counter lost; HEX: a fort level lost (Disaster, Teenie Pox, Plague)
PLAGUE_HEX = 40  # HEX: the own hex where the next Plague losses are taken
ESCAPE_HEX = 41  # HEX: where survivors of a sunk hex or a blown Balloon escape; PASS: none (eliminated)
DEFECT_HERO = 42  # HERO: the hero Defection tries to win over
LORD_KEEP = 43  # HERO: the terrain lord a player keeps (chosen by the player to the right, R7.10)
REACT = 44  # THING: a reaction item (Dispel Magic, Fan, Elixir); PASS: none (R18.2)
FAN_HEX = 45  # HEX: where the Fan blows the Balloon / the black cloud; PASS: remove the cloud
# Special powers (RP-8)
SPECIAL_USE = 46  # HERO: use the Master Thief or Assassin Primus now; PASS: done
SPECIAL_VICTIM = 47  # PLAYER (relative): the Master Thief's victim
SPECIAL_HEX = 48  # HEX: the Assassin Primus's target hex
THIEF_TAKE = 49  # NUMBER 0: all the victim's gold; 1: one random counter of the victim's screen
ASSASSIN_TARGET = 50  # HERO/THING (a seen counter; the hex owner: any): each side's target; YES: a face-down one (A.7)
# Battle items and heroes (RP-6.4 - RP-6.11)
ITEM_WINDOW = 51  # THING: a magic item to play in this battle window; PASS: none
ITEM_BEARER = 52  # THING: the creature that carries the Magic Bow / Magic Sword
DUST_TARGET = 53  # PLAYER (relative): the attacking side Dust of Defense sends away
WARLORD = 54  # THING: the enemy creature the Warlord tries to turn; PASS: no attempt
MARKSMAN = 55  # NUMBER 5 or 2: the Marksman's value this ranged step
MARKSMAN_HIT = 56  # THING/HERO/HEX: the enemy counter the Marksman's value-2 hit falls on
LUCKY_DIE = 57  # NUMBER: which die of the last roll the Lucky Charm changes; PASS: not now
LUCKY_SIGN = 58  # NUMBER 0: -1, 1: +1
BALLOON_LOAD = 59  # THING: a passenger for the Balloon; YES: lift off; PASS: cancel
BALLOON_DEST = 60  # HEX: where the Balloon lands
# Encounter powers (R21, RP-O; only with encounter_powers)
TAX_FARMER_HEX = 61  # HEX: the own hex whose income counter counts double until the next Income phase ends (R21.7)
GAMBLER_STAKE = 62  # NUMBER 0-3: gold the Gambler stakes on this battle, matched by the opponent (R21.11)
AVIATOR_CREATURE = 63  # THING: own non-flying creature that flies this round; PASS: none now (R21.2)
AVIATOR_RETREAT = 64  # HEX: where the Aviator's flying creature retreats alone (R21.2)
LUCKY_REROLL = 65  # NUMBER: which own die of the roll just made is re-rolled; PASS: keep them (R21.5)
NOMAD_FORT = 66  # HEX: the own Tower or Keep that moves (R21.10)
NOMAD_DEST = 67  # HEX: the adjacent own hex the moving fort, city or village enters (R21.10)
# House content (R22; only with house_content)
AHASUERUS_DEST = 68  # HEX: where Ahasuerus teleports: an own hex or a hex with own creatures (R22.1)
GYPSY_TAKE = 69  # THING: the city/village, HEX (his start hex): the Tower/Keep that follows the Gypsy King; PASS done
PORTAL_SEND = 70  # THING/HERO: a counter the stack's owner sends through the Portal; YES: no more (R22.5)
BOAT_LOAD = 71  # THING/HERO: a passenger for the Boat; YES: sail (R22.6)
BOAT_PATH = 72  # HEX: the next Sea hex of the Boat's path, or the land hex where it lands (R22.6)

NAMES = {
    NONE: "none", START_POSITION: "choose start position", SEA_REPLACE: "replace sea at start",
    CLAIM: "claim a hex", TOWER: "place the first tower", PLACE: "place a thing",
    PLACE_HEX: "hex for the thing", EXCHANGE: "exchange things", HERO_CHOOSE: "recruit heroes",
    HERO_BONUS: "gold before the hero roll", HERO_PAY: "gold after the hero roll",
    HERO_PLACE: "hex for the hero", RECRUIT_PAID: "paid things", RECRUIT_TRADE: "trade set",
    TRADE_KEEP: "trade counter kept", DISCARD: "discard to 10", BUILD: "build forts",
    MOVE_START: "start a move", MOVE_SELECT: "choose the moving stack", MOVE_STACK: "move the stack",
    FLY_INTEND: "flyers that continue", FLY_BLOCK: "block enemy flyers", FLY_LEAVE: "flyers left behind",
    PIN_CHALLENGE: "challenge the pin", PIN_REVEAL: "reveal against a challenge",
    REMOVE_INCOME: "remove income counters", SEGMENT: "choose a battle or exploration",
    INCOME_TIE: "income counter that stays", BRIBE: "bribe defenders", TARGET: "target side",
    ASSIGN_HIT: "assign a hit", RETREAT: "retreat", RETREAT_EXCESS: "eliminate over the limit",
    HERO_TURN: "turn the lost hero over", EVENT_PLAY: "play an event", EVENT_HEX: "event hex",
    EVENT_PLAYER: "event victim", EVENT_CASTER: "magic caster", EVENT_TERRAIN: "new terrain",
    LOSS: "take a loss", PLAGUE_HEX: "plague hex", ESCAPE_HEX: "escape hex", DEFECT_HERO: "defection hero",
    LORD_KEEP: "terrain lord kept", REACT: "react", FAN_HEX: "fan direction", SPECIAL_USE: "special power",
    SPECIAL_VICTIM: "thief's victim", SPECIAL_HEX: "assassin's hex", THIEF_TAKE: "what the thief takes",
    ASSASSIN_TARGET: "assassin's target", ITEM_WINDOW: "play a battle item", ITEM_BEARER: "item bearer",
    DUST_TARGET: "dust target", WARLORD: "warlord's target", MARKSMAN: "marksman's value",
    MARKSMAN_HIT: "marksman's hit", LUCKY_DIE: "lucky charm die", LUCKY_SIGN: "lucky charm +/-",
    BALLOON_LOAD: "balloon passengers", BALLOON_DEST: "balloon destination",
    TAX_FARMER_HEX: "tax farmer's hex", GAMBLER_STAKE: "gambler's stake", AVIATOR_CREATURE: "aviator's flyer",
    AVIATOR_RETREAT: "aviator's flyer retreats", LUCKY_REROLL: "lucky re-roll", NOMAD_FORT: "nomad's fort",
    NOMAD_DEST: "nomad's destination", AHASUERUS_DEST: "ahasuerus's destination",
    GYPSY_TAKE: "what follows the gypsy king", PORTAL_SEND: "sent through the portal",
    BOAT_LOAD: "boat passengers", BOAT_PATH: "boat path",
}
N_DECISIONS = len(NAMES)


def n_decisions(house: bool) -> int:
    """Codes a game can reach: the house decisions are the last codes (from AHASUERUS_DEST), so a game
    without house_content has the codes before them (and its observation one-hot stays as it was)."""
    return N_DECISIONS if house else AHASUERUS_DEST
