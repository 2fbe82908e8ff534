"""Arguments checked where they come in: a wrong type is an error naming the argument, not a
failure deep inside (`[None] * "3"`) or a server's reply about a field of its protocol."""
from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any, Optional


def integer(name: str, value: Any) -> int:
    # bool is an int to Python, but players=True is a mistake, not 1.
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected an integer, got {value!r} ({type(value).__name__})")
    return int(value)


def number(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a number, got {value!r} ({type(value).__name__})")
    return float(value)


def text(name: str, value: Any) -> str:
    """A string; which strings are allowed is left to the server when it knows them (sides)."""
    if not isinstance(value, str):
        raise TypeError(f"{name}: expected a string, got {value!r} ({type(value).__name__})")
    return value


def one_of(name: str, value: Any, options: Sequence[Optional[str]]) -> Optional[str]:
    """value, if it is one of options (strings, and None where None is allowed)."""
    # Only a string or None is compared: `in` on a list would call an array's or an object's ==.
    if not (value is None or isinstance(value, str)) or value not in options:
        raise ValueError(f"{name}: expected one of {', '.join(map(repr, options))}, got {value!r}")
    return value


def agent_specs(name: str, value: Any, *, python_seats: bool) -> list[Optional[str]]:
    """A list of lab agent specs (and, with python_seats, None for a seat played from Python)."""
    # A string is a sequence too: opponents="rulebased" would be nine opponents named by letters.
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise TypeError(f"{name}: expected a list of agent specs such as ['rulebased', 'mcts:100'], got {value!r}")
    for i, spec in enumerate(value):
        if not (isinstance(spec, str) or (python_seats and spec is None)):
            allowed = "an agent spec (a string) or None (played from Python)" if python_seats else "an agent spec (a string)"
            raise TypeError(f"{name}[{i}]: expected {allowed}, got {spec!r} ({type(spec).__name__})")
    return list(value)
