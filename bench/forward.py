"""The Architecture area against torchview: `draw_graph` (its default depth, 3) + Graphviz `dot
-Tsvg`, in the same run, on the same models and inputs.

Ours: record (hooks + TorchFunctionMode) + fold + nested layout + the scene built and painted
once (an ArchitectureView, offscreen, fitted), at the area's default depth. Models, written with
nn layers in tests/model_shapes.py and core/forward/llama_shape.py, random weights:
  - GPT-2 (12 layers, 768 wide, 50,257 tokens) and BERT-base (12 layers) on the CPU, 16 tokens;
  - a 32-layer Llama-shaped decoder (Llama-7B's widths) on the meta device.
The whole run's goal was ours/anchor <= 0.1 (10x faster), but both sides run the model's
forward, which on a busy 2-core machine (or in meta's Python kernels) can take most of the time;
so a second line per model compares what each tool adds to that forward (its time minus a plain
`model(*args)` timed in the same round): `forward_<model>_added`, goal <= 0.25 (issue 27); and a
third, the plain forward itself beside the anchor, the floor no recorder that runs the model can
go under (`forward_<model>_plain_forward_floor`). Then the fully expanded GPT-2 (every op,
folding off) from its record, as when the user turns the depth up: layout + first paint, goal
< 2 s; and the same with its recording against torchview `depth=inf, expand_nested=True` + dot,
what each adds to the plain forward: `forward_gpt2_every_op_vs_torchview_full`, goal <= 0.1.
Median of 5 interleaved runs; models are built once.

torchview comes from `requirements-bench.lock` (installed by `make bench` into
.venv/bench-packages) and `dot` from Debian's graphviz; without them: ours= figures only.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import time
import warnings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
HERE = os.path.dirname(os.path.abspath(__file__))
BENCH_PACKAGES = os.path.join(HERE, "..", ".venv", "bench-packages")
if os.path.isdir(BENCH_PACKAGES):
    sys.path.append(os.path.abspath(BENCH_PACKAGES))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))  # the models written for the tests

import torch  # noqa: E402
from model_shapes import BertModel, GPT2LMHeadModel  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from startup import bench_line  # noqa: E402

from tensorviz.core.forward.architecture import Architecture  # noqa: E402
from tensorviz.core.forward.llama_shape import LlamaConfig, llama_on_meta  # noqa: E402
from tensorviz.core.forward.recording import record_forward  # noqa: E402
from tensorviz.ui.forward.architecture_view import ArchitectureView  # noqa: E402

RUNS = 5
GOAL = 0.1  # the whole run against torchview's (a floor shows what the forward leaves)
ADDED_GOAL = 0.25  # what we add to the forward against what torchview adds (issue 27)
EXPANDED_GOAL = 2.0
FULL_GOAL = 0.1  # every op expanded against torchview depth=∞, expand_nested, + dot


def models():
    torch.manual_seed(0)
    gpt2 = GPT2LMHeadModel(vocab=50257, positions=1024, hidden=768, layers=12, heads=12).eval()
    bert = BertModel(vocab=30522, hidden=768, layers=12, heads=12).eval()
    ids = torch.randint(0, 30000, (1, 16))
    llama, llama_ids = llama_on_meta(
        LlamaConfig(hidden=4096, intermediate=11008, layers=32, heads=32, kv_heads=32)
    )
    return [
        ("gpt2", gpt2, (ids,), "cpu"),
        ("bert_base", bert, (ids, torch.ones(1, 16)), "cpu"),
        ("llama32_meta", llama, (llama_ids,), "meta"),
    ]


def paint(view: ArchitectureView, architecture: Architecture, app: QApplication) -> None:
    view.show_architecture(architecture.arrange())
    view.viewport().repaint()
    app.processEvents()


def ours(model, args, view, app, expanded: bool = False):
    start = time.perf_counter()
    with torch.no_grad():
        record = record_forward(model, args)
    architecture = Architecture(record)
    if expanded:
        architecture.set_depth(architecture.max_depth)
        architecture.set_folding(False)
    paint(view, architecture, app)
    return time.perf_counter() - start, architecture


def anchor(model, args, device: str, full: bool = False) -> float:
    """draw_graph at its default depth (3), or every module expanded (`full`), + dot -Tsvg."""
    from torchview import draw_graph

    depth = {"depth": float("inf"), "expand_nested": True} if full else {}
    start = time.perf_counter()
    with torch.no_grad():
        graph = draw_graph(model, input_data=list(args), device=device, **depth)
    graph.visual_graph.pipe(format="svg")
    return time.perf_counter() - start


def plain(model, args) -> float:
    start = time.perf_counter()
    with torch.no_grad():
        model(*args)
    return time.perf_counter() - start


def added_line(
    name: str, mine: list, theirs: list, forwards: list, goal: float = ADDED_GOAL
) -> str:
    """What each tool adds to the plain forward, from the runs' pairs (each tool's run minus
    the plain forward of the same round). On a machine so busy that a forward's own time varies
    more than that, a difference comes out at or below zero: NOISY, no verdict."""
    ours = statistics.median(m - f for m, f in zip(mine, forwards, strict=True))
    anchor = statistics.median(t - f for t, f in zip(theirs, forwards, strict=True))
    if ours <= 0 or anchor <= 0:
        return f"BENCH {name} ours={ours:.3f} anchor={anchor:.3f} goal=<={goal} NOISY"
    return bench_line(name, ours, anchor, goal)


def anchor_available() -> str:
    try:
        import torchview  # noqa: F401
    except ImportError:
        return "torchview is not installed (pip install -r requirements-bench.lock)"
    if shutil.which("dot") is None:
        return "graphviz's dot is not on PATH (apt-get install graphviz)"
    return ""


def main() -> int:
    warnings.filterwarnings("ignore")
    missing = anchor_available()
    if missing:
        print(f"anchor unavailable: {missing}; printing ours= figures only")
    app = QApplication.instance() or QApplication([])
    view = ArchitectureView()
    view.resize(1000, 700)
    view.show()
    cases = models()
    for name, model, args, device in cases:
        ours(model, args, view, app)  # warm-up
        mine, theirs, forwards = [], [], []
        for _ in range(RUNS):
            forwards.append(plain(model, args))
            seconds, architecture = ours(model, args, view, app)
            mine.append(seconds)
            if not missing:
                theirs.append(anchor(model, args, device))
        record = architecture.record
        print(
            f"{name}: {len(record.calls)} module calls, {len(record.nodes)} nodes, folds "
            f"{[f.label for f in architecture.folds]}",
            flush=True,
        )
        if missing:
            print(
                f"BENCH forward_{name} ours={statistics.median(mine):.3f} anchor=unavailable "
                f"goal=<={GOAL} NOANCHOR"
            )
        else:
            print(
                bench_line(
                    f"forward_{name}", statistics.median(mine), statistics.median(theirs), GOAL
                ),
                flush=True,
            )
            print(f"{name}: plain forward {statistics.median(forwards):.3f} s")
            # the floor of any recorder that runs the model: its plain forward, nothing recorded
            floor = statistics.median(forwards)
            print(bench_line(f"forward_{name}_plain_forward_floor", floor,
                             statistics.median(theirs), GOAL), flush=True)  # fmt: skip
            print(added_line(f"forward_{name}_added", mine, theirs, forwards), flush=True)
    name, model, args, device = cases[0]
    with_record, from_record, full, forwards = [], [], [], []
    for _ in range(RUNS):
        forwards.append(plain(model, args))
        seconds, architecture = ours(model, args, view, app, expanded=True)
        with_record.append(seconds)
        if not missing:
            full.append(anchor(model, args, device, full=True))
        architecture = Architecture(architecture.record)
        start = time.perf_counter()
        architecture.set_depth(architecture.max_depth)
        architecture.set_folding(False)
        paint(view, architecture, app)
        from_record.append(time.perf_counter() - start)
    shown = view.architecture.graph.number_of_nodes()
    print(
        f"gpt2 expanded: {shown} boxes and ports, {len(view.architecture.frames)} frames; "
        f"with its recording {statistics.median(with_record):.3f} s"
    )
    median = statistics.median(from_record)
    verdict = "PASS" if median < EXPANDED_GOAL else "MISS"
    print(f"BENCH forward_gpt2_every_op ours={median:.3f} goal=ours<{EXPANDED_GOAL:.0f}s {verdict}")
    if not missing:
        # Both sides run GPT-2's forward (our recording, torchview's trace): as for the
        # default depth, the figure is what each adds to the plain forward of the same round.
        print(
            f"# gpt2 every op, whole runs: ours {statistics.median(with_record):.3f} s, torchview "
            f"depth=inf + dot {statistics.median(full):.3f} s, plain forward "
            f"{statistics.median(forwards):.3f} s"
        )
        line = added_line(
            "forward_gpt2_every_op_vs_torchview_full", with_record, full, forwards, FULL_GOAL
        )
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
