"""The trainer (wonderlab.train) on rows the lab's own export code writes: it learns (the training
loss falls), holds whole games out, exports an ONNX model whose two outputs onnxruntime computes as
PyTorch does, writes a manifest that names its data and hash, and trains the same bytes twice."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="torch, the train extra: bash python/setup.sh --train")
ort = pytest.importorskip("onnxruntime")

from wonderlab import train as T  # noqa: E402

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def rows_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("rows")
    node = shutil.which("node") or "node"
    for first, games in ((1, 6), (101, 3)):
        subprocess.run([node, str(HERE / "make_rows.mjs"), str(d / f"{first}.npz"), str(games), str(first), "mcts(it=30,time=0);mcts(it=30,time=0);rulebased"], check=True)
    return d


def small(**kw):
    return T.TrainConfig(epochs=4, hidden=(64,), batch_size=64, learning_rate=3e-3, validation=0.25, **kw)


def test_loads_every_archive_and_splits_by_game(rows_dir):
    rows = T.load_rows([str(rows_dir)])
    assert rows.players == 3 and rows.obs.shape[1] == 675 and rows.policy.shape[1] == 390
    assert len(np.unique(rows.game)) == 9  # games of two archives stay apart
    np.testing.assert_allclose(rows.policy.sum(axis=1), 1.0, rtol=1e-5)
    train_idx, val_idx = T.split_by_game(rows.game, 0.25, 0)
    assert len(train_idx) + len(val_idx) == len(rows)
    assert not set(rows.game[train_idx]) & set(rows.game[val_idx])
    assert len(np.unique(rows.game[val_idx])) == 2


def test_trains_exports_and_describes_the_model(rows_dir, tmp_path):
    out = tmp_path / "net.onnx"
    assert T.main([str(rows_dir), "--out", str(out), "--epochs", "6", "--hidden", "64", "--batch-size", "64", "--learning-rate", "3e-3", "--validation", "0.25"]) == 0
    info = json.loads(out.with_suffix(".json").read_text())
    curves = info["curves"]
    assert curves["train_policy"][-1] < curves["train_policy"][0]
    assert curves["train_value"][-1] < curves["train_value"][0]
    assert len(curves["val_policy"]) == 6
    assert info["sha256"] == T.sha256(out)
    assert info["data"]["games"] == 9 and info["data"]["validation_games"] == 2
    assert sorted(s["sweep"] for s in info["data"]["sweeps"]) == ["local-1", "local-101"]
    assert info["outputs"] == {"logits": [None, 390], "value": [None, 3]}
    # onnxruntime computes what PyTorch computes, for both heads.
    rows = T.load_rows([str(rows_dir)])
    x = rows.obs[:16].astype(np.float32)
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    assert [o.name for o in session.get_outputs()] == ["logits", "value"]
    logits, value = session.run(None, {"observation": x})
    assert logits.shape == (16, 390) and value.shape == (16, 3)
    # The lab's policy agent reads the first output: the network plays a game as `policy(model=…)`.
    node = shutil.which("node") or "node"
    script = (
        "import { playGame } from '../../shared/dist/src/lab/index.js';"
        "const g = playGame({ id: 'g', index: 0, seed: 5, set: -1, deal: 0, seating: 0, agents: ['policy(model=net.onnx)', 'random', 'random'], sides: 'random', open: false });"
        "console.log(JSON.stringify(g.players.map((p) => p.decisions)));"
    )
    played = subprocess.run([node, "--input-type=module", "-e", script], cwd=HERE, env={**os.environ, "MODELS_DIR": str(tmp_path)}, capture_output=True, text=True)
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)[0] >= 18


def test_onnx_matches_torch_and_training_is_deterministic(rows_dir, tmp_path):
    rows = T.load_rows([str(rows_dir)])
    a, _ = T.train(rows, small(), log=lambda *_: None)
    b, _ = T.train(rows, small(), log=lambda *_: None)
    T.export_onnx(a, 675, tmp_path / "a.onnx")
    T.export_onnx(b, 675, tmp_path / "b.onnx")
    assert T.sha256(tmp_path / "a.onnx") == T.sha256(tmp_path / "b.onnx")
    x = torch.from_numpy(rows.obs[:8].astype(np.float32))
    with torch.no_grad():
        logits, value = a(x)
    session = ort.InferenceSession(str(tmp_path / "a.onnx"), providers=["CPUExecutionProvider"])
    got_logits, got_value = session.run(None, {"observation": x.numpy()})
    np.testing.assert_allclose(got_logits, logits.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got_value, value.numpy(), rtol=1e-4, atol=1e-4)


def test_exported_weights_have_no_subnormals(rows_dir, tmp_path):
    # Subnormal weights make every call many times slower on x86 (onnx_export.without_subnormals).
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    rows = T.load_rows([str(rows_dir)])
    network, _ = T.train(rows, small(), log=lambda *_: None)
    first = next(network.parameters())
    with torch.no_grad():
        first[0, :5] = torch.tensor([1e-40, -3e-39, 1e-45, 0.0, 0.5])
    T.export_onnx(network, 675, tmp_path / "net.onnx")
    # The network itself is left as it was: the export zeroes a copy.
    assert first[0, 0].item() != 0 and first[0, 4].item() == 0.5
    tiny = np.finfo(np.float32).tiny
    weights = [numpy_helper.to_array(t) for t in onnx.load(str(tmp_path / "net.onnx")).graph.initializer]
    assert sum(int(np.sum((w != 0) & (np.abs(w) < tiny))) for w in weights if w.dtype == np.float32) == 0
    assert any(np.float32(0.5) in w for w in weights)
    x = torch.from_numpy(rows.obs[:8].astype(np.float32))
    with torch.no_grad():
        logits, _ = network(x)
    session = ort.InferenceSession(str(tmp_path / "net.onnx"), providers=["CPUExecutionProvider"])
    np.testing.assert_allclose(session.run(None, {"observation": x.numpy()})[0], logits.numpy(), rtol=1e-4, atol=1e-4)


def test_refuses_archives_of_two_player_counts(rows_dir, tmp_path):
    node = shutil.which("node") or "node"
    subprocess.run([node, str(HERE / "make_rows.mjs"), str(tmp_path / "four.npz"), "1", "7", "random;random;random;random"], check=True)
    with pytest.raises(ValueError, match="mix observation sizes"):
        T.load_rows([str(rows_dir), str(tmp_path / "four.npz")])


def write_archive(path, actions, meta_actions=None, rows=20, players=3, inputs=10, first_game=0):
    """A small archive of the export's columns with `actions` of our choosing (the lab's are 390)."""
    rng = np.random.default_rng(0)
    mask = np.zeros((rows, actions), np.uint8)
    mask[np.arange(rows), rng.integers(0, actions, rows)] = 1
    meta = {"sweep": f"synthetic-{first_game}", "players": players, "rows": rows, "observationSize": inputs}
    if meta_actions is not None:
        meta["actions"] = meta_actions
    np.savez(
        path,
        obs=rng.integers(0, 4, (rows, inputs)).astype(np.uint8),
        mask=mask,
        policy=mask.astype(np.float32),
        vp=rng.integers(20, 60, (rows, players)).astype(np.int16),
        game=(np.arange(rows) // 5 + first_game).astype(np.int32),
        searched=np.ones(rows, np.uint8),
        meta_json=np.frombuffer(json.dumps(meta).encode(), np.uint8),
    )


def test_the_action_count_comes_from_the_archives(tmp_path):
    write_archive(tmp_path / "a.npz", actions=7, meta_actions=7)
    out = tmp_path / "net.onnx"
    assert T.main([str(tmp_path / "a.npz"), "--out", str(out), "--epochs", "1", "--hidden", "8", "--validation", "0.25"]) == 0
    assert json.loads(out.with_suffix(".json").read_text())["outputs"]["logits"] == [None, 7]
    session = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    assert session.run(None, {"observation": np.zeros((2, 10), np.float32)})[0].shape == (2, 7)


def test_archives_without_or_disagreeing_on_the_action_count_are_refused(tmp_path):
    write_archive(tmp_path / "none.npz", actions=7)
    with pytest.raises(ValueError, match=r"none\.npz: its meta_json has no `actions`: not an archive of the lab's training export$"):
        T.load_rows([str(tmp_path / "none.npz")])
    write_archive(tmp_path / "wrong.npz", actions=7, meta_actions=9)
    with pytest.raises(ValueError, match=r"wrong\.npz: meta_json says 9 actions, but its policy column has 7$"):
        T.load_rows([str(tmp_path / "wrong.npz")])
    write_archive(tmp_path / "seven.npz", actions=7, meta_actions=7)
    write_archive(tmp_path / "eight.npz", actions=8, meta_actions=8, first_game=100)
    with pytest.raises(ValueError, match=r"the archives mix action counts \[7, 8\]"):
        T.load_rows([str(tmp_path / "seven.npz"), str(tmp_path / "eight.npz")])


def test_policy_targets_at_a_temperature():
    policy = np.array([[0.5, 0.3, 0.2, 0.0], [0.0, 1.0, 0.0, 0.0]], dtype=np.float32)
    assert T.policy_targets(policy, 1.0) is policy
    sharp = T.policy_targets(policy, 0.5)
    # Squared and renormalised: 0.25, 0.09, 0.04 over 0.38; a move played without search stays.
    np.testing.assert_allclose(sharp[0], [0.25 / 0.38, 0.09 / 0.38, 0.04 / 0.38, 0.0], rtol=1e-6)
    np.testing.assert_array_equal(sharp[1], policy[1])
    np.testing.assert_allclose(T.policy_targets(policy, 2.0).sum(axis=1), 1.0, rtol=1e-6)
    # A spread-out row at a very low temperature keeps its top move instead of underflowing.
    flat = np.full((1, 390), 1 / 390, dtype=np.float32)
    flat[0, 7] *= 1.1
    cold = T.policy_targets(flat, 0.001)
    assert np.isfinite(cold).all() and cold[0, 7] == pytest.approx(1.0)
    # A row without a target stays as it is (no NaN); an infinite temperature is refused.
    zero = np.zeros((1, 4), dtype=np.float32)
    np.testing.assert_array_equal(T.policy_targets(np.vstack([policy, zero]), 0.5)[2], zero[0])
    for bad in (0.0, float("inf"), float("nan")):
        with pytest.raises(ValueError):
            T.policy_targets(policy, bad)


def test_archives_give_the_seat_blocks_place(rows_dir):
    rows = T.load_rows([str(rows_dir)])
    seats_at, fields = rows.seat_layout
    assert seats_at + rows.players * fields == rows.obs.shape[1]
    # Each seat block opens with its wonder, one-hot over the 7 boards: exactly one 1 per block.
    for p in range(rows.players):
        block = rows.obs[:, seats_at + p * fields : seats_at + p * fields + 7]
        np.testing.assert_array_equal(block.sum(axis=1), 1)


def test_a_seat_shared_network_exports_as_the_same_plain_mlp(rows_dir, tmp_path):
    onnx = pytest.importorskip("onnx")
    rows = T.load_rows([str(rows_dir)])
    network, _ = T.train(rows, small(seat_shared=(16, 8)), log=lambda *_: None)
    seats_at, fields = rows.seat_layout
    # One seat encoder: its weights exist once, not per seat.
    assert tuple(network.seat_in.weight.shape) == (8, fields)
    T.export_onnx(network, 675, tmp_path / "net.onnx")
    ops = [n.op_type for n in onnx.load(str(tmp_path / "net.onnx")).graph.node]
    # Only what the lab's kernel reads (agents/onnx-mlp.ts): anything else would fall back to onnxruntime.
    assert set(ops) <= {"Constant", "Div", "Gemm", "Relu"} and ops.count("Relu") == 2
    x = torch.from_numpy(rows.obs[:16].astype(np.float32))
    with torch.no_grad():
        logits, value = network(x)
        # One encoder for every seat: seat 2's block moved to seat 1 is encoded there as it was at seat 2.
        encode = lambda obs: network.seat_in(obs[:, seats_at:].reshape(-1, 3, fields) / 8.0)  # noqa: E731
        swapped = x.clone()
        a, b = slice(seats_at + fields, seats_at + 2 * fields), slice(seats_at + 2 * fields, seats_at + 3 * fields)
        swapped[:, a], swapped[:, b] = x[:, b], x[:, a]
        np.testing.assert_allclose(encode(swapped)[:, 1].numpy(), encode(x)[:, 2].numpy(), rtol=1e-6, atol=1e-6)
        assert not np.allclose(encode(x)[:, 1].numpy(), encode(x)[:, 2].numpy(), rtol=1e-6, atol=1e-6)
        # And the plain MLP the export writes is the same function, on the swapped input too.
        np.testing.assert_allclose(network.as_mlp()(swapped)[0].numpy(), network(swapped)[0].numpy(), rtol=1e-5, atol=1e-5)
    session = ort.InferenceSession(str(tmp_path / "net.onnx"), providers=["CPUExecutionProvider"])
    got_logits, got_value = session.run(None, {"observation": x.numpy()})
    np.testing.assert_allclose(got_logits, logits.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got_value, value.numpy(), rtol=1e-4, atol=1e-4)


def test_seat_shared_needs_the_layout_and_two_widths(tmp_path):
    write_archive(tmp_path / "old.npz", actions=7, meta_actions=7)
    rows = T.load_rows([str(tmp_path / "old.npz")])
    assert rows.seat_layout is None
    with pytest.raises(ValueError, match="seatsAt and seatFields"):
        T.train(rows, small(seat_shared=(4, 2)), log=lambda *_: None)
    for bad in ("64", "64,0", "a,b", "1,2,3"):
        with pytest.raises(SystemExit):
            T.main([str(tmp_path / "old.npz"), "--out", str(tmp_path / "n.onnx"), "--seat-shared", bad])
