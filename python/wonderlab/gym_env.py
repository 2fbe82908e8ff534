"""The Gymnasium single-agent environment: one seat played from Python, the others by lab agents."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from ._server import Server, WonderlabError
from .rewards import RewardFn, reward_function


class WonderlabEnv(gymnasium.Env):
    """gymnasium.make("Wonderlab-v0", opponents=["rulebased", "mcts:100"], seat=0, reward="rank").

    The observation is the seat's uint8 vector; the legal actions are in info["action_mask"] (and
    action_masks()). An illegal action raises WonderlabError naming it and the legal ones; with
    illegal_action="lose" it ends the episode instead, with the reward of the last rank and
    info["illegal_action"] (the convention of PettingZoo's TerminateIllegalWrapper, for checkers and
    learners that sample unmasked).
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, opponents: Sequence[str] = ("rulebased", "rulebased"), seat: int = 0, sides: str = "random", reward: Union[str, RewardFn] = "rank", illegal_action: str = "raise", render_mode: Optional[str] = None):
        players = len(opponents) + 1
        if not 0 <= seat < players:
            raise ValueError(f"seat: expected 0..{players - 1}, got {seat}")
        if illegal_action not in ("raise", "lose"):
            raise ValueError(f"illegal_action: expected 'raise' or 'lose', got {illegal_action!r}")
        seats: list[Optional[str]] = list(opponents)
        seats.insert(seat, None)
        self._server = Server(games=1, players=players, seats=seats, sides=sides)
        self._reward = reward_function(reward)
        self._seat = seat
        self._illegal = illegal_action
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0, 255, (self._server.observation_size,), np.uint8)
        self.action_space = spaces.Discrete(self._server.action_count)
        self._state = None

    def _info(self) -> dict[str, Any]:
        assert self._state is not None
        return {"action_mask": self._state.mask[0, 0].astype(np.int8), "seed": int(self._state.seed[0])}

    def action_masks(self) -> np.ndarray:
        assert self._state is not None
        return self._state.mask[0, 0].astype(bool)

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**32 - 1))
        self._state = self._server.reset([0], [game_seed])
        return self._state.observation[0, 0].copy(), self._info()

    def step(self, action):
        assert self._state is not None, "reset() first"
        a = int(action)
        if not (0 <= a < self._server.action_count and self._state.mask[0, 0, a]):
            if self._illegal == "raise":
                legal = ", ".join(str(x) for x in np.flatnonzero(self._state.mask[0, 0]))
                raise WonderlabError(f"action {a} is not legal; legal: {legal}")
            n = self._server.players
            worst = self._reward(np.zeros(n, np.int32), np.full(n, n, np.int32))[self._seat]
            info = self._info()
            info["illegal_action"] = a
            return self._state.observation[0, 0].copy(), float(worst), True, False, info
        self._state = self._server.step(np.array([[a]], np.int32))
        obs = self._state.observation[0, 0].copy()
        info = self._info()
        if self._state.done[0]:
            vp, rank = self._state.vp[0].copy(), self._state.rank[0].copy()
            info.update(vp=vp, rank=rank)
            return obs, float(self._reward(vp, rank)[self._seat]), True, False, info
        return obs, 0.0, False, False, info

    def record(self) -> dict:
        """The lab's game record of this game (`wonderlab replay` reads it), once it is over: a game
        still in play raises WonderlabError."""
        return self._server.record(0)

    def render(self) -> Optional[str]:
        if self.render_mode != "ansi" or self._state is None:
            return None
        return f"seed {int(self._state.seed[0])}, legal actions: {int(self._state.mask[0, 0].sum())}"

    def close(self) -> None:
        self._server.close()


def register_envs() -> None:
    if "Wonderlab-v0" not in gymnasium.registry:
        gymnasium.register(id="Wonderlab-v0", entry_point="wonderlab.gym_env:WonderlabEnv")
