"""The lab's random generator, in Python: sfc32 (Chris Doty-Humphrey's Small Fast Chaotic
generator, 128-bit state) with Lemire's unbiased integers, as shared/src/engine/rng.ts has it.

An outside agent is given the state of the generator the lab gives its seat (the "rng" of the
protocol's game message); LabRng.from_state(state) continues it draw for draw, so an agent that
draws as a built-in one does plays the same moves (agents/py-random replays `random`).
"""
from __future__ import annotations

from typing import Sequence

_M = 0xFFFFFFFF


class LabRng:
    __slots__ = ("a", "b", "c", "d")

    def __init__(self, a: int, b: int, c: int, d: int) -> None:
        self.a, self.b, self.c, self.d = a & _M, b & _M, c & _M, d & _M

    @classmethod
    def from_state(cls, state: Sequence[int]) -> "LabRng":
        if len(state) != 4:
            raise ValueError(f"an sfc32 state is four 32-bit words, got {len(state)}")
        return cls(*state)

    def next_u32(self) -> int:
        a, b, c, d = self.a, self.b, self.c, self.d
        t = (a + b + d) & _M
        self.d = (d + 1) & _M
        self.a = b ^ (b >> 9)
        self.b = (c + (c << 3)) & _M
        self.c = ((((c << 21) | (c >> 11)) & _M) + t) & _M
        return t

    def int(self, n: int) -> int:
        """A uniform integer in [0, n), 1 <= n <= 2**21, as the lab's Rng.int draws it."""
        if n <= 1:
            return 0
        while True:
            m = self.next_u32() * n
            high, low = m >> 32, m & _M
            if low >= n or low >= (0x100000000 - n) % n:
                return high

    def float(self) -> float:
        """A uniform float in [0, 1)."""
        return self.next_u32() / 0x100000000
