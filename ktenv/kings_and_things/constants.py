"""Codes shared by every layer: terrains, counter kinds, places, the neutral side.

Small integers so that state arrays stay int8 and every layer agrees on one meaning.
"""

# Terrains (R0.4.1). Land first, Sea last, so `terrain < SEA` means land.
DESERT, FOREST, FROZEN_WASTE, JUNGLE, MOUNTAIN, PLAINS, SWAMP, SEA = range(8)
TERRAIN_NAMES = ("Desert", "Forest", "Frozen Waste", "Jungle", "Mountain", "Plains", "Swamp", "Sea")
LAND_TERRAINS = tuple(range(7))
N_TERRAINS = 8

# Kinds of Thing (R0.4.5): the counters that live in the cup.
CREATURE, SPECIAL_INCOME, CITY, VILLAGE, TREASURE, MAGIC, EVENT = range(7)
KIND_NAMES = ("creature", "special income", "city", "village", "treasure", "magic item", "event")

# Where a Thing is (R0.5.1). A Thing is in exactly one place.
CUP, SCREEN, BOARD, OUT = range(4)
PLACE_NAMES = ("cup", "screen", "board", "out of the game")

MAX_PLAYERS = 6  # R20.1 six players (two boxes); the standard game has 2-4
PLAYER_COUNTS = (2, 3, 4, 6)  # five players are not covered by any source (R20.1)
NOBODY = -1  # no owner (unowned hex, counter in the cup, hero in the pool)
NEUTRAL = MAX_PLAYERS  # owner code of neutral defenders on the board (R12.2.3); never a seat
SCREEN_LIMIT = 10  # R17.1
STACK_LIMIT = 10  # R11.4

# Phases of a round (R5.1), plus setup and the end (state.py names them too; the procedures read them).
PHASE_CODES = tuple(range(11))
SETUP, INCOME, HEROES, RECRUIT, EVENTS, MOVEMENT, COMBAT, CONSTRUCTION, SPECIAL, CHANGE_ORDER, GAME_OVER = PHASE_CODES
