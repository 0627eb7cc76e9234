"""A Kingsburg observation decoded by name (`ktenv.kingsburg.observation`'s layout): what an agent may
know, nothing more. Seats are relative: index 0 is the observer."""

from __future__ import annotations

from functools import cache

import numpy as np

from ktenv.kingsburg import actions as A
from ktenv.kingsburg import catalog as cat
from ktenv.kingsburg.observation import build_layout


@cache
def _layouts() -> dict:
    return {build_layout(n).size: (n, build_layout(n)) for n in range(2, 6)}


class View:
    """Fields: n, year, phase, stage, decision, target, picks_left, pick_kinds, reinforcement; per relative
    seat goods (n, 3), tokens, vp, soldiers, built (n, 5, 4), envoy, passed, flags (n, 5), dice (n, 5),
    die_on (n, 5), peeked, strength, result; advisor_group / advisor_envoy (18 + 1: relative seat,
    -2 neutral, -1 none); enemy cards as rows (known, strength, type one-hot, reward, losses):
    revealed, peeked, options (5 rows)."""

    def __init__(self, obs) -> None:
        if isinstance(obs, dict):
            obs = obs["observation"]
        obs = np.asarray(obs, np.float32)
        try:
            self.n, lay = _layouts()[obs.size]
        except KeyError:
            raise ValueError(f"not a Kingsburg observation (size {obs.size})") from None
        p = lay.table(obs, "players")
        n = self.n
        i = 0

        def take(k: int) -> np.ndarray:
            nonlocal i
            out = p[:, i:i + k]
            i += k
            return out

        self.goods = take(3).round().astype(int)
        self.tokens, self.vp, self.soldiers = (take(1)[:, 0].round().astype(int) for _ in range(3))
        self.built = take(cat.N_BUILDINGS).astype(bool).reshape(n, cat.ROWS, cat.COLUMNS)
        self.envoy, self.aid_die, self.passed = (take(1)[:, 0].astype(bool) for _ in range(3))
        self.flags = take(5).astype(bool)
        self.turn_place = take(1)[:, 0]
        self.dice = take(5).round().astype(int)
        self.die_on = take(5).round().astype(int)
        self.peeked = take(1)[:, 0].astype(bool)
        self.strength, self.result = (take(1)[:, 0].round().astype(int) for _ in range(2))
        adv = lay.table(obs, "advisors")
        self.advisor_group = np.full(cat.N_ADVISORS + 1, -1)
        self.advisor_envoy = np.full(cat.N_ADVISORS + 1, -1)
        for a in range(cat.N_ADVISORS):
            seats = np.flatnonzero(adv[a, :n])
            if seats.size:
                self.advisor_group[a + 1] = seats[0]
            elif adv[a, n]:
                self.advisor_group[a + 1] = -2
            envoy = np.flatnonzero(adv[a, n + 1:])
            if envoy.size:
                self.advisor_envoy[a + 1] = envoy[0]
        g = lay.table(obs, "game")[0]
        self.year = int(np.argmax(g[:cat.YEARS])) + 1
        self.phase = int(np.argmax(g[cat.YEARS:cat.YEARS + 8])) + 1
        base = cat.YEARS + 8
        n_stages = len(lay.section("game").columns) - base - A.N_DECISIONS - n - 6
        self.stage = int(np.argmax(g[base:base + n_stages]))
        base += n_stages
        self.decision = int(np.argmax(g[base:base + A.N_DECISIONS]))
        base += A.N_DECISIONS + n
        self.target, self.picks_left, self.reinforcement = (int(round(x)) for x in g[base:base + 3])
        self.pick_kinds = [k for k in range(3) if g[base + 3 + k] > 0.5]
        e = lay.table(obs, "enemies").astype(np.float64)  # the agents' sums run in float64 alone
        self.revealed = e[0] if e[0, 0] else None
        self.peeked_card = e[1] if e[1, 0] else None
        self.options = e[2:7]

    # ----- facts an agent asks often

    def owns(self, building: tuple[int, int], seat: int = 0) -> bool:
        return bool(self.built[seat, building[0], building[1]])

    @property
    def season(self) -> int:
        return {2: 0, 4: 1, 6: 2}.get(self.phase, -1)

    def seasons_left(self) -> int:
        """Productive seasons still to come after the current one (the current one excluded)."""
        done = (self.year - 1) * 3 + {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3, 7: 3, 8: 3}[self.phase]
        return max(0, 15 - done)

    def battles_left(self) -> int:
        """Battles still to fight, this year's included when it has not been fought."""
        return cat.YEARS - self.year + (1 if self.phase < 8 or self.revealed is None else 0)

    def enemy_strengths(self) -> list[int]:
        """This year's possible enemy strengths (the peeked card alone when the observer looked)."""
        rows = [self.peeked_card] if self.peeked_card is not None else list(self.options)
        return [int(round(r[1])) for r in rows]

    def enemy_rows(self) -> list[np.ndarray]:
        return [self.peeked_card] if self.peeked_card is not None else list(self.options)

    def battle_bonus(self, enemy_type: str | None = None, seat: int = 0) -> int:
        bonus = int(cat.BUILDING_BATTLE[self.built[seat]].sum())
        special = {"Goblins": cat.BARRICADE, "Zombies": cat.PALISADE, "Demons": cat.CHURCH}.get(enemy_type or "")
        if special is not None and self.owns(special, seat):
            bonus += 1
        return bonus


def enemy_type(row: np.ndarray) -> str:
    return cat.ENEMY_TYPES[int(np.argmax(row[2:2 + len(cat.ENEMY_TYPES)]))]
