"""Game configuration: every option key of the rules page (R0.3 [OPTION ...]) in one frozen record.

Defaults are the rules page's defaults. `GameConfig.from_dict` validates a mapping (for YAML and
JSON files and the environments' keyword arguments): an unknown key or a bad value is an error naming
the key. It reads PettingZoo's `num_players` as `n_players`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from ..errors import ConfigError, did_you_mean
from .constants import MAX_PLAYERS, PLAYER_COUNTS

VICTORY_VARIANTS = ("standard", "quick", "unique_a", "unique_b", "fixed_rounds", "land_conquest")
# R21 "Kings & Things Encounter" player powers; code k is rule R21.(k+1) (ktenv/kings_and_things/engine/powers.py).
ENCOUNTER_POWERS = ("Amoeba", "Aviator", "Builder", "Brute", "Lucky", "Explorer", "Tax Farmer", "King of Things",
                    "Magician", "Nomad", "Gambler", "Populous", "Recruiter", "Trafficker", "Vandal")

# key -> allowed values, and the true/false keys: public for tools that draw option mixes
# (ktenv.kings_and_things.dev.fuzz)
OPTION_CHOICES: dict[str, tuple] = {
    "victory": VICTORY_VARIANTS,
    "start_land_neighbours": (2, 3),  # R3.4.1, X1
    "start_sea_replacement": ("auto", "optional"),  # R3.4.2
    "setup_exchange_timing": ("after_placement", "before_placement"),  # R4.9, X4
    "setup_second_placement": ("replacements_only", "any"),  # R4.10
    "hero_post_roll_bonus_per_10": (1, 2),  # R7.6, X5
    "hero_attempts_per_round": (1, "unlimited"),  # R7.1, X6
    "citadel_income_2p": (15, 20),  # R14.3, X10
    "fort_supply": ("box", "unlimited"),  # R14.5, RD1.3
    "quick_victory_acquire": ("build_or_conquer", "build_only"),  # R19.1, X23
    "unique_a_capture": ("hold_one_round", "immediate"),  # R19.2.1, X24
    "unique_b_vulnerable": ("combat_and_disaster", "disaster_when_two"),  # R19.2.2, X25
    "land_check": ("end_of_round", "immediate"),  # R19.4, X26
    "neutral_control": ("right_player", "policy"),  # RD1.6
    "event_losses": ("creatures_first", "free_choice"),
    "vandals_chooser": ("victim", "event_player"),
    "assassin_dice": (1, 2),
    "talisman_save_scope": ("step", "round"),
    "balloon_retreat": ("any_own_hex", "within_3"),
    "dust_timing": ("opening", "any_window"),
    "stack_limit_check": ("every_step", "end_of_movement"),  # R11.4.4
    "contest_attacker": ("segment_player", "second_to_enter"),  # R12.3.2, X12
    "mysterious_flip": ("on_exploration", "on_entry"),  # R20.3, RD10.15
    "events_playable": ("any", "with_effect"),  # R10.1, RD1.8
}
OPTION_FLAGS = ("where_will_they_stop", "free_draws_mandatory", "no_construction_round_1", "cup_size_public",
          "bribe_double_on_city",
          "dispel_vs_events", "baron_hits_citadel", "good_harvest_counts_heroes", "willing_workers_counts_toward_limit",
          "talisman_covers_heroes", "encounter_powers", "mysterious_kadab", "house_content")

# Keys an earlier ktenv knew, with what to write now. Saves and game records that carry them still load
# (GameConfig.from_saved); a config file or --set naming one is an error that says this.
RETIRED_KEYS = {
    "events_without_effect": "use events_playable=any (R10.1 as printed, the default: any event may be "
                             "played, one with nothing to act on goes to the cup) or events_playable=with_effect "
                             "(only an event with a legal target or effect is offered; the earlier default)",
}


@dataclass(frozen=True)
class GameConfig:
    n_players: int = 4
    # R16.7 / RD9.2: every game ends; at the cap the fixed-rounds rule (R19.3) decides.
    max_rounds: int | None = 100
    victory: str = "standard"
    fixed_rounds: int = 8  # R19.3: N for victory="fixed_rounds"
    land_threshold_2p: int = 13  # R19.4
    start_land_neighbours: int = 2
    start_sea_replacement: str = "auto"
    setup_exchange_timing: str = "after_placement"
    setup_second_placement: str = "replacements_only"
    hero_post_roll_bonus_per_10: int = 1
    hero_attempts_per_round: int | str = 1
    free_draws_mandatory: bool = True
    where_will_they_stop: bool = False  # R20.2 house variant: 15 Things at setup, no cap on paid Things
    citadel_income_2p: int = 15
    fort_supply: str = "box"
    no_construction_round_1: bool = False
    quick_victory_acquire: str = "build_or_conquer"
    unique_a_capture: str = "hold_one_round"
    unique_b_vulnerable: str = "combat_and_disaster"
    land_check: str = "end_of_round"
    cup_size_public: bool = False
    bribe_double_on_city: bool = True  # R12.2.5, RD6.1
    neutral_control: str = "right_player"  # RD1.6
    # Engine III options (Appendices A-C)
    dispel_vs_events: bool = True  # RD8.6
    # R10.1 / RD1.8: which events the events phase offers. "any" (R10.1 as printed): every event behind
    # the screen, one with nothing to act on going to the cup without effect; "with_effect": only an
    # event with a legal target or effect now. Appendix B's own conditions hold either way.
    events_playable: str = "any"
    baron_hits_citadel: bool = False  # A.1, X14
    good_harvest_counts_heroes: bool = True  # B.6, X17
    willing_workers_counts_toward_limit: bool = True  # R14.2
    talisman_covers_heroes: bool = False  # RD10.14
    event_losses: str = "creatures_first"  # B.2, X18
    vandals_chooser: str = "victim"  # B.9, X16
    assassin_dice: int = 1  # A.7, X13
    talisman_save_scope: str = "step"  # C.9, X19
    balloon_retreat: str = "any_own_hex"  # C.2, X20
    dust_timing: str = "opening"  # R18.1.2
    stack_limit_check: str = "every_step"  # R11.4.4, RD4.2
    contest_attacker: str = "segment_player"  # R12.3.2, X12
    # R21 Encounter powers (RD10.16): off by default; `powers` assigns them by name, one per player
    # in seat order (else they are dealt at random, distinct)
    encounter_powers: bool = False
    powers: tuple[str, ...] | None = None
    # R20.3 Mysterious Kadab: tiles laid face down (ktenv/kings_and_things/engine/kadab.py); off by default
    mysterious_kadab: bool = False
    mysterious_flip: str = "on_exploration"
    # R22 house heroes, the Portal event and the Boat (ktenv/kings_and_things/engine/house.py,
    # ktenv/kings_and_things/data/house.csv)
    house_content: bool = False

    def __post_init__(self) -> None:
        _check_int("n_players", self.n_players, 2, MAX_PLAYERS)
        if self.n_players not in PLAYER_COUNTS:
            raise ConfigError(f"config key 'n_players': {self.n_players} players are not covered by any source; "
                              f"play 2-4, or 6 with two boxes (R20.1)")
        if self.max_rounds is not None:
            _check_int("max_rounds", self.max_rounds, 1, 10_000)
        _check_int("fixed_rounds", self.fixed_rounds, 1, 10_000)
        _check_int("land_threshold_2p", self.land_threshold_2p, 1, 19)
        for key, allowed in OPTION_CHOICES.items():
            value = getattr(self, key)
            if isinstance(value, bool) or value not in allowed:
                raise ConfigError(f"config key '{key}': {value!r} is not one of {list(allowed)}")
        for key in OPTION_FLAGS:
            if not isinstance(getattr(self, key), bool):
                raise ConfigError(f"config key '{key}': expected true or false, got {getattr(self, key)!r}")
        _check_powers(self)

    @classmethod
    def from_dict(cls, data: dict) -> GameConfig:
        if not isinstance(data, dict):
            raise ConfigError(f"config: expected a mapping of keys to values, got {type(data).__name__}")
        data = player_count_alias(data)
        known = {f.name for f in fields(cls)}
        for key in data:
            if key in RETIRED_KEYS:
                raise ConfigError(f"config key '{key}': no longer an option; {RETIRED_KEYS[key]}")
            if key not in known:
                raise ConfigError(f"config key '{key}': unknown{did_you_mean(key, known)} "
                                  f"(known keys: {', '.join(sorted(known))})")
        return cls(**data)

    @classmethod
    def from_saved(cls, data: dict) -> GameConfig:
        """The config of a save or game record, which may have been written by an earlier ktenv.

        Such a file names every rule it was played by, so a key it lacks had that version's default:
        without `events_playable` it was played with only events with an effect offered (the default
        before R10.1 as printed became it), or with any event where it says `events_without_effect`."""
        if not isinstance(data, dict):
            raise ConfigError(f"config: expected a mapping of keys to values, got {type(data).__name__}")
        data = dict(data)
        if "events_without_effect" in data:
            if "events_playable" in data:
                raise ConfigError("config keys 'events_without_effect' and 'events_playable': give only "
                                  "events_playable (events_without_effect is its name in older files)")
            old = data.pop("events_without_effect")
            if not isinstance(old, bool):
                raise ConfigError(f"config key 'events_without_effect': expected true or false, got {old!r}")
            data["events_playable"] = "any" if old else "with_effect"
        data.setdefault("events_playable", "with_effect")
        return cls.from_dict(data)

    def to_dict(self) -> dict:
        """Every key, except the options in `_WRITTEN_WHEN_ON` while they are at their defaults."""
        data = asdict(self)
        for key in _WRITTEN_WHEN_ON:
            if data[key] == _DEFAULT[key]:
                del data[key]
        return data

    @property
    def two_boxes(self) -> bool:
        """R20.1: six players play with two boxes (tiles, Things and forts of both)."""
        return self.n_players == 6

    @property
    def citadel_income(self) -> int:
        """R14.3: income needed to build a Citadel (R20.1: 25 with six players)."""
        if self.n_players == 6:
            return 25
        return 20 if self.n_players == 4 else self.citadel_income_2p if self.n_players == 2 else 15

    @property
    def land_threshold(self) -> int:
        """R19.4: land hexes needed for the land-conquest victory.

        Six players (R20.1 is silent): "more than half" of the 61-hex board, 31, by the same count
        that gives 19 for the 37-hex four-player board [ASSUMPTION]."""
        return {6: 31, 4: 19, 3: 10, 2: self.land_threshold_2p}[self.n_players]


def player_count_alias(data: dict) -> dict:
    """`num_players` (PettingZoo's keyword) read as `n_players`; both given with different values is an error."""
    if "num_players" not in data:
        return data
    data = dict(data)
    alias = data.pop("num_players")
    if "n_players" in data and not _same_count(data["n_players"], alias):
        raise ConfigError(f"config keys 'n_players' ({data['n_players']!r}) and 'num_players' ({alias!r}) disagree: "
                          "give one of them")
    data.setdefault("n_players", alias)
    return data


def _same_count(a, b) -> bool:
    try:
        return isinstance(a, bool) == isinstance(b, bool) and bool(a == b)  # True is no count of 1
    except (TypeError, ValueError):  # an array compared elementwise
        return False


def power_code(name: str) -> int:
    """Code of an Encounter power from its name ("Tax Farmer", "tax_farmer", ...); -1 if unknown."""
    key = str(name).strip().lower().replace("_", " ").replace("-", " ")
    for k, power in enumerate(ENCOUNTER_POWERS):
        if power.lower() == key:
            return k
    return -1


def _check_powers(cfg: GameConfig) -> None:
    """R21.0: `powers` names one distinct power per player, and only with encounter_powers on."""
    if cfg.powers is None:
        return
    powers = cfg.powers.split(",") if isinstance(cfg.powers, str) else cfg.powers  # "Lucky,Brute" (CLI --set)
    if not isinstance(powers, (list, tuple)) or not all(isinstance(name, str) for name in powers):
        raise ConfigError(f"config key 'powers': expected a list of {cfg.n_players} power names, got {cfg.powers!r}")
    object.__setattr__(cfg, "powers", tuple(name.strip() for name in powers))  # hashable; lists from JSON/YAML
    if not cfg.encounter_powers:
        raise ConfigError("config key 'powers': needs encounter_powers=true")
    if len(cfg.powers) != cfg.n_players:
        raise ConfigError(f"config key 'powers': expected {cfg.n_players} names (one per player), "
                          f"got {len(cfg.powers)}")
    codes = [power_code(name) for name in cfg.powers]
    for name, code in zip(cfg.powers, codes, strict=True):
        if code < 0:
            raise ConfigError(f"config key 'powers': {name!r} is not one of {list(ENCOUNTER_POWERS)}")
    if len(set(codes)) != len(codes):
        raise ConfigError(f"config key 'powers': every player needs a different power, got {list(cfg.powers)}")


def _check_int(key: str, value, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(f"config key '{key}': expected a whole number {low}-{high}, got {value!r}")


_DEFAULT = asdict(GameConfig())
# Options that came after saves and game records existed (R20.3, R22): written only when set, so the
# files of games without them stay byte for byte as before (and older ktenv versions still read them).
# `events_playable` is always written: its default changed (R10.1), so every file says which reading it
# was played by, and an older ktenv refuses the key instead of replaying the game by its own default.
_WRITTEN_WHEN_ON = ("mysterious_kadab", "mysterious_flip", "house_content")


def make_config(options: dict, players: int, max_rounds: int | None = None) -> GameConfig:
    """A tournament's or a training run's game: its options, player count and round limit."""
    return GameConfig.from_dict({**options, "n_players": players, "max_rounds": max_rounds})
