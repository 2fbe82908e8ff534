"""Wonderlab's 7 Wonders engine as Python environments (docs/python.md), and outside agents for
the lab (docs/agent-protocol.md).

- wonderlab.env(players=3): the PettingZoo AEC environment, every seat from Python;
- gymnasium.make("Wonderlab-v0", opponents=[...]): one seat from Python, the others lab agents;
- wonderlab.VectorGames: many games per server process, for throughput;
- wonderlab.describe_action(a): an action index's name ("build Lumber Yard");
- wonderlab.Agent: an agent of your own, served to the lab by `python -m wonderlab.serve_agent`;
- wonderlab.LabRng: the lab's random generator (sfc32), to replay its agents' draws.

The rules run in the engine (`wonderlab env`, a Node process); Python never re-implements them.
The environments' names are imported when first used, so that serving an agent needs neither
Gymnasium nor PettingZoo (nor NumPy); the Gymnasium ids are registered when Gymnasium is there.
"""
from importlib import import_module
from importlib.util import find_spec

from .agent import Agent
from .rng import LabRng

_LAZY = {
    "env": ".aec",
    "raw_env": ".aec",
    "WonderlabEnv": ".gym_env",
    "VectorGames": ".vector",
    "random_actions": ".vector",
    "describe_action": ".actions",
    "action_names": ".actions",
    "WonderlabError": "._server",
    "ServerDied": "._server",
}


def __getattr__(name):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module 'wonderlab' has no attribute {name!r}")


if find_spec("gymnasium") is not None:
    from .gym_env import register_envs

    register_envs()

__all__ = ["env", "raw_env", "WonderlabEnv", "VectorGames", "random_actions", "describe_action", "action_names", "WonderlabError", "ServerDied", "Agent", "LabRng"]
