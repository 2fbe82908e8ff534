"""The PettingZoo AEC environment: every seat a Python agent, one game per server.

The seats of 7 Wonders choose at once; here the seats that act in a step take AEC turns in seat
order, and the engine applies their choices together when the last has chosen (so no seat sees
another's choice of the same step). Rewards come at the end of the game.
"""
from __future__ import annotations

from typing import Any, Optional, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from . import _checks
from ._server import Server, State, WonderlabError
from .actions import action_index, illegal_message
from .rewards import RewardFn, reward_function


def env(**kwargs: Any) -> AECEnv:
    """wonderlab.env(players=3..7, seed=…, sides=…, reward=…): the AEC environment, order-enforced.

    Not wrapped in PettingZoo's AssertOutOfBoundsWrapper: its bare AssertionError would come
    before raw_env's own check, which names the action and the space."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "wonderlab_v0", "is_parallelizable": False}

    def __init__(self, players: int = 3, seed: Optional[int] = None, sides: str = "random", reward: Union[str, RewardFn] = "rank", render_mode: Optional[str] = None):
        super().__init__()
        # Checked before the server starts; the server checks the ranges (players 3..7, the seed).
        players = _checks.integer("players", players)
        if seed is not None:
            seed = _checks.integer("seed", seed)
        _checks.text("sides", sides)
        self.render_mode = _checks.one_of("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        self._reward = reward_function(reward)
        self._server = Server(games=1, players=players, seats=[None] * players, seed=seed or 0, sides=sides)
        self._default_seed = seed
        self.possible_agents = [f"player_{i}" for i in range(players)]
        size = self._server.observation_size
        count = self._server.action_count
        self.observation_spaces = {
            a: spaces.Dict({"observation": spaces.Box(0, 255, (size,), np.uint8), "action_mask": spaces.Box(0, 1, (count,), np.int8)})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(count) for a in self.possible_agents}
        self._state: Optional[State] = None
        #: After the game: every seat's final VP, rank and reward (the agents are gone by then).
        self.result: Optional[dict] = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        if seed is None:
            seed = self._default_seed if self._default_seed is not None else int(np.random.randint(0, 2**32 - 1))
            self._default_seed = None
        self._state = self._server.reset([0], [seed])
        self.result = None
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._chosen = np.full((1, len(self.possible_agents)), -1, np.int32)
        self._queue = self._acting()
        self.agent_selection = self._queue.pop(0)

    def _acting(self) -> list[str]:
        assert self._state is not None
        return [self.possible_agents[i] for i in np.flatnonzero(self._state.acting[0])]

    def observe(self, agent: str) -> dict:
        assert self._state is not None
        i = self.possible_agents.index(agent)
        return {"observation": self._state.observation[0, i].copy(), "action_mask": self._state.mask[0, i].astype(np.int8)}

    def step(self, action: Optional[int]) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        assert self._state is not None
        agent = self.agent_selection
        i = self.possible_agents.index(agent)
        a = action_index(action, self._server.action_count, agent)
        if not self._state.mask[0, i, a]:
            raise WonderlabError(f"{agent}: {illegal_message(a, self._state.mask[0, i], self._server.action_names)}")
        self._chosen[0, i] = a
        self._cumulative_rewards[agent] = 0.0
        if self._queue:
            self.agent_selection = self._queue.pop(0)
            self._clear_rewards()
            return
        self._state = self._server.step(self._chosen)
        self._chosen.fill(-1)
        if self._state.done[0]:
            rewards = self._reward(self._state.vp[0].copy(), self._state.rank[0].copy())
            self.result = {"vp": self._state.vp[0].tolist(), "rank": self._state.rank[0].tolist(), "rewards": [float(r) for r in rewards]}
            for k, a in enumerate(self.possible_agents):
                self.rewards[a] = float(rewards[k])
                self.terminations[a] = True
                self.infos[a] = {"vp": int(self._state.vp[0, k]), "rank": int(self._state.rank[0, k])}
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        self._clear_rewards()
        self._queue = self._acting()
        self.agent_selection = self._queue.pop(0)

    def record(self) -> dict:
        """The lab's game record of this game (`wonderlab replay` reads it), once it is over: a game
        still in play raises WonderlabError."""
        return self._server.record(0)

    def render(self) -> Optional[str]:
        if self.render_mode is None or self._state is None:
            return None
        return f"seed {int(self._state.seed[0])}, acting: {', '.join(self._acting()) or 'none'}"

    def close(self) -> None:
        self._server.close()
