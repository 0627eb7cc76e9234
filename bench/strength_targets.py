"""A learned agent's strength against the project's targets, each a tournament of the arena (seats rotated).

    python bench/strength_targets.py ppo:runs/ppo_2p_expert/final.zip --workers 2
    python bench/strength_targets.py ppo:MODEL --search "ismcts:policy=MODEL,paired=3,seconds=0.15" --four ppo:MODEL4

Two-player matches of AGENT against `expert` (--expert-games, default 400), `greedy` and the shipped model
(`--games` each, default 200); with --search, that agent against `expert` (--search-games, default 200);
with --four, a 4-player table of that agent, `expert`, `greedy` and `random` (--games). Each prints as it
ends: the agent's wins with a 95% Wilson interval and whether the target holds (the interval's lower end
above 50% where the target says so). Tournament seeds start at --seed, one per match, far from the seeds
training uses; every match is stored in --db-dir (resumable: the same command again adds nothing).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ktenv.arena.config import TournamentConfig
from ktenv.arena.tournament import run_tournament

SHIPPED = "ppo:models/ppo_2p.zip"


def match(agents: list[str], players: int, games: int, seed: int, args) -> list:
    """The standings of one tournament (`agents` as LABEL=SPEC; the first is the one measured)."""
    label = "_".join(a.split("=")[0] for a in agents)
    cfg = TournamentConfig(agents=agents, players=players, games=games, workers=args.workers, seed=seed,
                           max_rounds=args.max_rounds, db=str(Path(args.db_dir) / f"{label}_{players}p_{seed}.sqlite"),
                           resume=True, progress=False)
    return run_tournament(cfg)["standings"]


def line(name: str, standing, target: str, holds: bool) -> str:
    return (f"| {name} | {standing.games} | {standing.win_rate:.1%} [{standing.win_low:.1%}, {standing.win_high:.1%}] "
            f"| {target} | {'yes' if holds else 'no'} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("agent", help="the learned agent, e.g. ppo:runs/ppo_2p_expert/final.zip")
    ap.add_argument("--search", help="the policy-guided search agent's spec")
    ap.add_argument("--four", help="a 4-player agent spec for the 4-player table")
    ap.add_argument("--expert-games", type=int, default=400)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--search-games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=90_001)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--max-rounds", type=int, default=30)
    ap.add_argument("--db-dir", default="runs/strength_targets")
    args = ap.parse_args()
    Path(args.db_dir).mkdir(parents=True, exist_ok=True)
    me = f"learned={args.agent}"
    print("| match | games | wins [95%] | target | holds |\n|---|---|---|---|---|", flush=True)
    s = match([me, "expert"], 2, args.expert_games, args.seed, args)
    mine = next(x for x in s if x.agent == "learned")
    print(line("learned vs expert", mine, ">= 55%, interval above 50%", mine.win_rate >= 0.55 and mine.win_low > 0.5),
          flush=True)
    for k, (other, target) in enumerate((("greedy", 0.80), (f"shipped={SHIPPED}", 0.70)), start=1):
        s = match([me, other], 2, args.games, args.seed + k, args)
        mine = next(x for x in s if x.agent == "learned")
        print(line(f"learned vs {other.split('=')[0]}", mine, f">= {target:.0%}", mine.win_rate >= target), flush=True)
    if args.search:
        s = match([f"search={args.search}", "expert"], 2, args.search_games, args.seed + 3, args)
        mine = next(x for x in s if x.agent == "search")
        print(line("search vs expert", mine, ">= 90%", mine.win_rate >= 0.90), flush=True)
    if args.four:
        s = match([f"learned={args.four}", "expert", "greedy", "random"], 4, args.games, args.seed + 4, args)
        print(f"| 4 players: {', '.join(f'{x.agent} {x.ordinal:.1f}' for x in s)} (rating ordinal) | {args.games} | "
              f"| highest rating | {'yes' if s[0].agent == 'learned' else 'no'} |", flush=True)


if __name__ == "__main__":
    main()
