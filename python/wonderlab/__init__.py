"""Wonderlab's 7 Wonders engine as Python environments (docs/python.md).

- wonderlab.env(players=3): the PettingZoo AEC environment, every seat from Python;
- gymnasium.make("Wonderlab-v0", opponents=[...]): one seat from Python, the others lab agents;
- wonderlab.VectorGames: many games per server process, for throughput;
- wonderlab.describe_action(a): an action index's name ("build Lumber Yard").

The rules run in the engine (`wonderlab env`, a Node process); Python never re-implements them.
"""
from ._server import ServerDied, WonderlabError
from .actions import action_names, describe_action
from .aec import env, raw_env
from .gym_env import WonderlabEnv, register_envs
from .vector import VectorGames, random_actions

register_envs()

__all__ = ["env", "raw_env", "WonderlabEnv", "VectorGames", "random_actions", "describe_action", "action_names", "WonderlabError", "ServerDied"]
