"""The game's own random generator: every die, cup draw and shuffle comes from here (RD1.1).

SplitMix64 on a Python int: a few hundred nanoseconds a number, exact JSON round trip (one
integer), and the same sequence on every platform. Tests can script dice: values in `script`
are returned by `d6()` before any random one, so a rules test states its rolls exactly.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class Dice:
    """Seeded generator stored inside the game state."""

    __slots__ = ("state", "script")

    def __init__(self, seed: int = 0, state: int | None = None) -> None:
        if state is None:
            state = (int(seed) * _GOLDEN + 0x632BE59BD9B4E019) & _MASK
        self.state = state & _MASK
        self.script: list[int] = []

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def d6(self) -> int:
        """One six-sided die; a scripted value first if the test gave any."""
        if self.script:
            return self.script.pop(0)
        return self.next64() % 6 + 1

    def two_d6(self) -> int:
        return self.d6() + self.d6()

    def below(self, n: int) -> int:
        """Uniform integer in [0, n): cup draws and random picks (bias below 2**-58)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        return self.next64() % n

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> Dice:
        other = Dice(state=self.state)
        other.script = list(self.script)
        return other

    def to_json(self) -> dict:
        return {"state": str(self.state), "script": list(self.script)}

    @classmethod
    def from_json(cls, data: dict) -> Dice:
        try:
            state = int(data["state"])
            script = [int(v) for v in data.get("script", [])]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"rng: malformed generator state ({exc})") from None
        if not 0 <= state <= _MASK:
            raise ValueError("rng: state out of range")
        if any(not 1 <= v <= 6 for v in script):
            raise ValueError("rng: scripted dice must be 1-6")
        dice = cls(state=state)
        dice.script = script
        return dice


def world_dice(rng: object) -> Dice:
    """The generator a sampled world is drawn with: a Dice as is (it advances), a seed, or a seed drawn from a
    numpy generator (None: from the OS)."""
    if isinstance(rng, Dice):
        return rng
    if rng is None:
        import numpy as np

        rng = np.random.default_rng()
    if hasattr(rng, "integers"):  # a numpy Generator
        rng = int(rng.integers(2**63))
    return Dice(seed=int(rng))
