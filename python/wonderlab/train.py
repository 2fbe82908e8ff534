"""A policy-and-value network trained on the lab's own games (docs/learning.md).

Rows come from `wonderlab remote export <sweep> --format training` (.npz archives): per decision
the seat's observation, the legal-action mask, the search's visit distribution (or the move
played) and every seat's final VP. The network is a shared trunk (its first layer optionally one
encoder for every seat's block: TrainConfig.seat_shared) with two heads:

- policy: a logit per action index (the archives' `actions`, 390); trained by cross-entropy
  against the visit distribution, illegal actions masked out (their logits set to −1e9 before the
  softmax);
- value: the final VP of every seat, in the observation's relative order (this seat first), as
  VP / VALUE_SCALE; trained by mean squared error. A search turns predicted VP into its own reward
  (margin, rank, win, share) the way it turns a finished game's VP into one, so one value head
  serves every reward the lab's MCTS has.

The split into training and validation rows is by game (a game's rows all on one side), so the
validation loss is measured on positions from games the network never saw. Training is
deterministic given the data, the configuration and the seed (CPU, one thread).

The model is exported to ONNX with the input `observation` (float32 [batch, D]) and the outputs
`logits` ([batch, actions], first, so the lab's `policy(model=…)` reads it as a policy) and `value`
([batch, P]); beside it a manifest (<model>.json): the training archives and the sweeps and code
versions they came from, the hyper-parameters, the data size, the loss curves, the final
validation losses and the model file's sha256.

    python -m wonderlab.train rows/ --out models/net-g1.onnx [--epochs 30] [--hidden 256,256]
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from . import onnx_export

#: Predicted VP are VP / VALUE_SCALE: a typical final score near 1.
VALUE_SCALE = 50.0
ILLEGAL = -1e9


@dataclass
class TrainConfig:
    epochs: int = 30
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    hidden: Sequence[int] = field(default_factory=lambda: (256, 256))
    #: Weight of the value loss beside the policy loss.
    value_weight: float = 1.0
    #: Share of the games held out for validation.
    validation: float = 0.1
    seed: int = 0
    #: The policy target is the visit distribution raised to 1 / this and renormalised: below 1
    #: sharpens it toward the most visited moves (a search of a hundred iterations spreads visits
    #: by exploring), 1 keeps it. A move played without search (1 on it) stays as it is.
    policy_temperature: float = 1.0
    #: (global width, seat width), or None: the first layer as two encoders, one of the bytes before
    #: the seat blocks (global width units) and one seat encoder (seat width units) shared by every
    #: seat's block, their outputs side by side into the trunk. A built card or a card a hand may
    #: hold then has one embedding whichever seat it is at, summed over the seat's cards (set
    #: pooling); the exported model is the same Gemm/ReLU MLP with that first layer's weights
    #: written out block by block (SeatSharedNet.as_mlp), so the lab runs it as any other.
    seat_shared: Optional[Tuple[int, int]] = None


@dataclass
class Rows:
    obs: np.ndarray
    mask: np.ndarray
    policy: np.ndarray
    vp: np.ndarray
    game: np.ndarray
    searched: np.ndarray
    metas: List[dict]
    files: List[str]
    #: The action count, as the archives' meta_json gives it (the engine's encoding computes it).
    actions: int
    #: Where the seat blocks start and each one's length (meta_json's seatsAt, seatFields), or None
    #: for archives written before the lab recorded them.
    seat_layout: Optional[Tuple[int, int]] = None

    @property
    def players(self) -> int:
        return int(self.vp.shape[1])

    def __len__(self) -> int:
        return int(self.obs.shape[0])


def archive_paths(sources: Sequence[str]) -> List[str]:
    """The .npz files named, or found in the directories named, in a stable order."""
    paths: List[str] = []
    for source in sources:
        if os.path.isdir(source):
            paths.extend(sorted(glob.glob(os.path.join(source, "*.npz"))))
        else:
            paths.append(source)
    if not paths:
        raise ValueError(f"no .npz archives in {list(sources)}")
    return paths


def load_rows(sources: Sequence[str]) -> Rows:
    """Every row of the archives; games are told apart by (sweep, game index) across archives."""
    parts: Dict[str, list] = {k: [] for k in ("obs", "mask", "policy", "vp", "game", "searched")}
    metas: List[dict] = []
    files = archive_paths(sources)
    sweep_ids: Dict[str, int] = {}
    for path in files:
        with np.load(path) as d:
            meta = json.loads(bytes(d["meta_json"]).decode())
            metas.append(meta)
            sweep = sweep_ids.setdefault(meta.get("sweep", path), len(sweep_ids))
            for k in ("obs", "mask", "policy", "vp", "searched"):
                parts[k].append(d[k])
            # One game id across sweeps: the sweep's number in the high bits.
            parts["game"].append(d["game"].astype(np.int64) + (sweep << 32))
    sizes = {o.shape[1] for o in parts["obs"]}
    if len(sizes) != 1:
        raise ValueError(f"the archives mix observation sizes {sorted(sizes)} (player counts): train one network per player count")
    actions = action_count(files, metas, parts["policy"])
    layouts = {(m["seatsAt"], m["seatFields"]) if "seatsAt" in m and "seatFields" in m else None for m in metas}
    return Rows(
        obs=np.concatenate(parts["obs"]),
        mask=np.concatenate(parts["mask"]),
        policy=np.concatenate(parts["policy"]),
        vp=np.concatenate(parts["vp"]),
        game=np.concatenate(parts["game"]),
        searched=np.concatenate(parts["searched"]),
        metas=metas,
        files=files,
        actions=actions,
        seat_layout=layouts.pop() if len(layouts) == 1 else None,
    )


def action_count(files: Sequence[str], metas: Sequence[dict], policies: Sequence[np.ndarray]) -> int:
    """The archives' action count: each meta_json's `actions`, the same in every archive and the
    width of its policy column. Read from the data, never assumed: the encoding (agents/encoding.ts)
    decides it."""
    counts = set()
    for path, meta, policy in zip(files, metas, policies):
        if "actions" not in meta:
            raise ValueError(f"{path}: its meta_json has no `actions`: not an archive of the lab's training export")
        if policy.shape[1] != meta["actions"]:
            raise ValueError(f"{path}: meta_json says {meta['actions']} actions, but its policy column has {policy.shape[1]}")
        counts.add(int(meta["actions"]))
    if len(counts) != 1:
        raise ValueError(f"the archives mix action counts {sorted(counts)} (encodings of different engine versions): train on archives of one")
    return counts.pop()


def split_by_game(game: np.ndarray, share: float, seed: int):
    """Row indices of training and validation: whole games on each side."""
    games = np.unique(game)
    rng = np.random.default_rng(seed)
    held = set(rng.choice(games, size=max(1, int(round(share * len(games)))), replace=False).tolist()) if share > 0 and len(games) > 1 else set()
    is_held = np.array([g in held for g in game.tolist()])
    return np.nonzero(~is_held)[0], np.nonzero(is_held)[0]


def trunk_and_heads(width: int, hidden: Sequence[int], actions: int, players: int):
    """Linear + ReLU layers of the `hidden` widths from `width` inputs, then the policy and value heads."""
    from torch import nn

    layers: list = []
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    return nn.Sequential(*layers), nn.Linear(width, actions), nn.Linear(width, players)


def make_network(inputs: int, actions: int, players: int, hidden: Sequence[int]):
    import torch
    from torch import nn

    class PolicyValueNet(nn.Module):
        """A trunk of Linear + ReLU layers, then the policy logits and the seats' predicted VP."""

        def __init__(self):
            super().__init__()
            self.trunk, self.policy, self.value = trunk_and_heads(inputs, hidden, actions, players)

        def forward(self, observation):
            # Observations are counts up to 255, most of them 0–7: a fixed scale keeps the
            # first layer's inputs small without statistics that would have to travel with it.
            x = self.trunk(observation / 8.0)
            return self.policy(x), self.value(x)

    return PolicyValueNet()


def make_seat_shared_network(inputs: int, actions: int, players: int, hidden: Sequence[int], widths: Tuple[int, int], layout: Tuple[int, int]):
    """TrainConfig.seat_shared's network: a global encoder and one seat encoder shared by every
    seat block (layout: where the blocks start, each one's length), then the trunk and heads."""
    import torch
    from torch import nn

    seats_at, seat_fields = layout
    if seats_at + players * seat_fields != inputs:
        raise ValueError(f"the seat blocks ({players} of {seat_fields} from {seats_at}) do not end the observation of {inputs}")
    global_width, seat_width = widths

    class SeatSharedNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.global_in = nn.Linear(seats_at, global_width)
            self.seat_in = nn.Linear(seat_fields, seat_width)
            self.trunk, self.policy, self.value = trunk_and_heads(global_width + players * seat_width, hidden, actions, players)

        def forward(self, observation):
            x = observation / 8.0  # as PolicyValueNet
            seats = self.seat_in(x[:, seats_at:].reshape(-1, players, seat_fields)).reshape(-1, players * seat_width)
            h = torch.relu(torch.cat([self.global_in(x[:, :seats_at]), seats], dim=1))
            x = self.trunk(h)
            return self.policy(x), self.value(x)

        def as_mlp(self):
            """The same function as a plain PolicyValueNet: the two encoders become one first layer
            whose weights are block-diagonal (the seat encoder's block repeated per seat)."""
            plain = make_network(inputs, actions, players, [global_width + players * seat_width, *hidden])
            with torch.no_grad():
                first = plain.trunk[0]
                first.weight.zero_()
                first.weight[:global_width, :seats_at] = self.global_in.weight
                first.bias[:global_width] = self.global_in.bias
                for p in range(players):
                    rows = slice(global_width + p * seat_width, global_width + (p + 1) * seat_width)
                    cols = slice(seats_at + p * seat_fields, seats_at + (p + 1) * seat_fields)
                    first.weight[rows, cols] = self.seat_in.weight
                    first.bias[rows] = self.seat_in.bias
                for k, layer in enumerate(self.trunk):
                    if isinstance(layer, nn.Linear):
                        plain.trunk[k + 2].load_state_dict(layer.state_dict())
                plain.policy.load_state_dict(self.policy.state_dict())
                plain.value.load_state_dict(self.value.state_dict())
            return plain

    return SeatSharedNet()


def policy_targets(policy: np.ndarray, temperature: float) -> np.ndarray:
    """The rows' policy targets at a temperature (TrainConfig.policy_temperature), each summing to 1."""
    if temperature == 1.0:
        return policy
    if not (temperature > 0 and np.isfinite(temperature)):
        raise ValueError(f"policy temperature must be a finite number above 0, got {temperature}")
    # Each row over its largest share first: the top move's weight is 1, so however low the
    # temperature, a row never underflows to all zeros. A row without any (no target at all, not
    # from the lab's export) stays as it is.
    p = policy.astype(np.float64)
    top = p.max(axis=1, keepdims=True)
    empty = top <= 0
    sharpened = np.power(p / np.where(empty, 1.0, top), 1.0 / temperature)
    sums = sharpened.sum(axis=1, keepdims=True)
    return np.where(empty, p, sharpened / np.where(empty, 1.0, sums)).astype(np.float32)


def losses(network, obs, mask, policy, vp):
    """Policy cross-entropy (illegal actions masked) and value MSE, per batch."""
    import torch

    logits, value = network(obs)
    logits = torch.where(mask > 0, logits, torch.full_like(logits, ILLEGAL))
    policy_loss = -(policy * torch.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value_loss = ((value - vp / VALUE_SCALE) ** 2).mean()
    return policy_loss, value_loss


def train(rows: Rows, config: TrainConfig, log=print):
    """Trains a network on `rows`; returns it and the loss curves (per epoch)."""
    import torch

    # Weight decay drives the weights of inputs the rows never set into the subnormal range, where
    # x86 arithmetic is many times slower (a matmul 70x on an Intel Xeon): computed as zero
    # instead, an epoch takes seconds, not a minute. They are worth less than 1e-37 of any output.
    # Set back to torch's default afterwards.
    torch.set_flush_denormal(True)
    try:
        return _train(rows, config, log)
    finally:
        torch.set_flush_denormal(False)


def _train(rows: Rows, config: TrainConfig, log):
    import torch

    torch.manual_seed(config.seed)
    torch.set_num_threads(1)
    train_idx, val_idx = split_by_game(rows.game, config.validation, config.seed)
    t = lambda a, idx: torch.from_numpy(np.ascontiguousarray(a[idx])).float()  # noqa: E731
    arrays = {"obs": rows.obs, "mask": rows.mask, "policy": policy_targets(rows.policy, config.policy_temperature), "vp": rows.vp}
    data = {k: (t(a, train_idx), t(a, val_idx)) for k, a in arrays.items()}
    if config.seat_shared is None:
        network = make_network(rows.obs.shape[1], rows.actions, rows.players, config.hidden)
    else:
        if rows.seat_layout is None:
            raise ValueError("seat_shared needs the seat blocks' place (meta_json's seatsAt and seatFields): these archives do not all give one; export them again")
        network = make_seat_shared_network(rows.obs.shape[1], rows.actions, rows.players, config.hidden, config.seat_shared, rows.seat_layout)
    optimiser = torch.optim.Adam(network.parameters(), lr=config.learning_rate, weight_decay=config.weight_decay)
    generator = torch.Generator().manual_seed(config.seed)
    curves: Dict[str, list] = {"train_policy": [], "train_value": [], "val_policy": [], "val_value": []}
    n = len(train_idx)
    for epoch in range(config.epochs):
        network.train()
        order = torch.randperm(n, generator=generator)
        sums = [0.0, 0.0]
        for start in range(0, n, config.batch_size):
            b = order[start : start + config.batch_size]
            p_loss, v_loss = losses(network, *(data[k][0][b] for k in ("obs", "mask", "policy", "vp")))
            optimiser.zero_grad()
            (p_loss + config.value_weight * v_loss).backward()
            optimiser.step()
            sums[0] += p_loss.item() * len(b)
            sums[1] += v_loss.item() * len(b)
        curves["train_policy"].append(sums[0] / max(1, n))
        curves["train_value"].append(sums[1] / max(1, n))
        network.eval()
        with torch.no_grad():
            if len(val_idx) > 0:
                vp_, vv_ = losses(network, *(data[k][1] for k in ("obs", "mask", "policy", "vp")))
                curves["val_policy"].append(float(vp_))
                curves["val_value"].append(float(vv_))
        log(
            f"epoch {epoch + 1}/{config.epochs}: policy {curves['train_policy'][-1]:.4f} value {curves['train_value'][-1]:.4f}"
            + (f" | validation policy {curves['val_policy'][-1]:.4f} value {curves['val_value'][-1]:.4f}" if curves["val_policy"] else "")
        )
    return network, {"curves": curves, "train_rows": int(n), "validation_rows": int(len(val_idx)), "validation_games": int(len(np.unique(rows.game[val_idx]))) if len(val_idx) else 0}


def export_onnx(network, inputs: int, path) -> None:
    """observation float32 [batch, inputs] → logits [batch, actions] (first), value [batch, players];
    always a plain Gemm/ReLU MLP (a seat-shared network as its as_mlp)."""
    plain = network.as_mlp() if hasattr(network, "as_mlp") else network
    onnx_export.export_onnx(plain, inputs, path, ("logits", "value"))


def sha256(path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def manifest(rows: Rows, config: TrainConfig, result: dict, model_path: Path, seconds: float) -> dict:
    import torch

    sweeps: Dict[str, dict] = {}
    for meta in rows.metas:
        s = sweeps.setdefault(meta.get("sweep", "?"), {"sweep": meta.get("sweep"), "name": meta.get("name"), "code": meta.get("code"), "training": meta.get("training"), "games": 0, "rows": 0})
        s["games"] += int(meta.get("games", 0))
        s["rows"] += int(meta.get("rows", 0))
    curves = result["curves"]
    return {
        "model": model_path.name,
        "sha256": sha256(model_path),
        "inputs": {"observation": [None, int(rows.obs.shape[1])]},
        "outputs": {"logits": [None, rows.actions], "value": [None, rows.players]},
        "value": f"each seat's final VP / {VALUE_SCALE:g}, this seat first, then its left neighbour, …",
        "players": rows.players,
        "data": {
            "archives": [os.path.basename(f) for f in rows.files],
            "sweeps": list(sweeps.values()),
            "rows": len(rows),
            "searched_rows": int(rows.searched.sum()),
            "games": int(len(np.unique(rows.game))),
            "train_rows": result["train_rows"],
            "validation_rows": result["validation_rows"],
            "validation_games": result["validation_games"],
        },
        "config": {**asdict(config), "hidden": list(config.hidden), "seat_shared": list(config.seat_shared) if config.seat_shared else None},
        "losses": {
            "train_policy": curves["train_policy"][-1] if curves["train_policy"] else None,
            "train_value": curves["train_value"][-1] if curves["train_value"] else None,
            "validation_policy": curves["val_policy"][-1] if curves["val_policy"] else None,
            "validation_value": curves["val_value"][-1] if curves["val_value"] else None,
        },
        "curves": curves,
        "training_seconds": round(seconds, 1),
        "torch": torch.__version__,
    }


def seat_widths(parser, text: str) -> Optional[Tuple[int, int]]:
    """--seat-shared's GLOBAL,SEAT (two positive integers), or None when not given."""
    if not text:
        return None
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        parser.error(f"--seat-shared must be two positive integers GLOBAL,SEAT (e.g. 128,64), got {text!r}")
    return int(parts[0]), int(parts[1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m wonderlab.train", description="Train a policy-and-value network on training rows exported from the lab (docs/learning.md).")
    parser.add_argument("sources", nargs="+", help=".npz archives, or directories of them")
    parser.add_argument("--out", required=True, help="the model file to write (.onnx); its manifest goes beside it as .json")
    defaults = TrainConfig()
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--batch-size", type=int, default=defaults.batch_size)
    parser.add_argument("--learning-rate", type=float, default=defaults.learning_rate)
    parser.add_argument("--weight-decay", type=float, default=defaults.weight_decay)
    parser.add_argument("--hidden", default=",".join(map(str, defaults.hidden)), help="trunk widths, e.g. 256,256")
    parser.add_argument("--value-weight", type=float, default=defaults.value_weight)
    parser.add_argument("--validation", type=float, default=defaults.validation, help="share of games held out")
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--policy-temperature", type=float, default=defaults.policy_temperature, help="the visit distributions raised to 1/T as policy targets (below 1 sharpens; default 1)")
    parser.add_argument("--seat-shared", default="", metavar="GLOBAL,SEAT", help="the first layer as a global encoder of GLOBAL units and one seat encoder of SEAT units shared by every seat's block (e.g. 128,64); default: a plain first layer")
    args = parser.parse_args(argv)
    out = Path(args.out)
    if out.suffix != ".onnx":
        parser.error("--out must name a .onnx file")
    config = TrainConfig(
        epochs=args.epochs,
        batch_size=args.batch_size,
        learning_rate=args.learning_rate,
        weight_decay=args.weight_decay,
        hidden=tuple(int(x) for x in args.hidden.split(",") if x),
        value_weight=args.value_weight,
        validation=args.validation,
        seed=args.seed,
        policy_temperature=args.policy_temperature,
        seat_shared=seat_widths(parser, args.seat_shared),
    )
    if not (config.policy_temperature > 0 and np.isfinite(config.policy_temperature)):
        parser.error("--policy-temperature must be a finite number above 0")
    started = time.time()
    rows = load_rows(args.sources)
    print(f"{len(rows)} rows from {len(np.unique(rows.game))} games in {len(rows.files)} archives ({rows.players} players)")
    network, result = train(rows, config)
    out.parent.mkdir(parents=True, exist_ok=True)
    export_onnx(network, rows.obs.shape[1], out)
    info = manifest(rows, config, result, out, time.time() - started)
    out.with_suffix(".json").write_text(json.dumps(info, indent=2) + "\n")
    print(f"wrote {out} (sha256 {info['sha256'][:12]}…) and {out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
