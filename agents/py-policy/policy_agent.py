"""A trained network as an outside agent: the observation bytes as float32 into the ONNX network,
the legal action of highest logit played (a tie to the lower index, as numpy's argmax and the
built-in policy(model=…) break it). One session per network, shared by the process's seats."""
import numpy as np
import onnxruntime as ort

from wonderlab import Agent
from wonderlab.agent import model_file

_sessions = {}


class PolicyAgent(Agent):
    name = "py-policy"
    version = "1.0.0"

    def __init__(self, params):
        super().__init__(params)
        name = params.get("model")
        if name is None:
            raise ValueError("py-policy needs model=NAME.onnx")
        if name not in _sessions:
            options = ort.SessionOptions()
            options.intra_op_num_threads = 1
            _sessions[name] = ort.InferenceSession(model_file(name), options, providers=["CPUExecutionProvider"])
        self.session = _sessions[name]
        self.input = self.session.get_inputs()[0].name

    def act(self, observation, legal, info):
        x = np.frombuffer(observation, np.uint8).astype(np.float32)[None, :]
        logits = self.session.run(None, {self.input: x})[0][0]
        return min(legal, key=lambda m: (-logits[m["action"]], m["action"]))["action"]
