"""The client of `wonderlab env`, the engine's environment server (docs/python.md, "Protocol").

One Server is one Node process running a vector of games; requests and replies are length-framed
binary messages over its stdin/stdout. A dead server raises ServerDied (with what it printed on
stderr) instead of hanging.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import struct
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

OP_OPEN = 1
OP_RESET = 2
OP_STEP = 3
OP_RECORD = 4


class WonderlabError(ValueError):
    """The server refused a request (an illegal action, a bad opponent spec, …): nothing changed."""


class ServerDied(RuntimeError):
    """The environment server exited or closed its output."""


def server_command() -> list[str]:
    """How to start the server: $WONDERLAB_COMMAND, else this checkout's bin/wonderlab.mjs, else `wonderlab` on PATH."""
    given = os.environ.get("WONDERLAB_COMMAND")
    if given:
        return shlex.split(given) + ["env"]
    script = Path(__file__).resolve().parents[2] / "bin" / "wonderlab.mjs"
    if script.exists():
        return [shutil.which("node") or "node", str(script), "env"]
    found = shutil.which("wonderlab")
    if found:
        return [found, "env"]
    raise ServerDied("cannot find the wonderlab command: set WONDERLAB_COMMAND (e.g. 'node /path/to/bin/wonderlab.mjs')")


@dataclass
class State:
    """One reply's state block, as numpy views (see docs/python.md for each array)."""

    vp: np.ndarray  # int32 [N, P]: final VP of the game that ended in this request
    rank: np.ndarray  # int32 [N, P]: final rank (1 = best) of the game that ended in this request
    seed: np.ndarray  # uint32 [N]: the seed of the game in play
    done: np.ndarray  # bool [N]: a game ended in this request
    over: np.ndarray  # bool [N]: the game in play is over
    acting: np.ndarray  # bool [N, E]: the external seat must act
    mask: np.ndarray  # uint8 [N, E, A]: its legal actions
    observation: np.ndarray  # uint8 [N, E, D]


class Server:
    def __init__(self, *, games: int, players: int, seats: list[str | None], seed: int = 0, sides: str = "random", auto_reset: bool = False):
        self._proc = subprocess.Popen(server_command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self._stderr: list[bytes] = []
        # Drained on a thread so that a chatty server never blocks on a full stderr pipe.
        self._drain = threading.Thread(target=self._read_stderr, daemon=True)
        self._drain.start()
        request = {"games": games, "players": players, "seats": seats, "seed": seed, "sides": sides, "autoReset": auto_reset}
        try:
            reply = self._request(bytes([OP_OPEN]) + json.dumps(request).encode())
        except WonderlabError:
            self.close()
            raise
        self.info = json.loads(reply[1:])
        self.games = games
        self.players = players
        self.external: list[int] = self.info["external"]
        self.observation_size: int = self.info["observationSize"]
        self.action_count: int = self.info["actionCount"]
        self.cards: list[str] = self.info["cards"]
        #: Each action index's name ("build Lumber Yard"), for messages (wonderlab.describe_action).
        self.action_names: list[str] = self.info["actionNames"]

    def _read_stderr(self) -> None:
        assert self._proc.stderr is not None
        for line in self._proc.stderr:
            self._stderr.append(line)
            del self._stderr[:-50]

    def _died(self) -> ServerDied:
        # A server that closes its output is usually exiting: wait a moment for its exit code and
        # the last of its stderr (its reason, one line) rather than report it half-said.
        try:
            code = self._proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            code = None
        self._drain.join(timeout=1)
        said = b"".join(self._stderr).decode(errors="replace").strip()
        return ServerDied(f"the wonderlab env server {'exited with ' + str(code) if code is not None else 'closed its output'}" + (f": {said}" if said else ""))

    def _read(self, n: int) -> bytes:
        assert self._proc.stdout is not None
        data = self._proc.stdout.read(n)
        if data is None or len(data) < n:
            raise self._died()
        return data

    def _request(self, body: bytes) -> bytes:
        if self._proc.stdin is None or self._proc.stdin.closed or self._proc.poll() is not None:
            raise self._died()
        try:
            self._proc.stdin.write(struct.pack("<I", len(body)) + body)
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died() from None
        (length,) = struct.unpack("<I", self._read(4))
        reply = self._read(length)
        if reply[0] != 0:
            # The server's own words: the op, what is wrong, and that nothing changed.
            raise WonderlabError(reply[1:].decode(errors="replace"))
        return reply

    def _state(self, reply: bytes) -> State:
        buf = memoryview(reply)
        n, e, d, a, p = struct.unpack_from("<5I", buf, 4)
        at = 24
        vp = np.frombuffer(buf, np.int32, n * p, at).reshape(n, p)
        at += 4 * n * p
        rank = np.frombuffer(buf, np.int32, n * p, at).reshape(n, p)
        at += 4 * n * p
        seed = np.frombuffer(buf, np.uint32, n, at)
        at += 4 * n
        done = np.frombuffer(buf, np.uint8, n, at).astype(bool)
        at += n
        over = np.frombuffer(buf, np.uint8, n, at).astype(bool)
        at += n
        acting = np.frombuffer(buf, np.uint8, n * e, at).reshape(n, e).astype(bool)
        at += n * e
        mask = np.frombuffer(buf, np.uint8, n * e * a, at).reshape(n, e, a)
        at += n * e * a
        observation = np.frombuffer(buf, np.uint8, n * e * d, at).reshape(n, e, d)
        return State(vp, rank, seed, done, over, acting, mask, observation)

    def reset(self, games: list[int], seeds: list[int | None]) -> State:
        body = bytes([OP_RESET]) + struct.pack("<I", len(games))
        for g, s in zip(games, seeds):
            body += struct.pack("<Id", g, float("nan") if s is None else float(s))
        return self._state(self._request(body))

    def step(self, actions: np.ndarray) -> State:
        """actions: int32 [N, E], −1 where the seat does not act."""
        return self._state(self._request(bytes([OP_STEP]) + np.ascontiguousarray(actions, dtype="<i4").tobytes()))

    def record(self, game: int, finished: bool = False) -> dict:
        """The lab's game record (the format `wonderlab replay` reads) of the game in play once it is
        over, or of the last finished one; a game still in play raises WonderlabError."""
        return json.loads(self._request(bytes([OP_RECORD]) + struct.pack("<IB", game, 1 if finished else 0))[1:])

    def close(self) -> None:
        if self._proc.poll() is None:
            try:
                if self._proc.stdin:
                    self._proc.stdin.close()
                self._proc.wait(timeout=5)
            except (subprocess.TimeoutExpired, OSError):
                self._proc.kill()
                self._proc.wait()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
