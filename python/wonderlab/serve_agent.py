"""python -m wonderlab.serve_agent [--jsonl] MODULE:CLASS — serves an Agent subclass to the lab over the
agent protocol on stdin/stdout (docs/agent-protocol.md). MODULE is imported from the working
directory (the agent's folder, where the lab runs it)."""
from __future__ import annotations

import importlib
import os
import sys

from .agent import Agent, serve


def main(argv: list[str]) -> int:
    framing = "binary"
    if argv[:1] == ["--jsonl"]:
        framing, argv = "jsonl", argv[1:]
    if len(argv) != 1 or ":" not in argv[0] or argv[0] in ("-h", "--help"):
        print("usage: python -m wonderlab.serve_agent [--jsonl] MODULE:CLASS   (an Agent subclass; docs/agent-protocol.md;\n  --jsonl: JSON lines even where the lab offers the binary framing)", file=sys.stderr)
        return 2
    module_name, class_name = argv[0].split(":", 1)
    sys.path.insert(0, os.getcwd())
    cls = getattr(importlib.import_module(module_name), class_name)
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        print(f"{argv[0]} is not a subclass of wonderlab.Agent", file=sys.stderr)
        return 2
    serve(cls, framing=framing)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
