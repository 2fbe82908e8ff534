"""The Gymnasium single-agent environment: one seat played from Python, the others by lab agents."""
from __future__ import annotations

from typing import Any, Optional, Sequence, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _checks
from ._server import Server, WonderlabError
from .actions import action_index, illegal_message
from .rewards import RewardFn, reward_function

ILLEGAL_ACTION_POLICIES = ("terminate", "raise")


class WonderlabEnv(gymnasium.Env):
    """gymnasium.make("Wonderlab-v0", opponents=["rulebased", "mcts:100"], seat=0, reward="rank").

    One seat is played from Python and the opponents (lab agent specs) play the others: the player
    count is 1 + len(opponents), and players=, if given, must agree with it.

    The observation is the seat's uint8 vector; the legal actions are in info["action_mask"] (and
    action_masks()). Every action of the space is accepted, as Gymnasium's check_env and learners
    that sample unmasked expect: with illegal_action="terminate" (the default) an illegal one ends
    the episode with illegal_reward (default: the reward of the last rank) and
    info["illegal_action"], the convention of PettingZoo's TerminateIllegalWrapper. With
    illegal_action="raise" it raises WonderlabError naming the action and the legal ones, and
    changes nothing (for code that masks, to catch a masking bug). An action outside the space
    (9999) is always an error.
    """

    # An ansi frame per decision; nothing moves between them. render_fps only paces a viewer of
    # the frames (Gymnasium asks every env that renders to declare it): one a second, to read each.
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        opponents: Sequence[str] = ("rulebased", "rulebased"),
        seat: int = 0,
        sides: str = "random",
        reward: Union[str, RewardFn] = "rank",
        illegal_action: str = "terminate",
        render_mode: Optional[str] = None,
        players: Optional[int] = None,
        illegal_reward: Optional[float] = None,
    ):
        # Every argument is checked before the server starts: a mistake costs no process.
        opponents = _checks.agent_specs("opponents", opponents, python_seats=False)
        count = len(opponents) + 1
        if players is not None and _checks.integer("players", players) != count:
            raise ValueError(
                f"players: {players} given, but the Gymnasium env's player count comes from opponents: 1 (the seat"
                f" played from Python) + len(opponents) = {count}; for {players} players, give {players - 1} opponent specs"
            )
        seat = _checks.integer("seat", seat)
        if not 0 <= seat < count:
            raise ValueError(f"seat: expected 0..{count - 1}, got {seat}")
        _checks.text("sides", sides)
        self._illegal = _checks.one_of("illegal_action", illegal_action, ILLEGAL_ACTION_POLICIES)
        self.render_mode = _checks.one_of("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        self._reward = reward_function(reward)
        self._seat = seat
        if illegal_reward is None:
            # The reward of a game in which every seat finished last with 0 VP: the last rank's
            # reward for "rank" (0) and "win" (0), 0 for "vp"; a reward function gives its own.
            illegal_reward = self._reward(np.zeros(count, np.int32), np.full(count, count, np.int32))[seat]
        self._illegal_reward = _checks.number("illegal_reward", illegal_reward)
        seats: list[Optional[str]] = list(opponents)
        seats.insert(seat, None)
        self._server = Server(games=1, players=count, seats=seats, sides=sides)
        self.observation_space = spaces.Box(0, 255, (self._server.observation_size,), np.uint8)
        self.action_space = spaces.Discrete(self._server.action_count)
        self._state = None
        self._ended = False

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
        self._ended = False
        return self._state.observation[0, 0].copy(), self._info()

    def step(self, action):
        if self._state is None:
            raise WonderlabError("step() before reset(): call reset() first")
        if self._ended:
            # After an illegal action the game is still in play on the server: without this, a
            # step would go on with an episode that has ended.
            raise WonderlabError("the episode has ended: call reset() before step()")
        a = action_index(action, self._server.action_count)
        if not self._state.mask[0, 0, a]:
            message = illegal_message(a, self._state.mask[0, 0], self._server.action_names)
            if self._illegal == "raise":
                raise WonderlabError(message)
            # Ended, not replaced by a legal action: a substitute would credit the agent's choice
            # with another action's outcome, and the game's record would show a move it never chose.
            self._ended = True
            info = self._info()
            info.update(illegal_action=a, illegal=message)
            return self._state.observation[0, 0].copy(), self._illegal_reward, True, False, info
        self._state = self._server.step(np.array([[a]], np.int32))
        obs = self._state.observation[0, 0].copy()
        info = self._info()
        if self._state.done[0]:
            self._ended = True
            vp, rank = self._state.vp[0].copy(), self._state.rank[0].copy()
            info.update(vp=vp, rank=rank)
            return obs, float(self._reward(vp, rank)[self._seat]), True, False, info
        return obs, 0.0, False, False, info

    def record(self) -> dict:
        """The lab's game record of this game (`wonderlab replay` reads it), once it is over: a game
        still in play (or one an illegal action ended) raises WonderlabError."""
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
