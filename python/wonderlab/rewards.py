"""Rewards at the end of a game, from each seat's final VP and rank (1 = best; ties share a rank)."""
from __future__ import annotations

from typing import Callable, Union

import numpy as np

RewardFn = Callable[[np.ndarray, np.ndarray], np.ndarray]


def rank_reward(vp: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """(n − rank) / (n − 1): 1 for first, 0 for last (the lab's `reward=rank`)."""
    n = len(rank)
    return (n - rank) / (n - 1)


def win_reward(vp: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """1 for strictly the most VP, else 0 (the lab's `reward=win`)."""
    best = vp.max()
    sole = (vp == best).sum() == 1
    return ((vp == best) & sole).astype(np.float64)


def vp_reward(vp: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """Own VP, unscaled."""
    return vp.astype(np.float64)


REWARDS: dict[str, RewardFn] = {"rank": rank_reward, "win": win_reward, "vp": vp_reward}


def reward_function(reward: Union[str, RewardFn]) -> RewardFn:
    if callable(reward):
        return reward
    if reward not in REWARDS:
        raise ValueError(f"reward: expected one of {', '.join(REWARDS)} or a function (vp, rank) -> rewards, got {reward!r}")
    return REWARDS[reward]
