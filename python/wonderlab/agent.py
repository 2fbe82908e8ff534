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
import struct
import sys
from typing import Any, BinaryIO, Dict, List, Optional, Tuple, Type, Union

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


def serve(agent_class: Type[Agent], stdin: Optional[BinaryIO] = None, stdout: Optional[BinaryIO] = None, framing: str = "binary") -> None:
    """Speaks the protocol on stdin/stdout until stdin closes (the lab closes it to stop the agent).
    framing: "binary" asks the lab for the binary framing when it offers it (faster: the decisions
    packed, docs/agent-protocol.md#binary-framing); "jsonl" keeps to JSON lines."""
    rd = stdin or sys.stdin.buffer
    wr = stdout or sys.stdout.buffer
    params: Dict[str, str] = {}
    seats: Dict[Tuple[Any, int], Agent] = {}
    actions: List[Dict[str, str]] = []

    def say_line(message: Dict[str, Any]) -> None:
        wr.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        wr.flush()

    def handle(msg: Dict[str, Any], observation: bytes, answer) -> None:
        kind = msg["type"]
        if kind == "act":
            agent = seats[(msg["game"], msg["seat"])]
            chosen = agent.act(observation, msg["legal"], msg)
            action, stats = chosen if isinstance(chosen, tuple) else (chosen, None)
            answer(msg, int(action), stats)
        elif kind == "game":
            agent = agent_class(params)
            agent.new_game(msg)
            seats[(msg["game"], msg["seat"])] = agent
        elif kind == "end":
            ended = seats.pop((msg["game"], msg["seat"]), None)
            if ended is not None:
                ended.end_game()
        else:
            raise ValueError(f"unknown message type {kind!r} (protocol {PROTOCOL_VERSION})")

    def answer_line(msg: Dict[str, Any], action: int, stats: Optional[Dict[str, Any]]) -> None:
        out: Dict[str, Any] = {"type": "move", "id": msg["id"], "game": msg["game"], "action": action}
        if stats:
            out["stats"] = stats
        say_line(out)

    # The handshake, always a JSON line each way.
    hello = json.loads(rd.readline())
    if hello.get("type") != "hello":
        raise ValueError(f"expected the lab's hello, got {hello.get('type')!r}")
    params = dict(hello.get("params") or {})
    actions = hello.get("actions") or []
    binary = framing == "binary" and "binary" in (hello.get("framings") or []) and bool(actions)
    reply = {"type": "hello", "protocol": PROTOCOL_VERSION, "name": agent_class.name, "version": agent_class.version, "players": list(agent_class.players)}
    if binary:
        reply["framing"] = "binary"
    say_line(reply)

    if not binary:
        for line in rd:
            msg = json.loads(line)
            if msg["type"] == "act":
                msg["mask"] = base64.b64decode(msg["mask"])
                handle(msg, base64.b64decode(msg["observation"]), answer_line)
            else:
                handle(msg, b"", answer_line)
        return

    def answer_frame(msg: Dict[str, Any], action: int, stats: Optional[Dict[str, Any]]) -> None:
        tail = json.dumps(stats, separators=(",", ":")).encode() if stats else b""
        wr.write(_MOVE.pack(11 + len(tail), 3, msg["id"], msg["game"], action) + tail)
        wr.flush()

    count = len(actions)
    words = [(a["card"], a["kind"]) for a in actions]
    while True:
        head = rd.read(4)
        if len(head) < 4:
            return
        payload = rd.read(int.from_bytes(head, "little"))
        if payload[0] == 1:
            handle(json.loads(payload[1:]), b"", answer_frame)
            continue
        if payload[0] != 2:
            raise ValueError(f"unknown frame kind {payload[0]} (protocol {PROTOCOL_VERSION})")
        rid, game, seat, age, players, _, budget, nobs, nlegal = _ACT.unpack_from(payload, 1)
        start = 1 + _ACT.size
        at = start + nobs
        legal = [{"action": a, "card": words[a][0], "kind": words[a][1], "left": left, "right": right} for a, left, right in _LEGAL.iter_unpack(payload[at : at + 4 * nlegal])]
        mask = bytearray(count)
        for m in legal:
            mask[m["action"]] = 1
        msg = {"type": "act", "id": rid, "game": game, "seat": seat, "age": age, "players": players, "budget_ms": budget, "mask": bytes(mask), "legal": legal}
        handle(msg, payload[start:at], answer_frame)


# The binary framing's packed messages (docs/agent-protocol.md#binary-framing), little-endian.
_ACT = struct.Struct("<IIBBBBIHH")
_LEGAL = struct.Struct("<HBB")
_MOVE = struct.Struct("<IBIIH")
