"""Writes a seeded random MLP policy over the 3-player observation (675 → hidden ×layers → 390,
ReLU) as ONNX. Without arguments: the test fixture test/fixtures/models/policy-3p.onnx (one layer
of 32), for the tests that run one network in both runtimes; its weights are random (seed 44),
which is all a test of the plumbing needs. `--hidden 256 --layers 2 --out F` writes the network
the policy benchmark times (shared/bench/policy.ts). `--values 3` adds a second output `value`
([batch, 3], the seats' VP / 50 near 0.8, as wonderlab.train's value head gives them): with
`--hidden 16 --values 3 --out test/fixtures/models/net-3p.onnx`, the fixture of the MCTS tests
that read a network (model=…, eval, prior).
Run: .venv/bin/python python/tools/make_test_policy.py [--hidden H] [--layers L] [--values P] [--out F]
"""
import argparse
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OBSERVATION, HIDDEN, ACTIONS = 675, 32, 390


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hidden", type=int, default=HIDDEN)
    parser.add_argument("--layers", type=int, default=1)
    parser.add_argument("--values", type=int, default=0, help="players: add a value output of this width")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parents[2] / "test" / "fixtures" / "models" / "policy-3p.onnx")
    args = parser.parse_args()
    rng = np.random.default_rng(44)
    init, nodes = [], []
    width, x = OBSERVATION, "observation"
    for k in range(args.layers):
        # Scaled for inputs that are counts (0-255): logits of a few units, so that ties are rare.
        w = (rng.standard_normal((width, args.hidden)) * (0.05 if k == 0 else 0.1)).astype(np.float32)
        b = (rng.standard_normal(args.hidden) * 0.1).astype(np.float32)
        init += [numpy_helper.from_array(w, f"w{k + 1}"), numpy_helper.from_array(b, f"b{k + 1}")]
        nodes += [helper.make_node("Gemm", [x, f"w{k + 1}", f"b{k + 1}"], [f"hidden{k + 1}"]), helper.make_node("Relu", [f"hidden{k + 1}"], [f"relu{k + 1}"])]
        width, x = args.hidden, f"relu{k + 1}"
    w = (rng.standard_normal((width, ACTIONS)) * 0.2).astype(np.float32)
    b = (rng.standard_normal(ACTIONS) * 0.1).astype(np.float32)
    init += [numpy_helper.from_array(w, "w_out"), numpy_helper.from_array(b, "b_out")]
    nodes.append(helper.make_node("Gemm", [x, "w_out", "b_out"], ["logits"]))
    outputs = [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", ACTIONS])]
    if args.values:
        # Drawn after the policy's weights, so that the policy part is the same with or without.
        w = (rng.standard_normal((width, args.values)) * 0.02).astype(np.float32)
        b = (0.8 + rng.standard_normal(args.values) * 0.05).astype(np.float32)
        init += [numpy_helper.from_array(w, "w_value"), numpy_helper.from_array(b, "b_value")]
        nodes.append(helper.make_node("Gemm", [x, "w_value", "b_value"], ["value"]))
        outputs.append(helper.make_tensor_value_info("value", TensorProto.FLOAT, ["batch", args.values]))
    graph = helper.make_graph(
        nodes,
        "test-policy-3p",
        [helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", OBSERVATION])],
        outputs,
        init,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="wonderlab-test")
    model.ir_version = 8
    onnx.checker.check_model(model)
    out = args.out
    onnx.save(model, out)
    print(f"wrote {out.name}: {out.stat().st_size} bytes")


if __name__ == "__main__":
    main()
