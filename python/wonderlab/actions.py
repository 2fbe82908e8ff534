"""Action indices: checked against the action space, and named (docs/python.md, "Actions").

The names come from the engine's server (the OPEN reply's actionNames: "build Lumber Yard",
"discard Loom (Age II)"), so Python holds no copy of the card catalogue or of the encoding.
"""
from __future__ import annotations

import functools
import operator
from typing import Any, Sequence

import numpy as np

from ._server import Server, WonderlabError


def action_index(action: Any, count: int, who: str = "") -> int:
    """The action as an index of Discrete(count): a TypeError if it is not an integer, a
    WonderlabError naming the space if it is outside it; `who` (an agent) starts the message."""
    start = f"{who}: " if who else ""
    try:
        # operator.index takes int and numpy's integers (what a space's sample() gives), never a
        # float: action 3.7 is a caller's mistake, not action 3.
        a = operator.index(action)
    except TypeError:
        raise TypeError(f"{start}action: expected an integer index of Discrete({count}), got {action!r} ({type(action).__name__})") from None
    if not 0 <= a < count:
        raise WonderlabError(f"{start}action {a} is outside the action space Discrete({count}): the actions are 0..{count - 1}")
    return a


def illegal_message(action: int, mask: np.ndarray, names: Sequence[str]) -> str:
    """'action 57 (build …) is not legal; legal: 3 (build …), …': numbers to act on, names to read."""
    legal = ", ".join(f"{i} ({names[i]})" for i in np.flatnonzero(mask))
    return f"action {action} ({names[action]}) is not legal; legal: {legal}"


@functools.lru_cache(maxsize=1)
def action_names() -> tuple[str, ...]:
    """Every action index's name, in index order, read once from an engine server."""
    # The names do not depend on the game: any player count opens a server that sends them.
    server = Server(games=1, players=3, seats=[None, None, None])
    try:
        return tuple(server.action_names)
    finally:
        server.close()


def describe_action(action: int) -> str:
    """The name of an action index, its kind (build, stage, discard, freeBuild, buildDiscarded)
    and its card: describe_action(0) is 'build Lumber Yard', describe_action(57) 'discard
    Glassworks (Age I)' (a name two Ages share carries its Age)."""
    names = action_names()
    return names[action_index(action, len(names))]
