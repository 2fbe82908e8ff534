"""The DQN trainer (wonderlab.dqn) in miniature: it learns from whole games, its rewards are the
paper's rank rewards, and its network, exported to ONNX, plays in the lab as `policy(model=…)`."""
import numpy as np
import onnxruntime
import pytest

import wonderlab
from wonderlab.dqn import DqnConfig, epsilon, export_onnx, train

torch = pytest.importorskip("torch", reason="torch, the train extra: bash python/setup.sh --train")


def test_epsilon_decays_from_the_start_to_the_end_value():
    c = DqnConfig(opponents=["random", "random"])
    assert epsilon(c, 0) == pytest.approx(0.9)
    assert epsilon(c, 2500) == pytest.approx(0.05 + 0.85 / np.e)
    assert epsilon(c, 10**6) == pytest.approx(0.05)


def test_a_short_training_run_exports_a_network_the_lab_plays(tmp_path, monkeypatch):
    torch.set_num_threads(1)
    config = DqnConfig(opponents=["rulebased-dawieang", "random"], episodes=6, batch_size=16, memory=200, first_seed=7)
    seen = []
    network, rewards = train(config, progress=lambda episode, reward: seen.append(episode))
    assert seen == list(range(6))
    assert len(rewards) == 6 and set(rewards) <= {2.0, 1.0, -1.0}
    path = tmp_path / "dqn.onnx"
    export_onnx(network, 675, path)
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    observation = np.arange(675, dtype=np.float32)[None, :] % 7
    with torch.no_grad():
        expected = network(torch.as_tensor(observation)).numpy()
    assert np.allclose(session.run(None, {"observation": observation})[0], expected, atol=1e-4)
    monkeypatch.setenv("MODELS_DIR", str(tmp_path))
    games = wonderlab.VectorGames(games=2, players=3, seats=["policy(model=dqn.onnx)", "rulebased-dawieang", "random"], seed=11)
    record = games.record(1, finished=False)
    games.close()
    assert record["result"]["scores"][0]["total"] >= 0
