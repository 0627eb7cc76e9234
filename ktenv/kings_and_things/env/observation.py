"""Per-player observation: what one player may know (rules RI), as one fixed-shape float32 vector.

Everything is seen from the observer's seat: player columns and rows are *relative* (index 0 is
the observer, 1 the next player in seat order, ...; ``neutral`` is the neutral side of
explorations). Hidden facts never enter the vector (RI.2, RI.3): opponents' face-down creatures
count only as numbers (unless their identity became public, RI.4), opponents' screens only by
size, the cup never by content (its size only with ``cup_size_public``), the generator never.

The layout (sections, columns, ranges) is built by `build_layout` and documented in
docs/observation.md; `ObservationEncoder.encode` fills it with a few dozen vectorised numpy
operations. To extend it (Engine III), add a column to a section here and write it in `encode`;
a register of the pending decision is added to `REGISTERS` (no encoder code needed).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from ...gamekit.layout import Column, ObservationLayout
from .. import catalog as cat
from .. import decisions as D
from ..config import ENCOUNTER_POWERS, GameConfig
from ..constants import (
    BOARD,
    CITY,
    CREATURE,
    CUP,
    KIND_NAMES,
    NEUTRAL,
    OUT,
    SCREEN,
    SPECIAL_INCOME,
    TERRAIN_NAMES,
    VILLAGE,
)
from ..engine import kadab
from ..procedures import FRAMES
from ..state import PHASE_NAMES, RECRUIT, GameState
from .stats import HEXES, STAT_COLUMNS, player_stats

GOLD_CAP = 2**31  # the state stores gold as int32, so this bound is never exceeded
ROUND_CAP = 10_000  # GameConfig.max_rounds' upper limit

# ----- registers of the pending decision (procedure frame fields) that an observer may see -----

SCALAR, HEX, THING, HERO, SIDE, PER_SIDE, OWN_SIDE = "scalar", "hex", "thing", "hero", "side", "per_side", "own_side"
PUBLIC, ACTOR, OWNER = "public", "actor", "owner"
_WHO = {PUBLIC: "", ACTOR: " [actor only]", OWNER: " [owner only]"}
# Decisions only their actor may know are pending (RD8.2: the Lucky Charm window).
PRIVATE_DECISIONS = frozenset((D.LUCKY_DIE, D.LUCKY_SIGN))


LENGTH = -1  # frame_source's index of "len(Frame.list)": the list's length


def frame_source(source: str) -> tuple[type, str, int | None]:
    """What a register reads: "Battle.hex" -> (Battle, "hex", None); an element of a list field,
    "LuckyCharm.shown[3]" -> (LuckyCharm, "shown", 3) (absent past the list's end); its length,
    "len(LuckyCharm.shown)" -> (LuckyCharm, "shown", LENGTH)."""
    path, index = source, None
    if path.startswith("len(") and path.endswith(")"):
        path, index = path[4:-1], LENGTH
    elif path.endswith("]") and "[" in path:
        path, _, i = path[:-1].partition("[")
        index = int(i) if i.isdigit() else None
        if index is None:
            raise TypeError(f"observation register source {source!r}: the index must be a number")
    cls_name, _, name = path.partition(".")
    cls = next((c for c in FRAMES.values() if c.__name__ == cls_name), None)
    fields = {f.name: f for f in dataclasses.fields(cls)} if cls is not None else {}
    if name not in fields or (index is not None and not fields[name].metadata.get("series")):
        raise TypeError(f"observation register source {source!r}: no such procedure frame field")
    return cls, name, index


@dataclass(frozen=True)
class Register:
    """One procedure frame field the observation carries, in columns named ``reg_<key>`` (the names of
    the version-2 registers, which trained models and agents read).

    source: the frame field, "Battle.hex"; "LuckyCharm.shown[3]" one element of a list field,
    "len(LuckyCharm.shown)" its length (`frame_source`). A source that does not exist fails at import.
    kind: SCALAR (a number, column in `registers`); HEX / THING / HERO (an index, a 0/1 column
    ``reg_<key>`` in that table); SIDE (a player code or NEUTRAL, one-hot over relative sides in
    `registers`); PER_SIDE (a per-side list field, a number per relative side); OWN_SIDE (a per-side
    list field of which the observer sees only its own entry, e.g. the secret battle target, RI.6;
    the value is a side, one-hot over relative sides).
    house: the register exists only with house_content, so default layouts stay as they were.
    visible: PUBLIC (everybody), OWNER (a THING register: only the owner of that Thing, e.g. the
    Aviator's flyer, R21.2) or ACTOR (only the player who decides now, e.g. the Thing they
    picked to place, which is still behind their screen).
    """

    key: str
    kind: str
    visible: str = PUBLIC
    high: float = 1.0
    doc: str = ""
    house: bool = False  # exists only in games with house_content (R22)
    source: str = ""  # the frame field it reads (`ktenv.kings_and_things.procedures`)

    def __post_init__(self) -> None:
        frame_source(self.source)  # a register naming a field that does not exist fails at import


REGISTERS: tuple[Register, ...] = (
    # recruiting and placement (Engine I)
    Register("paid", SCALAR, high=5, doc="paid Things declared this recruiting turn (R8.1.1)",
             source="RecruitTurn.paid"),
    Register("keep", SCALAR, high=10, doc="trade counters still to keep after the cup ran out (R8.1.5)",
             source="RecruitTurn.keep"),
    Register("cost", SCALAR, high=200, doc="gold asked after a short hero roll (R7.6)", source="HeroRecruit.cost"),
    Register("attempts", SCALAR, high=100, doc="hero recruiting attempts this turn", source="HeroRecruit.attempts"),
    Register("place_new", SCALAR, doc="placement limited to Things drawn in the exchange (R4.10)",
             source="Placement.only_new"),
    Register("place_remove", SCALAR, doc="own income counters may be removed in this placement (R8.2.2)",
             source="Placement.may_remove"),
    Register("place_hex", HEX, doc="placement limited to this hex (conquest, R13.11.2)", source="Placement.hex"),
    Register("thing", THING, ACTOR, doc="the Thing chosen for placement, hex still to choose (actor only)",
             source="Placement.thing"),
    Register("hero", HERO, doc="the pool hero being recruited (R7.3)", source="HeroRecruit.hero"),
    Register("hero_turn", HERO, doc="the lost hero whose counter may be turned over (R7.11)",
             source="HeroTurnOver.face"),
    # exploration (Engine II, R12.2)
    Register("x_hex", HEX, doc="hex being explored", source="Exploration.hex"),
    Register("x_player", SIDE, doc="exploring player", source="Exploration.player"),
    Register("x_ctrl", SIDE, doc="player running the neutral defenders (RD1.6)",
             source="Exploration.controller"),
    # battles (Engine II, R13); every die and hit is public (RD1.1)
    Register("b_hex", HEX, doc="hex of the battle under way", source="Battle.hex"),
    Register("b_kind", SCALAR, high=2, doc="battle kind: 0 owned hex, 1 exploration, 2 contest", source="Battle.kind"),
    Register("b_round", SCALAR, high=1000, doc="combat round", source="Battle.round"),
    Register("b_step", SCALAR, high=2, doc="step: 0 magic, 1 ranged, 2 melee", source="Battle.step"),
    Register("b_multi", SCALAR, doc="multi-sided battle (R13.12)", source="Battle.multi"),
    Register("b_nohit", SCALAR, high=50, doc="rounds in a row without a hit (RD7.4)",
             source="Battle.rounds_without_hit"),
    Register("b_def", SIDE, doc="defending side", source="Battle.defender"),
    Register("b_att", SIDE, doc="attacking player who started the battle", source="Battle.attacker"),
    Register("b_ctrl", SIDE, doc="player running the neutral side", source="Battle.controller"),
    Register("b_side", SIDE, doc="side whose choice it is (targets, hits, retreat)", source="Battle.side"),
    Register("b_winner", SIDE, doc="winning side of the finished battle", source="Battle.winner"),
    Register("b_hits", PER_SIDE, high=200, doc="hits the side still has to assign this step", source="Battle.hits"),
    Register("b_target", OWN_SIDE, doc="the observer's own target side this round (secret, RI.6)",
             source="Battle.targets"),
    Register("b_firewall", SCALAR, high=7, doc="value of the Firewall in play (C.5)", source="Battle.firewall"),
    Register("b_marksman", SCALAR, high=5, doc="the Marksman's value this ranged step (A.6)", source="Battle.marksman"),
    Register("b_mhits", SCALAR, high=10, doc="Marksman hits his owner still places (A.6)",
             source="Battle.marksman_hits"),
    Register("b_mtarget", SIDE, doc="side the Marksman's hits fall on", source="Battle.marksman_target"),
    Register("b_dust", SIDE, doc="attacking side sent away by Dust of Defense (C.1)", source="Battle.dust"),
    Register("b_item", THING, doc="magic item just played, awaiting reactions (R18.2)", source="Battle.item"),
    Register("b_bear", THING, doc="Bow or Sword whose bearer is chosen: new, or moved as a round starts (C.10, C.11)",
             source="Battle.bearer_item"),
    Register("ex_hex", HEX, doc="hex where counters over the stack limit are eliminated (R13.8.4, RP-5.9)",
             source="Excess.hex"),
    Register("ex_side", SIDE, doc="player who eliminates them", source="Excess.side"),
    # movement (R11)
    Register("mv_hex", HEX, doc="where the moving stack is (also over Sea)", source="Move.hex"),
    Register("mv_sel", HEX, doc="hex whose counters are being chosen for a move", source="Move.start"),
    Register("bl_hex", HEX, doc="hex the Balloon lifts off from (C.2)", source="BalloonFlight.hex"),
    Register("bl_dest", HEX, doc="hex the Balloon is flying to", source="BalloonFlight.dest"),
    Register("bl_owner", SIDE, doc="owner of the Balloon in play this round", source="BalloonFlight.owner"),
    Register("bl_n", SCALAR, high=3, doc="Balloon passengers", source="BalloonFlight.n"),
    # events (R10, Appendix B), losses, special powers (R15)
    Register("ev_c", THING, doc="event being resolved", source="Event.card"),
    Register("ev_p", SIDE, doc="player who played it", source="Event.player"),
    Register("ev_q", SIDE, doc="its victim or the other side concerned", source="Event.other"),
    Register("ev_hex", HEX, doc="the event's target hex", source="Event.hex"),
    Register("ev_dest", HEX, doc="destination hex in the event (escape, placement)", source="Event.dest"),
    Register("ev_hero", HERO, doc="hero concerned (Defection)", source="Event.hero"),
    Register("ev_roll", SCALAR, high=14, doc="the event's roll", source="Event.roll"),
    Register("ev_roll2", SCALAR, high=14, doc="the event's second roll", source="Event.roll2"),
    Register("ev_n", SCALAR, high=20, doc="losses or counters still to take", source="Event.n"),
    Register("ls_hex", HEX, doc="hex where losses are taken (B.2, B.4, B.7)", source="Losses.hex"),
    Register("ls_owner", SIDE, doc="player taking the losses", source="Losses.owner"),
    Register("ls_n", SCALAR, high=20, doc="losses still to take", source="Losses.left"),
    Register("sp_hero", HERO, doc="special-power hero in use (A.5, A.7)", source="SpecialPower.hero"),
    Register("sp_victim", SIDE, doc="the power's victim", source="SpecialPower.victim"),
    Register("sp_hex", HEX, doc="the Assassin Primus's hex", source="SpecialPower.hex"),
    Register("lucky_n", SCALAR, ACTOR, high=16, doc="dice of the roll the Lucky Charm may change (holder only)",
             source="len(LuckyCharm.shown)"),
    *(Register(f"lucky_d{i}", SCALAR, ACTOR, high=7, doc=f"die {i} of that roll (holder only)",
               source=f"LuckyCharm.shown[{i}]") for i in range(16)),
    Register("lucky_die", SCALAR, ACTOR, high=15, doc="the die the holder chose to change", source="LuckyCharm.die"),
    # Encounter powers (R21, only with encounter_powers)
    Register("pw_fly", THING, OWNER, doc="the Aviator's creature that flies this round (R21.2)",
             source="AviatorFlight.flyer"),
    Register("pw_ar", THING, doc="the Aviator's flyer retreating alone (R21.2)", source="AviatorFlight.retreating"),
    Register("pw_lk", SIDE, doc="the Lucky side that may re-roll one die of its roll (R21.5)",
             source="LuckyReroll.side"),
    Register("pw_lk_n", SCALAR, high=16, doc="dice of that roll (R21.5)", source="len(LuckyReroll.shown)"),
    *(Register(f"pw_d{i}", SCALAR, high=7, doc=f"die {i} of that roll (R21.5)", source=f"LuckyReroll.shown[{i}]")
      for i in range(16)),
    Register("b_stake", SCALAR, high=3, doc="gold each side staked on this battle (R21.11 Gambler)",
             source="Battle.stake"),
    Register("pw_nm", THING, doc="the Nomad's city or village being moved (R21.10)", source="NomadMove.town"),
    Register("pw_nm_hex", HEX, doc="hex of the Nomad's fort or town being moved (R21.10)", source="NomadMove.hex"),
    # house content (R22, only with house_content)
    Register("mv_gk", HEX, doc="hex the Gypsy King started this movement turn in (R22.3)", house=True,
             source="MovementTurn.gypsy_start"),
    Register("bt_hex", HEX, doc="hex the Boat sails from (R22.6)", house=True, source="BoatTrip.hex"),
    Register("bt_at", HEX, doc="where the Boat's path is now (the start hex or its last Sea hex)", house=True,
             source="BoatTrip.at"),
    Register("bt_dest", HEX, doc="hex the Boat is sailing to, awaiting reactions", house=True, source="BoatTrip.dest"),
    Register("bt_owner", SIDE, doc="owner of the Boat in play this round", house=True, source="BoatTrip.owner"),
    Register("bt_n", SCALAR, high=3, doc="Boat passengers", house=True, source="BoatTrip.n"),
    Register("bt_k", SCALAR, high=3, doc="Sea hexes the Boat has crossed (1-3)", house=True, source="BoatTrip.crossed"),
)

PLAYER_COLUMN_DOCS = {
    "alive": "still in the game (R16.6)", "gold": "gold", "hexes": "land hexes owned",
    "income": "current income (R6.2)", "fort_levels": "sum of fort levels", "forts": "forts owned",
    "citadels": "Citadels owned", "heroes": "heroes owned", "screen": "counters behind the screen (RD3.3)",
    "board_things": "Things on the board (income counters not counted)",
    "income_counters": "income counters on own hexes", "drawn": "Things drawn this recruiting turn",
    "trade_set": "counters in the trade set being declared (R8.1.1, public)",
}
_PLAYER_HIGH = {"alive": 1, "gold": GOLD_CAP, "income": 1000, "fort_levels": 200, "trade_set": 10}

# Sides in hex stacks: relative players 0..n-1, then neutral.
# (fact, upper bound as a multiple of the number of Things (T) or hero faces (F), doc)
STACK_FACTS = (
    ("things", "T", "Things of the side in the hex (income counter not counted)"),
    ("hidden", "T", "of which face down and never revealed (identity unknown to others)"),
    ("known", "T", "of which identified to all (face up, or revealed earlier: RI.4)"),
    ("known_combat", "6T", "sum of combat values of the identified ones"),
    ("heroes", "F", "heroes of the side in the hex"),
    ("hero_combat", "6F", "sum of their combat values"),
)
FLAG_NAMES = ("flying", "magic", "ranged", "charge")
_FLAGS = (cat.THING_FLYING, cat.THING_MAGIC, cat.THING_RANGED, cat.THING_CHARGE)
_IS_INCOME = np.isin(cat.THING_KIND, (SPECIAL_INCOME, CITY, VILLAGE))
_IS_CREATURE = cat.THING_KIND == CREATURE
_INCOME_KIND_COL = np.full(len(KIND_NAMES), -1, np.intp)
_INCOME_KIND_COL[[SPECIAL_INCOME, CITY, VILLAGE]] = (0, 1, 2)
_COMBAT = cat.THING_COMBAT.astype(np.float32)
_HERO_COMBAT = cat.HERO_COMBAT.astype(np.float32)
_FACE_SIDE = np.arange(len(cat.HERO_NAME)) % 2
_FACE_COUNTER = np.arange(len(cat.HERO_NAME)) // 2


def _ident(text: str) -> str:
    return text.lower().replace(" ", "_").replace("-", "_")


def _decision_names(house: bool) -> list[str]:
    names = {v: k.lower() for k, v in vars(D).items() if k.isupper() and isinstance(v, int) and k != "N_DECISIONS"}
    return [names.get(i, f"code_{i}") for i in range(D.n_decisions(house))]


def _side_names(n: int) -> list[str]:
    return [f"rel{k}" for k in range(n)] + ["neutral"]


def registers(house: bool = False) -> tuple[Register, ...]:
    """The registers a game observes (the house registers only with house_content)."""
    return tuple(r for r in REGISTERS if house or not r.house)


def build_layout(n_players: int, n_hexes: int, house: bool = False, kadab: bool = False) -> ObservationLayout:
    """The layout for a config: it depends on the number of players, the board, the game's catalog
    (`house`: house_content, R22), Mysterious Kadab (`kadab`: the face_down column, R20.3) and the
    engine's decision codes. Default games have neither, so their layout never changes with them."""
    n, h = n_players, n_hexes
    catalog = cat.catalog_for(n, house)  # the box; the house block (R22); two boxes with six (R20.1)
    nt, nf = catalog.N_THINGS, catalog.N_HERO_FACES
    regs = registers(house)
    rel = [f"rel{k}" for k in range(n)]
    sides = _side_names(n)
    col = Column

    def family(group: str, names: list[str], low: float, high: float, doc: str) -> list[Column]:
        """One column per name, documented once as `group`."""
        return [col(group.replace("*", name), low, high, doc, group) for name in names]

    game = [
        col("round", 0, ROUND_CAP, "round number (0 during setup)"),
        col("rounds_left", 0, ROUND_CAP, "rounds left before the round limit (0: no limit)"),
        *family("phase_*", [_ident(p) for p in PHASE_NAMES], 0, 1,
                "phase, one-hot in the order of `ktenv.kings_and_things.state.PHASE_NAMES` (setup ... game over)"),
        *family("decision_*", _decision_names(house), 0, 1,
                "pending decision, one-hot over the codes of `ktenv.kings_and_things.decisions` in code order "
                "(`decision_none` ... ); what each action block means under it: docs/actions.md"),
        col("is_actor", 0, 1, "the observer decides now"),
        *family("actor_*", rel, 0, 1, "who decides now, by relative seat (one-hot; all 0 when nobody)"),
        *family("first_*", rel, 0, 1, "first player of the round, by relative seat (one-hot)"),
        col("turn_position", -1, n - 1, "observer's place in this round's turn order (-1: out)"),
        col("cup_ran_dry", 0, 1, "the cup ran out: true elimination (R17.2, public)"),
        col("cup_size_public", 0, 1, "config cup_size_public (RD3.4)"),
        col("cup_size", 0, nt, "counters in the cup, only when cup_size_public (else 0)"),
        *family("fort_left_*", [cat.FORT_NAME[k].lower() for k in range(1, 5)], 0, 32,
                "fort counters of that level (tower, keep, castle, citadel) left in the bank; 32 with "
                "unlimited supply"),
        *family("hex_stack_*", [_ident(t) for t in TERRAIN_NAMES], 0, 48,
                "tiles of that terrain (desert ... sea) left in the hex stack (multiset public, RI.1)"),
    ]
    reg_columns = []
    for r in regs:
        who = _WHO[r.visible]
        if r.kind == SCALAR:
            reg_columns.append(col(f"reg_{r.key}", 0, r.high, r.doc + who))
        elif r.kind in (SIDE, OWN_SIDE):
            reg_columns += family(f"reg_{r.key}_*", sides, 0, 1, f"{r.doc}; relative side, one-hot{who}")
        elif r.kind == PER_SIDE:
            reg_columns += family(f"reg_{r.key}_*", sides, 0, r.high, f"{r.doc}; per relative side{who}")
    players = [col(name, 0, _PLAYER_HIGH.get(name, nt), PLAYER_COLUMN_DOCS[name]) for name in STAT_COLUMNS]
    players += [
        col("turn_position", -1, n - 1, "place in this round's turn order (-1: out)"),
        col("is_first", 0, 1, "first player this round"),
        col("is_actor", 0, 1, "decides now"),
        *family("power_*", [_ident(name) for name in ENCOUNTER_POWERS], 0, 1,
                "Encounter power, one-hot (R21, public; all 0 without encounter_powers)"),
        col("marked_hex", -1, h - 1, "hex marked by the Tax Farmer, -1: none (R21.7)"),
    ]
    hexes = [
        *family("terrain_*", [_ident(t) for t in TERRAIN_NAMES], 0, 1,
                "terrain, one-hot (desert ... sea); all 0 for a face-down tile (R20.3) unless the observer "
                "looked at it with Tycho Brahe (R22.4)"),
        *([col("face_down", 0, 1, "the tile is still face down (only with Mysterious Kadab, R20.3)")] if kadab else []),
        *family("owner_*", rel, 0, 1, "owner by relative seat, one-hot (all 0: unowned)"),
        col("fort", 0, 4, "fort level: 0 none, 1 Tower, 2 Keep, 3 Castle, 4 Citadel"),
        col("fort_damage", 0, 4, "hits on the fort in the battle under way (R13.5.2)"),
        col("fort_changed", 0, 1, "fort built or raised this round (R14.2)"),
        col("citadel_age", 0, ROUND_CAP, "rounds since the Citadel here was acquired (R16.2)"),
        col("income_special", 0, 1, "the hex's income counter is a special income counter"),
        col("income_city", 0, 1, "... is a city"),
        col("income_village", 0, 1, "... is a village"),
        col("income_value", 0, 10, "printed income value of the counter"),
        col("income_combat", 0, 6, "combat value of a city or village"),
        col("income_damage", 0, 6, "hits on the city or village in the battle under way"),
        col("cloud", 0, 1, "the black cloud is here (B.10)"),
        *[col(f"reg_{r.key}", 0, 1, r.doc) for r in regs if r.kind == HEX],
    ]
    for fact, bound, doc in STACK_FACTS:
        high = int(bound[:-1] or 1) * {"T": nt, "F": nf}[bound[-1]]
        hexes += family(f"{fact}_*", sides, 0, high, f"{doc}; per relative side (rel0 = observer, neutral)")
    hexes += family("own_value_*", [str(v) for v in range(1, 7)], 0, 10,
                    "observer's creatures here of combat value 1 ... 6")
    hexes += family("own_*", list(FLAG_NAMES), 0, 10, "observer's flying / magic / ranged / charging creatures here")
    hexes += [col("own_unsupported", 0, 10, "observer's creatures here that are bluffs now (R9.1)")]
    things = [
        col("mine_screen", 0, 1, "behind the observer's screen"),
        col("on_board", 0, 1, "on the board and identified to the observer (own, or public)"),
        col("hex", -1, h - 1, "its hex when on_board, else -1"),
        *family("owner_*", sides, 0, 1, "owner by relative side, one-hot, when identified (else all 0)"),
        # the next nine columns are filled for on_board rows only
        col("face_up", 0, 1, "face up (on_board rows only, like the next eight)"),
        col("public", 0, 1, "identity known to all players (RI.4)"),
        col("mp", 0, 127, "movement points left"),
        col("status", 0, 127, "movement status: 0 unmoved, 1 moving, 2 done"),
        col("pinned", 0, 1, "pinned at the start of the movement turn (R11.5)"),
        col("moved", 0, 1, "entered a hex this movement turn"),
        col("damage", 0, 127, "hits taken in the battle under way"),
        col("fought", 0, 1, "neutral defender that fought a round (R12.4.2)"),
        col("in_play", 0, 1, "a magic item in use in a battle or a move (public)"),
        col("selected", 0, 1, "in the observer's trade/exchange selection, or in an opponent's public trade set"),
        col("new", 0, 1, "drawn in the observer's setup exchange (R4.10)"),
        col("out", 0, 1, "removed from the game (public)"),
        col("supported", 0, 1, "observer's creature on the board that is supported now (R9.1)"),
        col("bearer", -1, nt - 1, "Thing id of the creature carrying this Magic Bow / Sword, else -1"),
        *[col(f"reg_{r.key}", 0, 1, r.doc + _WHO[r.visible])
          for r in regs if r.kind == THING],
    ]
    heroes = [
        col("up", 0, 1, "this face is the face-up side of its counter (public, RD3.6)"),
        col("pool", 0, 1, "in the pool, available to recruit"),
        *family("owner_*", rel, 0, 1, "owner by relative seat, one-hot"),
        col("hex", -1, h - 1, "its hex, -1 in the pool"),
        col("mp", 0, 127, "movement points left"),
        col("status", 0, 127, "movement status: 0 unmoved, 1 moving, 2 done"),
        col("pinned", 0, 1, "pinned at the start of the movement turn"),
        col("moved", 0, 1, "entered a hex this movement turn"),
        col("damage", 0, 127, "hit taken in the combat step under way"),
        *[col(f"reg_{r.key}", 0, 1, r.doc) for r in regs if r.kind == HERO],
    ]
    me = [
        *family("screen_*", [_ident(k) for k in KIND_NAMES], 0, 20,
                "counters of that kind (creature, special_income, city, village, treasure, magic_item, event) "
                "behind the observer's screen"),
        col("screen_gold", 0, 200, "gold value of the treasures behind the screen (R18.3)"),
        col("free_things", 0, 20, "free Things at the next recruiting (R8.1.1: hexes / 2 rounded up; "
            "+1 King of Things, R21.8)"),
    ]
    return ObservationLayout([
        ("game", 1, "game (1 row)", game),
        ("registers", 1, "game (1 row): the pending decision's registers", reg_columns),
        ("players", n, "player, by relative seat (row 0 = observer, 1 = next in seat order, ...)", players),
        ("hexes", h, "hex, in spiral order (R3.1.4; the HEX action block's order)", hexes),
        ("things", nt, "Thing, by catalog id (the THING action block's order)", things),
        ("heroes", nf, "hero face, by catalog id (the HERO action block's order)", heroes),
        ("self", 1, "game (1 row): the observer's own screen", me),
    ])


# Static per-Thing lookup tables, indexed by id + 1 so that -1 ("none") reads entry 0.
_INC_VALUE1 = np.concatenate(([0], cat.THING_INCOME)).astype(np.float32)
_INC_COMBAT1 = np.concatenate(([0], cat.THING_COMBAT)).astype(np.float32)
_NOT_INCOME = ~_IS_INCOME
_COMBAT_KEY = np.maximum(cat.THING_COMBAT.astype(np.intp) - 1, 0)  # value-1 for the own_value_* block
_LORD_FACES = np.flatnonzero(cat.HERO_LORD_TERRAIN >= 0)
_KING = ENCOUNTER_POWERS.index("King of Things")  # R21.8: one more free Thing
_TERRAIN9 = np.where(cat.THING_TERRAIN >= 0, cat.THING_TERRAIN, 8).astype(np.intp)  # 8: no terrain
# State arrays copied into contiguous column blocks (names in column order).
THING_BOARD_ARRAYS = ("thing_face_up", "thing_public", "thing_mp", "thing_status", "thing_pinned",
                      "thing_moved", "thing_damage", "thing_fought", "thing_in_play")
HERO_ARRAYS = ("hero_mp", "hero_status", "hero_pinned", "hero_moved", "hero_damage")


class ObservationEncoder:
    """Fills the layout for one observer; lookup tables are precomputed per config and seat.

    Speed: every write is a vectorised numpy operation (about a hundred per call, no Python loop
    over counters or hexes) into a preallocated buffer. Writes that must be skipped go to a
    scratch area past the end of the buffer instead of being filtered out first, which saves an
    operation each time. `encode` returns a fresh copy (callers keep observations);
    `encode_into` writes into a row of a caller's batch array (vector envs). One encoder per env:
    the working buffer is shared between calls, so an encoder is not for several threads at once.
    """

    def __init__(self, cfg: GameConfig, n_hexes: int) -> None:
        self.cfg = cfg
        self.n = n = cfg.n_players
        self.h = h = n_hexes
        house = cfg.house_content
        catalog = cat.catalog_for(n, house)
        self.n_things = nt = catalog.N_THINGS  # rows of `things`: the game's Things (R20.1, R22)
        self.n_faces = nf = catalog.N_HERO_FACES  # rows of `heroes`
        self._hero_combat = _HERO_COMBAT[:nf]
        self._face_up = (_FACE_COUNTER[:nf], _FACE_SIDE[:nf])
        self._not_income = ~np.isin(catalog.THING_KIND, (SPECIAL_INCOME, CITY, VILLAGE))
        self._is_creature = catalog.THING_KIND == CREATURE
        self._combat = catalog.THING_COMBAT.astype(np.float32)
        self._kind = catalog.THING_KIND
        self._gold = catalog.THING_GOLD.astype(np.float32)
        self.layout = layout = build_layout(n, h, house, cfg.mysterious_kadab)
        self.size = size = layout.size
        self.sides = sides = n + 1
        self.scratch = size  # start of the scratch area (max(nt, h, nf) entries past the end)
        self._buf = np.zeros(size + max(nt, h, nf) + 1, np.float32)
        off = {}
        for name, sec in layout.sections.items():
            for c in sec.columns:
                off[f"{name}.{c.name}"] = sec.offset(c.name)
        self.o = off
        self.rows_h = np.arange(h)
        self.rows_t = np.arange(nt)
        self.rows_f = np.arange(nf)
        self.players_start = layout.section("players").start
        self.n_stats = len(STAT_COLUMNS)
        for first, names, rows in (("things.face_up", THING_BOARD_ARRAYS, nt), ("heroes.mp", HERO_ARRAYS, nf)):
            columns = [first.split(".")[0] + "." + a.split("_", 1)[1] for a in names]
            assert [off[c] for c in columns] == [off[first] + k * rows for k in range(len(names))], columns

        # Owner codes are -1 (nobody), 0..n-1 (players), NEUTRAL (= MAX_PLAYERS); tables are indexed by code + 1.
        def lut(base: int, stride: int, nobody: int, neutral: int | None = None) -> np.ndarray:
            table = np.full((n, NEUTRAL + 2), nobody, np.intp)
            for p in range(n):
                for q in range(n):
                    table[p, q + 1] = base + ((q - p) % n) * stride
                if neutral is not None:
                    table[p, NEUTRAL + 1] = base + neutral * stride
            return table

        self.side_of = lut(0, 1, -1, n)  # relative side
        self.hex_owner_lut = lut(off["hexes.owner_rel0"], h, self.scratch)
        self.thing_owner_lut = lut(off["things.owner_rel0"], nt, self.scratch, n)
        self.hero_owner_lut = lut(off["heroes.owner_rel0"], nf, self.scratch)
        self.stack_lut = lut(0, h, sides * h + 1, n)  # bucket sides*h collects what must not count
        self.terrain_lut = off["hexes.terrain_desert"] + np.arange(8) * h
        kind_col = np.full(nt + 1, self.scratch, np.intp)
        for kind, column in ((SPECIAL_INCOME, "income_special"), (CITY, "income_city"), (VILLAGE, "income_village")):
            kind_col[1:][catalog.THING_KIND == kind] = off[f"hexes.{column}"]
        self.income_kind_lut = kind_col
        # own_value_1..6 and own_flying..own_charge are one block of 10 columns: a creature adds
        # one to its value column and one to each of its flag columns (10*h: nothing).
        feat = np.full((nt, 5), 10 * h, np.intp)
        feat[:, 0] = _COMBAT_KEY[:nt] * h
        for j, flag in enumerate(_FLAGS):
            feat[flag[:nt], j + 1] = (6 + j) * h
        self.feature_key = feat
        self.rotation = [(p + np.arange(n)) % n for p in range(n)]
        self.fort_count = [int(v) for v in catalog.FORT_COUNT[1:5]]
        self.low, self.high = layout.low, layout.high
        self.hex_block = (off["hexes.terrain_desert"], off["hexes.cloud"] + h)
        self._hex_cache: list = [None] * n
        self._hex_stack_key: tuple = ()
        self._hex_stack_counts = np.zeros(8, np.float32)
        # frame class -> [(field, register, offset, index)]: registers read from procedure frames
        # (index: None the field, i its element i, LENGTH its length; see frame_source)
        self.frame_plan: dict[type, list[tuple[str, Register, int, int | None]]] = {}
        for r in registers(house):
            cls, name, index = frame_source(r.source)
            table = {HEX: "hexes", THING: "things", HERO: "heroes"}.get(r.kind, "registers")
            column = f"{table}.reg_{r.key}" + ("_rel0" if r.kind in (SIDE, PER_SIDE, OWN_SIDE) else "")
            self.frame_plan.setdefault(cls, []).append((name, r, off[column], index))

    # ------------------------------------------------------------------ encode

    def encode(self, s: GameState, p: int, stats: np.ndarray | None = None) -> np.ndarray:
        """The observation of player `p`: a new float32 array of `self.size` (never shared)."""
        if not isinstance(s, GameState):  # a native game (native.game.NativeGame): the native encoder
            return s.encode_observation(self, p)
        return self._fill(s, p, stats)[:self.size].copy()

    def encode_into(self, s: GameState, p: int, row: np.ndarray, stats: np.ndarray | None = None) -> None:
        """Write the observation of player `p` into `row` (e.g. one row of a batch array)."""
        if not isinstance(s, GameState):  # a native game: the native encoder, bit-exact with this one
            s.encode_observation_into(self, p, row)
            return
        row[:] = self._fill(s, p, stats)[:self.size]

    def _fill(self, s: GameState, p: int, stats: np.ndarray | None) -> np.ndarray:
        out = self._buf
        out.fill(0)
        o = self.o
        n, h, sides, nt, nf = self.n, self.h, self.sides, self.n_things, self.n_faces
        if stats is None:
            stats = player_stats(s)
        actor = s.actor
        decision = s.decision
        if decision in PRIVATE_DECISIONS and actor != p:  # RD8.2: others never see a Lucky Charm window
            actor, decision = -1, D.NONE
        rel_first = (s.first_player - p) % n
        cfg = s.cfg

        # ---- game
        out[o["game.round"]] = min(s.round, ROUND_CAP)
        if cfg.max_rounds is not None:
            out[o["game.rounds_left"]] = max(0, cfg.max_rounds - s.round)
        out[o["game.phase_setup"] + s.phase] = 1
        if 0 <= decision < D.N_DECISIONS:
            out[o["game.decision_none"] + decision] = 1
        if actor == p:
            out[o["game.is_actor"]] = 1
        if 0 <= actor < n:
            out[o["game.actor_rel0"] + (actor - p) % n] = 1
        out[o["game.first_rel0"] + rel_first] = 1
        position = [-1] * n
        for i, q in enumerate(s.turn_order()):
            position[q] = i
        out[o["game.turn_position"]] = position[p]
        out[o["game.cup_ran_dry"]] = s.cup_ran_dry
        if cfg.cup_size_public:
            out[o["game.cup_size_public"]] = 1
            out[o["game.cup_size"]] = np.count_nonzero(s.thing_place == CUP)
        if s.hex_stack:
            key = tuple(s.hex_stack)
            if key != self._hex_stack_key:
                self._hex_stack_key = key
                self._hex_stack_counts = np.bincount(key, minlength=8)[:8].astype(np.float32)
            a = o["game.hex_stack_desert"]
            out[a:a + 8] = self._hex_stack_counts

        # ---- players (rows rotated: observer first)
        a = self.players_start
        out[a:a + self.n_stats * n] = stats[self.rotation[p]].T.ravel()
        a = o["players.turn_position"]
        out[a:a + n] = [position[(p + k) % n] for k in range(n)]
        out[o["players.is_first"] + rel_first] = 1
        if 0 <= actor < n:
            out[o["players.is_actor"] + (actor - p) % n] = 1
        a = o["players.marked_hex"]
        if cfg.encounter_powers:  # R21: powers and the Tax Farmer's mark are public (RI.1)
            rows = self.rotation[p]
            dealt = s.power[rows]
            k = np.flatnonzero(dealt >= 0)
            out[o["players.power_amoeba"] + dealt[k].astype(np.intp) * n + k] = 1
            out[a:a + n] = s.power_hex[rows]
        else:
            out[a:a + n] = -1

        # ---- hexes: the hex facts change seldom, so they are reused while their inputs are equal
        key = (s.round, s.cloud_hex, s.hex_terrain.tobytes(), s.hex_down.tobytes(), s.seen[p].tobytes(),
               s.hex_owner.tobytes(), s.hex_fort.tobytes(),
               s.hex_fort_round.tobytes(), s.hex_citadel_round.tobytes(), s.hex_income.tobytes(),
               s.hex_fort_damage.tobytes(), s.thing_damage.tobytes())
        a, b = self.hex_block
        f = o["game.fort_left_tower"]
        cached = self._hex_cache[p]
        if cached is not None and cached[0] == key:
            out[a:b] = cached[1]
            out[f:f + 4] = cached[2]
        else:
            self._hex_facts(s, p, out)
            self._hex_cache[p] = (key, out[a:b].copy(), out[f:f + 4].copy())

        place, towner, thex = s.thing_place, s.thing_owner, s.thing_hex
        t1 = towner + 1
        on_board = place == BOARD
        known_any = s.thing_public | s.thing_face_up
        m = sides * h
        key = np.where(on_board & self._not_income, self.stack_lut[p][t1] + thex, m)
        counts = np.bincount(key, minlength=m + 2)[:m]
        known = np.bincount(key, weights=known_any, minlength=m + 2)[:m]
        a = o["hexes.things_rel0"]
        out[a:a + m] = counts
        a = o["hexes.known_rel0"]
        out[a:a + m] = known
        a = o["hexes.hidden_rel0"]
        out[a:a + m] = counts - known
        a = o["hexes.known_combat_rel0"]
        out[a:a + m] = np.bincount(key, weights=known_any * self._combat, minlength=m + 2)[:m]
        hero_owner = s.hero_owner
        h1 = hero_owner + 1
        hkey = self.stack_lut[p][h1] + s.hero_hex
        a = o["hexes.heroes_rel0"]
        out[a:a + m] = np.bincount(hkey, minlength=m + 2)[:m]
        a = o["hexes.hero_combat_rel0"]
        out[a:a + m] = np.bincount(hkey, weights=self._hero_combat, minlength=m + 2)[:m]

        mine = towner == p
        own_creature = mine & on_board & self._is_creature
        supported = None
        if own_creature.any():
            a = o["hexes.own_value_1"]
            ids = np.flatnonzero(own_creature)
            keys = self.feature_key[ids] + thex[ids, None]
            out[a:a + 10 * h] = np.bincount(keys.ravel(), minlength=10 * h + 1)[:10 * h]
            supported = _supported(s, p, own_creature)
            bluff = own_creature & ~supported
            if bluff.any():
                a = o["hexes.own_unsupported"]
                out[a:a + h] = np.bincount(np.where(bluff, thex, h), minlength=h + 1)[:h]

        # ---- things (rows = catalog ids)
        on_screen = place == SCREEN
        mine_screen = mine & on_screen
        board_known = on_board & (mine | known_any)
        visible = board_known | mine_screen
        selected = mine_screen & s.thing_selected
        if s.phase == RECRUIT:  # trade sets are shown to all (R8.1.1)
            trade = on_screen & s.thing_selected
            visible |= trade
            selected |= trade
        a = o["things.mine_screen"]
        out[a:a + nt] = mine_screen
        a = o["things.on_board"]
        out[a:a + nt] = board_known
        a = o["things.hex"]
        out[a:a + nt] = np.where(board_known, thex, -1)
        out[self.thing_owner_lut[p][np.where(visible, t1, 0)] + self.rows_t] = 1
        a = o["things.face_up"]
        for k, name in enumerate(THING_BOARD_ARRAYS):
            arr = getattr(s, name, None)  # tolerate states of engine versions without the array
            if arr is not None:
                out[a + k * nt:a + (k + 1) * nt] = arr
        block = out[a:a + len(THING_BOARD_ARRAYS) * nt].reshape(len(THING_BOARD_ARRAYS), nt)
        block[:, ~board_known] = 0  # facts of counters the observer cannot identify
        a = o["things.selected"]
        out[a:a + nt] = selected
        a = o["things.new"]
        out[a:a + nt] = mine & s.thing_new
        a = o["things.out"]
        out[a:a + nt] = place == OUT
        if supported is not None:
            a = o["things.supported"]
            out[a:a + nt] = supported
        a = o["things.bearer"]
        bearer = getattr(s, "thing_bearer", None)
        out[a:a + nt] = -1 if bearer is None else np.where(board_known, bearer, -1)

        # ---- heroes (rows = faces; every hero fact is public)
        counter, side = self._face_up
        up = s.hero_up[counter] == side
        a = o["heroes.up"]
        out[a:a + nf] = up
        a = o["heroes.pool"]
        out[a:a + nf] = up & (hero_owner < 0)
        a = o["heroes.hex"]
        out[a:a + nf] = s.hero_hex
        out[self.hero_owner_lut[p][h1] + self.rows_f] = 1
        a = o["heroes.mp"]
        out[a:a + len(HERO_ARRAYS) * nf] = np.concatenate([getattr(s, name) for name in HERO_ARRAYS])

        # ---- registers of the pending decision
        if s.frames:
            self._frame_registers(s, p, out)

        # ---- self
        if mine_screen.any():
            a = o["self.screen_creature"]
            out[a:a + 7] = np.bincount(self._kind[mine_screen], minlength=7)[:7]
            out[o["self.screen_gold"]] = np.dot(self._gold, mine_screen)
        out[o["self.free_things"]] = -(-int(stats[p, HEXES]) // 2) + int(cfg.encounter_powers and s.power[p] == _KING)
        return out

    def _hex_facts(self, s: GameState, p: int, out: np.ndarray) -> None:
        """Terrain .. cloud columns of `hexes`, and the fort supply in `game`."""
        o, h = self.o, self.h
        hex_fort = s.hex_fort
        a = o["game.fort_left_tower"]
        if s.cfg.fort_supply == "unlimited":
            out[a:a + 4] = 32
        else:
            used = np.bincount(hex_fort, minlength=5).tolist()
            out[a:a + 4] = [min(max(c - u, 0), 32) for c, u in zip(self.fort_count, used[1:5], strict=True)]
        rows_h = self.rows_h
        down = s.hex_down
        if down.any():  # R20.3: a face-down terrain is nobody's knowledge (but Tycho Brahe's owner's, R22.4)
            show = ~down | kadab.seen(s, p)
            out[self.terrain_lut[s.hex_terrain[show]] + rows_h[show]] = 1
            a = o["hexes.face_down"]
            out[a:a + h] = down
        else:
            out[self.terrain_lut[s.hex_terrain] + rows_h] = 1
        out[self.hex_owner_lut[p][s.hex_owner + 1] + rows_h] = 1
        a = o["hexes.fort"]
        out[a:a + h] = hex_fort
        a = o["hexes.fort_damage"]
        out[a:a + h] = s.hex_fort_damage
        a = o["hexes.fort_changed"]
        out[a:a + h] = (s.hex_fort_round == s.round) & (hex_fort > 0)
        if 4 in hex_fort:
            a = o["hexes.citadel_age"]
            out[a:a + h] = np.where(hex_fort == 4, np.maximum(s.round - s.hex_citadel_round, 0), 0)
        inc1 = s.hex_income + 1
        out[self.income_kind_lut[inc1] + rows_h] = 1
        a = o["hexes.income_value"]
        out[a:a + h] = _INC_VALUE1[inc1]
        a = o["hexes.income_combat"]
        out[a:a + h] = _INC_COMBAT1[inc1]
        thing_damage = s.thing_damage
        if thing_damage.any():
            a = o["hexes.income_damage"]
            out[a:a + h] = np.concatenate(([0], thing_damage))[inc1]
        if s.cloud_hex >= 0:
            out[o["hexes.cloud"] + s.cloud_hex] = 1

    def _frame_registers(self, s: GameState, p: int, out: np.ndarray) -> None:
        side_of = self.side_of[p]
        for frame in s.frames:
            for name, r, a, index in self.frame_plan.get(type(frame), ()):
                v = getattr(frame, name)
                if index is not None:
                    if index == LENGTH:
                        v = len(v)
                    elif index < len(v):
                        v = v[index]
                    else:
                        continue  # past the list's end: absent
                if r.kind == PER_SIDE:
                    for side in (*range(self.n), NEUTRAL):
                        if v[side]:
                            out[a + side_of[side + 1]] = min(max(v[side], 0), r.high)
                elif r.kind == OWN_SIDE:
                    self._put(s, p, r, a, v[p], out, side_of)
                else:
                    self._put(s, p, r, a, v, out, side_of)

    def _put(self, s: GameState, p: int, r: Register, a: int, v: int, out: np.ndarray, side_of) -> None:
        """One register value into the observation (its kind decides the column)."""
        kind = r.kind
        if r.visible == ACTOR and s.actor != p:
            return
        if r.visible == OWNER and (not 0 <= v < self.n_things or s.thing_owner[v] != p):
            return  # R21.2: the identity of the Aviator's flyer stays its owner's
        if kind == SCALAR:
            out[a] = min(max(v, 0), r.high)
        elif kind in (SIDE, OWN_SIDE):
            if 0 <= v < self.n or v == NEUTRAL:
                out[a + side_of[v + 1]] = 1
        elif kind == HEX:
            if 0 <= v < self.h:
                out[a + v] = 1
        elif kind == THING:
            if 0 <= v < self.n_things:
                out[a + v] = 1
        elif 0 <= v < self.n_faces:  # HERO
            out[a + v] = 1


def _supported(s: GameState, p: int, own_creature: np.ndarray) -> np.ndarray:
    """R9.1 for the observer's creatures on the board (same as engine.support.supported_mask,
    which the tests check, in fewer numpy operations)."""
    terrains = np.zeros(9, bool)
    terrains[s.hex_terrain[s.hex_owner == p]] = True
    ok = own_creature & terrains[_TERRAIN9[:s.n_things]]
    lords = _LORD_FACES[s.hero_owner[_LORD_FACES] == p]
    for face in lords:
        ok |= own_creature & (s.cat.THING_TERRAIN == cat.HERO_LORD_TERRAIN[face]) & (s.thing_hex == s.hero_hex[face])
    return ok
