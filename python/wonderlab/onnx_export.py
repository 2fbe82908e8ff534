"""Networks as the lab reads them: ONNX with the input `observation` (float32 [batch, D]) and the
policy's `logits` ([batch, 390]) as the first output, which `policy(model=…)` plays."""
from __future__ import annotations

import copy
from typing import Sequence


def without_subnormals(network):
    """A copy of `network` whose subnormal weights (nonzero, below float32's smallest normal
    number, about 1.2e-38) are zero.

    The weights of inputs a training never sets get only weight decay's gradient, which Adam drives
    into the subnormal range: a third of run `strong`'s gen-3 weights. x86 cores compute with
    subnormals many times slower, Intel's above all: onnxruntime took 490 µs a call of that network
    on an Intel Xeon and 110 µs once they were zero, with every output the same to 4e-38."""
    import torch

    copied = copy.deepcopy(network)
    tiny = torch.finfo(torch.float32).tiny
    with torch.no_grad():
        for tensor in [*copied.parameters(), *copied.buffers()]:
            if tensor.is_floating_point():
                tensor[tensor.abs() < tiny] = 0
    return copied


def export_onnx(network, inputs: int, path, outputs: Sequence[str] = ("logits",)) -> None:
    """Writes `network` (its outputs named `outputs`, logits first) with a free batch dimension,
    its subnormal weights zero (without_subnormals)."""
    import torch

    network = without_subnormals(network)
    network.eval()
    # dynamo=False: the TorchScript exporter, which needs no onnxscript; Linear, LayerNorm and
    # ReLU layers export exactly (the tests compare the two runtimes' outputs).
    torch.onnx.export(
        network,
        (torch.zeros(1, inputs),),
        str(path),
        input_names=["observation"],
        output_names=list(outputs),
        dynamic_axes={"observation": {0: "batch"}, **{name: {0: "batch"} for name in outputs}},
        dynamo=False,
    )
