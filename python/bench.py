"""Throughput of the Python environments: `.venv/bin/python python/bench.py [--games 64] [--seconds 10]`.

Prints agent-steps per second (one seat's decision is one agent-step) for the vector interface
(N games per server, every seat from Python, random legal actions chosen in numpy) and for the
single-game AEC environment; compare with `npm run bench`'s random_games_3p_listed on the same
machine (docs/python.md, "Throughput").
"""
import argparse
import time

import numpy as np

import wonderlab


def vector(games: int, players: int, seconds: float) -> float:
    v = wonderlab.VectorGames(games=games, players=players, seed=1)
    rng = np.random.default_rng(0)
    state = v.reset()
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = wonderlab.random_actions(state, rng)
        steps += int(state.acting.sum())
        state = v.step(actions)
    rate = steps / (time.perf_counter() - start)
    v.close()
    return rate


def aec(players: int, seconds: float) -> float:
    env = wonderlab.env(players=players)
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
    rate = steps / (time.perf_counter() - start)
    env.close()
    return rate


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=10)
    a = parser.parse_args()
    print(f"vector_{a.games}_games_{a.players}p_agent_steps_per_s {vector(a.games, a.players, a.seconds):.0f}")
    print(f"aec_{a.players}p_agent_steps_per_s {aec(a.players, a.seconds):.0f}")
