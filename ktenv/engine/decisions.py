"""Codes of the decision points (rules page RP): what the pending choice is about.

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

NAMES = {
    NONE: "none", START_POSITION: "choose start position", SEA_REPLACE: "replace sea at start",
    CLAIM: "claim a hex", TOWER: "place the first tower", PLACE: "place a thing",
    PLACE_HEX: "hex for the thing", EXCHANGE: "exchange things", HERO_CHOOSE: "recruit heroes",
    HERO_BONUS: "gold before the hero roll", HERO_PAY: "gold after the hero roll",
    HERO_PLACE: "hex for the hero", RECRUIT_PAID: "paid things", RECRUIT_TRADE: "trade set",
    TRADE_KEEP: "trade counter kept", DISCARD: "discard to 10", BUILD: "build forts",
}
N_DECISIONS = len(NAMES)
