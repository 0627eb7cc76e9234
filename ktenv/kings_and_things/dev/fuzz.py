"""Long random play: seeded games over every player count and random option mixes, checked hard.

Each game draws its player count and a mix of every option key of `GameConfig` from its index, then
plays uniformly random legal actions. After every action the state's invariants are checked; at
random points the game continues from a JSON round trip or a `copy()` of itself (so anything either
one loses shows up as a different game); at the end the seed and the action list replay the same
final state from scratch. A failure raises `BrokenGameError`, whose message is a runnable reproduction
(seed, options, decision index).

    python -m ktenv.kings_and_things.dev.fuzz --games 800                 # the long run (progress bar, a summary line)
    python -m ktenv.kings_and_things.dev.fuzz --games 5 --first 120       # games 120-124 only

The test suite runs a short form (tests/rules/test_random_games.py, `slow` marker; KTENV_FUZZ=N for more).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field, fields

import numpy as np

from ..config import OPTION_CHOICES, OPTION_FLAGS, GameConfig
from ..constants import PLAYER_COUNTS
from ..engine.machine import describe_action, legal_mask, new_game, step
from ..state import GameState

# Options left out of the mix: the player count is drawn on its own, `powers` names powers by seat
# (the random deal of R21.0 is what random play should see), and the round limit keeps games short.
_NOT_MIXED = {"n_players", "powers", "max_rounds", "fixed_rounds", "land_threshold_2p"}


class BrokenGameError(AssertionError):
    """A broken game found by random play; the message says how to reproduce it."""


@dataclass(frozen=True)
class FuzzGame:
    """One seeded game of the long check: its index decides everything else."""

    index: int
    n_players: int
    seed: int
    options: dict = field(default_factory=dict)

    def config(self) -> GameConfig:
        return GameConfig(n_players=self.n_players, **self.options)

    def reproduction(self, decision: int) -> str:
        return (f"game {self.index}: n_players={self.n_players}, seed={self.seed}, failing decision {decision}\n"
                "import numpy as np\n"
                "from ktenv.kings_and_things.config import GameConfig\n"
                "from ktenv.kings_and_things.engine import new_game, legal_mask, step\n"
                f"s = new_game(GameConfig(n_players={self.n_players}, **{self.options!r}), {self.seed})\n"
                f"rng = np.random.default_rng({self.seed})\n"
                f"for d in range({decision}):\n"
                "    legal = np.flatnonzero(legal_mask(s)); step(s, int(legal[rng.integers(legal.size)]))\n"
                "s.check_invariants()")


def plan(index: int, base_seed: int = 1_000_000, max_rounds: tuple[int, int] = (3, 40)) -> FuzzGame:
    """Game `index` of the long check: player count, seed and a random option mix."""
    rng = np.random.default_rng([base_seed, index])
    n_players = int(rng.choice(PLAYER_COUNTS))
    options: dict = {"max_rounds": int(rng.integers(max_rounds[0], max_rounds[1] + 1))}
    for f in fields(GameConfig):
        if f.name in _NOT_MIXED or not rng.integers(2):
            continue  # about half the keys keep their default in each game
        if f.name in OPTION_CHOICES:
            options[f.name] = OPTION_CHOICES[f.name][int(rng.integers(len(OPTION_CHOICES[f.name])))]
        elif f.name in OPTION_FLAGS:
            options[f.name] = bool(rng.integers(2))
    if options.get("victory") == "fixed_rounds":
        options["fixed_rounds"] = int(rng.integers(2, 9))
    if n_players == 2 and rng.integers(2):
        options["land_threshold_2p"] = int(rng.integers(6, 14))
    return FuzzGame(index, n_players, base_seed + index, options)


def play(game: FuzzGame, round_trip_chance: float = 0.01, max_decisions: int = 200_000) -> int:
    """Play one game to its end; returns the number of decisions. Raises `BrokenGameError`."""
    policy = np.random.default_rng(game.seed)  # the reproduction's policy, draw for draw
    checks = np.random.default_rng([game.seed, 1])
    s = new_game(game.config(), game.seed)
    actions: list[int] = []
    while not s.game_over:
        if len(actions) >= max_decisions:
            raise BrokenGameError(f"the game does not end\n{game.reproduction(len(actions))}")
        legal = np.flatnonzero(legal_mask(s))
        if legal.size == 0:
            raise BrokenGameError(f"no legal action before the end\n{game.reproduction(len(actions))}")
        action = int(legal[policy.integers(legal.size)])
        what = describe_action(s, action)
        try:
            step(s, action)
            actions.append(action)
            s.check_invariants()
            if checks.random() < round_trip_chance:
                s = _round_trip(s, json=bool(checks.integers(2)))
        except Exception as exc:
            raise BrokenGameError(f"{type(exc).__name__}: {exc}\nafter decision {len(actions)} ({what})\n"
                              f"{game.reproduction(len(actions))}") from exc
    _check_replay(game, s, actions)
    return len(actions)


def _round_trip(s: GameState, json: bool) -> GameState:
    """The game continues from its own save or copy, which must be the same state."""
    other = GameState.from_json(s.to_json()) if json else s.copy()
    if other.to_json() != s.to_json():
        raise AssertionError(f"{'JSON round trip' if json else 'copy()'} changed the state")
    return other


def _check_replay(game: FuzzGame, final: GameState, actions: list[int]) -> None:
    """Determinism: the seed plus the action list give the same final state."""
    again = new_game(game.config(), game.seed)
    for action in actions:
        step(again, action)
    if again.to_json() != final.to_json():
        raise BrokenGameError(f"replaying the actions gives another final state\n{game.reproduction(len(actions))}")


@dataclass
class FuzzReport:
    games: int = 0
    decisions: int = 0
    by_players: dict = field(default_factory=dict)


def run(games: int, first: int = 0, base_seed: int = 1_000_000, progress: bool = False,
        max_rounds: tuple[int, int] = (3, 40)) -> FuzzReport:
    """Play games first..first+games-1; stop at the first failure (raised)."""
    report = FuzzReport()
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=games, unit="game", file=sys.stderr)
    for index in range(first, first + games):
        game = plan(index, base_seed, max_rounds)
        n = play(game)
        report.games += 1
        report.decisions += n
        report.by_players[game.n_players] = report.by_players.get(game.n_players, 0) + 1
        if bar is not None:
            bar.update()
            bar.set_postfix(decisions=report.decisions)
    if bar is not None:
        bar.close()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ktenv.kings_and_things.dev.fuzz",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--first", type=int, default=0, help="index of the first game (default 0)")
    parser.add_argument("--seed", type=int, default=1_000_000, help="base seed (default 1000000)")
    parser.add_argument("--max-rounds", type=int, default=40, help="the longest round limit drawn (default 40)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.first < 0 or args.max_rounds < 3:
        parser.error("--games must be >= 1, --first >= 0 and --max-rounds >= 3")
    try:
        report = run(args.games, args.first, args.seed, progress=True, max_rounds=(3, args.max_rounds))
    except BrokenGameError as failure:
        print(f"FAILED\n{failure}", file=sys.stderr)
        return 1
    players = ", ".join(f"{n}p: {k}" for n, k in sorted(report.by_players.items()))
    print(f"{report.games} games ({players}), {report.decisions} decisions, no failure")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
