"""One network in both runtimes: the lab's `policy` agent (onnxruntime-node, in the engine's
process) and Python's onnxruntime on the observations the environment gives Python must choose
the same moves, so a network trained on these observations plays in the lab as it did in Python.
"""
import json
from pathlib import Path

import numpy as np
import onnxruntime
import pytest

import wonderlab

MODELS = Path(__file__).resolve().parents[2] / "test" / "fixtures" / "models"


@pytest.fixture(autouse=True)
def models_dir(monkeypatch):
    monkeypatch.setenv("MODELS_DIR", str(MODELS))


def greedy(session, observation, mask):
    logits = session.run(None, {"observation": observation.astype(np.float32)[None, :]})[0][0]
    masked = np.where(mask.astype(bool), logits, -np.inf)
    return int(np.argmax(masked))


@pytest.mark.parametrize("seed", [3, 17, 2026])
def test_python_and_the_lab_play_the_same_game_with_one_network(seed):
    session = onnxruntime.InferenceSession(str(MODELS / "policy-3p.onnx"), providers=["CPUExecutionProvider"])
    # Python plays seat 0 with the network; the lab's random agents play the others.
    games = wonderlab.VectorGames(games=1, players=3, seats=[None, "random", "random"])
    state = games.reset([seed])
    decisions = 0
    while not state.done[0]:
        action = greedy(session, state.observation[0, 0], state.mask[0, 0]) if state.acting[0, 0] else -1
        decisions += action >= 0
        state = games.step(np.array([[action]], np.int32))
    from_python = games.record(0, finished=True)
    games.close()
    # The lab plays all three seats itself, seat 0 by the policy agent.
    lab = wonderlab.VectorGames(games=1, players=3, seats=["policy(model=policy-3p.onnx)", "random", "random"], seed=seed)
    from_lab = lab.record(0, finished=False)
    lab.close()
    assert decisions >= 18
    assert json.dumps(from_python["steps"]) == json.dumps(from_lab["steps"])
    assert from_python["result"] == from_lab["result"]


def test_a_missing_model_is_named():
    with pytest.raises(wonderlab.WonderlabError, match=r"seats\.0: .*model 'absent.onnx'"):
        wonderlab.VectorGames(games=1, players=3, seats=["policy(model=absent.onnx)", "random", "random"])
