"""Dawieang (2021)'s DQN, trained in the paper's five setups (wonderlab.dqn), each exported as an
ONNX policy for the lab, with its learning curve (reward per episode and its 100-episode moving
average, the paper's figures) as CSV and SVG, and a manifest (configuration, seeds, time, code
version, model hashes).

  .venv/bin/python reproduction/scripts/dqn_2021.py [--seed-index S] [--episodes 2600] [--only NAME]

A study of several training runs per setup: training seed index S (default 0) writes
reproduction/dqn-2021/ for S = 0 (the first run, kept where it was) and reproduction/dqn-2021/
seed-S/ for S ≥ 1, each with its own training.json. The evaluation is played on the lab
(reproduction/scripts/dqn-2021-evaluate.mjs). Training episode e of setup k is dealt from seed
2,000,000 + 10,000·k + e at S = 0 (as the first run was) and 2,000,000 + 100,000·S + 10,000·k + e
at S ≥ 1 (S ≤ 9), torch seeded with k + 10·S: the runs' seeds are disjoint from each other's, no
other result uses them, and the evaluation's (3,000,000 on) are disjoint from them all.
"""
import argparse
import hashlib
import json
import platform
import subprocess
import time
from pathlib import Path

import numpy as np

from wonderlab.dqn import DqnConfig, config_dict, export_onnx, train

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "reproduction" / "dqn-2021"
RULE = "rulebased-dawieang"
SETUPS = {
    "3p-rule-random": [RULE, "random"],
    "3p-random-random": ["random", "random"],
    "4p-rule-rule-random": [RULE, RULE, "random"],
    "4p-rule-random-random": [RULE, "random", "random"],
    "4p-random-random-random": ["random", "random", "random"],
}
TRAINING_SEED = 2_000_000
MAX_SEED_INDEX = 9


def first_seed(seed_index: int, k: int) -> int:
    """Training episode 0 of setup k in run seed_index: 2,000,000 + 100,000·S + 10,000·k (S = 0 is the first run's)."""
    if not 0 <= seed_index <= MAX_SEED_INDEX:
        raise ValueError(f"seed index {seed_index}: 0 … {MAX_SEED_INDEX} keep the runs' seeds below the evaluation's 3,000,000")
    return TRAINING_SEED + 100_000 * seed_index + 10_000 * k


def out_dir(seed_index: int) -> Path:
    return OUT if seed_index == 0 else OUT / f"seed-{seed_index}"


def commit() -> dict:
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "python", "shared/src", "reproduction/scripts/dqn_2021.py"], cwd=ROOT, capture_output=True, text=True).stdout.strip() != ""
    return {"commit": head, "dirty": dirty}


def moving_average(xs: list[float], n: int = 100) -> list[float]:
    out, total = [], 0.0
    for i, x in enumerate(xs):
        total += x
        if i >= n:
            total -= xs[i - n]
        out.append(total / min(i + 1, n))
    return out


def svg_curve(title: str, rewards: list[float], lo: float, hi: float) -> str:
    w, h, left, bottom = 640, 260, 40, 30
    sx = lambda i: left + (w - left - 10) * i / max(1, len(rewards) - 1)
    sy = lambda v: 10 + (h - bottom - 10) * (hi - v) / (hi - lo)
    raw = " ".join(f"{sx(i):.1f},{sy(v):.1f}" for i, v in enumerate(rewards))
    avg = " ".join(f"{sx(i):.1f},{sy(v):.1f}" for i, v in enumerate(moving_average(rewards)))
    ticks = "".join(f'<line x1="{left}" x2="{w - 10}" y1="{sy(v):.1f}" y2="{sy(v):.1f}" stroke="#ddd"/><text x="{left - 6}" y="{sy(v) + 4:.1f}" text-anchor="end">{v:g}</text>' for v in np.arange(lo, hi + 0.5, 1))
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">'
        f'<title>{title}</title>{ticks}'
        f'<polyline points="{raw}" fill="none" stroke="#4e79a7" stroke-width="0.6" opacity="0.6"/>'
        f'<polyline points="{avg}" fill="none" stroke="#f28e2b" stroke-width="2"/>'
        f'<text x="{left}" y="{h - 8}">episode 1 … {len(rewards)}: reward (blue), 100-episode moving average (orange) — {title}</text></svg>\n'
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--episodes", type=int, default=2600)
    parser.add_argument("--seed-index", type=int, default=0, help="training run S: 0 is the first run's seeds and folder")
    parser.add_argument("--only", help="comma-separated setup names (several processes may train disjoint ones at once)")
    args = parser.parse_args()
    out = out_dir(args.seed_index)
    out.mkdir(parents=True, exist_ok=True)
    manifest_path = out / "training.json"
    only = set(args.only.split(",")) if args.only else None
    import torch

    # One thread: the networks are small, and the engine's server and the lab share the cores.
    torch.set_num_threads(1)
    for k, (name, opponents) in enumerate(SETUPS.items()):
        if only is not None and name not in only:
            continue
        config = DqnConfig(opponents=opponents, episodes=args.episodes, first_seed=first_seed(args.seed_index, k), torch_seed=k + 10 * args.seed_index)
        started = time.time()
        network, rewards = train(config)
        seconds = time.time() - started
        size = network[0].in_features
        model = out / f"{name}.onnx"
        export_onnx(network, size, model)
        sma = moving_average(rewards)
        with (out / f"{name}-curve.csv").open("w") as f:
            f.write("episode,reward,moving_average_100\n")
            for i, (r, m) in enumerate(zip(rewards, sma)):
                f.write(f"{i + 1},{r:g},{m:.4f}\n")
        lo = min(RANK_REWARDS_LOW[config.players], -1)
        (out / f"{name}-curve.svg").write_text(svg_curve(f"DQN + {' + '.join(opponents)}", rewards, lo, 2))
        # Read again just before writing: another process may have added its setups meanwhile.
        manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {"seedIndex": args.seed_index, "setups": {}}
        manifest["setups"][name] = {
            "seedIndex": args.seed_index,
            "opponents": opponents,
            "config": config_dict(config),
            "trainingSeeds": [config.first_seed, config.first_seed + config.episodes - 1],
            "seconds": round(seconds, 1),
            "lastMovingAverage": round(sma[-1], 4),
            "model": model.name,
            "sha256": hashlib.sha256(model.read_bytes()).hexdigest(),
            "code": commit(),
            "torch": torch.__version__,
            "python": platform.python_version(),
        }
        manifest["setups"] = dict(sorted(manifest["setups"].items(), key=lambda kv: list(SETUPS).index(kv[0])))
        manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
        print(f"{name}: {config.episodes} episodes in {seconds:.0f} s, last 100-episode mean reward {sma[-1]:.2f}", flush=True)


RANK_REWARDS_LOW = {3: -1, 4: -2}

if __name__ == "__main__":
    main()
