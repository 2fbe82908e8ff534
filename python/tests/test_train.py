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
