"""Networks as the lab reads them: ONNX with the input `observation` (float32 [batch, D]) and the
policy's `logits` ([batch, 390]) as the first output, which `policy(model=…)` plays."""
from __future__ import annotations

from typing import Sequence


def export_onnx(network, inputs: int, path, outputs: Sequence[str] = ("logits",)) -> None:
    """Writes `network` (its outputs named `outputs`, logits first) with a free batch dimension."""
    import torch

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
