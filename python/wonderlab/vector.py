"""Many games per server, stepped in one message: for throughput (self-play, data collection)."""
from __future__ import annotations

from typing import Optional, Sequence

import numpy as np

from . import _checks
from ._server import Server, State


class VectorGames:
    """N games, each with the same seats: None for a seat played from Python, else a lab agent spec.

    step(actions) takes int32 [N, E] (E = seats played from Python; −1 where a seat does not act) and
    returns a State whose arrays are [N, E, …]. A game that ends is started again at once with the
    next seed of its sequence (State.done marks it, State.vp / State.rank hold the finished game's
    result, State.observation is already the new game's). Several VectorGames (one process each)
    run on several cores.
    """

    def __init__(self, games: int = 64, players: int = 3, seats: Optional[Sequence[Optional[str]]] = None, seed: int = 0, sides: str = "random"):
        # Types checked before the server starts; it checks the ranges.
        games = _checks.integer("games", games)
        seed = _checks.integer("seed", seed)
        _checks.text("sides", sides)
        if seats is None:
            seats = [None] * _checks.integer("players", players)
        else:
            seats = _checks.agent_specs("seats", seats, python_seats=True)
        self.server = Server(games=games, players=len(seats), seats=seats, seed=seed, sides=sides, auto_reset=True)
        self.games = games
        self.external = self.server.external
        self.observation_size = self.server.observation_size
        self.action_count = self.server.action_count

    def reset(self, seeds: Optional[Sequence[Optional[int]]] = None) -> State:
        seeds = list(seeds) if seeds is not None else [None] * self.games
        return self.server.reset(list(range(self.games)), seeds)

    def step(self, actions: np.ndarray) -> State:
        return self.server.step(actions)

    def record(self, game: int, finished: bool = True) -> dict:
        return self.server.record(game, finished)

    def close(self) -> None:
        self.server.close()


def random_actions(state: State, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per acting seat, vectorized (−1 where a seat does not act):
    the k-th legal action, k uniform below their count (a running count over the mask finds it)."""
    counts = np.cumsum(state.mask, axis=-1, dtype=np.int16)
    k = (rng.random(counts.shape[:-1]) * counts[..., -1]).astype(np.int16)
    actions = (counts > k[..., None]).argmax(-1).astype(np.int32)
    actions[~state.acting] = -1
    return actions
