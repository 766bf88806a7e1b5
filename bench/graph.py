"""The Autograd graph area against torchviz: `make_dot` + `dot -Tsvg`, in the same run, on the
same graphs (each graph is built once by a forward pass; both sides read that same loss).

Ours: extraction (grad_fn walk) + layout (our own Sugiyama code) + the scene built and painted
once (a GraphView, offscreen, fitted to the whole graph as a user first sees it: the overview
item paints it at that zoom; node and edge items are built only for the bands in view once
zoomed in). Anchor: `torchviz.make_dot(loss, params)` + `dot -Tsvg` on its source. Graphs:
  - a 12-layer nn.TransformerEncoder forward + loss: goal ours/anchor <= 0.1 (10x faster);
  - the same with 48 layers: goal <= 0.02 (50x faster);
  - an LSTMCell unrolled 1,000 steps (~15,000 nodes, 4 hub parameters): dot runs once with a
    60 s timeout (it does not finish in minutes); goal: ours laid out and first painted < 3 s;
  - layout quality: straight-segment crossings between consecutive layers, ours vs dot's (dot's
    coordinates read from `dot -Tplain`; both counted by core's `segment_crossings`: each edge's
    polyline is cut at every layer it passes), goal ours <= 1.5x dot's.
Repetitions, to stay within ~4 minutes on 2 cores: median of 5 interleaved runs on 12 layers,
median of 3 on 48 layers and on the LSTM (ours), one timed-out dot run on the LSTM. When a
busy machine pushes a transformer's dot run past the timeout too, that case prints a bound
(`ratio=<...`) and TIMEOUT instead of a verdict.

torchviz comes from `requirements-bench.lock` (the `bench` extra) and `dot` from Debian's graphviz;
`make bench` installs both (torchviz into .venv/bench-packages, kept apart from the environment
`make test` checks). Without them this prints `ours=` figures only (anchor=unavailable).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
import warnings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
BENCH_PACKAGES = os.path.join(os.path.dirname(__file__), "..", ".venv", "bench-packages")
if os.path.isdir(BENCH_PACKAGES):
    sys.path.append(os.path.abspath(BENCH_PACKAGES))

import torch  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from startup import bench_line  # noqa: E402

from tensorviz.core.autograd.graph import LeafNames, extract_graph  # noqa: E402
from tensorviz.core.graph_layout.crossings import route_crossings, segment_crossings  # noqa: E402
from tensorviz.core.graph_layout.layered_layout import layout_graph  # noqa: E402
from tensorviz.ui.autograd.graph_view import GraphView  # noqa: E402

DOT_TIMEOUT = 60.0
LSTM_STEPS = 1000
LSTM_PAINT_GOAL = 3.0
CROSSING_GOAL = 1.5
CASES = [  # name, builder argument, runs, speed goal (ours/anchor)
    ("transformer12", 12, 5, 0.1),
    ("transformer48", 48, 3, 0.02),
]


# --- the graphs ----------------------------------------------------------------------------------


def transformer(layers: int):
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(64, 4, 128, batch_first=True)
    model = torch.nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
    model.train()
    loss = model(torch.randn(2, 10, 64)).pow(2).mean()
    return model, loss


def lstm(steps: int):
    torch.manual_seed(0)
    cell = torch.nn.LSTMCell(8, 16)
    inputs = torch.randn(steps, 1, 8)
    h = c = torch.zeros(1, cell.hidden_size)
    for step in range(steps):
        h, c = cell(inputs[step], (h, c))
    return cell, h.sum()


# --- the two sides -------------------------------------------------------------------------------


def ours(model, loss, view: GraphView, app: QApplication):
    """(seconds for extraction + layout + scene built and painted, graph, layout)."""
    start = time.perf_counter()
    names = LeafNames()
    names.add_module(model)
    graph = extract_graph(loss, names, ["loss"])
    layout = layout_graph(graph.graph)
    view.show_layout(graph.graph, layout)
    view.viewport().repaint()
    app.processEvents()
    return time.perf_counter() - start, graph, layout


def make_dot_source(model, loss) -> str:
    from torchviz import make_dot

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 1_000_000))  # make_dot recurses once per graph depth
    try:
        return make_dot(loss, params=dict(model.named_parameters())).source
    finally:
        sys.setrecursionlimit(limit)


def anchor(model, loss, timeout: float = DOT_TIMEOUT) -> float | None:
    """Seconds for make_dot + `dot -Tsvg`, or None when dot ran past `timeout`."""
    start = time.perf_counter()
    source = make_dot_source(model, loss)
    try:
        subprocess.run(
            ["dot", "-Tsvg"], input=source, capture_output=True, text=True, check=True,
            timeout=timeout,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - start


# --- layout quality: the same crossing count for both --------------------------------------------


def dot_crossings(source: str) -> int | None:
    """Crossings of dot's own layout, from `dot -Tplain` coordinates."""
    try:
        plain = subprocess.run(
            ["dot", "-Tplain"], input=source, capture_output=True, text=True, check=True,
            timeout=DOT_TIMEOUT,
        ).stdout  # fmt: skip
    except subprocess.TimeoutExpired:
        return None
    node_y: dict[str, float] = {}
    raw_edges = []
    for line in plain.splitlines():
        fields = line.split()  # names and coordinates come before any (multi-line) label
        if fields and fields[0] == "node":
            node_y[fields[1]] = round(float(fields[3]), 2)
        elif fields and fields[0] == "edge":
            count = int(fields[3])
            values = [float(v) for v in fields[4 : 4 + 2 * count]]
            raw_edges.append(
                (fields[1], fields[2], list(zip(values[::2], values[1::2], strict=True)))
            )
    rank_ys = sorted(set(node_y.values()), reverse=True)  # dot: y grows upward; rank 0 on top
    rank = {y: k for k, y in enumerate(rank_ys)}
    edges = [(rank[node_y[t]], rank[node_y[h]], points) for t, h, points in raw_edges]
    return segment_crossings(rank_ys, edges)


# --- the run -------------------------------------------------------------------------------------


def anchor_available() -> str:
    """'' when torchviz and dot are both here, else why not."""
    try:
        import torchviz  # noqa: F401
    except ImportError:
        return "torchviz is not installed (pip install -r requirements-bench.lock)"
    if shutil.which("dot") is None:
        return "graphviz's dot is not on PATH (apt-get install graphviz)"
    return ""


def print_crossings(name: str, mine: int, theirs: int | None) -> None:
    if theirs is None:
        print(f"BENCH {name}_crossings ours={mine} anchor=timeout goal=<={CROSSING_GOAL} SKIP")
        return
    ratio = mine / max(theirs, 1)
    verdict = "PASS" if mine <= CROSSING_GOAL * theirs else "MISS"
    print(
        f"BENCH {name}_crossings ours={mine} anchor={theirs} ratio={ratio:.2f} "
        f"goal=<={CROSSING_GOAL} {verdict}"
    )


def main() -> int:
    warnings.filterwarnings("ignore")
    missing = anchor_available()
    if missing:
        print(f"anchor unavailable: {missing}; printing ours= figures only")
    app = QApplication.instance() or QApplication([])
    view = GraphView()
    view.resize(1000, 700)
    view.show()
    for name, layers, runs, goal in CASES:
        model, loss = transformer(layers)
        ours(model, loss, view, app)  # warm-up
        mine, theirs = [], []
        for _ in range(runs):  # interleaved
            seconds, graph, layout = ours(model, loss, view, app)
            mine.append(seconds)
            if not missing:
                theirs.append(anchor(model, loss))
        print(
            f"{name}: {graph.graph.number_of_nodes()} nodes, {graph.graph.number_of_edges()} "
            f"edges, {len(layout.layers)} layers",
            flush=True,
        )
        if missing:
            print(
                f"BENCH graph_{name} ours={statistics.median(mine):.3f} anchor=unavailable "
                f"goal=<={goal} NOANCHOR"
            )
            continue
        if None in theirs:  # dot ran past DOT_TIMEOUT (a busy machine): a bound, not a ratio
            print(
                f"BENCH graph_{name} ours={statistics.median(mine):.3f} "
                f"anchor=timeout>{DOT_TIMEOUT:.0f}s "
                f"ratio=<{statistics.median(mine) / DOT_TIMEOUT:.3f} goal=<={goal} TIMEOUT"
            )
        else:
            print(
                bench_line(
                    f"graph_{name}", statistics.median(mine), statistics.median(theirs), goal
                )
            )
        print_crossings(f"graph_{name}", route_crossings(layout), dot_crossings(
            make_dot_source(model, loss)))  # fmt: skip
        sys.stdout.flush()

    model, loss = lstm(LSTM_STEPS)
    mine = []
    for _ in range(3):
        seconds, graph, layout = ours(model, loss, view, app)
        mine.append(seconds)
    median = statistics.median(mine)
    print(
        f"lstm{LSTM_STEPS}: {graph.graph.number_of_nodes()} nodes, "
        f"{graph.graph.number_of_edges()} edges, {len(layout.stubs_of)} hubs, "
        f"{len(layout.layers)} layers, {route_crossings(layout)} crossings",
        flush=True,
    )
    verdict = "PASS" if median < LSTM_PAINT_GOAL else "MISS"
    if missing:
        anchor_text = "anchor=unavailable"
    else:
        theirs = anchor(model, loss, DOT_TIMEOUT)
        anchor_text = (
            f"anchor=timeout>{DOT_TIMEOUT:.0f}s ratio=<{median / DOT_TIMEOUT:.3f}"
            if theirs is None
            else f"anchor={theirs:.3f} ratio={median / theirs:.3f}"
        )
    print(
        f"BENCH graph_lstm{LSTM_STEPS}_first_paint ours={median:.3f} {anchor_text} "
        f"goal=ours<{LSTM_PAINT_GOAL:.0f}s {verdict}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
