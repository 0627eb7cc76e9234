"""The arena: games between agents, tournaments, ratings, game records and plots.

- `play_game(cfg, seed, agents)`: one game on the engine, each agent seeing its observation.
- `run_tournament(TournamentConfig(...))`: a balanced, resumable, parallel tournament
  (`ktenv tournament`), results in SQLite, standings with OpenSkill ratings.
- `GameRecord` / `replay`: a game as a small JSON record, re-simulated and verified
  (`ktenv replay`).
"""

from .config import TournamentConfig
from .game import AgentError, GameResult, play_game
from .records import GameRecord, RecordError, replay
from .tournament import TournamentError, run_tournament

__all__ = ["AgentError", "GameRecord", "GameResult", "RecordError", "TournamentConfig", "TournamentError",
           "play_game", "replay", "run_tournament"]
