"""Plays N seeded random games on the engine and prints games/s and decisions/s.

    python bench/random_games.py --games 50 --players 4 --max-rounds 100

"decisions" are the actions agents chose (forced single-option moves are applied by the engine
and not counted). A baseline in the same run: the cost of building the legal mask alone, so the
ratio shows how much of a decision goes to the rules versus to the mask.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ktenv.kings_and_things.config import GameConfig
from ktenv.kings_and_things.engine import legal_mask, new_game, step


def play(cfg: GameConfig, seed: int) -> tuple[int, int]:
    rng = np.random.default_rng(seed)
    s = new_game(cfg, seed)
    while not s.game_over:
        legal = np.flatnonzero(legal_mask(s))
        step(s, int(legal[rng.integers(legal.size)]))
    return s.stats["decisions"], s.round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--max-rounds", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cfg = GameConfig(n_players=args.players, max_rounds=args.max_rounds)

    start = time.perf_counter()
    decisions = rounds = 0
    for i in range(args.games):
        d, r = play(cfg, args.seed + i)
        decisions += d
        rounds += r
        if (i + 1) % max(1, args.games // 10) == 0:
            print(f"  {i + 1}/{args.games} games, {decisions} decisions", flush=True)
    elapsed = time.perf_counter() - start

    # Baseline: rebuilding the mask of one mid-game state, the floor of any decision's cost.
    s = new_game(cfg, args.seed)
    n_mask = 20_000
    t0 = time.perf_counter()
    for _ in range(n_mask):
        s.edited()
        legal_mask(s)
    mask_cost = (time.perf_counter() - t0) / n_mask

    per_decision = elapsed / max(decisions, 1)
    print(f"players={args.players} games={args.games} rounds/game={rounds / args.games:.1f} "
          f"decisions/game={decisions / args.games:.0f}")
    print(f"games/s={args.games / elapsed:.2f}  decisions/s={decisions / elapsed:,.0f}")
    print(f"baseline mask build: {1 / mask_cost:,.0f}/s; a decision costs {per_decision / mask_cost:.1f}x a mask build")


if __name__ == "__main__":
    main()
