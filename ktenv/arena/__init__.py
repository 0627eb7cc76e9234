"""The arena: games between agents, tournaments, ratings, game records and plots.

- `play_game(cfg, seed, agents)`: one game of the game `cfg` belongs to, each agent seeing its observation
  (the game's own `play_game`, `ktenv.registry`).
- `run_tournament(TournamentConfig(...))`: a balanced, resumable, parallel tournament
  (`ktenv tournament`), results in SQLite, standings with OpenSkill ratings.
- `GameRecord` / `replay`: a game as a small JSON record, re-simulated and verified
  (`ktenv replay`).
"""

from .config import TournamentConfig
from .game import AgentError, GameResult
from .records import GameRecord, RecordError, replay
from .tournament import TournamentError, run_tournament


def play_game(cfg, seed: int, names: list[str], **kwargs) -> GameResult:
    """One game between agents (seat i plays `names[i]`), by the rules of the game `cfg` belongs to."""
    from ..registry import game_of_config

    return game_of_config(cfg).play_game(cfg, seed, names, **kwargs)


__all__ = ["AgentError", "GameRecord", "GameResult", "RecordError", "TournamentConfig", "TournamentError",
           "play_game", "replay", "run_tournament"]
