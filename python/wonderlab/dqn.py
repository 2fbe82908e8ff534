"""Dawieang (2021)'s Deep Q-learning for 7 Wonders, on this package's Gymnasium environment.

As the paper gives it (../shared/papers/dawieang-2021-drl-7-wonders.txt, "Deep Q-learning" and
"Experiment"): a policy and a target network (Linear, LayerNorm, Linear, LayerNorm, Linear), the
legal actions masked, decaying ε-greedy (ε_s = 0.9, ε_t = 0.05, ε_d = 2500), rank rewards at the
end of the game ([2, 1, −1] at 3 players, [2, 1, −1, −2] at 4) given to every action of the game
discounted by k = 0.95 from the last, Huber (SmoothL1) loss on batches of 128 with γ = 0.99, the
target network updated every 10 episodes, 2600 episodes.

Our reading where the paper is silent or garbled (docs/deviations.md, "Dawieang 2021"):
- ε: the paper prints ε = ε_t + (ε_s − ε_t) / e^(−episode/ε_d), which grows without bound, and
  "greedy when r < ε"; we read the standard decaying schedule ε_t + (ε_s − ε_t)·e^(−episode/ε_d)
  with exploration (a uniformly random legal action) when r < ε.
- The rest as in PyTorch's DQN tutorial of that time, which the paper's numbers follow (batch
  128, ε 0.9 → 0.05, target every 10 episodes): replay memory of 10,000 transitions, RMSprop at
  learning rate 0.01, one optimisation step per action, gradients clipped to [−1, 1], the target's
  max over all actions of the next state.
- The reward: each action's stored reward is the discounted final reward k^(n-1-i)·r_n and its
  target adds γ·max Q of the next state, as the paper's text gives it; so the outcome is counted
  more than once (docs/deviations.md flags it as our reading; kept, not fixed).
- The networks read this package's observation (675 values at 3 players, 846 at 4) instead of
  the paper's 70, and give 390 action values instead of 300; no activation between the layers,
  as printed.
"""
from __future__ import annotations

import math
import random
from collections import deque
from dataclasses import asdict, dataclass, field
from typing import Callable, Optional, Sequence

import numpy as np

from . import onnx_export

RANK_REWARDS = {3: [2.0, 1.0, -1.0], 4: [2.0, 1.0, -1.0, -2.0]}


@dataclass
class DqnConfig:
    opponents: Sequence[str]
    episodes: int = 2600
    batch_size: int = 128
    gamma: float = 0.99
    discount: float = 0.95
    eps_start: float = 0.9
    eps_end: float = 0.05
    eps_decay: float = 2500
    target_update: int = 10
    memory: int = 10_000
    learning_rate: float = 0.01
    first_seed: int = 0
    torch_seed: int = 0
    hidden: Sequence[int] = field(default_factory=lambda: (140, 200))

    @property
    def players(self) -> int:
        return len(self.opponents) + 1


def rank_reward(players: int) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    table = np.array(RANK_REWARDS[players])

    def reward(vp: np.ndarray, rank: np.ndarray) -> np.ndarray:
        return table[np.asarray(rank) - 1]

    return reward


def epsilon(config: DqnConfig, episode: int) -> float:
    return config.eps_end + (config.eps_start - config.eps_end) * math.exp(-episode / config.eps_decay)


def q_network(inputs: int, actions: int, hidden: Sequence[int] = (140, 200)):
    import torch.nn as nn

    layers: list = []
    width = inputs
    for h in hidden:
        layers += [nn.Linear(width, h), nn.LayerNorm(h)]
        width = h
    layers.append(nn.Linear(width, actions))
    return nn.Sequential(*layers)


def train(config: DqnConfig, progress: Optional[Callable[[int, float], None]] = None):
    """Trains one DQN seat (seat 0) against config.opponents; returns (policy network, per-episode rewards)."""
    import torch
    import torch.nn.functional as F

    from .gym_env import WonderlabEnv

    torch.manual_seed(config.torch_seed)
    rng = random.Random(config.torch_seed)
    env = WonderlabEnv(opponents=list(config.opponents), seat=0, reward=rank_reward(config.players))
    size = env.observation_space.shape[0]
    actions = env.action_space.n
    policy = q_network(size, actions, config.hidden)
    target = q_network(size, actions, config.hidden)
    target.load_state_dict(policy.state_dict())
    target.eval()
    optimizer = torch.optim.RMSprop(policy.parameters(), lr=config.learning_rate)
    memory: deque = deque(maxlen=config.memory)
    rewards: list[float] = []

    def optimize() -> None:
        if len(memory) < config.batch_size:
            return
        batch = rng.sample(memory, config.batch_size)
        states = torch.as_tensor(np.stack([b[0] for b in batch]), dtype=torch.float32)
        taken = torch.as_tensor([b[1] for b in batch]).unsqueeze(1)
        rewards_b = torch.as_tensor([b[3] for b in batch], dtype=torch.float32)
        live = torch.as_tensor([b[2] is not None for b in batch])
        q = policy(states).gather(1, taken).squeeze(1)
        next_values = torch.zeros(config.batch_size)
        if live.any():
            following = torch.as_tensor(np.stack([b[2] for b in batch if b[2] is not None]), dtype=torch.float32)
            with torch.no_grad():
                next_values[live] = target(following).max(1).values
        loss = F.smooth_l1_loss(q, rewards_b + config.gamma * next_values)
        optimizer.zero_grad()
        loss.backward()
        for p in policy.parameters():
            p.grad.data.clamp_(-1, 1)
        optimizer.step()

    for episode in range(config.episodes):
        obs, info = env.reset(seed=config.first_seed + episode)
        trajectory: list[tuple[np.ndarray, int]] = []
        eps = epsilon(config, episode)
        while True:
            legal = np.flatnonzero(info["action_mask"])
            if rng.random() < eps:
                action = int(legal[rng.randrange(len(legal))])
            else:
                with torch.no_grad():
                    values = policy(torch.as_tensor(obs, dtype=torch.float32).unsqueeze(0))[0].numpy()
                action = int(legal[np.argmax(values[legal])])
            trajectory.append((obs, action))
            obs, reward, terminated, truncated, info = env.step(action)
            optimize()
            if terminated or truncated:
                break
        # The game's reward to every action, discounted by k from the last (the paper's r_{s,i} = k^(n-i) r_n).
        n = len(trajectory)
        for i, (state, action) in enumerate(trajectory):
            following = trajectory[i + 1][0] if i + 1 < n else None
            memory.append((state, action, following, reward * config.discount ** (n - 1 - i)))
        rewards.append(float(reward))
        if (episode + 1) % config.target_update == 0:
            target.load_state_dict(policy.state_dict())
        if progress:
            progress(episode, float(reward))
    env.close()
    return policy, rewards


def export_onnx(network, inputs: int, path) -> None:
    """The network as the lab's `policy(model=…)` reads it: float32 [batch, inputs] → [batch, 390]."""
    onnx_export.export_onnx(network, inputs, path, ("logits",))


def config_dict(config: DqnConfig) -> dict:
    out = asdict(config)
    out["opponents"] = list(config.opponents)
    out["hidden"] = list(config.hidden)
    return out
