"""Kingsburg's configuration: the player count and the switchable decisions of K15, in one frozen record."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from ..errors import ConfigError, did_you_mean

PLAYER_COUNTS = (2, 3, 4, 5)  # K1.1
GAME = "kingsburg"


@dataclass(frozen=True)
class KingsburgConfig:
    n_players: int = 4
    building_token_limit: int | None = 17  # K15.D2 (None: unlimited)
    merchants_guild_good_of_choice: bool = False  # K15.D3
    kings_reward_requires_building: bool = False  # K15.D13
    neutral_dice_players: tuple[int, ...] = (2,)  # K15.D24: player counts that get the blocking dice (K14.1)

    def __post_init__(self) -> None:
        if isinstance(self.n_players, bool) or self.n_players not in PLAYER_COUNTS:
            raise ConfigError(f"n_players: Kingsburg is for 2 to 5 players, got {self.n_players!r}")
        limit = self.building_token_limit
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
            raise ConfigError(f"building_token_limit: a positive whole number or None, got {limit!r}")
        for key in ("merchants_guild_good_of_choice", "kings_reward_requires_building"):
            if not isinstance(getattr(self, key), bool):
                raise ConfigError(f"{key}: expected true or false, got {getattr(self, key)!r}")
        counts = self.neutral_dice_players
        if isinstance(counts, (list, set, frozenset)):
            object.__setattr__(self, "neutral_dice_players", tuple(sorted(counts)))
        if not isinstance(self.neutral_dice_players, tuple) or any(c not in PLAYER_COUNTS
                                                                    for c in self.neutral_dice_players):
            raise ConfigError(f"neutral_dice_players: a list of player counts 2-5, got {counts!r}")

    @property
    def neutral_dice(self) -> bool:
        return self.n_players in self.neutral_dice_players

    def to_dict(self) -> dict:
        """The options plus ``"game": "kingsburg"``, so that a record or a tournament store says its game."""
        d = {"game": GAME, **asdict(self)}
        d["neutral_dice_players"] = list(self.neutral_dice_players)
        return d

    @classmethod
    def from_dict(cls, data: dict) -> KingsburgConfig:
        data = dict(data)
        if data.pop("game", GAME) != GAME:
            raise ConfigError("this is not a Kingsburg configuration (its 'game' is not 'kingsburg')")
        if "num_players" in data:  # PettingZoo's keyword
            if "n_players" in data and data["n_players"] != data["num_players"]:
                raise ConfigError("num_players and n_players disagree")
            data["n_players"] = data.pop("num_players")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown Kingsburg option(s) {unknown}{did_you_mean(unknown[0], known)} "
                              f"(known: {sorted(known)})")
        return cls(**data)


def make_config(options: dict, players: int, max_rounds: int | None = None) -> KingsburgConfig:
    """A tournament's or a training run's game; `max_rounds` does not apply (five years, always: K3.1)."""
    return KingsburgConfig.from_dict({**options, "n_players": players})
