"""Outside agents: a Python class the lab plays in its sweeps, the ladder and the play page, over
the agent protocol (docs/agent-protocol.md, JSON lines on stdin and stdout).

    from wonderlab import Agent

    class FirstLegal(Agent):
        name, version = "first-legal", "1.0.0"
        def act(self, observation, legal, info):
            return legal[0]["action"]

`python -m wonderlab.serve_agent my_module:FirstLegal` serves it. The lab makes one instance per
game and seat: new_game(info) first, then act(...) at each of the seat's decisions, end_game() at
the end. Everything the lab passes is read-only; nothing here imports NumPy.
"""
from __future__ import annotations

import base64
import json
import os
import sys
from typing import IO, Any, Dict, List, Optional, Tuple, Type, Union

PROTOCOL_VERSION = 1


class Agent:
    """Subclass it and implement act(). Class attributes name it in the handshake."""

    name = "python-agent"
    version = "0"
    players: Tuple[int, ...] = (3, 4, 5, 6, 7)

    def __init__(self, params: Dict[str, str]) -> None:
        #: The spec's parameters (ext(name=…, key=value)), as strings; "time" is the budget in seconds.
        self.params = params

    def new_game(self, info: Dict[str, Any]) -> None:
        """A game starts: info has players, seat, wonder, side ("A"/"B"), seed (32-bit) and rng
        (the lab's generator state for this seat: LabRng.from_state(info["rng"]))."""

    def act(self, observation: bytes, legal: List[Dict[str, Any]], info: Dict[str, Any]) -> Union[int, Tuple[int, Dict[str, Any]]]:
        """Choose one move: return the "action" of one of `legal` (each with action, card, kind,
        left, right: the coins paid to each neighbour), or (action, stats). observation is the
        env's encoding (np.frombuffer(observation, np.uint8)); info has the mask (bytes of the
        action space, 1 where legal), age, budget_ms, game and seat."""
        raise NotImplementedError("an Agent implements act(observation, legal, info)")

    def end_game(self) -> None:
        """The game is over (or failed)."""


def model_file(name: str) -> str:
    """A network the lab's MODELS_DIR holds, by the name policy(model=…) takes (run1/gen4.onnx): the
    lab passes its model folders in WONDERLAB_MODELS_DIR. A name is a relative path of plain parts."""
    parts = name.split("/")
    if name.startswith("/") or any(p in ("", ".", "..") for p in parts) or not name.endswith(".onnx"):
        raise ValueError(f"model {name!r}: a name under the lab's MODELS_DIR such as run1/gen4.onnx")
    dirs = [d for d in os.environ.get("WONDERLAB_MODELS_DIR", "").split(os.pathsep) if d]
    for d in dirs:
        path = os.path.join(d, *parts)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(f"model {name!r}: not under the lab's MODELS_DIR ({os.pathsep.join(dirs) or 'not given'})")


def serve(agent_class: Type[Agent], stdin: Optional[IO[str]] = None, stdout: Optional[IO[str]] = None) -> None:
    """Speaks the protocol on stdin/stdout until stdin closes (the lab closes it to stop the agent)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    params: Dict[str, str] = {}
    seats: Dict[Tuple[str, int], Agent] = {}

    def say(message: Dict[str, Any]) -> None:
        stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
        stdout.flush()

    for line in stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "act":
            agent = seats[(msg["game"], msg["seat"])]
            info = dict(msg)
            info["mask"] = base64.b64decode(msg["mask"])
            chosen = agent.act(base64.b64decode(msg["observation"]), msg["legal"], info)
            action, stats = chosen if isinstance(chosen, tuple) else (chosen, None)
            answer: Dict[str, Any] = {"type": "move", "id": msg["id"], "game": msg["game"], "action": int(action)}
            if stats:
                answer["stats"] = stats
            say(answer)
        elif kind == "game":
            agent = agent_class(params)
            agent.new_game(msg)
            seats[(msg["game"], msg["seat"])] = agent
        elif kind == "end":
            ended = seats.pop((msg["game"], msg["seat"]), None)
            if ended is not None:
                ended.end_game()
        elif kind == "hello":
            params = dict(msg.get("params") or {})
            say({"type": "hello", "protocol": PROTOCOL_VERSION, "name": agent_class.name, "version": agent_class.version, "players": list(agent_class.players)})
        else:
            raise ValueError(f"unknown message type {kind!r} (protocol {PROTOCOL_VERSION})")
