"""Standings from game results: wins with a 95% interval, averages, OpenSkill ratings, head-to-head.

Ratings: OpenSkill's Plackett-Luce model (Weng & Lin 2011), which rates multi-player free-for-all
results from each game's finishing order. The order of a game: the winners first (tied), then the
others by final income, then land hexes. Games are rated in the order they were scheduled (game
index), so a resumed tournament gets the same ratings as an uninterrupted one. When an agent holds
several seats of one game, each seat is rated as a copy and the agent takes the mean of its
copies' new ratings.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

Z95 = 1.959963984540054
# games stored but not rated or counted: cut short by a rules-engine bug, or by the safety bound on decisions
# (--max-decisions) before any result
EXCLUDED = ("engine_error", "step_limit")
FORFEIT = "forfeit_"  # the end reason of a game a seat's bot forfeited (arena.game): it counts, the seat lost it


def counted(games: list[dict]) -> list[dict]:
    return [g for g in games if g.get("reason") not in EXCLUDED]


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a win rate."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def finishing_ranks(winners: list[int], income: list[int], hexes: list[int]) -> list[int]:
    n = len(income)
    key = [(0 if p in winners else 1, -income[p], -hexes[p]) for p in range(n)]
    order = sorted(set(key))
    return [order.index(k) for k in key]


@dataclass
class Standing:
    agent: str
    games: int
    wins: float
    win_rate: float
    win_low: float
    win_high: float
    avg_income: float
    avg_hexes: float
    rating_mu: float
    rating_sigma: float
    forfeits: int = 0  # games this agent lost by its bot's fault (arena.game.ForfeitError)

    @property
    def ordinal(self) -> float:
        return self.rating_mu - 3 * self.rating_sigma

    def to_dict(self) -> dict:
        return {"agent": self.agent, "games": self.games, "wins": round(self.wins, 4),
                "win_rate": round(self.win_rate, 4), "win_rate_low": round(self.win_low, 4),
                "win_rate_high": round(self.win_high, 4), "avg_income": round(self.avg_income, 3),
                "avg_hexes": round(self.avg_hexes, 3), "rating_mu": round(self.rating_mu, 4),
                "rating_sigma": round(self.rating_sigma, 4), "rating_ordinal": round(self.ordinal, 4),
                "forfeits": self.forfeits}


def standings(games: list[dict], agents: list[str]) -> list[Standing]:
    """`games`: rows with agents, winners, income, hexes (and index), in any order."""
    rows = sorted(counted(games), key=lambda g: g.get("index", 0))
    ratings = rate(rows, agents)
    count = defaultdict(int)
    wins = defaultdict(float)
    income = defaultdict(float)
    hexes = defaultdict(float)
    forfeits = defaultdict(int)
    for g in rows:
        winners = g["winners"]
        for seat, name in enumerate(g["agents"]):
            forfeits[name] += g["reason"].startswith(FORFEIT) and seat not in winners
            count[name] += 1
            income[name] += g["income"][seat]
            hexes[name] += g["hexes"][seat]
            if seat in winners:
                wins[name] += 1.0 / len(winners)
    out = []
    for name in agents:
        n = count[name]
        low, high = wilson(wins[name], n)
        mu, sigma = ratings[name]
        out.append(Standing(name, n, wins[name], wins[name] / n if n else 0.0, low, high,
                            income[name] / n if n else 0.0, hexes[name] / n if n else 0.0, mu, sigma,
                            forfeits[name]))
    out.sort(key=lambda s: (-s.ordinal, -s.win_rate, s.agent))
    return out


def rate(rows: list[dict], agents: list[str]) -> dict[str, tuple[float, float]]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in agents}
    for g in rows:
        seats = g["agents"]
        ranks = finishing_ranks(g["winners"], g["income"], g["hexes"])
        teams = [[model.rating(mu=current[name].mu, sigma=current[name].sigma, name=name)] for name in seats]
        new = model.rate(teams, ranks=ranks)
        sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
        for name, team in zip(seats, new):
            acc = sums[name]
            acc[0] += team[0].mu
            acc[1] += team[0].sigma
            acc[2] += 1
        for name, (mu, sigma, k) in sums.items():
            current[name] = model.rating(mu=mu / k, sigma=sigma / k, name=name)
    return {name: (r.mu, r.sigma) for name, r in current.items()}


def head_to_head(games: list[dict], agents: list[str]) -> list[list[float | None]]:
    """matrix[i][j]: share of the games with both agents in which agent i finished ahead of agent j
    (best seat of each; a tie counts half). None when they never met."""
    ahead = defaultdict(float)
    met = defaultdict(int)
    for g in counted(games):
        ranks = finishing_ranks(g["winners"], g["income"], g["hexes"])
        best: dict[str, int] = {}
        for seat, name in enumerate(g["agents"]):
            best[name] = min(best.get(name, 99), ranks[seat])
        for a in best:
            for b in best:
                if a == b:
                    continue
                met[a, b] += 1
                if best[a] < best[b]:
                    ahead[a, b] += 1
                elif best[a] == best[b]:
                    ahead[a, b] += 0.5
    return [[(ahead[a, b] / met[a, b]) if met[a, b] else None for b in agents] for a in agents]


def format_table(rows: list[Standing], title: str = "", labels: tuple[str, str] = ("income", "hexes")) -> str:
    """`labels`: the names of the two averaged columns (a game's spec names them: `stat_labels`)."""
    w = max([10] + [len(s.agent) + 1 for s in rows])  # a model's path can be long
    head = (f"{'#':>2}  {'agent':<{w}}{'games':>7}{'wins':>8}{'win rate':>10}  {'95% interval':<15}"
            f"{labels[0]:>8}{labels[1]:>7}  {'rating (mu ± sigma)':<20}")
    lines = [title] if title else []
    forfeits = any(s.forfeits for s in rows)  # a column only where a bot lost a game by its fault
    head += "  forfeits" if forfeits else ""
    lines += [head, "-" * len(head)]
    for i, s in enumerate(rows, 1):
        wins = f"{s.wins:.0f}" if float(s.wins).is_integer() else f"{s.wins:.1f}"
        lines.append(f"{i:>2}  {s.agent:<{w}}{s.games:>7}{wins:>8}{100 * s.win_rate:>9.1f}%  "
                     f"[{100 * s.win_low:4.1f}, {100 * s.win_high:5.1f}]%  "
                     f"{s.avg_income:>7.1f}{s.avg_hexes:>7.1f}  {s.rating_mu:6.2f} ± {s.rating_sigma:4.2f}"
                     + (f"{s.forfeits:>17}" if forfeits else ""))
    return "\n".join(lines)
