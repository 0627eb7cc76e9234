"""Typed procedure frames: the state of a procedure that spans several decisions.

A move, an exploration, a battle, an event, a reaction window ... each is one dataclass here, with
an `IntEnum` stage where it has stages and named, typed fields (an int, a bool, or a list of ints).
The state keeps the frames under way on a stack (`GameState.frames`, outermost first): a battle
pushed during an exploration sits above it, a reaction window above the battle. Saves carry them
(`to_dict`), and the observation's registers name the frame fields they read
(`ktenv.kings_and_things.env.observation.REGISTERS`), so a field that no longer exists fails at import.

A field that holds counters says so (`things=THING`, `FLAGS` or `ACTION`, collected in `THING_REFS`):
a world sampled for a searching agent (`ktenv.kings_and_things.worlds`) leaves those counters where they
are and deals every other hidden counter again, so a new field holding a Thing id must declare it.

The native engine mirrors these records one to one (one struct per frame, same fields, same order),
so both engines save the same state.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, ClassVar, TypeVar

F = TypeVar("F", bound="Frame")


class FrameError(ValueError):
    """A saved frame that cannot be read (unknown procedure or field, wrong type)."""


class Frame:
    """Base of every procedure frame. Subclasses are registered with `@procedure(name)`."""

    NAME: ClassVar[str] = ""
    __slots__ = ()

    def copy(self: F) -> F:
        other = dataclasses.replace(self)
        for f in _LIST_FIELDS[type(self)]:
            setattr(other, f, list(getattr(self, f)))
        return other

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"procedure": self.NAME}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = [int(v) for v in value] if isinstance(value, list) else int(value)
        return out


FRAMES: dict[str, type[Frame]] = {}  # name -> class, in the order frames nest (outermost first)
_LIST_FIELDS: dict[type, tuple[str, ...]] = {}
# per frame class: (field, THING / FLAGS / ACTION) of every field that refers to counters
THING_REFS: dict[type, tuple[tuple[str, str], ...]] = {}


def procedure(name: str):
    """Class decorator: make a dataclass frame and register it under `name`."""

    def wrap(cls):
        cls = dataclass(slots=True)(cls)
        cls.NAME = name
        if name in FRAMES:
            raise TypeError(f"procedure {name!r} is registered twice")
        FRAMES[name] = cls
        _LIST_FIELDS[cls] = tuple(f.name for f in dataclasses.fields(cls) if _is_list(f))
        THING_REFS[cls] = tuple((f.name, f.metadata["things"]) for f in dataclasses.fields(cls)
                                if f.metadata.get("things"))
        return cls

    return wrap


# What a field says of the counters (`things=`): the procedure under way refers to them, so a sampled
# world (ktenv.kings_and_things.worlds) leaves them where they are. THING: the value is a Thing id (other
# values, -1 or a hero face coded past the Things, name none); FLAGS: a list indexed by Thing id, nonzero
# where it refers to that Thing; ACTION: an action (or a list of them) whose Thing block names a Thing.
THING, FLAGS, ACTION = "thing", "flags", "action"


def slot(default: int = 0, things: str = "") -> Any:
    """A number field; `things`: what it says of the counters (THING, ACTION; see above)."""
    return field(default=default, metadata={"things": things})


def per_side(size: int = 7, default: int = 0) -> Any:
    """A number for every side code (players 0-5, neutral 6: `constants.NEUTRAL`); `default` the value of
    a side without one (-1 for a side index)."""
    return field(default_factory=lambda: [default] * size, metadata={"per_side": True, "default": default})


def series(things: str = "") -> Any:
    """A list of numbers (a path, a queue); `things`: what it says of the counters (above)."""
    return field(default_factory=list, metadata={"series": True, "things": things})


def _is_list(f: dataclasses.Field) -> bool:
    return bool(f.metadata.get("per_side") or f.metadata.get("series"))


def frame_from_dict(data: Any) -> Frame:
    if not isinstance(data, dict) or "procedure" not in data:
        raise FrameError("a frame must be an object with a 'procedure' name")
    cls = FRAMES.get(data["procedure"])
    if cls is None:
        raise FrameError(f"unknown procedure {data['procedure']!r}")
    values = {}
    for f in dataclasses.fields(cls):
        if f.name not in data:
            raise FrameError(f"frame {cls.NAME!r}: field {f.name!r} is missing")
        value = data[f.name]
        if _is_list(f):
            if not isinstance(value, list) or not all(_is_int(v) for v in value):
                raise FrameError(f"frame {cls.NAME!r}: field {f.name!r} must be a list of integers")
            value = [int(v) for v in value]
        elif not _is_int(value):
            raise FrameError(f"frame {cls.NAME!r}: field {f.name!r} must be an integer")
        values[f.name] = value
    extra = set(data) - {"procedure"} - set(values)
    if extra:
        raise FrameError(f"frame {cls.NAME!r}: unknown field {sorted(extra)[0]!r}")
    frame = cls(**values)
    for f in dataclasses.fields(cls):  # keep IntEnum stages typed
        if isinstance(f.default, IntEnum):
            setattr(frame, f.name, type(f.default)(getattr(frame, f.name)))
    return frame


def _is_int(v: Any) -> bool:
    return isinstance(v, int)  # bools too: flags are saved as 0/1 but True/False reads the same


# ===================================================================== the frames
# Outermost first: the order frames nest on the stack.


class SpecialStage(IntEnum):
    """Stages of one use of a special-power hero (A.5, A.7)."""

    CHOOSE = 0  # the player picks a hero to use, or passes
    DUEL = 1  # the hero's owner rolls
    DUEL_B = 2  # the victim rolls
    DUEL_EVAL = 3  # higher wins; a tie rolls again
    TAKE = 4  # the Master Thief takes gold or a counter
    TARGET_A = 5  # the Assassin's owner names a target
    TARGET_B = 6  # the hex owner names a target
    STRIKE = 7  # the strike's die
    STRIKE_EVAL = 8  # 1-3: the first target dies, 4-6: the second


@procedure("special_power")
class SpecialPower(Frame):
    """R15.1 phase 8: one player's turn with the Master Thief (A.5) and the Assassin Primus (A.7)."""

    stage: SpecialStage = slot(SpecialStage.CHOOSE)
    hero: int = slot(-1)  # hero face in use
    victim: int = slot(-1)  # the player robbed or struck
    hex: int = slot(-1)  # the Assassin's target hex
    target_a: int = slot(0, things=THING)  # a Thing id, or -1 - hero face
    target_b: int = slot(0, things=THING)
    tie: bool = slot(False)  # the duel is a re-roll after a tie
    used_thief: bool = slot(False)  # each hero once per turn
    used_assassin: bool = slot(False)


# ----- events and economy: setup, heroes, recruiting, placement, events, interrupts

class RecruitStep(IntEnum):
    """Steps of one player's Recruit Things turn (R8.1-R8.3, R17.1.1)."""

    PAID = 0  # declare the paid draws (R8.1.1)
    TRADE = 1  # choose the trade set (R8.1.1)
    DRAW = 2  # draw, pay, return the trade counters (R8.1.5: or keep some)
    PLACE = 3  # place Things and remove own income counters (R8.2, R8.3)
    LIMIT = 4  # placement done: the screen limit applies again (R17.1.1)
    DONE = 5  # the turn ends


@procedure("setup")
class Setup(Frame):
    """R4.7-R4.10: the initial draw and placements. The screen limit waits until the placement is
    done (R17.1.1); each player places in turn (R4.8, R4.10)."""

    screens_open: bool = slot(False)  # R17.1.1: screens may hold more than 10
    placed: bool = slot(False)  # the player at `s.turn` has had their placement


@procedure("hero_recruit")
class HeroRecruit(Frame):
    """R7 phase 2: one player's turn to recruit heroes: dismiss (R7.2), choose (R7.3), gold before
    the roll (R7.4), 2d6 (R7.5), gold after a short roll (R7.6), place (R7.7)."""

    hero: int = slot(-1)  # the pool hero face being recruited
    attempts: int = slot(0)  # attempts this turn (option hero_attempts_per_round)
    bonus: int = slot(-1)  # +1s bought before the roll (R7.4); -1: not rolled yet
    cost: int = slot(0)  # gold asked to make up a short roll (R7.6); 0: none asked


@procedure("recruit_turn")
class RecruitTurn(Frame):
    """R8 phase 3: one player's Recruit Things turn: declare paid draws and a trade set, draw
    (R8.1), place (R8.2, R8.3), then the screen limit (R17.1)."""

    step: RecruitStep = slot(RecruitStep.PAID)
    paid: int = slot(0)  # paid draws declared, 5 gold each (R8.1.1); 0: none yet
    keep: int = slot(0)  # trade counters still to keep: the cup ran dry (R8.1.5)
    # R17.1.1: this player's screen may hold more than 10 until their placement is done; -1: no (a
    # discard by another player meanwhile ends it).
    open_screen: int = slot(-1)


@procedure("events_phase")
class EventsPhase(Frame):
    """R10 phase 4: in turn order each player may play one event (R10.1)."""

    done: list[int] = per_side()  # 1: the player has played an event or passed


class EventStage(IntEnum):
    """Stages of the events phase (`s.stage`, R10): the choice of an event, then its resolution
    (Appendix B). A stage after a posed choice reads its answer; a roll stage rolls (R18.5), the next
    reads the dice."""

    BEGIN = 0
    CHOOSE = 1  # the next player in turn order who may play an event (R10.1)
    PLAYED = 2  # the event chosen, or PASS
    FINISH = 3  # the event goes to the cup (R10.2)
    WW_HEX = 4  # B.1 Willing Workers: the hex
    DIS_HEX = 5  # B.2 Terrain Disaster: the hex
    DIS_ROLL = 6
    DIS_CHECK = 7  # 6-8 strikes; else the next hex of the same terrain
    DIS_OWNER_ROLL = 8
    DIS_LOSS = 9
    CASTER = 10  # B.3 Big Juju / B.10 Weather Control: the caster (RD10.8)
    TARGET = 11
    REACT = 12  # Dispel Magic, Fan (R18.2)
    JUJU_TERRAIN = 13  # B.3: the new terrain (own hex)
    JUJU_APPLY = 14
    JUJU_ESCAPE = 15  # B.3 Sea: the next army to escape
    JUJU_ESCAPED = 16
    JUJU_MOVE = 17
    JUJU_SINK = 18
    FAN = 19  # C.3: the Fan moves the cloud
    PLAGUE_REACT = 20  # B.4 Dark Plague: the Elixir (R18.2)
    PLAGUE_PLAYER = 21
    PLAGUE_NEXT = 22  # RD10.9: the player orders the hexes
    PLAGUE_HIT = 23
    POX_VICTIM = 24  # B.7 Teeniepox
    POX_REACT = 25
    POX_ROLL = 26
    POX_CHECK = 27
    POX_HIT = 28
    DEF_HERO = 29  # B.8 Defection
    DEF_ROLL_A = 30
    DEF_ROLL_B = 31
    DEF_CHECK = 32
    DEF_PLACE = 33
    DEF_LORD = 34  # R7.10 / RD5.4: two terrain lords
    VAN_VICTIM = 35  # B.9 Vandals
    VAN_FORT = 36
    PORTAL_STACK = 100  # R22.5 Portal (house content, engine.house)
    PORTAL_DEST = 101
    PORTAL_ROLLED = 102
    PORTAL_SENT = 103


@procedure("event")
class Event(Frame):
    """R10.2 / Appendix B: one player's event, from the choice to play it until it goes to the cup.
    Every choice is posed (`posed`) and its answer read by the stage that asked (`s.stage`)."""

    player: int = slot(-1)  # who plays it
    card: int = slot(-1, things=THING)  # the event counter (a second-box event acts as its original, R20.1)
    other: int = slot(-1)  # the other player concerned: victim, hex owner, army owner
    hex: int = slot(-1)  # the struck or target hex; the Portal's stack (R22.5)
    dest: int = slot(-1)  # an escape hex (B.3), the Portal's destination (R22.5)
    hero: int = slot(-1)  # the hero Defection tries to win (B.8)
    roll: int = slot(0)  # the event's roll (B.2, B.7, B.8, R22.5)
    roll2: int = slot(0)  # the hero owner's roll (B.8)
    n: int = slot(0)  # losses to take (B.7); counters sent through the Portal (R22.5)
    terrain: int = slot(-1)  # the tile Big Juju puts down (B.3)
    tried: list[int] = series()  # B.2: the hexes chosen so far, in order
    todo: list[int] = per_side()  # 1: the player's army must escape (B.3) or the Plague hits them (B.4)
    hexes: list[int] = series()  # B.4 / RD10.9: hexes of the Plague player still to hit, lowest first
    posed: list[int] = series(things=ACTION)  # the legal actions of the choice asked now; empty: none asked
    answer: int = slot(-1, things=ACTION)  # the action chosen, until the stage that asked reads it
    lord_player: int = slot(-1)  # R7.10 / RD5.4: a second terrain lord came to this player


@procedure("placement")
class Placement(Frame):
    """Placing Things from behind the screen (RP-S5, RP-S7, RP-3.4, RP-6.13): a Thing, then its hex;
    PASS ends. In the Recruit Things turn own income counters may also be removed (R8.2.2)."""

    only_new: bool = slot(False)  # R4.10: only the Things drawn in the exchange
    hex: int = slot(-1)  # only this hex (R13.11.2 conquest, B.3 Big Juju); -1: any
    may_remove: bool = slot(False)  # R8.2.2: own income counters may be removed
    thing: int = slot(-1, things=THING)  # the Thing chosen, its hex still to choose


@procedure("discard")
class Discard(Frame):
    """R17.1.2 / RD3.2: a player over the screen limit discards down to 10 (the others over it follow
    at once; meanwhile no screen is checked)."""

    player: int = slot(-1)  # who discards


@procedure("hero_turn_over")
class HeroTurnOver(Frame):
    """R7.11 / RP-2.6: the former owner of a lost hero may turn its counter over, asked at the next
    pause in the rules (lowest face first)."""

    face: int = slot(-1)  # the hero asked about now
    faces: list[int] = series()  # the heroes waiting for the question, lowest first
    owners: list[int] = series()  # their former owners, in the same order


# ----- movement (R11, R12.2, C.2, R20.3, R21.2 / R21.4 / R21.10, R22.3 / R22.6, RP-5.9, R4.5)


@procedure("claims")
class Claims(Frame):
    """R4.5.2: in setup each player claims a second hex in turn order, then a third (then the start
    gold, R4.6)."""

    round: int = slot(0)  # 0: claiming second hexes, 1: third hexes


@procedure("stack_overflow")
class StackOverflow(Frame):
    """RP-5.9 / RD10.2: stacks allowed over the limit of 10 (R11.4) for now: a defector (A.4), a
    Balloon or Boat diverted onto a full hex, a Citadel reduced (R19.2.2), counters sent back from
    a Sea tile (R20.3) wait for their owner's next movement turn to be trimmed; a retreat onto a full
    hex (R13.8.4) waits for the excess to be eliminated."""

    owners: list[int] = per_side()  # 1: the side's stacks may be over 10 until it next moves
    retreat: bool = slot(False)  # R13.8.4: a retreat's excess is being eliminated


@procedure("entries")
class Entries(Frame):
    """R12.3.2 (option contest_attacker second_to_enter): the order in which players entered unexplored
    hexes this movement phase, kept until the phase's contests are over (R12.1.4). Entry i: player
    `players[i]` entered hex `hexes[i]` (each player once per hex)."""

    hexes: list[int] = series()
    players: list[int] = series()


@procedure("movement_turn")
class MovementTurn(Frame):
    """R11: one player's movement turn (R11.1.2: every creature and hero gets 4 MP, R11.5.1: pins are
    set as the turn begins); it ends when the player passes (R11.2.5), after conquest by movement
    (R11.8.1). Its moves nest in it (`Move`, `NomadMove`); a `BalloonFlight` or `BoatTrip` begun in
    it stays for the round."""

    ending: bool = slot(False)  # the player passed: stacks over 10 are trimmed first (RP-5.9)
    challenged: list[int] = series()  # R11.7: hexes whose pin was offered a challenge
    gypsy_start: int = slot(-1)  # R22.3: the hex the Gypsy King began the turn in
    gypsy_done: bool = slot(False)  # R22.3: his owner declined to bring his town or fort
    # R21.10 Nomad: MP (of 4) spent this turn by the Tower or Keep now in hex i / by the city or village i
    fort_spent: list[int] = series()
    town_spent: list[int] = series()


class FlyStage(IntEnum):
    """R11.6: why flyers are passing an enemy hex."""

    NONE = 0
    ENTRY = 1  # the stack entered a hex with enemies: flyers may go on (R11.6.1)
    LEAVE = 2  # pinned flyers leave the hex they start in (R11.6)


@procedure("move")
class Move(Frame):
    """R11.2: one move of a stack (RP-5.1 choosing it, RP-5.2 stepping), with the bluff challenge
    against a pin (R11.7), flyers passing enemy hexes (R11.6) and the Deerhunter's company (A.3)."""

    start: int = slot(-1)  # the hex whose counters are being chosen (RP-5.1)
    hex: int = slot(-1)  # where the stack is (over Sea too, R11.3.4); -1 until it sets off
    revealer: int = slot(0)  # R11.7: enemies asked to reveal a supported creature so far
    fly: FlyStage = slot(FlyStage.NONE)
    intending: list[int] = series()  # R11.6 step 1: flying hero faces that go on
    blocks: int = slot(0)  # R11.6 step 2: blockers declared so far
    asked: int = slot(0)  # R11.6 step 2: enemies (from the mover's left) asked so far
    blocking: list[int] = series()  # RD4.6: enemy flying hero faces that blocked
    stay: int = slot(0)  # R11.6 step 3: intending flyers the mover still has to stop
    deerhunter: bool = slot(False)  # A.3: the move started with the Deerhunter
    steps: int = slot(0)  # A.3 / RD4.5: hexes entered since then
    ground_cost: int = slot(0)  # their normal ground cost (R11.1.2)
    # A.3: members still qualifying (a Thing id, or the game's number of Things + a hero face)
    qualifying: list[int] = series(things=THING)


@procedure("nomad_move")
class NomadMove(Frame):
    """R21.10 Nomad: a Tower or Keep, or a city or village, moving to an adjacent own hex."""

    hex: int = slot(-1)  # where the fort or town stands
    town: int = slot(-1, things=THING)  # the city or village; -1: the fort of `hex` moves


class BalloonStage(IntEnum):
    """Stages of a Balloon flight (C.2)."""

    LOAD = 0  # up to 3 passengers from one hex
    DEST = 1  # a land hex 1-3 away
    WAIT = 2  # the reactions (Dispel Magic, the Fan, C.3)
    FANNED = 3  # the Fan's player picks the hex next to the landing hex
    ESCAPE = 4  # blown to Sea: the passengers escape to an adjacent own hex, or are lost
    FLOWN = 5  # over (landed, lost or cancelled); the frame keeps the round's facts


@procedure("balloon_flight")
class BalloonFlight(Frame):
    """C.2 the Balloon (C.3 the Fan against it): its flight in the owner's movement turn; the frame then
    stays until the end of the round (one flight a round; the passengers attack as ranged in battles
    while the Balloon is in play with them)."""

    stage: BalloonStage = slot(BalloonStage.FLOWN)
    n: int = slot(0)  # passengers
    passengers: list[int] = series(things=THING)  # their Thing ids (n of them)
    hex: int = slot(-1)  # the hex it lifts off from
    dest: int = slot(-1)  # the hex it flies to (before reactions)
    sea: int = slot(-1)  # the Sea hex the Fan blew it to
    owner: int = slot(-1)  # who flew it (kept for the round's battles)
    used: bool = slot(False)  # flown this round (even if cancelled)


class BoatStage(IntEnum):
    """Stages of a Boat trip (R22.6)."""

    LOAD = 0  # up to 3 creatures or heroes from one hex
    PATH = 1  # 1-3 Sea hexes, then the land destination
    WAIT = 2  # the reactions (Dispel Magic, the Bellows)
    FANNED = 3  # the Bellows player picks a land hex next to the last Sea hex
    SAILED = 4  # over; the frame keeps the round's facts


@procedure("boat_trip")
class BoatTrip(Frame):
    """R22.6 the Boat (house content): its trip in the owner's movement turn; the frame then stays until
    the end of the round (one trip a round; the passengers attack as ranged while it is in play)."""

    stage: BoatStage = slot(BoatStage.SAILED)
    n: int = slot(0)  # passengers
    passengers: list[int] = series(things=THING)  # a Thing id, or ~face (negative) for a hero
    hex: int = slot(-1)  # the start hex
    at: int = slot(-1)  # where the path is: the start hex, then its last Sea hex
    crossed: int = slot(0)  # Sea hexes crossed (1-3)
    last: int = slot(-1)  # the last Sea hex crossed
    path: list[int] = series()  # the Sea hexes crossed (none twice)
    dest: int = slot(-1)  # the land hex it sails to (before reactions)
    owner: int = slot(-1)  # who sailed it (kept for the round's battles)
    used: bool = slot(False)  # sailed this round (even if cancelled)


class ExploreStage(IntEnum):
    """Stages of an exploration (R12.2)."""

    ROLL = 0  # R12.2.1 / R12.2.2 the roll (none when defenders are left from earlier)
    ROLLED = 1  # the defenders are drawn
    TIE = 2  # R12.2.4: the controller picks the income counter that stays
    BRIBE = 3  # R12.2.5
    FIGHT = 4  # R12.2.6: the battle against the defenders
    PLACE = 5  # R13.11.2: placement in the conquered hex
    DONE = 6
    PLACE_START = 7  # loot over the screen limit is discarded first (R17.1.2), then placement


@procedure("exploration")
class Exploration(Frame):
    """R12.2: a player explores an unexplored hex; the neutral defenders are drawn and run by the player
    to the right (RD1.6); a battle against them (R12.2.6) nests in it."""

    stage: ExploreStage = slot(ExploreStage.ROLL)
    hex: int = slot(-1)
    player: int = slot(-1)  # the explorer
    controller: int = slot(-1)  # runs the neutral defenders (RD1.6)
    tie: bool = slot(False)  # R12.2.4: tied income counters wait on the hex for the choice
    done: bool = slot(False)  # over: the segment ends (R12.1)


@procedure("aviator_flight")
class AviatorFlight(Frame):
    """R21.2 Aviator: the creature declared a flyer for the round (its identity is its owner's, RI.4)."""

    flyer: int = slot(-1, things=THING)
    round: int = slot(-1)  # the round it flies in (the frame is dropped after it)
    retreating: int = slot(-1, things=THING)  # RD10.16: the flyer while it retreats alone from a battle


@procedure("brute_screens")
class BruteScreens(Frame):
    """R21.4 Brute / R17.1: screens allowed over 10 until the rules next pause, a Charge creature having
    come back behind one in the middle of a decision."""

    over: list[int] = series()  # the players (ascending)


# ----- battle family (R13): a battle, and the counters eliminated over the stack limit


class BattleKind(IntEnum):
    """What a battle is fought over (R12.1.5, R12.2, R12.3)."""

    OWNED = 0  # an owned hex: the owner defends, every other player attacks
    EXPLORATION = 1  # the explorer against the neutral defenders drawn for the hex (R12.2)
    CONTEST = 2  # players in an unowned hex; the survivor explores (R12.3)


class BattleStage(IntEnum):
    """Stages of a battle (R13.2-R13.10); a stage runs the rules up to the next decision."""

    START = 0  # Gambler's stake (R21.11), reveal, bluff check (R13.2 steps 1-2)
    WINDOW = 1  # an item window (R18.1): sides in battle order play items or pass
    FIREWALL = 2  # the Firewall's value is rolled (C.5)
    PREHERO = 3  # Baron Munchausen and the Grand Duke (A.1, A.2)
    WARLORD = 4  # the Warlord names a creature (A.4), then bluff and end checks
    WARLORD_ROLL = 5  # the Warlord's roll
    ROUND = 6  # a combat round begins (R13.3)
    BEARERS = 7  # Bow and Sword bearers (C.10, C.11)
    TARGETS = 8  # each side names its target (R13.12)
    STEP = 9  # a step begins: its item window (R18.1.1)
    STEP_PRE = 10  # Dispel Magic before the magic step (C.8), the Marksman's choice (A.6)
    DISPEL_WAIT = 11  # the reaction round against a side's magic attacks (C.8)
    ROLL = 12  # each side rolls its dice of the step (R13.4.2)
    HITS = 13  # hits counted (R13.4.4)
    MARKSMAN_PLACE = 14  # the Marksman's owner places his value-2 hits (A.6)
    ASSIGN = 15  # receiving sides assign their hits one at a time (R13.6)
    SAVE = 16  # a saving roll read: Swordmaster (A.8) or Talisman (C.9)
    REMOVE = 17  # the step's eliminated counters leave (R13.6.5)
    RETREAT = 18  # attackers, then the defender, may retreat (R13.8)
    EXCESS = 19  # counters over the stack limit after a retreat are eliminated (R13.8.4)
    END = 20  # ownership, loot, items home (R13.10 step 1)
    DAMAGE_FORT = 21  # the fort's damage roll (R13.10 step 2)
    DAMAGE_FORT_ROLLED = 22
    DAMAGE_INCOME = 23  # the income counter's damage roll
    DAMAGE_INCOME_ROLLED = 24
    RESET = 25  # damage healed, counters face down, the winner's placement (R13.10 steps 3-6)
    PLACE = 26  # the winner's placement in the hex is under way (R13.11.2)
    DONE = 27  # the battle is over


@procedure("battle")
class Battle(Frame):
    """One battle (R13) in `hex`, from the reveal to the winner's placement: rounds of magic, ranged and
    melee steps (R13.3, R13.4), hits assigned by their owners (R13.6), retreats (R13.8), the end
    (R13.9, R13.10); with the item windows (R18.1, Appendix C), the heroes (Appendix A) and the
    Encounter powers that act in battles (R21.1, R21.5, R21.11). `begin` in engine.battle pushes it;
    the Combat phase (R12) or the exploration that drew the defenders drops it."""

    stage: BattleStage = slot(BattleStage.START)
    idx: int = slot(0)  # where the stage's walk over the sides (in its order) has come to
    done: bool = slot(False)  # the battle is over: its caller takes over
    hex: int = slot(-1)
    kind: BattleKind = slot(BattleKind.OWNED)
    attacker: int = slot(-1)  # the player who started it (the chooser, R12.1.5; X12)
    defender: int = slot(-1)  # the defending side (a player or NEUTRAL)
    controller: int = slot(-1)  # the player deciding for the neutral side (R12.2.3, RD1.6)
    order: list[int] = series()  # battle order (R12.1.6): attackers, defender
    round: int = slot(0)  # combat round, from 1 (R13.3)
    step: int = slot(0)  # battle_sides.MAGIC_STEP, RANGED_STEP or MELEE_STEP (R13.4.1)
    multi: bool = slot(False)  # three sides or more are active this round (R13.12)
    targets: list[int] = per_side(default=-1)  # each side's target this round (R13.12)
    side: int = slot(-1)  # the side whose choice it is (item, target, hits, retreat)
    # stage to go back to after a retreat decision or a saving roll
    resume: BattleStage = slot(BattleStage.RETREAT)
    # ----- item windows (R18.1)
    window: int = slot(0)  # battle_items.OPENING, ROUND_START or STEP_START
    window_idx: int = slot(0)  # the side of battle order asked next in the window
    after_window: BattleStage = slot(BattleStage.START)  # stage once the window closes
    item: int = slot(-1, things=THING)  # the item just played, awaiting its reactions (R18.2)
    firewall: int = slot(0)  # the Firewall's rolled value for this battle (C.5)
    bearer_item: int = slot(-1, things=THING)  # the Bow or Sword whose bearer is chosen (C.10, C.11)
    # the Bow's / the Sword's bearer was asked this round
    bow_bearer_asked: bool = slot(False)
    sword_bearer_asked: bool = slot(False)
    dust: int = slot(-1)  # the attacking side Dust of Defense sends away (C.1)
    force_side: int = slot(-1)  # that side, retreating now (no PASS)
    # bitmask over side codes: sides whose magic attacks in the melee step for the rest of the battle (C.8)
    dispelled: int = slot(0)
    # bitmask over the positions in the active sides: sides already offered Dispel Magic this step (C.8)
    dispel_asked: int = slot(0)
    dispel_side: int = slot(-1)  # the side whose magic attacks meet the reaction round
    # ----- heroes before the first round (R13.2 step 4)
    warlord_asked: bool = slot(False)  # the Warlord's owner was asked (A.4)
    turncoat: int = slot(-1, things=THING)  # the creature the Warlord tries to turn (A.4)
    # ----- the Marksman (A.6)
    marksman: int = slot(0)  # his value this ranged step: 5, or 2 (his owner places); 0 unasked
    marksman_asked: bool = slot(False)
    marksman_hits: int = slot(0)  # value-2 hits his owner still places
    marksman_target: int = slot(-1)  # the side they fall on
    marksman_side: int = slot(-1)  # the Marksman's side
    # ----- hits (R13.4.4, R13.6) and saving rolls (A.8, C.9)
    hits: list[int] = per_side()  # hits each side still has to assign this step
    hits_this_round: bool = slot(False)  # somebody scored a hit this round (RD7.4)
    rounds_without_hit: int = slot(0)  # rounds in a row without a hit (R13.9.6 / RD7.4)
    forced: bool = slot(False)  # 50 such rounds: the attackers leave as if retreating (RD7.4)
    save_side: int = slot(-1)  # the hit awaiting its saving roll: the side ...
    save_action: int = slot(-1, things=ACTION)  # ... and the action that named the counter
    parried: bool = slot(False)  # the Swordmaster parried this round (A.8)
    # per Thing id / hero face: 1 once the Talisman rolled for it this step or round (C.9)
    talisman_things: list[int] = series(things=FLAGS)
    talisman_heroes: list[int] = series()
    excess_resume: BattleStage = slot(BattleStage.START)  # stage after the excess (R13.8.4)
    # ----- Encounter powers (R21)
    powers_applied: bool = slot(False)  # the battle-start powers were applied (R21.11)
    stake: int = slot(0)  # gold each side staked (R21.11 Gambler)
    lucky_round: list[int] = per_side()  # round in which the side last re-rolled (R21.5 Lucky)
    amoeba_round: list[int] = per_side()  # round the Amoeba last ignored a hit (R21.1)
    winner: int = slot(-1)  # the side holding the field (R13.9), once the battle ended


@procedure("excess")
class Excess(Frame):
    """Counters over the stack limit of 10 eliminated by their owner, one at a time: after a retreat
    (R13.8.4, RP-6.12) or at the end of the owner's movement turn (RP-5.9)."""

    hex: int = slot(-1)
    side: int = slot(-1)  # the player who eliminates them


# ----- dice, reactions, losses: the shared procedures other procedures call into


@procedure("losses")
class Losses(Frame):
    """The shared "take N losses in a hex" procedure (`engine.losses`): Terrain Disaster (B.2), the
    excess of an army escaping a sunk hex (B.3), Plague (B.4), Teenie Pox (B.7). The owner gives up
    one counter (or fort level) at a time; what offers no choice is taken at once."""

    hex: int = slot(-1)
    owner: int = slot(-1)  # the player taking the losses
    left: int = slot(0)  # losses still to take
    heroes: bool = slot(False)  # heroes can be lost (B.2, B.7; never by Plague, B.4)
    creatures_first: bool = slot(False)  # forts and towns only when no creature or hero is left (event_losses)
    until_no_creature: bool = slot(False)  # B.4: done once none of the owner's creatures is left
    citadel: bool = slot(False)  # a Citadel may lose levels (R19.2.2 variant B, Terrain Disaster only)
    army_only: bool = slot(False)  # creatures and heroes only (B.3, the excess of an escape)


@procedure("reactions")
class Reactions(Frame):
    """R18.2 reaction rounds (`engine.reactions`): an event or item played (or magic creatures about
    to attack, C.8) opens a round in which the other players may answer with Dispel Magic (C.8), the
    Fan / Bellows (C.3) or the Elixir (C.4); a reaction opens its own round above it (R18.2.2).

    The lists hold one entry per open round, outermost first. When the last round closes, its
    outcome waits in the `result_` fields until the procedure that opened it reads it."""

    trigger: list[int] = series(things=THING)  # the Thing played, or MAGIC_STEP (-2): magic creatures about to attack
    player: list[int] = series()  # who played it
    asked: list[int] = series()  # players of the round's ask order already asked
    cancelled: list[int] = series()  # 1: a Dispel Magic cancelled it
    fan: list[int] = series()  # the player whose Fan took effect on it, or -1
    elixir: list[int] = series()  # bit p: player p is saved by an Elixir
    victims: list[int] = series()  # bit p: player p may answer with an Elixir (Teenie Pox, B.7)
    result_cancelled: bool = slot(False)
    result_fan: int = slot(-1)
    result_elixir: int = slot(0)


@procedure("lucky_reroll")
class LuckyReroll(Frame):
    """R21.5 Lucky (Encounter power): after its own battle roll, the Lucky player may re-roll one of
    its dice, once per combat round. The re-roll is a roll event of its own (R18.5.1)."""

    side: int = slot(-1)  # the Lucky player's battle side
    shown: list[int] = series()  # the dice of its roll (the first 16), once it is asked
    die: int = slot(-1)  # the die being re-rolled; -1 until chosen


@procedure("rolls")
class Rolls(Frame):
    """R18.5.1 roll events (`engine.dice`): the dice of every roll made and not yet read by the rule
    that made it, which reads them in its next stage. In between, the Lucky Charm (C.6) and the Lucky
    power (R21.5) may change them. One roll per roll code (`engine.dice`: HERO ... BATTLE + side)."""

    code: list[int] = series()  # the roll code of each roll held, in the order made
    count: list[int] = series()  # how many dice each has
    dice: list[int] = series()  # their dice, roll after roll (0-7: R18.5.2, a changed die may leave 1-6)


@procedure("lucky_charm")
class LuckyCharm(Frame):
    """C.6 / R18.5.1: the Lucky Charm window after a roll event. Each holder (two with two boxes,
    R20.1) is asked in turn order from the first player (R18.6.1) whether to change one die by one,
    seeing the dice as the one before left them. Only the holder is asked, and nobody else can tell
    a window was offered (RD8.2)."""

    code: int = slot(-1)  # roll code of the roll (`Rolls`)
    shown: list[int] = series()  # its dice (the first 16) as the asked holder sees them
    die: int = slot(-1)  # the die the holder chose to change; -1 until chosen
    asked: int = slot(0)  # bit p: player p was asked about this roll
