"""A Llama-shaped model with the 70B configuration's widths on the meta device records its whole
architecture with no memory: measured in a fresh process, whose peak resident memory is reset
(clear_refs 5) right before the recording and read (VmHWM) right after. Eight of the 80 layers
keep the test quick (meta kernels are Python); bench/forward.py records all 80."""

import json
import subprocess
import sys

import pytest

PROBE = r"""
import json, torch
from tensorviz.core.forward.llama_shape import LlamaConfig, llama_on_meta
from tensorviz.core.forward.recording import record_forward
from tensorviz.core.forward.architecture import Architecture

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024

config = LlamaConfig(layers=int(__import__("sys").argv[1]))
model, input_ids = llama_on_meta(config)
weights = sum(p.numel() * p.element_size() for p in model.parameters())
open("/proc/self/clear_refs", "w").write("5")
before = status("VmRSS")
record = record_forward(model, (input_ids,))
architecture = Architecture(record)
picture = architecture.arrange()
peak = status("VmHWM")
print(json.dumps({"weights": weights, "grown": peak - before, "meta": record.meta,
                  "error": record.error is not None, "params": record.modules[""].total_params,
                  "folds": [f.label for f in architecture.folds],
                  "logits": [list(n.outputs[0].shape) for n in record.nodes.values()
                             if n.kind == "output"][0]}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self")
def test_a_70b_shaped_llama_on_meta_records_without_allocating_its_weights():
    layers = 8
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(layers)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["meta"] and not found["error"]
    assert found["params"] > 7e9  # 8 layers of 70B's widths ...
    assert found["weights"] > 27 * 2**30  # ... whose float32 weights would need > 27 GB
    assert found["grown"] < 200 * 2**20  # recording and laying it out grew by < 200 MB
    assert found["folds"] == [f"LlamaDecoderLayer × {layers}"]
    assert found["logits"] == [1, 16, 32000]
